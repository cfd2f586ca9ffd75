#include "test_app.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace remote_test {

using cei::rt::Dir;
using cei::rt::type_ops;
using Vec = cei::Vector<float>;

Vec scale(const Vec& v, float k) {
  Vec r(v.extent(0));
  for (std::size_t i = 0; i < v.size(); ++i) r.data()[i] = v.data()[i] * k;
  return r;
}
Vec add(const Vec& a, const Vec& b) {
  if (a.size() != b.size()) throw std::invalid_argument("add: sizes differ");
  Vec r(a.extent(0));
  for (std::size_t i = 0; i < a.size(); ++i) r.data()[i] = a.data()[i] + b.data()[i];
  return r;
}
void iota(Vec& v, int n) {
  v = Vec(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v.data()[i] = static_cast<float>(i);
}
void bump(std::vector<int>& v) {
  for (int& x : v) ++x;
}
int nap(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return ms;
}
int boom(int x) {
  throw std::runtime_error("boom " + std::to_string(x));
}
int inc(int x) {
  return x + 1;
}

namespace {
template <typename T>
T& at(void* const* a, int i) {
  return *static_cast<T*>(a[i]);
}
void invoke_scale(void* const* a) {
  at<Vec>(a, 2) = scale(at<Vec>(a, 0), at<float>(a, 1));
}
void invoke_add(void* const* a) {
  at<Vec>(a, 2) = add(at<Vec>(a, 0), at<Vec>(a, 1));
}
void invoke_iota(void* const* a) {
  iota(at<Vec>(a, 0), at<int>(a, 1));
}
void invoke_bump(void* const* a) {
  bump(at<std::vector<int>>(a, 0));
}
void invoke_nap(void* const* a) {
  at<int>(a, 1) = nap(at<int>(a, 0));
}
void invoke_boom(void* const* a) {
  at<int>(a, 1) = boom(at<int>(a, 0));
}
void invoke_inc(void* const* a) {
  at<int>(a, 1) = inc(at<int>(a, 0));
}

const cei::rt::ParamInfo p_scale[] = {{"v", Dir::In, &type_ops<Vec>()},
                                      {"k", Dir::In, &type_ops<float>()}};
const cei::rt::ParamInfo p_add[] = {{"a", Dir::In, &type_ops<Vec>()},
                                    {"b", Dir::In, &type_ops<Vec>()}};
const cei::rt::ParamInfo p_iota[] = {{"v", Dir::Out, &type_ops<Vec>()},
                                     {"n", Dir::In, &type_ops<int>()}};
const cei::rt::ParamInfo p_bump[] = {{"v", Dir::InOut, &type_ops<std::vector<int>>()}};
const cei::rt::ParamInfo p_int[] = {{"x", Dir::In, &type_ops<int>()}};
const cei::rt::NativeVersion v_scale[] = {{"remote_test", &invoke_scale}};
const cei::rt::NativeVersion v_add[] = {{"remote_test", &invoke_add}};
const cei::rt::NativeVersion v_iota[] = {{"remote_test", &invoke_iota}};
const cei::rt::NativeVersion v_bump[] = {{"remote_test", &invoke_bump}};
const cei::rt::NativeVersion v_nap[] = {{"remote_test", &invoke_nap}};
const cei::rt::NativeVersion v_boom[] = {{"remote_test", &invoke_boom}};
const cei::rt::NativeVersion v_inc[] = {{"remote_test", &invoke_inc}};
}  // namespace

const cei::rt::CeInfo ce_scale{"scale",          "TestCEI", false, p_scale, 2,
                               &type_ops<Vec>(), v_scale,   1,     nullptr};
const cei::rt::CeInfo ce_add{"add", "TestCEI", false,  p_add, 2, &type_ops<Vec>(),
                             v_add, 1,         nullptr};
const cei::rt::CeInfo ce_iota{"iota", "TestCEI", false, p_iota, 2, nullptr, v_iota, 1, nullptr};
const cei::rt::CeInfo ce_bump{"bump", "TestCEI", false, p_bump, 1, nullptr, v_bump, 1, nullptr};
const cei::rt::CeInfo ce_nap{"nap", "TestCEI", false,  p_int, 1, &type_ops<int>(),
                             v_nap, 1,         nullptr};
const cei::rt::CeInfo ce_boom{"boom",           "TestCEI", false, p_int,  1,
                              &type_ops<int>(), v_boom,    1,     nullptr};
const cei::rt::CeInfo ce_inc{"inc", "TestCEI", false,  p_int, 1, &type_ops<int>(),
                             v_inc, 1,         nullptr};

std::vector<const cei::rt::CeInfo*> all_ces() {
  return {&ce_scale, &ce_add, &ce_iota, &ce_bump, &ce_nap, &ce_boom, &ce_inc};
}

}  // namespace remote_test
