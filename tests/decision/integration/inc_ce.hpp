// What the decision integration tests run: a CE that adds 1 to every element of a cei::Vector<int>
// (its native version spins for a known time, so that profiles learn a machine-independent
// duration), and batches of its tasks submitted as instrumented code submits them.
//
//   void slow_inc(void* const* a) { cei::test::inc_spinning(a, std::chrono::milliseconds(20)); }
//   cei::test::run_independent(inc_ce, 40, 256);   // 40 tasks on vectors of 256, results checked
//   Tally& tally() { return cei::test::observer<Tally>(); }
#pragma once

#include <cei/array.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/observer.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

namespace cei::test {

inline void inc_spinning(void* const* a, std::chrono::milliseconds busy) {
  const auto until = std::chrono::steady_clock::now() + busy;
  cei::Vector<int> r = *static_cast<const cei::Vector<int>*>(a[0]);
  for (auto& x : r) x += 1;
  while (std::chrono::steady_clock::now() < until) {
  }
  *static_cast<cei::Vector<int>*>(a[1]) = std::move(r);
}

inline cei::Vector<int> iota(std::size_t n, int from) {
  cei::Vector<int> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

// n independent tasks of `ce` on vectors of `size`, submitted back to back; checks every result.
// `submitted` runs once every task is submitted, before any result is read.
inline void run_independent(const rt::CeInfo& ce, int n, std::size_t size,
                            const std::function<void()>& submitted = {}) {
  using IVec = cei::Vector<int>;
  std::vector<IVec> in, out(n);
  for (int i = 0; i < n; ++i) in.push_back(iota(size, i));
  // ceic's scopes: the runtime forgets these addresses when they die (the heap reuses them).
  std::vector<std::unique_ptr<rt::Scope>> scopes;
  for (int i = 0; i < n; ++i) {
    scopes.push_back(std::make_unique<rt::Scope>(in[i]));
    scopes.push_back(std::make_unique<rt::Scope>(out[i]));
  }
  for (int i = 0; i < n; ++i) rt::assign(out[i], rt::call<IVec>(ce, rt::in<IVec>(in[i])));
  if (submitted) submitted();
  for (int i = 0; i < n; ++i) ASSERT_EQ(rt::sync_read(out[i]), iota(size, i + 1)) << "task " << i;
}

// The test program's one observer of type T, added at its first use (before the runtime starts,
// when called from a namespace-scope initializer).
template <class T>
T& observer() {
  static const std::shared_ptr<T> t = [] {
    auto p = std::make_shared<T>();
    rt::add_observer(p);
    return p;
  }();
  return *t;
}

}  // namespace cei::test
