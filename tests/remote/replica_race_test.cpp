// A value's lifetime on a node: many tasks on only:node1 read one vector
// that the program rebuilds in a loop, so that each round's vector has the same name on the node
// as the last round's (a local at the same address). The client once deleted the old round's
// value after it had uploaded the new one under that name, and a task read `404: unknown data`
// (12 runs in 30 failed); every round here must give every right result.
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace remote_test {
namespace {

using namespace cei::rt;
using Vec = cei::Vector<float>;

constexpr int kSize = 4096;

// 0, 1, ..., n-1 (what iota gives), as floats.
Vec ramp(int n) {
  Vec v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v.data()[i] = static_cast<float>(i);
  return v;
}

TEST(ReplicaLifetime, ElevenReadersOfOneVectorRoundAfterRound) {
  constexpr int kReaders = 11, kRounds = 60;
  WorkerProcess node({"--threads", "4"});
  const std::string spec = "node1=" + node.url() + ",token=" + node.token() + ",timeout_ms=5000";
  setenv("CEI_REMOTE", spec.c_str(), 1);
  setenv("CEI_POLICY", "only:node1", 1);
  Vec v = ramp(kSize);
  Scope v_scope(v);  // tasks read v in place: its end waits for them (as ceic writes)
  std::vector<std::vector<Vec>> results(kRounds, std::vector<Vec>(kReaders));
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < kReaders; ++k)
      assign(results[round][k], call<Vec>(ce_scale, in<Vec>(v), in<float>(static_cast<float>(k))));
    // A task writes v, the host reads it back: the next round reads v in place again, a new
    // version with the old one's name, while the old one, its readers done, is deleted.
    call<void>(ce_iota, out<Vec>(v), in<int>(kSize + round + 1));
    ASSERT_EQ(sync_read(v), ramp(kSize + round + 1)) << "round " << round;
  }
  for (int round = 0; round < kRounds; ++round) {
    const Vec input = ramp(round == 0 ? kSize : kSize + round);
    for (int k = 0; k < kReaders; ++k)
      ASSERT_EQ(sync_read(results[round][k]), scale(input, static_cast<float>(k)))
          << "round " << round << ", reader " << k;
  }
}

}  // namespace
}  // namespace remote_test
