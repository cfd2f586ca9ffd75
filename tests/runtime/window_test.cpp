// The in-flight window (CEI_MAX_IN_FLIGHT): a program thread that submits faster than its tasks
// run waits once the window is in flight, and goes on as they finish. Its own process, since the
// runtime reads the window once, when it starts.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

constexpr std::size_t kWindow = 64;
std::atomic<std::size_t> returned{0};  // calls the program thread got back from

// Holds every later task of the chain until the program thread has a whole window in flight:
// with the window kept, that thread cannot return from another call before this task ends.
void invoke_gate(void* const* a) {
  while (returned.load() < kWindow) std::this_thread::yield();
  ops::increment(at<std::int64_t>(a, 0));
}
const rt::NativeVersion gate_versions[] = {{"ops", &invoke_gate}};
const rt::CeInfo gate{"gate",  "TestCEI",     false, increment_params, 1,
                      nullptr, gate_versions, 1,     nullptr};

}  // namespace

TEST(Window, TheProgramThreadWaitsWhileAWindowOfTasksIsInFlight) {
  constexpr std::int64_t kTasks = 2000;
  auto& runtime = rt::Runtime::instance();
  std::int64_t x = 0;
  std::size_t most = 0;
  rt::call<void>(gate, rt::inout<std::int64_t>(x));
  ++returned;
  for (std::int64_t i = 1; i < kTasks; ++i) {
    rt::call<void>(increment, rt::inout<std::int64_t>(x));
    ++returned;
    most = std::max(most, runtime.tasks_in_flight());
  }
  EXPECT_EQ(rt::sync(x), kTasks);
  EXPECT_EQ(most, kWindow);  // reached while the gate held the chain, and never passed
  cei::barrier();
  EXPECT_EQ(runtime.tasks_in_flight(), 0u);
}

int main(int argc, char** argv) {
  setenv("CEI_MAX_IN_FLIGHT", std::to_string(kWindow).c_str(), 1);
  setenv("CEI_CPU_CORES", "2", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
