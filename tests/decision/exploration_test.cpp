// ExplorationGate with scripted forecasts: what runs while a CE is being measured somewhere.
#include "scripted.hpp"

#include <cei/rt/decision/exploration.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace cei::rt::test {
namespace {

using Admit = ExplorationGate::Admit;

// A forecast from a profile: exec_s measured, ending at end_s (after a queue if end_s > exec_s).
Forecast measured(double end_s, double exec_s) {
  Forecast f = fc(end_s, 0);
  f.exec_s = exec_s;
  f.time_source = Source::Measured;
  return f;
}
Forecast guessed(double end_s) {
  return fc(end_s, 0);  // time_source Default: the platform never ran the CE
}

struct Gate : ::testing::Test {
  NamedPlatform cpu{"cpu"}, gpu{"opencl0", "opencl"};
  ExplorationGate gate;
};

TEST_F(Gate, EverythingMeasuredAndNothingBeingMeasuredPlaces) {
  std::vector<Candidate> cs{{&cpu, measured(5, 1)}, {&gpu, measured(2, 2)}};
  EXPECT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Place);
  EXPECT_EQ(gate.running(), 0);
}

TEST_F(Gate, OneTaskExploresEachUnmeasuredPlatformAndTheGuessPlacesNoMore) {
  // The first run without a profile: both platforms guessed, the policy picks the GPU.
  std::vector<Candidate> cs{{&cpu, guessed(1e-3)}, {&gpu, guessed(1e-3)}};
  EXPECT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Explore);
  EXPECT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Hold);     // no second guess on the GPU
  EXPECT_EQ(gate.admit(kMultiply, cs, 0, 0), Admit::Explore);  // the CPU is measured too
  EXPECT_EQ(gate.admit(kMultiply, cs, 0, 0), Admit::Hold);
  EXPECT_EQ(gate.running(), 2);
  // Another CE is explored on its own.
  EXPECT_EQ(gate.admit(kSort, cs, 1, 0), Admit::Explore);
  EXPECT_EQ(gate.running(), 3);
}

TEST_F(Gate, AMeasuredPlatformTakesOnlyWhatItStartsAtOnceWhileAnotherIsMeasured) {
  std::vector<Candidate> first{{&cpu, measured(1, 1)}, {&gpu, guessed(1e-3)}};
  ASSERT_EQ(gate.admit(kMultiply, first, 1, 0), Admit::Explore);
  // The CPU is idle: the task starts at once (end = now + exec), it goes.
  std::vector<Candidate> idle{{&cpu, measured(10.5, 0.5)}, {&gpu, guessed(10.001)}};
  EXPECT_EQ(gate.admit(kMultiply, idle, 0, 10), Admit::Place);
  // Its workers are busy (end = now + 1 s of queue + exec): committing a queue waits for the GPU.
  std::vector<Candidate> busy{{&cpu, measured(11.5, 0.5)}, {&gpu, guessed(10.001)}};
  EXPECT_EQ(gate.admit(kMultiply, busy, 0, 10), Admit::Hold);
  // The GPU reports: the same queue is the policy's call again.
  gate.ended(kMultiply, gpu);
  EXPECT_EQ(gate.running(), 0);
  std::vector<Candidate> known{{&cpu, measured(11.5, 0.5)}, {&gpu, measured(10.2, 0.2)}};
  EXPECT_EQ(gate.admit(kMultiply, known, 0, 10), Admit::Place);
}

TEST_F(Gate, AnExplorationThatEndsWithoutAFigureLetsTheNextTaskExplore) {
  std::vector<Candidate> cs{{&cpu, measured(1, 1)}, {&gpu, guessed(1e-3)}};
  ASSERT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Explore);
  gate.ended(kMultiply, gpu);  // failed, or moved to another platform: still unmeasured
  EXPECT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Explore);
  gate.ended(kMultiply, cpu);  // never explored there: nothing to end
  EXPECT_EQ(gate.running(), 1);
}

// Explorations that never measure the platform (each failed, or moved) are not repeated for ever:
// after kTries the guess places the CE's tasks there, and nothing holds them.
TEST_F(Gate, APlatformIsExploredTwiceAtMostPerCe) {
  std::vector<Candidate> cs{{&cpu, measured(1, 1)}, {&gpu, guessed(1e-3)}};
  for (int i = 0; i < ExplorationGate::kTries; ++i) {
    ASSERT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Explore) << i;
    gate.ended(kMultiply, gpu);
  }
  EXPECT_EQ(gate.admit(kMultiply, cs, 1, 0), Admit::Place);
  EXPECT_EQ(gate.running(), 0);
  EXPECT_EQ(gate.admit(kSort, cs, 1, 0), Admit::Explore);  // another CE is its own question
}

TEST_F(Gate, AnUnmeasuredPlatformNobodyExploresDoesNotHoldTheMeasuredOnes) {
  // The policy leaves the guessed GPU aside (a fallback, or exploration switched off) and picks
  // the busy CPU: no measurement is coming, so waiting for one would wait forever.
  std::vector<Candidate> cs{{&cpu, measured(5, 1)}, {&gpu, guessed(1e-3)}};
  EXPECT_EQ(gate.admit(kMultiply, cs, 0, 0), Admit::Place);
}

}  // namespace
}  // namespace cei::rt::test
