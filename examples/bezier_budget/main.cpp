// The Bezier surface of examples/bezier (1024 x 1024 points over a 16 x 16 control net),
// block by block, under an energy budget or an accuracy ratio: the Decision Engine computes the
// blocks far from the centre (low weight, low significance) coarsely when the budget requires it.
// Writes the surface as raw float32 and, given the exact surface (the -seq twin's output),
// prints the PSNR and the largest error against it.
//
// Usage: bezier_budget [GOAL=none] [BLOCK=64] [RESOLUTION=1024] [OUT=surface.f32] [REF]
//   GOAL: none, a budget in joules (e.g. 12.5), or ratio:R (at least R of the blocks exact).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <cei/cei.hpp>

#include "budget_patch.hpp"
#include "example_main.hpp"

namespace {

constexpr int kSide = 16;

// Hills and valleys: a surface whose curvature varies over the picture, so that interpolating
// it coarsely costs more accuracy in some blocks than in others.
cei::Matrix<float> control_net() {
  cei::Matrix<float> net(kSide, kSide);
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j)
      net(i, j) = 0.5f + 0.5f * std::sin(0.9f * static_cast<float>(i)) *
                             std::cos(0.6f * static_cast<float>(j) + 0.3f * static_cast<float>(i));
  return net;
}

// 100 at the centre of the surface, down to 10 at its corners.
int weight_of(int bi, int bj, int nb) {
  const double mid = (nb - 1) / 2.0;
  const double d = std::hypot(bi - mid, bj - mid), far = std::hypot(mid, mid);
  return far > 0 ? static_cast<int>(std::lround(100 - 90 * d / far)) : 100;
}

[[noreturn]] void usage(const char* argv0, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [none|JOULES|ratio:R] [BLOCK] [RESOLUTION] [OUT.f32] [REF.f32]"
               "  (BLOCK divides RESOLUTION)\n",
               argv0, why.c_str(), argv0);
  std::exit(2);
}

std::optional<double> number(const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

int run(int argc, char** argv) {
  const std::string goal = argc > 1 ? argv[1] : "none";
  const int block = examples::positive(argc, argv, 2, 64);
  const int resolution = examples::positive(argc, argv, 3, 1024);
  const std::string out = argc > 4 ? argv[4] : "surface.f32";
  const std::string ref = argc > 5 ? argv[5] : "";
  if (block < 2 || resolution < 2 || resolution % block != 0)
    usage(argv[0], "BLOCK and RESOLUTION are whole numbers, BLOCK at least 2");
  std::optional<double> budget_j, ratio;
  if (goal.rfind("ratio:", 0) == 0) {
    ratio = number(goal.substr(6));
    if (!ratio) usage(argv[0], "GOAL ratio:R needs a number R");
  } else if (goal != "none") {
    budget_j = number(goal);
    if (!budget_j) usage(argv[0], "GOAL is none, a number of joules or ratio:R");
  }

  const int nb = resolution / block;
  const cei::Matrix<float> control = control_net();
  std::vector<cei::Matrix<float>> blocks(nb * nb);
  {
    // The group: every block below, planned together; the scope's end waits for them.
    std::optional<cei::EnergyBudget> budget;
    std::optional<cei::AccuracyRatio> accurate;
    if (budget_j) budget.emplace(*budget_j, __FILE__, __LINE__);
    if (ratio) accurate.emplace(*ratio, __FILE__, __LINE__);
    for (int bi = 0; bi < nb; ++bi)
      for (int bj = 0; bj < nb; ++bj)
        blocks[bi * nb + bj] = exact::patch(control, kSide, resolution, bi * block, bj * block,
                                            block, weight_of(bi, bj, nb));
  }

  std::vector<float> surface(static_cast<std::size_t>(resolution) * resolution);
  for (int r = 0; r < resolution; ++r)
    for (int c = 0; c < resolution; ++c)
      surface[static_cast<std::size_t>(r) * resolution + c] =
          blocks[(r / block) * nb + c / block](r % block, c % block);
  std::ofstream file(out, std::ios::binary);
  file.write(reinterpret_cast<const char*>(surface.data()),
             static_cast<std::streamsize>(surface.size() * sizeof(float)));
  if (!file.flush()) throw std::runtime_error("cannot write " + out);
  std::printf("bezier_budget: %dx%d points, block=%d tasks=%d goal=%s\n", resolution, resolution,
              block, nb * nb, goal.c_str());
  double sum = 0;
  for (float h : surface) sum += h;
  std::printf("checksum %.6f\n", sum);
  std::printf("surface written to %s\n", out.c_str());
  if (ref.empty()) return 0;

  std::vector<float> exact(surface.size());
  std::ifstream in(ref, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(exact.data()),
               static_cast<std::streamsize>(exact.size() * sizeof(float)))) {
    std::fprintf(stderr, "%s: %s: not a %dx%d float32 surface\n", argv[0], ref.c_str(), resolution,
                 resolution);
    return 2;
  }
  // PSNR over the exact surface's range of heights.
  double se = 0, worst = 0;
  const auto [lo, hi] = std::minmax_element(exact.begin(), exact.end());
  for (std::size_t i = 0; i < surface.size(); ++i) {
    const double e = static_cast<double>(surface[i]) - exact[i];
    se += e * e;
    worst = std::max(worst, std::abs(e));
  }
  const double mse = se / static_cast<double>(surface.size()), peak = *hi - *lo;
  if (mse == 0)
    std::printf("psnr_db inf\n");
  else
    std::printf("psnr_db %.2f\n", 10 * std::log10(peak * peak / mse));
  std::printf("max_abs_error %.3g\n", worst);
  return 0;
}
