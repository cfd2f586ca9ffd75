#include "host_wait.hpp"

#include <condition_variable>
#include <mutex>

namespace cei::rt {

namespace {
struct Latch {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  void open(std::exception_ptr e = nullptr) {
    std::lock_guard g(mu);  // notify under the lock: the waiter may destroy us right after
    error = e;
    done = true;
    cv.notify_one();
  }
  void wait() {
    std::unique_lock g(mu);
    cv.wait(g, [&] { return done; });
  }
};
}  // namespace

void wait_ready(Version& v) {
  if (v.state() != Version::State::Pending) return;
  Latch latch;
  v.on_ready([&latch] { latch.open(); });
  latch.wait();
}

void* wait_host(Version& v) {
  wait_ready(v);
  if (auto e = v.error()) std::rethrow_exception(e);
  if (void* h = v.host()) return h;
  Latch latch;
  v.ensure_host([&latch](std::exception_ptr e) { latch.open(e); });
  for (auto& r : v.replicas()) r->expedite();
  latch.wait();
  if (latch.error) std::rethrow_exception(latch.error);
  return v.host();
}

}  // namespace cei::rt
