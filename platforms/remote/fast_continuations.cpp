#include "fast_continuations.hpp"

#include <pplx/pplxtasks.h>
#include <pplx/threadpool.h>

#include <memory>
#include <mutex>

namespace cei::remote {

namespace {

class InlineFirst final : public pplx::scheduler_interface {
 public:
  void schedule(pplx::TaskProc_t proc, void* param) override {
    thread_local int depth = 0;
    if (depth >= kMaxDepth) {
      crossplat::threadpool::shared_instance().service().post([proc, param] { proc(param); });
      return;
    }
    ++depth;
    proc(param);  // pplx task procs catch their own exceptions
    --depth;
  }

 private:
  static constexpr int kMaxDepth = 8;
};

}  // namespace

void use_fast_continuations() {
  static std::once_flag once;
  std::call_once(once, [] {
    try {
      pplx::set_ambient_scheduler(std::make_shared<InlineFirst>());
    } catch (const pplx::invalid_operation&) {
      // pplx scheduled something already: it keeps its scheduler (slower, still correct)
    }
  });
}

}  // namespace cei::remote
