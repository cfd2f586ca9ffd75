// Versions and tasks are freed as soon as nothing can read them: 100,000 tasks leave the heap
// where they found it, but for the runtime's pools of task and version blocks, which follow the
// peak of tasks in flight (bounded here by a sync every 1,000 tasks). (The 1,000,000-task run is
// the separate cei-runtime-million.)
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>
#include <malloc.h>

using namespace test_ces;
namespace rt = cei::rt;

namespace {
std::size_t heap_in_use() {
  return mallinfo2().uordblks;
}

void mixed_tasks(int n, Vec& a, Vec& b, std::int64_t& x) {
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0:
        rt::call<void>(increment, rt::inout<std::int64_t>(x));
        break;
      case 1:
        rt::call<void>(scale_add, rt::inout<Vec>(a), rt::in<Vec>(b), rt::in<std::int64_t>(1));
        break;
      case 2:
        rt::call<void>(derive, rt::in<Vec>(a), rt::out<Vec>(b), rt::in<std::int64_t>(0));
        break;
      case 3:
        rt::call<void>(nothing);
        break;
    }
    if (i % 1000 == 999) {
      for (auto& v : rt::sync(a)) v %= 97;
    }
  }
}
}  // namespace

TEST(Memory, HundredThousandTasksLeaveNoResidue) {
  Vec a{1, 2, 3}, b{4, 5, 6};
  std::int64_t x = 0;
  mixed_tasks(1000, a, b, x);  // warm up: threads, thread-local buffers, hash tables
  cei::barrier();
  auto& runtime = rt::Runtime::instance();
  const std::size_t pooled_before = runtime.pooled_bytes();
  const std::size_t before = heap_in_use() - pooled_before;
  mixed_tasks(100000, a, b, x);
  cei::barrier();
  const std::size_t pooled = runtime.pooled_bytes();
  const std::size_t after = heap_in_use() - pooled;
  EXPECT_EQ(x, 1000 / 4 + 100000 / 4);
  EXPECT_LT(after > before ? after - before : 0, 64u * 1024) << "heap grew by " << after - before;
  // A leaked task or version would keep its block: the pools would grow with the task count.
  EXPECT_LT(pooled - pooled_before, 1024u * 1024) << "pools grew by " << pooled - pooled_before;
  EXPECT_EQ(rt::Runtime::instance().tasks_in_flight(), 0u);
}
