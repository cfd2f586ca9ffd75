#include "host_wait.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

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

void write_into(Version& v, void* dst) {
  void* h = v.host();
  // An object is copy-assigned, as `-seq` would leave it, never loaded into in place (its
  // serialization need not cover every member). No replica: a fetch to the host raced us.
  auto replicas = h || !v.type().data ? std::vector<std::shared_ptr<Replica>>{} : v.replicas();
  if (h || replicas.empty()) {
    h = wait_host(v);
    if (h != dst) v.type().copy(dst, h);
    return;
  }
  Latch latch;
  replicas.front()->to_host(dst, [&latch](std::exception_ptr e) { latch.open(e); });
  replicas.front()->expedite();
  latch.wait();
  if (latch.error) std::rethrow_exception(latch.error);
}

}  // namespace cei::rt
