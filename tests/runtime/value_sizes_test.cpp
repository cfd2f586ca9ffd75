// The size a task's inputs are taken to have (Version::bytes()), which forecasts and profiles are
// keyed by, is the values' real size whether or not they exist yet: a value still to be produced
// by an inout task, and one an inout task updated in place, count as large as they are. Both
// counted 0 before, so the same task was profiled and forecast at different "sizes" depending on
// timing, and DynPerf compared platforms at sizes none of them had run.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

std::atomic<bool> released{false};
void held_increment(void* const* a) {  // inout v: waits for the test, then adds 1 to every element
  released.wait(false);
  for (auto& x : at<Vec>(a, 0)) ++x;
}
const rt::ParamInfo held_params[] = {{"v", rt::Dir::InOut, &rt::type_ops<Vec>()}};
const rt::NativeVersion held_versions[] = {{"ops", &held_increment}};
const rt::CeInfo held{"held_increment", "SizesCEI",    false, held_params, 1,
                      nullptr,          held_versions, 1,     nullptr};

// Can run `held` but never takes a task (its forecasts are infeasible): it only records the input
// sizes every forecast of it saw.
class SizeProbe final : public rt::Platform {
 public:
  const std::string& name() const override { return name_; }
  const char* kind() const override { return "remote"; }
  bool can_run(const rt::CeInfo& ce) const override { return &ce == &held; }
  rt::Forecast forecast(const rt::Task& t) const override {
    std::lock_guard g(mu_);
    for (const auto& a : t.args())
      if (a.in) seen_.push_back(a.in->bytes());
    rt::Forecast f;
    f.feasible = false;
    return f;
  }
  void submit(rt::TaskPtr t) override {
    t->finish(std::make_exception_ptr(std::logic_error("the probe was given a task")));
  }
  std::size_t workers() const override { return 1; }
  void shutdown() override {}
  std::vector<std::size_t> seen() const {
    std::lock_guard g(mu_);
    return seen_;
  }

 private:
  std::string name_ = "size-probe";
  mutable std::mutex mu_;
  mutable std::vector<std::size_t> seen_;
};

}  // namespace

TEST(ValueSizes, InoutChainsAreForecastAndProfiledAtTheirSize) {
  auto& runtime = rt::Runtime::instance();
  auto owned = std::make_unique<SizeProbe>();
  const SizeProbe& probe = *owned;
  runtime.add_platform(std::move(owned));

  constexpr std::size_t kLength = 777;  // a size no other test's CE uses
  constexpr std::size_t kBytes = kLength * sizeof(std::int64_t);
  Vec v(kLength, 1);
  rt::call<void>(held, rt::inout<Vec>(v));  // runs on the CPU, held until released
  rt::call<void>(held, rt::inout<Vec>(v));  // forecast while the value it reads is pending
  released = true;
  released.notify_all();
  cei::barrier();
  EXPECT_EQ(v, Vec(kLength, 3));
  // The first read the program's vector; the second the first one's output, not produced yet.
  EXPECT_EQ(probe.seen(), (std::vector<std::size_t>{kBytes, kBytes}));
  // The second updated the first one's output in place (nothing else reads it): still recorded
  // at the value's size, never at 0.
  const rt::Profiles* profiles = runtime.profiles();
  ASSERT_NE(profiles, nullptr);
  EXPECT_EQ(profiles->predict(held, 0, "cpu", kBytes).source, rt::Source::Measured);
  EXPECT_NE(profiles->predict(held, 0, "cpu", 0).source, rt::Source::Measured);
}
