// The native version the decision integration tests give their CE: adds 1 to every element of its
// input into its result, then spins until `busy` has passed since it started, so that the
// profiles learn a known, machine-independent duration.
//
//   void slow_inc(void* const* a) { cei::test::inc_spinning(a, std::chrono::milliseconds(20)); }
#pragma once

#include <cei/array.hpp>

#include <chrono>
#include <utility>

namespace cei::test {

inline void inc_spinning(void* const* a, std::chrono::milliseconds busy) {
  const auto until = std::chrono::steady_clock::now() + busy;
  cei::Vector<int> r = *static_cast<const cei::Vector<int>*>(a[0]);
  for (auto& x : r) x += 1;
  while (std::chrono::steady_clock::now() < until) {
  }
  *static_cast<cei::Vector<int>*>(a[1]) = std::move(r);
}

}  // namespace cei::test
