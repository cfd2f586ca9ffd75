// The critical path first, on one CPU worker and no profile: a chain of tasks submitted after a
// bulk of independent ones runs ahead of them, because its head's upward rank (the chain behind
// it) outranks theirs, though it was queued ready behind them before the chain was known.
// (Ordered first in, first out, the chain waited for the whole bulk.) In its own process: the
// runtime reads CEI_CPU_CORES once, and the observer is added before it starts.
#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

namespace rt = cei::rt;

std::atomic<bool> submitted{false};

void add_one(void* const* a) {
  auto& x = *static_cast<std::int64_t*>(a[0]);
  x += 1;
}
// Keeps the only worker until the test has submitted everything (no clock involved).
void add_one_when_submitted(void* const* a) {
  while (!submitted.load()) {
  }
  add_one(a);
}

const rt::ParamInfo params[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion hold_native[] = {{"Native", &add_one_when_submitted}};
const rt::NativeVersion add_native[] = {{"Native", &add_one}};
const rt::CeInfo hold_ce{"hold", "PriorityCEI", false, params, 1, nullptr, hold_native, 1, nullptr};
const rt::CeInfo bulk_ce{"bulk", "PriorityCEI", false, params, 1, nullptr, add_native, 1, nullptr};
const rt::CeInfo chain_ce{"chain", "PriorityCEI", false, params, 1, nullptr, add_native, 1, nullptr};

// The CEs in the order their tasks started.
struct Starts final : rt::Observer {
  std::mutex mu;
  std::vector<std::string> order;
  void task_submitted(const rt::Task&, std::span<const rt::Dependency>,
                      std::span<const rt::Candidate>, std::size_t, const char*) override {}
  void task_started(const rt::Task& t, const rt::Platform&, int) override {
    std::lock_guard g(mu);
    order.emplace_back(t.ce().name);
  }
  void task_finished(const rt::Task&, const rt::Platform&, int, bool) override {}
  void transfer(const rt::TransferEvent&) override {}
  void run_finished() override {}
};
const std::shared_ptr<Starts> starts = [] {
  auto s = std::make_shared<Starts>();
  rt::add_observer(s);
  return s;
}();

TEST(Priorities, AChainOnTheCriticalPathRunsAheadOfIndependentWorkQueuedBeforeIt) {
  constexpr int kBulk = 24, kChain = 8;
  std::int64_t held = 0, link = 0;
  std::vector<std::int64_t> bulk(kBulk, 0);
  rt::call<void>(hold_ce, rt::inout<std::int64_t>(held));
  // Ready at once, queued behind the held worker in submission order.
  for (auto& b : bulk) rt::call<void>(bulk_ce, rt::inout<std::int64_t>(b));
  // The chain's head is ready at once too, queued after the bulk; its rank grows as the rest of
  // the chain is submitted.
  for (int i = 0; i < kChain; ++i) rt::call<void>(chain_ce, rt::inout<std::int64_t>(link));
  submitted.store(true);
  cei::barrier();
  EXPECT_EQ(link, kChain);
  for (auto b : bulk) EXPECT_EQ(b, 1);
  std::vector<std::string> order;
  {
    std::lock_guard g(starts->mu);
    order = starts->order;
  }
  ASSERT_EQ(order.size(), static_cast<std::size_t>(1 + kBulk + kChain));
  // Every task of the chain started before any of the bulk.
  const auto last_chain =
      (std::find(order.rbegin(), order.rend(), "chain").base() - order.begin()) - 1;
  const auto first_bulk = std::find(order.begin(), order.end(), "bulk") - order.begin();
  EXPECT_LT(last_chain, first_bulk) << "the chain's last task started at " << last_chain
                                    << ", after the bulk's first at " << first_bulk;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("CEI_CPU_CORES", "1", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
