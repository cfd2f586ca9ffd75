// DynPerf seeing the task graph, on the real CPU platform (one worker) and a real PoCL device that
// competes with it (competing.toml): a task with dependants (a higher Task::priority) overtakes
// the CPU's queue of tasks without, and DynPerf, seeing that, keeps it on the CPU where the
// profile says the device is 5x slower. Profiles are scripted; the CEs themselves take no time
// that matters, except `hold`, which keeps the worker until every task is submitted.
#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include "inc_ce.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;
using IVec = cei::Vector<int>;

std::atomic<bool> submitted{false};

void inc(void* const* a) {
  inc_spinning(a, std::chrono::milliseconds(0));
}
// Keeps the CPU's only worker until the test has submitted everything (no clock involved).
void inc_when_submitted(void* const* a) {
  while (!submitted.load()) {
  }
  inc(a);
}

constexpr const char* kSource = R"CL(
__kernel void crit(__global const int* v, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = v[i] + 1;
}
)CL";

const rt::ParamInfo params[] = {{"v", rt::Dir::In, &rt::type_ops<IVec>()}};
const rt::NativeVersion hold_native[] = {{"Native", &inc_when_submitted}};
const rt::NativeVersion inc_native[] = {{"Native", &inc}};
const rt::OpenCLImpl crit_cl{"crit", kSource, "graph_test.cl", "par0.x", "", "", "par0.x"};
const rt::CeInfo hold_ce{"hold",      "GraphCEI", false,  params, 1, &rt::type_ops<IVec>(),
                         hold_native, 1,          nullptr};
const rt::CeInfo leaf_ce{"leaf",     "GraphCEI", false,  params, 1, &rt::type_ops<IVec>(),
                         inc_native, 1,          nullptr};
const rt::CeInfo crit_ce{"crit",     "GraphCEI", false,   params, 1, &rt::type_ops<IVec>(),
                         inc_native, 1,          &crit_cl};
const rt::CeInfo chain_ce{"chain",    "GraphCEI", false,  params, 1, &rt::type_ops<IVec>(),
                          inc_native, 1,          nullptr};

// The CEs in the order their tasks started, and where crit ran.
struct Starts final : rt::Observer {
  std::mutex mu;
  std::vector<std::string> order;
  std::string crit_platform;
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task& t, const rt::Platform&, int) override {
    std::lock_guard g(mu);
    order.emplace_back(t.ce().name);
  }
  void task_finished(const rt::Task& t, const rt::Platform& p, int, bool) override {
    std::lock_guard g(mu);
    if (&t.ce() == &crit_ce) crit_platform = p.name();
  }
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};

Starts& starts() {
  return observer<Starts>();
}
const bool starts_added = (starts(), true);

// Every CE takes 20 ms on the CPU, crit 100 ms on the device, at any size.
void script_profiles() {
  rt::Runtime& runtime = rt::Runtime::instance();
  runtime.wait_for_platforms();
  ASSERT_NE(runtime.find_platform("cl"), nullptr) << "PoCL did not open";
  rt::Config cfg = rt::launch_config();
  auto store = std::make_unique<rt::ProfileStore>();
  for (double bytes : {1.0, 1e9}) {
    for (const rt::CeInfo* ce : {&hold_ce, &leaf_ce, &crit_ce, &chain_ce})
      store->record(*ce, 0, "cpu", bytes, 0.020);
    store->record(crit_ce, -1, "cl", bytes, 0.100);
  }
  runtime.set_policy(rt::make_policy(cfg, store.get()));
  runtime.set_profiles(std::move(store));
}

TEST(Graph, TheCriticalPathOvertakesTheQueueAndStaysOffTheSlowDevice) {
  script_profiles();
  constexpr int kLeaves = 12;
  IVec seed = iota(256, 0), x, y, z1, z2;
  std::vector<IVec> leaves(kLeaves);
  std::vector<std::unique_ptr<rt::Scope>> scopes;
  for (IVec* v : {&seed, &x, &y, &z1, &z2}) scopes.push_back(std::make_unique<rt::Scope>(*v));
  for (IVec& v : leaves) scopes.push_back(std::make_unique<rt::Scope>(v));
  rt::assign(x, rt::call<IVec>(hold_ce, rt::in<IVec>(seed)));
  // Twelve tasks without dependants become ready with crit when x does; crit has two.
  for (IVec& v : leaves) rt::assign(v, rt::call<IVec>(leaf_ce, rt::in<IVec>(x)));
  rt::assign(y, rt::call<IVec>(crit_ce, rt::in<IVec>(x)));
  rt::assign(z1, rt::call<IVec>(chain_ce, rt::in<IVec>(y)));
  rt::assign(z2, rt::call<IVec>(chain_ce, rt::in<IVec>(z1)));
  submitted.store(true);
  ASSERT_EQ(rt::sync_read(z2), iota(256, 4));
  for (IVec& v : leaves) ASSERT_EQ(rt::sync_read(v), iota(256, 2));
  rt::Runtime::instance().drain();

  std::lock_guard g(starts().mu);
  // Queued behind eleven leaves, crit would wait 220 ms on the CPU: the device (100 ms) would
  // win. First in the queue, it waits for none.
  EXPECT_EQ(starts().crit_platform, "cpu");
  const auto& order = starts().order;
  const auto at = std::find(order.begin(), order.end(), "crit") - order.begin();
  // hold, then at most the one leaf its worker took at once (the task it made ready), then crit.
  EXPECT_LE(at, 2) << "crit started after " << at - 1 << " leaves";
}

}  // namespace
}  // namespace cei::test
