// Approximate versions and significance in the scheduler (docs/language.md, "Approximate
// versions and significance"): the significance rule, and Policy::quality deciding instead (what
// a budget policy does), with Task::significance() known when it is asked.
#include "test_ces.hpp"

#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <gtest/gtest.h>

#include <mutex>
#include <optional>
#include <vector>

using namespace test_ces;
namespace rt = cei::rt;

namespace {

// graded: x = 3x + 1 (accurate) or 3x (approximate); its significance is its level.
void accurate(void* const* a) {
  auto& x = at<std::int64_t>(a, 0);
  x = 3 * x + 1;
}
void approximate(void* const* a) {
  auto& x = at<std::int64_t>(a, 0);
  x = 3 * x;
}
const rt::ParamInfo params[] = {{"x", rt::Dir::InOut, &rt::type_ops<std::int64_t>()},
                                {"level", rt::Dir::In, &rt::type_ops<std::int64_t>()}};
const rt::NativeVersion graded_versions[] = {{"exact", &accurate, false},
                                             {"rough", &approximate, true}};
const rt::CeInfo graded{"graded", "QualityCEI", false, params,  2,      nullptr, graded_versions,
                        2,        nullptr,      {},    nullptr, "par1", false};
// skippable: accurate only, droppable.
const rt::CeInfo skippable{"skippable", "QualityCEI",    false, params,  2,
                           nullptr,     graded_versions, 1,     nullptr, {},
                           nullptr,     "par1",          true};

std::int64_t run(const rt::CeInfo& ce, std::int64_t level) {
  std::int64_t x = 2;
  rt::call<void>(ce, rt::inout<std::int64_t>(x), rt::in<std::int64_t>(level));
  return rt::sync(x);
}

// Answers `answer` for every task, and keeps the significance each one had when asked.
class Planned final : public rt::Policy {
 public:
  explicit Planned(std::optional<rt::Quality> answer) : answer_(answer) {}
  const char* name() const override { return "planned"; }
  std::size_t choose(const rt::CeInfo&, std::span<const rt::Candidate>) override { return 0; }
  std::optional<rt::Quality> quality(const rt::Task& t) override {
    std::lock_guard g(mu_);
    seen.push_back(t.significance());
    return answer_;
  }
  std::vector<int> seen;

 private:
  std::optional<rt::Quality> answer_;
  std::mutex mu_;
};

Planned& plan(std::optional<rt::Quality> answer) {
  auto p = std::make_unique<Planned>(answer);
  Planned& ref = *p;
  rt::Runtime::instance().set_policy(std::move(p));
  return ref;
}

}  // namespace

TEST(Quality, SignificanceZeroApproximatesOrDropsAndAnythingAboveRunsAccurate) {
  Planned& p = plan(std::nullopt);
  EXPECT_EQ(run(graded, 100), 7);
  EXPECT_EQ(run(graded, 1), 7);
  EXPECT_EQ(run(graded, 0), 6);      // the approximation
  EXPECT_EQ(run(graded, -5), 6);     // clamped to 0
  EXPECT_EQ(run(skippable, 0), 2);   // dropped: x as it was
  EXPECT_EQ(run(skippable, 50), 7);  // no approximation needed
  EXPECT_EQ(p.seen, (std::vector<int>{100, 1, 0, 0, 0, 50}));
}

TEST(Quality, APolicyDecidesWhatRunsWhateverTheSignificance) {
  plan(rt::Quality::Approximate);
  EXPECT_EQ(run(graded, 100), 6);
  EXPECT_EQ(run(skippable, 100), 7);  // no approximation: accurate
  plan(rt::Quality::Dropped);
  EXPECT_EQ(run(skippable, 100), 2);
  EXPECT_EQ(run(graded, 0), 7);  // not droppable: accurate, not the rule's approximation
  plan(rt::Quality::Accurate);
  EXPECT_EQ(run(graded, 0), 7);
}
