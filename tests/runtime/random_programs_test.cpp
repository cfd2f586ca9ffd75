// 1,000 random task programs over a few data (random directions, results, nested calls,
// temporaries, host reads and writes between tasks) give the same data as running in order.
#include "test_ces.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>

#include <gtest/gtest.h>

#include <array>
#include <random>

using namespace test_ces;
namespace rt = cei::rt;

namespace {
constexpr int kData = 4;

void run_program(std::uint32_t seed, int steps) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  std::array<Vec, kData> ref;  // the sequential program
  std::array<Vec, kData> d;    // the same program as tasks
  for (int i = 0; i < kData; ++i) ref[i] = d[i] = Vec{i + 1, 2 * i - 1, 7 - i};
  rt::Scope s0(d[0]), s1(d[1]), s2(d[2]), s3(d[3]);
  for (int step = 0; step < steps; ++step) {
    int i = pick(kData), j = pick(kData), k = pick(kData);
    std::int64_t c = pick(5) - 2;
    switch (pick(7)) {
      case 0:
        ops::scale_add(ref[i], ref[j], c);
        rt::call<void>(scale_add, rt::inout<Vec>(d[i]), rt::in<Vec>(d[j]), rt::in<std::int64_t>(c));
        break;
      case 1:
        if (i == j) j = (j + 1) % kData;
        ops::derive(ref[i], ref[j], c);
        rt::call<void>(derive, rt::in<Vec>(d[i]), rt::out<Vec>(d[j]), rt::in<std::int64_t>(c));
        break;
      case 2:
        ref[i] = ops::combine(ref[j], ref[k]);
        rt::assign(d[i], rt::call<Vec>(combine, rt::in<Vec>(d[j]), rt::in<Vec>(d[k])));
        break;
      case 3:  // the program reads a datum
        ASSERT_EQ(rt::sync_read(d[i]), ref[i]) << "seed " << seed << " step " << step;
        break;
      case 4: {  // the program writes a datum
        ref[i][0] = ref[i][0] % 1000 + c;
        Vec& v = rt::sync(d[i]);
        v[0] = v[0] % 1000 + c;
        break;
      }
      case 5:  // f(g(x), y)
        ref[i] = ops::combine(ops::combine(ref[j], ref[k]), ref[i]);
        rt::assign(
            d[i],
            rt::call<Vec>(combine,
                          rt::in<Vec>(rt::call<Vec>(combine, rt::in<Vec>(d[j]), rt::in<Vec>(d[k]))),
                          rt::in<Vec>(d[i])));
        break;
      case 6: {  // a temporary argument
        Vec tmp{c, c + 1, c + 2};
        ops::scale_add(ref[i], tmp, 0);
        rt::call<void>(scale_add, rt::inout<Vec>(d[i]), rt::in<Vec>(Vec(tmp)),
                       rt::in<std::int64_t>(0));
        break;
      }
    }
    // Keep values small so that overflow never makes the comparison meaningless.
    if (step % 8 == 7)
      for (int x = 0; x < kData; ++x) {
        for (auto& v : ref[x]) v %= 1000;
        for (auto& v : rt::sync(d[x])) v %= 1000;
      }
  }
  for (int x = 0; x < kData; ++x) ASSERT_EQ(rt::sync_read(d[x]), ref[x]) << "seed " << seed;
}
}  // namespace

TEST(RandomPrograms, ThousandProgramsMatchSequentialExecution) {
  for (std::uint32_t seed = 1; seed <= 1000; ++seed) {
    run_program(seed, 40);
    if (HasFatalFailure()) return;
  }
}
