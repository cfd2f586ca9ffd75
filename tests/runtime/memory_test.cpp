// Versions and tasks are freed as soon as nothing can read them: 100,000 tasks of the
// mixed_tasks.hpp mix leave the heap where they found it, but for the runtime's pools of task and
// version blocks, which follow the peak of tasks in flight (bounded by the mix's host write every
// 1,000 tasks). (The 1,000,000-task run is the separate cei-runtime-million.)
#include "mixed_tasks.hpp"

#include <cei/cei.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>
#include <malloc.h>

using namespace test_ces;
namespace rt = cei::rt;

namespace {
std::size_t heap_in_use() {
  return mallinfo2().uordblks;
}
}  // namespace

TEST(Memory, HundredThousandTasksLeaveNoResidue) {
  MixedData d;
  // Warm up: threads, thread-local buffers, hash tables, and the pools and queues at the peak of
  // tasks in flight, which depends on how far the workers fall behind the program (on a loaded
  // machine, up to the mix's 1,000-task window): a whole pass of the mix reaches it.
  mixed_tasks(0, 100000, d);
  cei::barrier();
  auto& runtime = rt::Runtime::instance();
  runtime.wait_for_platforms();  // a device opening in the background is no residue of the tasks
  const std::size_t pooled_before = runtime.pooled_bytes();
  const std::size_t before = heap_in_use() - pooled_before;
  mixed_tasks(100000, 100000, d);
  cei::barrier();
  const std::size_t pooled = runtime.pooled_bytes();
  const std::size_t after = heap_in_use() - pooled;
  EXPECT_EQ(rt::sync(d.x), increments(0, 200000));
  EXPECT_LT(after > before ? after - before : 0, 64u * 1024) << "heap grew by " << after - before;
  // A leaked task or version would keep its block: the pools would grow with the task count.
  EXPECT_LT(pooled - pooled_before, 1024u * 1024) << "pools grew by " << pooled - pooled_before;
  EXPECT_EQ(rt::Runtime::instance().tasks_in_flight(), 0u);
}
