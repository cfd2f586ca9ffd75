// The OpenCL platform on PoCL: kernels against native code, device-resident chains, renaming,
// eviction under a memory cap, naive mode, build failures and work-size errors, the cap on
// kernels in flight, and kernels that fail after their outputs were published.
#include "host_runtime.hpp"
#include "kernels.hpp"

#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/task_error.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <thread>

namespace cei::test {
namespace {

using rt::Dir;
using rt::VersionPtr;

struct Call {
  std::shared_ptr<HostTask> task;
  std::shared_ptr<HostVersion> result;
};

// Submits ce(inputs...) with a fresh result version, like the Analyzer would; `rank`: its upward_s.
Call call(rt::Platform& p, const rt::CeInfo& ce, std::vector<VersionPtr> inputs, float rank = 0) {
  std::vector<rt::TaskArg> args;
  for (std::size_t i = 0; i < ce.nparams; ++i) {
    rt::TaskArg a{ce.params[i].dir, ce.params[i].type, inputs.at(i), nullptr};
    if (a.dir != Dir::In) a.out = std::make_shared<HostVersion>(*a.type);
    args.push_back(a);
  }
  Call c;
  if (ce.result) {
    c.result = std::make_shared<HostVersion>(*ce.result);
    args.push_back({Dir::Out, ce.result, nullptr, c.result});
  }
  c.task = std::make_shared<HostTask>(ce, std::move(args));
  c.task->rank = rank;
  p.submit(c.task);
  return c;
}

opencl::Options options(bool naive = false, std::size_t cap = 0) {
  opencl::Options o;
  o.naive = naive;
  o.mem_cap = cap;
  return o;
}

std::unique_ptr<opencl::OpenCLPlatform> pocl(opencl::Options o = options()) {
  auto p = opencl::make_platform("opencl0", "", o);
  if (!p) throw std::runtime_error("no OpenCL device (PoCL expected)");
  return p;
}

IVec iota(std::size_t n, int from = 0) {
  IVec v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

FVec filled(std::size_t n, float value) {
  FVec v(n);
  std::fill(v.begin(), v.end(), value);
  return v;
}

template <typename Pred>
bool eventually(Pred pred) {
  for (int i = 0; i < 1000 && !pred(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return pred();
}

TEST(OpenCLPlatform, DiscoversDevicesInIcdOrder) {
  auto devices = opencl::list_devices();
  ASSERT_FALSE(devices.empty());
  auto all = opencl::make_platforms("", options());
  ASSERT_EQ(all.size(), devices.size());
  EXPECT_EQ(all[0]->name(), "opencl0");
  EXPECT_STREQ(all[0]->kind(), "opencl");
  EXPECT_TRUE(opencl::make_platforms("no such device name", options()).empty());
}

TEST(OpenCLPlatform, KernelsMatchNativeVersions) {
  auto p = pocl();
  ASSERT_TRUE(p->can_run(add_ce));
  FVec a(1000), b(1000);
  for (int i = 0; i < 1000; ++i) a(i) = 0.5f * i, b(i) = 3.f - i;
  auto sum = call(*p, add_ce, {HostVersion::of(a), HostVersion::of(b)});
  auto scaled = call(*p, scale_ce, {sum.result, HostVersion::of(2.5f)});
  FVec got = scaled.result->get<FVec>();
  ASSERT_EQ(got.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_FLOAT_EQ(got(i), (a(i) + b(i)) * 2.5f) << i;

  const int n = 24;
  IMat A(n, n), B(n, n), C(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = i - j, B(i, j) = (i * 7 + j) % 5;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) C(i, j) += A(i, k) * B(k, j);
  auto mm = call(*p, matmul_ce, {HostVersion::of(A), HostVersion::of(B)});
  EXPECT_EQ(mm.result->get<IMat>(), C);
  mm.task->wait();
  EXPECT_GT(mm.task->timing().bytes_in, 0u);
  EXPECT_EQ(mm.task->timing().version_index, -1);
}

TEST(OpenCLPlatform, ChainOfTenKernelsMovesTheDatumOnceEachWay) {
  auto p = pocl();
  const std::size_t n = 1 << 16;
  VersionPtr v = HostVersion::of(iota(n));
  std::vector<Call> calls;
  // Submitted all at once, before any input is ready: the device chains them by events.
  for (int i = 0; i < 10; ++i) {
    calls.push_back(call(*p, inc_ce, {v}));
    v = calls.back().result;
  }
  EXPECT_EQ(calls.back().result->get<IVec>(), iota(n, 10));
  for (auto& c : calls) c.task->wait();
  opencl::Stats s = p->stats();
  EXPECT_EQ(s.bytes_to_device, n * sizeof(int));
  EXPECT_EQ(s.bytes_to_host, n * sizeof(int));
  EXPECT_EQ(s.writes, 1u);
  EXPECT_EQ(s.reads, 1u);
  EXPECT_EQ(s.kernels, 10u);
  EXPECT_GT(s.kernel_s, 0);
}

TEST(OpenCLPlatform, PinnedCopiesCarryTheValuesBothWays) {
  // A GPU's copies go through pinned chunks (on by default there, off on a CPU device): uploads
  // copied in on the launching thread, reads copied out when they complete, chunks reused.
  for (bool pinned : {true, false}) {
    opencl::Options o = options();
    o.pinned = pinned;
    auto p = pocl(o);
    std::size_t copies = 0;
    for (int round = 0; round < 3; ++round) {
      std::vector<Call> calls;
      for (int i = 0; i < 6; ++i)
        calls.push_back(call(*p, inc_ce, {HostVersion::of(iota(1000 + 100 * i, round + i))}));
      for (int i = 0; i < 6; ++i)
        EXPECT_EQ(calls[i].result->get<IVec>(), iota(1000 + 100 * i, round + i + 1));
      copies += 12;
    }
    p->shutdown();
    const opencl::Stats s = p->stats();
    EXPECT_EQ(s.writes + s.reads, copies);
    EXPECT_EQ(s.pinned_copies, pinned ? copies : 0u) << "pinned " << pinned;
  }
}

TEST(OpenCLPlatform, InOrderQueueKeepsChainsAndRenamingRight) {
  opencl::Options o = options();
  o.in_order = true;  // completions come one callback per flush: order must hold
  auto p = pocl(o);
  const std::size_t n = 1 << 14;
  std::vector<Call> calls;
  VersionPtr v = HostVersion::of(iota(n));
  for (int i = 0; i < 10; ++i) {
    calls.push_back(call(*p, inc_ce, {v}));
    v = calls.back().result;
  }
  auto neg = call(*p, negate_ce, {v});
  IVec expected = iota(n, 10);
  for (auto& x : expected) x = -x;
  EXPECT_EQ(std::static_pointer_cast<HostVersion>(neg.task->args()[0].out)->get<IVec>(), expected);
  EXPECT_EQ(calls.back().result->get<IVec>(), iota(n, 10));  // renamed: the input is intact
  p->shutdown();                                             // the counts are the completed tasks'
  EXPECT_EQ(p->stats().writes, 2u);  // the first input, and the renaming copy
}

TEST(OpenCLPlatform, CompletionsRunOnThePlatformsThreadNotTheDrivers) {
  // A driver's callback thread holds driver locks while it calls back (NVIDIA's hung when
  // completions ran there): it only hands them to the platform's own thread. Both queue kinds.
  for (std::size_t queues : {0, 2}) {
    opencl::Options o = options();
    o.queues = queues;
    auto p = pocl(o);
    auto first = HostVersion::pending<IVec>();
    std::vector<Call> calls;
    VersionPtr v = first;
    for (int i = 0; i < 8; ++i) {
      calls.push_back(call(*p, inc_ce, {v}));
      v = calls.back().result;
    }
    first->publish_host(new IVec(iota(256)));
    for (auto& c : calls) {
      c.task->wait();
      EXPECT_EQ(c.task->finished_on, "cei-opencl0") << queues << " queues";
    }
    EXPECT_EQ(calls.back().result->get<IVec>(), iota(256, 8));
    p->shutdown();
  }
}

TEST(OpenCLPlatform, InOrderQueuesCompleteABurstWithOneCallback) {
  // Several in-order queues, as a GPU gets: the one callback of the flush completes every kernel
  // of the burst, in order.
  opencl::Options o = options();
  o.queues = 3;
  auto p = pocl(o);
  const std::size_t n = 1 << 12;
  auto first = HostVersion::pending<IVec>();
  std::vector<Call> calls;
  VersionPtr v = first;
  for (int i = 0; i < 40; ++i) {
    calls.push_back(call(*p, inc_ce, {v}));
    v = calls.back().result;
  }
  // Every launch of the chain in one burst, on this thread, once its input exists.
  first->publish_host(new IVec(iota(n)));
  EXPECT_EQ(calls.back().result->get<IVec>(), iota(n, 40));
  for (auto& c : calls) {
    c.task->wait();
    EXPECT_EQ(c.task->timing().version_index, -1);
  }
  p->shutdown();
  const opencl::Stats s = p->stats();
  EXPECT_EQ(s.kernels, 40u);
  EXPECT_EQ(s.completion_callbacks, 1u);
}

TEST(OpenCLPlatform, HeldTasksReachTheDeviceLongestRankFirst) {
  // Once the device holds the window's work, ready tasks wait on the host and go in by upward
  // rank, not as they became ready (the panel of a tiled Cholesky before the trailing update
  // queued ahead of it).
  auto p = pocl();
  const std::size_t big = 1 << 24;  // tens of ms per kernel here: the window is full at once
  call(*p, inc_ce, {HostVersion::of(iota(big))}).task->wait();  // its rate is measured
  std::vector<Call> calls;
  std::vector<VersionPtr> inputs;  // made first: making one takes about as long as a kernel
  for (int i = 0; i < 6; ++i) inputs.push_back(HostVersion::of(iota(big)));
  for (int i = 0; i < 6; ++i) calls.push_back(call(*p, inc_ce, {inputs[i]}, i == 5 ? 5.f : 0.f));
  for (auto& c : calls) c.task->wait();
  EXPECT_EQ(calls[5].result->get<IVec>(), iota(big, 1));
  // The first two fill the window; the ranked one, last to come, passes the three held before it.
  for (int i : {2, 3, 4})
    EXPECT_LT(calls[5].task->finish_order, calls[i].task->finish_order) << "task " << i;
  p->shutdown();
}

TEST(OpenCLPlatform, InOrderChainTakesADeviceInputAndAHostInputAtEachLink) {
  // Each link waits on its producer's kernel, still on the device (no host round trip), and on a
  // host value copied in on the write queue; some host values are published only after their
  // link was submitted, so that link launches from the publishing thread, mid-chain.
  opencl::Options o = options();
  o.in_order = true;
  auto p = pocl(o);
  const std::size_t n = 1 << 12;
  const int links = 30;
  FVec x(n), expected(n);
  for (std::size_t i = 0; i < n; ++i) expected(i) = x(i) = static_cast<float>(i);
  std::vector<std::shared_ptr<HostVersion>> late;
  std::vector<Call> calls;
  VersionPtr v = HostVersion::of(x);
  for (int k = 0; k < links; ++k) {
    VersionPtr host;
    if (k % 3 == 1) {
      late.push_back(HostVersion::pending<FVec>());
      host = late.back();
    } else {
      host = HostVersion::of(filled(n, static_cast<float>(k)));
    }
    for (auto& e : expected) e += static_cast<float>(k);
    calls.push_back(call(*p, add_ce, {v, host}));
    v = calls.back().result;
  }
  for (std::size_t i = 0; i < late.size(); ++i)
    late[i]->publish_host(new FVec(filled(n, static_cast<float>(3 * i + 1))));
  EXPECT_EQ(calls.back().result->get<FVec>(), expected);
  for (auto& c : calls) c.task->wait();
  p->shutdown();
  const opencl::Stats s = p->stats();
  EXPECT_EQ(s.kernels, static_cast<std::uint64_t>(links));
  EXPECT_EQ(s.writes, static_cast<std::uint64_t>(links + 1));  // x and each link's host value
  EXPECT_EQ(s.reads, 1u);                                      // the chain's end only
}

TEST(OpenCLPlatform, LaunchesFromSeveralThreadsLoseNoFlushNorCompletion) {
  // Launching threads mark queues and hand over kernels to report while the dispatcher flushes
  // and reports them: a kernel missed in between would never complete (wait() would hang).
  opencl::Options o = options();
  o.queues = 2;
  auto p = pocl(o);
  const std::size_t n = 256;
  const int threads = 4, links = 60;
  std::vector<std::vector<Call>> chains(threads);
  std::vector<std::thread> submitters;
  for (int t = 0; t < threads; ++t)
    submitters.emplace_back([&, t] {
      VersionPtr v = HostVersion::of(iota(n, 1000 * t));
      for (int k = 0; k < links; ++k) {
        chains[t].push_back(call(*p, inc_ce, {v}));
        v = chains[t].back().result;
      }
    });
  for (auto& s : submitters) s.join();
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(chains[t].back().result->get<IVec>(), iota(n, 1000 * t + links)) << t;
    for (auto& c : chains[t]) c.task->wait();
  }
  p->shutdown();
  EXPECT_EQ(p->stats().kernels, static_cast<std::uint64_t>(threads * links));
}

TEST(OpenCLPlatform, InOutOnAResidentValueRenamesItsBuffer) {
  auto p = pocl();
  auto first = call(*p, inc_ce, {HostVersion::of(iota(100))});
  auto neg = call(*p, negate_ce, {first.result});
  IVec expected = iota(100, 1);
  for (auto& x : expected) x = -x;
  EXPECT_EQ(std::static_pointer_cast<HostVersion>(neg.task->args()[0].out)->get<IVec>(), expected);
  EXPECT_EQ(first.result->get<IVec>(), iota(100, 1));  // the old version is intact
}

TEST(OpenCLPlatform, EvictionUnderASmallCapKeepsResultsRight) {
  const std::size_t n = 1 << 14, bytes = n * sizeof(int);
  auto p = pocl(options(false, 4 * bytes));
  std::vector<Call> calls;
  for (int i = 0; i < 12; ++i)
    calls.push_back(call(*p, inc_ce, {HostVersion::of(iota(n, 100 * i))}));
  std::vector<Call> second;
  for (auto& c : calls) second.push_back(call(*p, inc_ce, {c.result}));
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(second[i].result->get<IVec>(), iota(n, 100 * i + 2)) << i;
    EXPECT_EQ(calls[i].result->get<IVec>(), iota(n, 100 * i + 1)) << i;
  }
  opencl::Stats s = p->stats();
  EXPECT_GT(s.evictions, 0u);
  EXPECT_LE(s.resident_bytes, 4 * bytes);
  for (auto& c : calls) c.task->wait();
  for (auto& c : second) c.task->wait();
  calls.clear();
  second.clear();
  // Nothing leaks once the versions are gone (the last callbacks may still be on their way).
  EXPECT_TRUE(eventually([&] { return p->stats().resident_bytes == 0; }))
      << p->stats().resident_bytes;
}

TEST(OpenCLPlatform, NaiveModeCopiesInAndOutForEveryTask) {
  auto p = pocl(options(true));
  const std::size_t n = 4096;
  VersionPtr v = HostVersion::of(iota(n));
  std::vector<Call> calls;
  for (int i = 0; i < 3; ++i) {
    calls.push_back(call(*p, inc_ce, {v}));
    v = calls.back().result;
  }
  EXPECT_EQ(calls.back().result->get<IVec>(), iota(n, 3));
  opencl::Stats s = p->stats();
  EXPECT_EQ(s.bytes_to_device, 3 * n * sizeof(int));
  EXPECT_EQ(s.bytes_to_host, 3 * n * sizeof(int));
  EXPECT_EQ(s.resident_bytes, 0u);
  EXPECT_EQ(calls[0].task->timing().bytes_out, n * sizeof(int));
}

TEST(OpenCLPlatform, BuildFailureShowsTheLogWithTheKernelFile) {
  auto p = pocl();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(p->can_run(broken_ce));
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("tests/opencl/broken.cl:2:"), std::string::npos) << log;
  EXPECT_NE(log.find("undeclared_name"), std::string::npos) << log;
  EXPECT_FALSE(p->can_run(broken_ce));  // cached: no second build
  EXPECT_TRUE(p->can_run(inc_ce));
}

TEST(OpenCLPlatform, LocalSizeThatDoesNotDivideTheGlobalSizeIsAClearError) {
  auto p = pocl();
  auto c = call(*p, inc16_ce, {HostVersion::of(iota(100))});
  try {
    c.task->wait();
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("TestCEI::inc16"), std::string::npos) << what;
    EXPECT_NE(what.find("not divisible"), std::string::npos) << what;
  }
  EXPECT_EQ(c.result->state(), rt::Version::State::Failed);
}

IMat product(const IMat& A, const IMat& B) {
  const std::size_t n = A.extent(0);
  IMat C(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) C(i, j) += A(i, k) * B(k, j);
  return C;
}

// The most kernels that ran at once (from their profiled spans) for 8 independent products
// submitted together, under a cap of max_inflight.
std::uint64_t peak_kernels(std::size_t max_inflight) {
  opencl::Options o = options();
  o.max_inflight = max_inflight;
  auto p = pocl(o);
  const int n = 128;
  IMat A(n, n), B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = (i + j) % 7, B(i, j) = (i * j) % 5 - 2;
  std::vector<Call> calls;
  for (int i = 0; i < 8; ++i)
    calls.push_back(call(*p, matmul_ce, {HostVersion::of(A), HostVersion::of(B)}));
  const IMat C = product(A, B);
  for (auto& c : calls) EXPECT_EQ(c.result->get<IMat>(), C);
  p->shutdown();
  EXPECT_EQ(p->stats().kernels, 8u);
  return p->stats().peak_kernels;
}

TEST(OpenCLPlatform, KernelsRunningAtOnceStayWithinTheCap) {
  // PoCL's device is a CPU, which already spreads one kernel over every core: one at a time.
  EXPECT_EQ(pocl()->max_inflight(), 1u);
  EXPECT_EQ(peak_kernels(0), 1u);
  EXPECT_LE(peak_kernels(2), 2u);
  // What the cap prevents: uncapped, PoCL starts the ready kernels side by side — when its
  // threads get cores at once, which a loaded machine (or ThreadSanitizer) may deny a few times.
  std::uint64_t uncapped = 0;
  for (int attempt = 0; attempt < 10 && uncapped <= 1; ++attempt) uncapped = peak_kernels(64);
  EXPECT_GT(uncapped, 1u);
}

// e() is the TaskError of TestCEI::inc's kernel, the one that failed.
void expect_inc_failure(const std::function<void()>& e) {
  try {
    e();
    ADD_FAILURE() << "expected a TaskError";
  } catch (const rt::TaskError& x) {
    std::string what = x.what();
    EXPECT_EQ(x.ce(), "TestCEI::inc") << what;
    EXPECT_NE(what.find("kernel inc on opencl0 failed at execution"), std::string::npos) << what;
    EXPECT_NE(what.find("CL_OUT_OF_RESOURCES"), std::string::npos) << what;
  }
}

// On the default out-of-order queue (a callback per kernel) and on in-order queues (a callback
// per flush completes kernels that failed before it).
class KernelFailure : public ::testing::TestWithParam<std::size_t> {};

TEST_P(KernelFailure, AKernelThatFailsAfterPublishingItsOutputsFailsWhatReadsThem) {
  opencl::Options o = options();
  o.queues = GetParam();
  o.fail_kernel = "inc";  // fails at execution, once its outputs are published
  auto p = pocl(o);
  auto failed = call(*p, inc_ce, {HostVersion::of(iota(1000))});
  EXPECT_EQ(failed.result->state(), rt::Version::State::Ready);  // published at enqueue
  // A successor that reads it, and a task that does not.
  auto successor = call(*p, negate_ce, {failed.result});
  auto unrelated = call(*p, negate_ce, {HostVersion::of(iota(1000))});

  expect_inc_failure([&] { failed.result->get<IVec>(); });
  expect_inc_failure([&] { failed.task->wait(); });
  auto successor_out = std::static_pointer_cast<HostVersion>(successor.task->args()[0].out);
  expect_inc_failure([&] { successor_out->get<IVec>(); });  // the root failure, not negate's
  expect_inc_failure([&] { successor.task->wait(); });
  IVec expected = iota(1000);
  for (auto& x : expected) x = -x;
  EXPECT_EQ(std::static_pointer_cast<HostVersion>(unrelated.task->args()[0].out)->get<IVec>(),
            expected);

  // Submitted once the failure is known: not run at all.
  p->shutdown();
  const std::uint64_t kernels = p->stats().kernels;
  auto late = call(*p, negate_ce, {failed.result});
  expect_inc_failure([&] { late.task->wait(); });
  EXPECT_EQ(p->stats().kernels, kernels);
}

INSTANTIATE_TEST_SUITE_P(OpenCLPlatform, KernelFailure, ::testing::Values(0u, 2u),
                         [](const auto& info) {
                           return info.param ? std::to_string(info.param) + "InOrderQueues"
                                             : std::string("OutOfOrderQueue");
                         });

TEST(OpenCLPlatform, ProgramBinariesAreCachedOnDisk) {
  auto dir = std::filesystem::temp_directory_path() / ("cei-cl-cache-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  opencl::Options o = options();
  o.cache_dir = dir.string();
  ASSERT_TRUE(pocl(o)->can_run(inc_ce));
  std::size_t files = 0;
  for (auto& f : std::filesystem::directory_iterator(dir)) files += f.path().extension() == ".bin";
  EXPECT_EQ(files, 1u);
  auto again = pocl(o);  // a new context loads the binary
  ASSERT_TRUE(again->can_run(inc_ce));
  auto c = call(*again, inc_ce, {HostVersion::of(iota(10))});
  EXPECT_EQ(c.result->get<IVec>(), iota(10, 1));
  std::filesystem::remove_all(dir);
}

// A cache entry damaged on disk (a run killed mid-write by an older version, a full disk, a copy
// from another machine) is dropped with a warning and rebuilt: given to PoCL, a truncated binary
// segfaulted or failed its assertion `b.root_entries == dev->num_serialize_entries` in every
// later run.
TEST(OpenCLPlatform, DamagedCacheEntriesAreRebuiltNotGivenToTheDriver) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cei-cl-damaged-" + std::to_string(getpid()));
  opencl::Options o = options();
  o.cache_dir = dir.string();
  auto entry = [&] {
    for (auto& f : fs::directory_iterator(dir))
      if (f.path().extension() == ".bin") return f.path();
    return fs::path();
  };
  auto bytes = [](const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::vector<std::pair<const char*, std::function<std::string(std::string)>>> damages = {
      {"truncated or of the wrong size", [](std::string b) { return b.substr(0, b.size() / 2); }},
      {"truncated", [](std::string b) { return b.substr(0, 12); }},
      {"checksum mismatch", [](std::string b) { return b.back() ^= 0x5a, b; }},
      {"not a CEI program cache entry",
       [](std::string b) {
         return "\x7f"
                "ELF" +
                b;
       }},
      {"made for another device", [](std::string b) { return b.replace(20, 4, "XXXX"); }},
  };
  for (const auto& [why, damage] : damages) {
    fs::remove_all(dir);
    ASSERT_TRUE(pocl(o)->can_run(inc_ce));
    const fs::path f = entry();
    ASSERT_FALSE(f.empty());
    const std::string good = bytes(f);
    std::ofstream(f, std::ios::binary | std::ios::trunc) << damage(good);
    ::testing::internal::CaptureStderr();
    auto p = pocl(o);
    const bool runs = p->can_run(inc_ce);
    const std::string warning = ::testing::internal::GetCapturedStderr();
    ASSERT_TRUE(runs) << why;
    EXPECT_NE(warning.find("cei: warning: OpenCL program cache entry " + f.string() + ": " + why),
              std::string::npos)
        << warning;
    auto c = call(*p, inc_ce, {HostVersion::of(iota(10))});
    EXPECT_EQ(c.result->get<IVec>(), iota(10, 1)) << why;
    // Saved again whole: the next platform loads it without a word.
    ASSERT_TRUE(fs::exists(f)) << why;
    ::testing::internal::CaptureStderr();
    EXPECT_TRUE(pocl(o)->can_run(inc_ce));
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << why;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cei::test
