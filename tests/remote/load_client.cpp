// cei-load-client: one client runtime of the load test (load_test.cpp). Runs TASKS tasks of the
// test application through its own runtime, with the worker node named by CEI_REMOTE (the test
// sets CEI_POLICY=only:node1 and a config with one CPU core and no OpenCL), and checks every
// result against the same computation done here. The values depend on ID, so data that another
// client's tasks mixed in would show. Every task must have run on node1: a busy node (503) is
// waited for, not given up for the CPU.
//
//   cei-load-client ID TASKS       exit status 0: every result right
#include "test_app.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace rt = cei::rt;
using Vec = cei::Vector<float>;

namespace {
// Tasks that finished on node1, and elsewhere or failed.
class OnNode : public rt::Observer {
 public:
  std::atomic<int> on_node{0}, elsewhere{0};
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task&, const rt::Platform&, int) override {}
  void task_finished(const rt::Task&, const rt::Platform& p, int, bool failed) override {
    ++(p.name() == "node1" && !failed ? on_node : elsewhere);
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};

// Element i of client id's t-th input vector.
float input(int id, int t, std::size_t i) {
  return static_cast<float>((id * 7 + t + static_cast<int>(i)) % 32);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cei-load-client ID TASKS\n");
    return 2;
  }
  const int id = std::atoi(argv[1]), tasks = std::atoi(argv[2]);
  auto placement = std::make_shared<OnNode>();
  rt::add_observer(placement);  // before the first task starts the runtime
  try {
    // Small integers in floats: sums and products stay exact, so results compare with ==.
    Vec acc(64), expected(64);
    for (std::size_t i = 0; i < acc.size(); ++i) acc(i) = expected(i) = static_cast<float>(id);
    std::vector<Vec> scaled(static_cast<std::size_t>(tasks));
    std::vector<int> naps(static_cast<std::size_t>(tasks));
    for (int t = 0; t < tasks; ++t) {
      Vec v(64);
      for (std::size_t i = 0; i < v.size(); ++i) v(i) = input(id, t, i);
      rt::Scope v_scope(v);  // tasks read v in place: its end waits for them (as ceic writes)
      // acc = add(acc, v): a chain through the node; scaled[t] = scale(v, id): independent tasks.
      rt::assign(acc, rt::call<Vec>(remote_test::ce_add, rt::in<Vec>(acc), rt::in<Vec>(v)));
      rt::assign(scaled[t], rt::call<Vec>(remote_test::ce_scale, rt::in<Vec>(v),
                                          rt::in<float>(static_cast<float>(id))));
      rt::assign(naps[t], rt::call<int>(remote_test::ce_nap, rt::in<int>(5 + t % 3)));
      for (std::size_t i = 0; i < v.size(); ++i) expected(i) += v(i);
    }
    int wrong = 0;
    if (!(rt::sync_read(acc) == expected)) ++wrong;
    for (int t = 0; t < tasks; ++t) {
      for (std::size_t i = 0; i < 64; ++i) {
        if (rt::sync_read(scaled[t])(i) != input(id, t, i) * static_cast<float>(id)) {
          ++wrong;
          break;
        }
      }
      if (rt::sync_read(naps[t]) != 5 + t % 3) ++wrong;
    }
    cei::barrier();
    std::printf("client %d: %d tasks, %d wrong, %d on node1, %d elsewhere or failed\n", id,
                3 * tasks, wrong, placement->on_node.load(), placement->elsewhere.load());
    return wrong == 0 && placement->on_node == 3 * tasks ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("client %d: FAILED: %s\n", id, e.what());
    return 1;
  }
}
