// WorkerPool::leave_cores: the cores the runtime leaves to a device's driver while it starts.
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/worker_pool.hpp>

#include <gtest/gtest.h>

namespace {

using cei::rt::WorkerPool;

TEST(WorkerPool, LeavesCoresToOthersUntilToldNoMore) {
  const std::size_t usable = cei::rt::usable_cores();
  auto nothing = [](cei::rt::TaskContext*, int) {};
  WorkerPool before(usable, nothing);
  EXPECT_EQ(before.active(), usable);
  WorkerPool::leave_cores(2);
  const std::size_t expect = usable > 2 ? usable - 2 : 1;
  EXPECT_EQ(before.active(), expect);
  WorkerPool later(usable + 1, nothing);  // a pool started meanwhile leaves them too
  EXPECT_EQ(later.active(), expect);
  WorkerPool small(1, nothing);  // the last worker always stays
  EXPECT_EQ(small.active(), 1u);
  WorkerPool::leave_cores(0);
  EXPECT_EQ(before.active(), usable);
  EXPECT_EQ(later.active(), usable + 1);
}

}  // namespace
