// Exploration without guesses: a platform that has not run a CE yet (its forecast's time is a
// Default) is measured by one task of that CE, and until the measurement is in, no task of the CE
// is placed by that guess: the policy's pick goes ahead only when it explores, or when it is a
// measured platform that can start the task at once (keeping it busy commits no queue); the
// others wait for the exploration to report. An unmeasured platform is thus neither free (a guess
// that floods it) nor hopeless (a guess that never tries it). It is explored kTries times at most
// per CE: one whose explorations never measured it (they failed, or moved) is then taken by the
// guess, not tried again and again.
//
//   ExplorationGate gate;                                  // the caller serializes every call
//   switch (gate.admit(task.ce(), candidates, pick, now)) {
//     case Admit::Explore: /* place it; gate.ended(ce, platform) once it reports */
//     case Admit::Place:   /* place it */
//     case Admit::Hold:    /* keep it; try again after the next ended() or completion */
//   }
#pragma once

#include <cei/rt/policy.hpp>

#include <cstddef>
#include <map>
#include <span>

namespace cei::rt {

class ExplorationGate {
 public:
  enum class Admit { Place, Explore, Hold };

  // cs[pick] is the policy's choice among cs for a task of ce; now_s is the clock of the
  // forecasts' end_s. Not thread-safe: the caller serializes all calls (and keeps its held tasks
  // under the same lock, so that no ended() falls between a Hold and the holding).
  Admit admit(const CeInfo& ce, std::span<const Candidate> cs, std::size_t pick, double now_s);
  // The exploring task of ce on p reported, or never will (failed, moved). Not thread-safe.
  void ended(const CeInfo& ce, const Platform& p);
  // Explorations running now, all CEs. Not thread-safe.
  int running() const { return running_; }
  static constexpr int kTries = 2;

 private:
  struct Explored {
    int running = 0, tries = 0;
  };
  std::map<const CeInfo*, std::map<const Platform*, Explored>> explorations_;
  int running_ = 0;
};

}  // namespace cei::rt
