#include <cei/rt/decision/exploration.hpp>

#include <algorithm>

namespace cei::rt {

ExplorationGate::Admit ExplorationGate::admit(const CeInfo& ce, std::span<const Candidate> cs,
                                              std::size_t pick, double now_s) {
  const bool unmeasured = std::any_of(cs.begin(), cs.end(), [](const Candidate& c) {
    return c.forecast.time_source == Source::Default;
  });
  auto it = explorations_.find(&ce);
  int of_ce = 0;
  if (it != explorations_.end())
    for (const auto& [platform, e] : it->second) of_ce += e.running;
  if (!unmeasured && of_ce == 0) return Admit::Place;
  const Candidate& c = cs[pick];
  if (c.forecast.time_source == Source::Default) {
    // A first task measures the CE there; more would be placed by the guess.
    Explored& e = explorations_[&ce][c.platform];
    if (e.running > 0) return Admit::Hold;
    if (e.tries >= kTries) return Admit::Place;  // never measured: the guess it is
    ++e.running;
    ++e.tries;
    ++running_;
    return Admit::Explore;
  }
  // Measured: while nothing is being measured it goes, as it does once it can start at once
  // (1 us of rounding between the platform's clock and ours).
  const Forecast& f = c.forecast;
  if (of_ce == 0 || f.end_s <= now_s + f.transfer_s + f.exec_s + 1e-6) return Admit::Place;
  return Admit::Hold;
}

void ExplorationGate::ended(const CeInfo& ce, const Platform& p) {
  auto it = explorations_.find(&ce);
  if (it == explorations_.end()) return;
  if (auto at = it->second.find(&p); at != it->second.end() && at->second.running > 0) {
    --at->second.running;
    --running_;
  }
}

}  // namespace cei::rt
