// Second thoughts: a platform whose tasks end much later than the forecasts they were placed by
// (a device throttled, cores taken by another program, a CE slower on some data) has its queue
// revisited: the tasks queued there that have not begun are offered to the policy again, with
// that platform's forecasts corrected by what it is really doing, and those the policy places
// elsewhere move if the platform gives them back (Scheduler::rethink, Platform::withdraw).
//
//   SecondThoughts st;                 // late from 2x the forecast (CEI_SECOND_THOUGHTS)
//   st.correct(candidates, now_s);     // before the policy chooses
//   if (st.ran(p, placed_s, profile_s, run_s)) scheduler.rethink(p);   // after a task ran on p
#pragma once

#include <cei/rt/policy.hpp>

#include <atomic>
#include <mutex>
#include <span>
#include <vector>

namespace cei::rt {

class SecondThoughts {
 public:
  // The lag (time run / time forecast) from which a platform is behind; 0 turns it off. Before
  // the first task: not thread-safe.
  void set_threshold(double lag) { threshold_ = lag; }
  // Thread-safe.
  bool enabled() const { return threshold_ > 0; }

  // A task the policy placed on p by a forecast of `placed_s` of execution ran `run_s`, which p's
  // profile now (this run recorded) forecasts as `profile_s`. True when p's queue is to be
  // revisited now: the last two such tasks ran `threshold` times longer than they were placed by.
  // Thread-safe; lock-free while no platform has been late and the task was not.
  bool ran(const Platform& p, double placed_s, double profile_s, double run_s);
  // How much longer than its profile's forecasts p's tasks run, once p has been late: the moving
  // average of run / profile forecast; 1 for a platform never late. Thread-safe.
  double lag(const Platform& p) const;
  // Scales the time forecasts (execution, and the end's distance from now_s) of the platforms
  // found late by their lag, from kCorrectFrom. Thread-safe.
  void correct(std::span<Candidate> cs, double now_s) const;

  // A lag below this is the noise of a platform on time: forecasts are left as they are.
  static constexpr double kCorrectFrom = 1.2;

 private:
  struct Slot {  // a platform found late once
    const Platform* platform;
    double lag = 1;  // moving average of run / profile forecast
    int late = 0;    // tasks in a row that ran behind what they were placed by
  };
  Slot* find(const Platform& p) const;  // under mu_

  double threshold_ = 2;
  mutable std::mutex mu_;
  mutable std::vector<Slot> slots_;    // under mu_
  std::atomic<bool> any_slot_{false};  // a platform has been late
};

}  // namespace cei::rt
