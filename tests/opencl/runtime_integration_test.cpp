// The OpenCL platform inside the real runtime, driven through api.hpp as instrumented code does,
// with CE tables written by hand (native and OpenCL versions) and CEI_POLICY=only:opencl0 (set by
// runtime_main.cpp): results equal the native versions, device-resident chains, values published
// at enqueue time feeding the CPU platform and the host, and the fallback to the CPU platform
// when a kernel does not build.
#include "kernels.hpp"

#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <numeric>
#include <vector>

namespace cei::test {
namespace {

namespace rt = cei::rt;

// Native versions, the reference for every kernel (ce.hpp's Invoker: parameters, then result).
struct Native {
  static void add(void* const* a) {
    auto &x = *static_cast<const FVec*>(a[0]), &y = *static_cast<const FVec*>(a[1]);
    FVec r(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) r(i) = x(i) + y(i);
    *static_cast<FVec*>(a[2]) = std::move(r);
  }
  static void scale(void* const* a) {
    auto& v = *static_cast<const FVec*>(a[0]);
    float k = *static_cast<const float*>(a[1]);
    FVec r(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) r(i) = v(i) * k;
    *static_cast<FVec*>(a[2]) = std::move(r);
  }
  static void inc(void* const* a) {
    IVec r = *static_cast<const IVec*>(a[0]);
    for (auto& x : r) x += 1;
    *static_cast<IVec*>(a[1]) = std::move(r);
  }
  static void matmul(void* const* a) {
    auto &A = *static_cast<const IMat*>(a[0]), &B = *static_cast<const IMat*>(a[1]);
    IMat C(A.extent(0), B.extent(1));
    for (std::size_t i = 0; i < A.extent(0); ++i)
      for (std::size_t j = 0; j < B.extent(1); ++j)
        for (std::size_t k = 0; k < A.extent(1); ++k) C(i, j) += A(i, k) * B(k, j);
    *static_cast<IMat*>(a[2]) = std::move(C);
  }
  static void negate(void* const* a) {
    for (auto& x : *static_cast<IVec*>(a[0])) x = -x;
  }
  // CPU only: sums a vector (no OpenCL version, so it always runs on the CPU platform).
  static inline std::atomic<int> sums{0};  // how many ran
  static void sum(void* const* a) {
    ++sums;
    auto& v = *static_cast<const IVec*>(a[0]);
    *static_cast<std::int64_t*>(a[1]) = std::accumulate(v.begin(), v.end(), std::int64_t{0});
  }
};

const rt::NativeVersion add_native[] = {{"Native", &Native::add}};
const rt::NativeVersion scale_native[] = {{"Native", &Native::scale}};
const rt::NativeVersion inc_native[] = {{"Native", &Native::inc}};
const rt::NativeVersion matmul_native[] = {{"Native", &Native::matmul}};
const rt::NativeVersion negate_native[] = {{"Native", &Native::negate}};
const rt::NativeVersion sum_native[] = {{"Native", &Native::sum}};

const rt::CeInfo add_rt{"add", "RtCEI", false, add_params, 2, &fvec(), add_native, 1, &add_cl};
const rt::CeInfo scale_rt{"scale", "RtCEI",      false, scale_params, 2,
                          &fvec(), scale_native, 1,     &scale_cl};
const rt::CeInfo inc_rt{"inc", "RtCEI", false, inc_params, 1, &ivec(), inc_native, 1, &inc_cl};
const rt::CeInfo matmul_rt{"matmul",      "RtCEI", false,
                           matmul_params, 2,       &rt::type_ops<IMat>(),
                           matmul_native, 1,       &matmul_cl};
const rt::CeInfo inc16_rt{"inc16", "RtCEI",    false, inc_params, 1,
                          &ivec(), inc_native, 1,     &inc16_cl};
// The broken kernel stands for negate: the CPU platform runs the native version instead.
const rt::CeInfo broken_rt{"broken", "RtCEI",       false, broken_params, 1,
                           nullptr,  negate_native, 1,     &broken_cl};
// Fails at execution on the device (runtime_main.cpp sets CEI_OPENCL_FAIL_KERNEL).
const rt::CeInfo fails_at_run_rt{"fails_at_run", "RtCEI",    false, inc_params,      1,
                                 &ivec(),        inc_native, 1,     &fails_at_run_cl};
const rt::CeInfo sum_rt{"sum",      "RtCEI", false,  inc_params, 1, &rt::type_ops<std::int64_t>(),
                        sum_native, 1,       nullptr};

opencl::OpenCLPlatform& device() {
  auto* p = dynamic_cast<opencl::OpenCLPlatform*>(rt::Runtime::instance().find_platform("opencl0"));
  if (!p) throw std::runtime_error("the runtime has no platform opencl0 (PoCL expected)");
  return *p;
}

IVec iota(std::size_t n, int from = 0) {
  IVec v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

TEST(RuntimeWithOpenCL, TheRuntimeHasTheCpuAndOpenCLPlatforms) {
  ASSERT_NE(rt::Runtime::instance().find_platform("cpu"), nullptr);
  EXPECT_STREQ(device().kind(), "opencl");
  EXPECT_STREQ(rt::Runtime::instance().policy()->name(), "only:opencl0");
}

TEST(RuntimeWithOpenCL, ResultsEqualTheNativeVersions) {
  rt::Runtime::instance().drain();
  const std::uint64_t kernels_before = device().stats().kernels;
  FVec a(1000), b(1000);
  rt::Scope sa(a), sb(b);  // ceic's scopes: tracked locals are forgotten when they die
  for (int i = 0; i < 1000; ++i) a(i) = 0.5f * i, b(i) = 3.f - i;
  FVec scaled = rt::call<FVec>(
      scale_rt, rt::in<FVec>(rt::call<FVec>(add_rt, rt::in<FVec>(a), rt::in<FVec>(b))),
      rt::in<float>(2.5f));
  FVec sum(0), expected(0);
  void* add_args[] = {&a, &b, &sum};
  Native::add(add_args);
  float k = 2.5f;
  void* scale_args[] = {&sum, &k, &expected};
  Native::scale(scale_args);
  EXPECT_EQ(scaled, expected);

  const int n = 24;
  IMat A(n, n), B(n, n), C(0, 0);
  rt::Scope sA(A), sB(B);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = i - j, B(i, j) = (i * 7 + j) % 5;
  IMat got = rt::call<IMat>(matmul_rt, rt::in<IMat>(A), rt::in<IMat>(B));
  void* mm_args[] = {&A, &B, &C};
  Native::matmul(mm_args);
  EXPECT_EQ(got, C);
  // A value is published before its kernel's profile is recorded: the counts once all settled.
  rt::Runtime::instance().drain();
  EXPECT_EQ(device().stats().kernels - kernels_before, 3u);  // all three ran on the device
}

TEST(RuntimeWithOpenCL, ChainOfTenKernelsMovesTheDatumOnceEachWay) {
  const std::size_t n = 1 << 16, bytes = n * sizeof(int);
  rt::Runtime::instance().drain();
  const opencl::Stats before = device().stats();
  IVec v = iota(n);
  rt::Scope scope(v);
  for (int i = 0; i < 10; ++i) rt::assign(v, rt::call<IVec>(inc_rt, rt::in<IVec>(v)));
  EXPECT_EQ(rt::sync_read(v), iota(n, 10));
  rt::Runtime::instance().drain();
  const opencl::Stats s = device().stats();
  EXPECT_EQ(s.kernels - before.kernels, 10u);
  EXPECT_EQ(s.bytes_to_device - before.bytes_to_device, bytes);
  EXPECT_EQ(s.bytes_to_host - before.bytes_to_host, bytes);
  EXPECT_EQ(s.writes - before.writes, 1u);
  EXPECT_EQ(s.reads - before.reads, 1u);
}

TEST(RuntimeWithOpenCL, ValuesPublishedAtEnqueueFeedTheCpuPlatformAndTheHost) {
  // inc's output is published when its kernel is enqueued; sum (CPU only) and the program read
  // it at once, so their copies must wait for the kernel, not just for the publication.
  const std::size_t n = 1 << 18;
  for (int round = 0; round < 5; ++round) {
    IVec v = iota(n, round);
    rt::Scope scope(v);  // as ceic declares it: each round's v is a new datum at the same address
    rt::assign(v, rt::call<IVec>(inc_rt, rt::in<IVec>(v)));
    rt::assign(v, rt::call<IVec>(inc_rt, rt::in<IVec>(v)));
    std::int64_t total = rt::call<std::int64_t>(sum_rt, rt::in<IVec>(v));
    const std::int64_t first = round + 2, last = first + static_cast<std::int64_t>(n) - 1;
    EXPECT_EQ(total, (first + last) * static_cast<std::int64_t>(n) / 2) << round;
    // And back: a CPU-produced value (the host's own) feeds the device again.
    IVec w = rt::call<IVec>(inc_rt, rt::in<IVec>(v));
    EXPECT_EQ(w, iota(n, round + 3)) << round;
  }
}

TEST(RuntimeWithOpenCL, LaunchErrorsReachTheProgramAsTaskErrors) {
  IVec v = iota(100);
  rt::Scope scope(v);
  try {
    IVec r = rt::call<IVec>(inc16_rt, rt::in<IVec>(v));
    FAIL() << "expected an error";
  } catch (const rt::TaskError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("RtCEI::inc16"), std::string::npos) << what;
    EXPECT_NE(what.find("not divisible"), std::string::npos) << what;
  }
}

TEST(RuntimeWithOpenCL, KernelFailuresAfterPublishingReachTheProgramAsTaskErrors) {
  rt::Runtime::instance().drain();
  const std::uint64_t kernels_before = device().stats().kernels;
  const int sums_before = Native::sums;
  IVec v = iota(1000);
  rt::Scope scope(v);
  // Its output is published when the kernel is enqueued; the kernel fails afterwards. inc is
  // chained on it on the device, sum (CPU only) waits for a host copy: neither may run.
  rt::assign(v, rt::call<IVec>(fails_at_run_rt, rt::in<IVec>(v)));
  rt::assign(v, rt::call<IVec>(inc_rt, rt::in<IVec>(v)));
  std::int64_t total = 0;
  rt::Scope scope_total(total);
  rt::assign(total, rt::call<std::int64_t>(sum_rt, rt::in<IVec>(v)));
  // Every task settled first: each reports the one exception, which the first sync clears.
  rt::Runtime::instance().drain();
  for (auto sync : {std::function<void()>([&] { rt::sync_read(v); }),
                    std::function<void()>([&] { rt::sync_read(total); })}) {
    try {
      sync();
      ADD_FAILURE() << "expected a TaskError";
    } catch (const rt::TaskError& e) {
      std::string what = e.what();
      EXPECT_EQ(e.ce(), "RtCEI::fails_at_run") << what;
      EXPECT_NE(what.find("kernel fails_at_run on opencl0 failed at execution"), std::string::npos)
          << what;
      EXPECT_NE(what.find("CL_OUT_OF_RESOURCES"), std::string::npos) << what;
    }
  }
  EXPECT_EQ(Native::sums, sums_before);
  // inc found its input failed when it became ready: not enqueued.
  EXPECT_EQ(device().stats().kernels - kernels_before, 1u);
  // And the program goes on: the device runs the next tasks.
  IVec w = iota(10);
  rt::Scope scope_w(w);
  rt::assign(w, rt::call<IVec>(inc_rt, rt::in<IVec>(w)));
  EXPECT_EQ(rt::sync_read(w), iota(10, 1));
}

TEST(RuntimeWithOpenCL, KernelThatFailsToBuildFallsBackToTheCpuWithTheLogShown) {
  rt::Runtime::instance().drain();
  const std::uint64_t kernels_before = device().stats().kernels;
  IVec v = iota(50, -20);
  rt::Scope scope(v);
  testing::internal::CaptureStderr();
  rt::call<void>(broken_rt, rt::inout<IVec>(v));
  IVec got = rt::sync(v);
  std::string log = testing::internal::GetCapturedStderr();
  IVec expected = iota(50, -20);
  for (auto& x : expected) x = -x;
  EXPECT_EQ(got, expected);  // the CPU platform ran the native version
  EXPECT_NE(log.find("tests/opencl/broken.cl:2:"), std::string::npos) << log;
  EXPECT_NE(log.find("undeclared_name"), std::string::npos) << log;
  rt::Runtime::instance().drain();
  EXPECT_EQ(device().stats().kernels, kernels_before);
}

// Readers of one version on one device share one upload of it, however they come: all at once
// (the host's value, read in place); all waiting for a value the CPU platform produces, launched
// together when it is published (every one while the first one's upload is still in flight); one
// after another, each done before the next is submitted (the host's value stays one version, and
// its copy on the device stays valid, until the program writes it).
TEST(RuntimeWithOpenCL, ReadersOfOneVersionShareOneUpload) {
  const std::size_t n = 1 << 18, bytes = n * sizeof(int);
  enum Readers { AtOnce, AtOnceWhenTheCpuPublishes, OneAfterAnother };
  for (Readers how : {AtOnce, AtOnceWhenTheCpuPublishes, OneAfterAnother}) {
    rt::Runtime::instance().drain();
    const opencl::Stats before = device().stats();
    IVec v = iota(n, 1);
    rt::Scope scope(v);
    // broken's kernel does not build: the CPU platform negates v, on its own time.
    if (how == AtOnceWhenTheCpuPublishes) rt::call<void>(broken_rt, rt::inout<IVec>(v));
    IVec expected = iota(n, 1);
    for (auto& x : expected) x = (how == AtOnceWhenTheCpuPublishes ? -x : x) + 1;
    std::vector<rt::Pending<IVec>> readers;
    for (int i = 0; i < 8; ++i) {
      readers.push_back(rt::call<IVec>(inc_rt, rt::in<IVec>(v)));
      if (how == OneAfterAnother) {
        EXPECT_EQ(std::move(readers.back()).get(), expected) << i;
      }
    }
    if (how != OneAfterAnother) {
      for (auto& r : readers) EXPECT_EQ(std::move(r).get(), expected);
    }
    rt::Runtime::instance().drain();
    const opencl::Stats s = device().stats();
    EXPECT_EQ(s.kernels - before.kernels, 8u) << how;
    EXPECT_EQ(s.bytes_to_device - before.bytes_to_device, bytes) << how;
    EXPECT_EQ(s.writes - before.writes, 1u) << how;
    EXPECT_EQ(s.bytes_to_host - before.bytes_to_host, 8 * bytes) << how;
  }
}

// And the way back: host readers of a value on the device (sum runs on the CPU platform) share
// one read of it, however many ask while it is in flight.
TEST(RuntimeWithOpenCL, HostReadersOfADeviceValueShareOneRead) {
  const std::size_t n = 1 << 18, bytes = n * sizeof(int);
  rt::Runtime::instance().drain();
  const opencl::Stats before = device().stats();
  IVec v = iota(n);
  rt::Scope scope(v);
  rt::assign(v, rt::call<IVec>(inc_rt, rt::in<IVec>(v)));
  std::vector<rt::Pending<std::int64_t>> sums;
  for (int i = 0; i < 6; ++i) sums.push_back(rt::call<std::int64_t>(sum_rt, rt::in<IVec>(v)));
  const auto total = static_cast<std::int64_t>(n) * static_cast<std::int64_t>(n + 1) / 2;
  for (auto& s : sums) EXPECT_EQ(std::move(s).get(), total);
  EXPECT_EQ(rt::sync_read(v), iota(n, 1));  // the host copy is there already
  rt::Runtime::instance().drain();
  const opencl::Stats s = device().stats();
  EXPECT_EQ(s.bytes_to_host - before.bytes_to_host, bytes);
  EXPECT_EQ(s.reads - before.reads, 1u);
}

}  // namespace
}  // namespace cei::test
