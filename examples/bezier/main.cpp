// A Bezier surface of 1024 x 1024 points over a seeded 16 x 16 net of control heights, computed
// block by block: BLOCK = 1024, 512, 256, 128 gives 1, 4, 16, 64 independent tasks. Writes the
// surface as a PNG height map and prints a checksum.
// Usage: bezier [BLOCK=256] [OUT=bezier.png] [RESOLUTION=1024]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bezier.hpp"
#include "example_main.hpp"
#include "image_io.hpp"

namespace {

constexpr int kSide = 16;

// Heights in [0, 1); mt19937's sequence is fixed by the standard, so every build sees this net.
cei::Matrix<float> random_control(unsigned seed) {
  std::mt19937 rng(seed);
  cei::Matrix<float> net(kSide, kSide);
  for (float& h : net) h = static_cast<float>(rng() >> 8) / 16777216.f;
  return net;
}

}  // namespace

int run(int argc, char** argv) {
  const int block = examples::positive(argc, argv, 1, 256);
  const std::string out = argc > 2 ? argv[2] : "bezier.png";
  const int resolution = examples::positive(argc, argv, 3, 1024);
  if (block < 1 || resolution < 2 || resolution % block != 0) {
    std::fprintf(stderr, "usage: %s [BLOCK] [OUT.png] [RESOLUTION]  (BLOCK divides RESOLUTION)\n",
                 argv[0]);
    return 2;
  }
  const int nb = resolution / block;
  const cei::Matrix<float> control = random_control(7);

  std::vector<cei::Matrix<float>> blocks(nb * nb);
  for (int bi = 0; bi < nb; ++bi)
    for (int bj = 0; bj < nb; ++bj)
      blocks[bi * nb + bj] =
          bezier::patch(control, kSide, resolution, bi * block, bj * block, block);

  // The surface averages the net heavily, so the height map stretches [min, max] to 0..255.
  double sum = 0;
  float lo = 1.f, hi = 0.f;
  for (const cei::Matrix<float>& b : blocks)
    for (float h : b) {
      sum += h;
      lo = std::fmin(lo, h);
      hi = std::fmax(hi, h);
    }
  const float scale = hi > lo ? 255.f / (hi - lo) : 0.f;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(resolution) * resolution);
  for (int r = 0; r < resolution; ++r)
    for (int c = 0; c < resolution; ++c) {
      const float h = blocks[(r / block) * nb + c / block](r % block, c % block);
      pixels[static_cast<std::size_t>(r) * resolution + c] =
          static_cast<std::uint8_t>(std::lround((h - lo) * scale));
    }
  write_gray_png(out, resolution, resolution, pixels);

  std::printf("bezier: %dx%d points, %dx%d control net, block=%d tasks=%d\n", resolution,
              resolution, kSide, kSide, block, nb * nb);
  std::printf("heights %.4f .. %.4f\n", lo, hi);
  std::printf("checksum %.6f\n", sum);
  std::printf("height map written to %s\n", out.c_str());
  return 0;
}
