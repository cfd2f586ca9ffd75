// Second thoughts: a platform whose tasks run much longer than the forecasts they were placed by
// is behind (a device throttled, cores taken by another program, a CE slower on some data). Its
// forecasts are then scaled by how far behind it runs, so that new tasks go elsewhere, and the
// tasks queued there that have not begun are offered to the policy again
// (RuntimeCore::rethink, which moves those the policy places elsewhere and the platform gives
// back: Platform::withdraw).
//
//   SecondThoughts st;                 // behind from 2x its forecasts (CEI_SECOND_THOUGHTS)
//   st.correct(candidates, now_s);     // before the policy chooses
//   if (st.ran(p, forecast_s, run_s)) rethink(p);   // after a task ran on p
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

  // A task the policy placed on p by a forecast of `forecast_s` of execution ran `run_s`. True
  // when p's queue is to be revisited now: p has run behind on the last two such tasks, and
  // further behind than at its last revisit. Thread-safe; lock-free while no platform is behind
  // and the task was on time.
  bool ran(const Platform& p, double forecast_s, double run_s);
  // How far behind p runs: its lag once behind, else 1. Thread-safe.
  double lag(const Platform& p) const;
  // Scales the time forecasts (execution, and the end's distance from now_s) of the platforms
  // behind by their lag. Thread-safe.
  void correct(std::span<Candidate> cs, double now_s) const;

 private:
  struct Slot {
    const Platform* platform;
    double lag = 1;        // moving average of run / forecast
    int late = 0;          // tasks in a row that ran behind
    double revisited = 0;  // the lag at the last revisit (0: none since it was on time)
  };
  Slot* find(const Platform& p) const;  // under mu_

  double threshold_ = 2;
  mutable std::mutex mu_;
  mutable std::vector<Slot> slots_;      // under mu_
  std::atomic<bool> any_behind_{false};  // a slot's lag is at or past the threshold
};

}  // namespace cei::rt
