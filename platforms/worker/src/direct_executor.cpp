#include "executor.hpp"
#include "job_pool.hpp"

#include <cei/rt/native.hpp>

#include <algorithm>
#include <thread>

namespace cei::worker {
namespace {

class DirectExecutor : public Executor {
 public:
  explicit DirectExecutor(unsigned threads)
      : pool_(threads ? threads : std::max(1u, std::thread::hardware_concurrency()), execute) {}

  void run(Job job) override { pool_.push(std::move(job)); }
  std::size_t workers() const override { return pool_.size(); }
  nlohmann::json platforms() const override {
    return nlohmann::json::array({{{"name", "cpu"}, {"kind", "cpu"}, {"workers", pool_.size()}}});
  }

 private:
  static void execute(Job& job) { rt::invoke_native(*job.ce, 0, job.args); }

  JobPool pool_;
};

}  // namespace

std::unique_ptr<Executor> make_direct_executor(unsigned threads) {
  return std::make_unique<DirectExecutor>(threads);
}

}  // namespace cei::worker
