// Core Elements for the runtime tests, with the tables that `ceic` would generate for them
// (written by hand here so the runtime is tested without the instrumenter).
#pragma once

#include <cei/rt/api.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

namespace test_ces {

using Vec = std::vector<std::int64_t>;

// The native implementations (what a user's `ops::` namespace would hold).
namespace ops {
// Random programs drive values far: arithmetic wraps (unsigned, two's complement) instead of
// overflowing, which would be undefined behaviour.
inline std::uint64_t u(std::int64_t v) {
  return static_cast<std::uint64_t>(v);
}
inline std::int64_t wrap(std::uint64_t v) {
  return static_cast<std::int64_t>(v);
}
inline void scale_add(Vec& a, const Vec& b, std::int64_t k) {  // inout a, in b, in k
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = wrap(u(a[i]) * 3u + u(b[i % b.size()]) + u(k));
}
inline void derive(const Vec& a, Vec& b, std::int64_t k) {  // in a, out b, in k
  b.assign(a.size(), 0);
  for (std::size_t i = 0; i < a.size(); ++i) b[i] = wrap(u(a[a.size() - 1 - i]) - u(k) * i);
}
inline Vec combine(const Vec& a, const Vec& b) {  // returns a value
  Vec r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = wrap(u(a[i]) * 2u - u(b[i % b.size()]));
  return r;
}
inline void increment(std::int64_t& x) {
  ++x;
}  // inout scalar
inline void nothing() {}
inline int add(int a, int b) {
  return a + b;
}
inline void fail_if_negative(const Vec& a) {
  for (auto v : a)
    if (v < 0) throw std::invalid_argument("negative element");
}
}  // namespace ops

// Concurrency probes: how many tasks run at once.
inline std::atomic<int> running{0};
inline std::atomic<int> peak{0};
inline void enter_probe() {
  int now = ++running;
  int p = peak.load();
  while (now > p && !peak.compare_exchange_weak(p, now)) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  --running;
}
namespace ops {
inline void slow_write(Vec& out, std::int64_t tag) {  // out
  enter_probe();
  out.assign(4, tag);
}
inline void slow_read(const Vec& in) {  // in
  (void)in;
  enter_probe();
}
}  // namespace ops

using cei::rt::CeInfo;
using cei::rt::Dir;
using cei::rt::NativeVersion;
using cei::rt::ParamInfo;
using cei::rt::type_ops;

template <typename T>
T& at(void* const* args, int i) {
  return *static_cast<T*>(args[i]);
}

// ---- generated-style tables ----
inline const ParamInfo scale_add_params[] = {{"a", Dir::InOut, &type_ops<Vec>()},
                                             {"b", Dir::In, &type_ops<Vec>()},
                                             {"k", Dir::In, &type_ops<std::int64_t>()}};
inline void invoke_scale_add(void* const* a) {
  ops::scale_add(at<Vec>(a, 0), at<Vec>(a, 1), at<std::int64_t>(a, 2));
}
// Two versions with the same semantics: the runtime may run either.
inline const NativeVersion scale_add_versions[] = {{"ops", &invoke_scale_add},
                                                   {"ops_alt", &invoke_scale_add}};
inline const CeInfo scale_add{"scale_add", "TestCEI",          false, scale_add_params, 3,
                              nullptr,     scale_add_versions, 2,     nullptr};

inline const ParamInfo derive_params[] = {{"a", Dir::In, &type_ops<Vec>()},
                                          {"b", Dir::Out, &type_ops<Vec>()},
                                          {"k", Dir::In, &type_ops<std::int64_t>()}};
inline void invoke_derive(void* const* a) {
  ops::derive(at<Vec>(a, 0), at<Vec>(a, 1), at<std::int64_t>(a, 2));
}
inline const NativeVersion derive_versions[] = {{"ops", &invoke_derive}};
inline const CeInfo derive{"derive", "TestCEI",       false, derive_params, 3,
                           nullptr,  derive_versions, 1,     nullptr};

inline const ParamInfo combine_params[] = {{"a", Dir::In, &type_ops<Vec>()},
                                           {"b", Dir::In, &type_ops<Vec>()}};
inline void invoke_combine(void* const* a) {
  at<Vec>(a, 2) = ops::combine(at<Vec>(a, 0), at<Vec>(a, 1));
}
inline const NativeVersion combine_versions[] = {{"ops", &invoke_combine}};
inline const CeInfo combine{"combine",        "TestCEI",        false, combine_params, 2,
                            &type_ops<Vec>(), combine_versions, 1,     nullptr};

inline const ParamInfo increment_params[] = {{"x", Dir::InOut, &type_ops<std::int64_t>()}};
inline void invoke_increment(void* const* a) {
  ops::increment(at<std::int64_t>(a, 0));
}
inline const NativeVersion increment_versions[] = {{"ops", &invoke_increment}};
inline const CeInfo increment{"increment", "TestCEI",          false, increment_params, 1,
                              nullptr,     increment_versions, 1,     nullptr};

inline void invoke_nothing(void* const*) {
  ops::nothing();
}
inline const NativeVersion nothing_versions[] = {{"ops", &invoke_nothing}};
inline const CeInfo nothing{"nothing", "TestCEI",        false, nullptr, 0,
                            nullptr,   nothing_versions, 1,     nullptr};

inline const ParamInfo add_params[] = {{"a", Dir::In, &type_ops<int>()},
                                       {"b", Dir::In, &type_ops<int>()}};
inline void invoke_add(void* const* a) {
  at<int>(a, 2) = ops::add(at<int>(a, 0), at<int>(a, 1));
}
inline const NativeVersion add_versions[] = {{"ops", &invoke_add}};
inline const CeInfo add{"add",        "TestCEI", false,  add_params, 2, &type_ops<int>(),
                        add_versions, 1,         nullptr};

inline const ParamInfo fail_params[] = {{"a", Dir::In, &type_ops<Vec>()}};
inline void invoke_fail(void* const* a) {
  ops::fail_if_negative(at<Vec>(a, 0));
}
inline const NativeVersion fail_versions[] = {{"ops", &invoke_fail}};
inline const CeInfo fail_if_negative{"fail_if_negative", "TestCEI", false,  fail_params, 1, nullptr,
                                     fail_versions,      1,         nullptr};

inline const ParamInfo slow_write_params[] = {{"out", Dir::Out, &type_ops<Vec>()},
                                              {"tag", Dir::In, &type_ops<std::int64_t>()}};
inline void invoke_slow_write(void* const* a) {
  ops::slow_write(at<Vec>(a, 0), at<std::int64_t>(a, 1));
}
inline const NativeVersion slow_write_versions[] = {{"ops", &invoke_slow_write}};
inline const CeInfo slow_write{
    "slow_write", "TestCEI", false, slow_write_params, 2, nullptr, slow_write_versions, 1, nullptr};

inline const ParamInfo slow_read_params[] = {{"in", Dir::In, &type_ops<Vec>()}};
inline void invoke_slow_read(void* const* a) {
  ops::slow_read(at<Vec>(a, 0));
}
inline const NativeVersion slow_read_versions[] = {{"ops", &invoke_slow_read}};
inline const CeInfo slow_read{"slow_read", "TestCEI",          false, slow_read_params, 1,
                              nullptr,     slow_read_versions, 1,     nullptr};

inline const cei::rt::Registration registrations[] = {
    cei::rt::Registration(scale_add), cei::rt::Registration(derive),
    cei::rt::Registration(combine),   cei::rt::Registration(increment),
    cei::rt::Registration(nothing),   cei::rt::Registration(add)};

}  // namespace test_ces
