#include "second_thoughts.hpp"

#include "runtime_core.hpp"

#include <cei/rt/trace/log.hpp>

#include <algorithm>

namespace cei::rt {

namespace {
// A task later than this is no news worth moving others for: a preemption of a short task, and
// a move costs the moved task's inputs' transfer.
constexpr double kMinDelayS = 1e-3;
// One task stuck for an hour must not make its platform look hopeless for the rest of the run.
constexpr double kMaxLag = 1e3;
}  // namespace

SecondThoughts::Slot* SecondThoughts::find(const Platform& p) const {
  for (Slot& s : slots_)
    if (s.platform == &p) return &s;
  return nullptr;
}

bool SecondThoughts::ran(const Platform& p, double placed_s, double profile_s, double run_s) {
  if (!enabled() || placed_s <= 0 || profile_s <= 0) return false;
  const bool late = run_s >= threshold_ * placed_s && run_s - placed_s >= kMinDelayS;
  if (!late && !any_slot_.load(std::memory_order_acquire)) return false;
  const double r = std::min(run_s / profile_s, kMaxLag);
  std::lock_guard g(mu_);
  Slot* s = find(p);
  if (!s) {
    if (!late) return false;
    s = &slots_.emplace_back(Slot{&p, r, 0});
    any_slot_.store(true, std::memory_order_release);
  } else {
    s->lag = (s->lag + r) / 2;
  }
  s->late = late ? s->late + 1 : 0;
  if (s->late < 2) return false;
  s->late = 0;  // the next revisit needs news: two more tasks late
  return true;
}

double SecondThoughts::lag(const Platform& p) const {
  if (!any_slot_.load(std::memory_order_acquire)) return 1;
  std::lock_guard g(mu_);
  const Slot* s = find(p);
  return s ? s->lag : 1;
}

void SecondThoughts::correct(std::span<Candidate> cs, double now_s) const {
  if (!any_slot_.load(std::memory_order_acquire)) return;
  std::lock_guard g(mu_);
  for (Candidate& c : cs) {
    const Slot* s = find(*c.platform);
    if (!s || s->lag < kCorrectFrom) continue;
    c.forecast.exec_s *= s->lag;
    c.forecast.end_s = now_s + (c.forecast.end_s - now_s) * s->lag;
    // Its energy is its power over the longer run: the forecast stays one (DynEn weighs both).
    c.forecast.energy_j *= s->lag;
  }
}

// ---- RuntimeCore's side ----

bool RuntimeCore::rethinks() const {
  return second_thoughts.enabled() && policy->by_forecasts();
}

double RuntimeCore::now_s() const {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace cei::rt
