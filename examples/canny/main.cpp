// Canny edge detection over a moving sequence: FRAMES windows of 354 x 626 pixels panned
// diagonally across a real photograph, each going through four CEs (Gaussian, Sobel, non-maximum
// suppression, hysteresis): FRAMES independent chains of four tasks. Writes one edge map per
// frame as OUTDIR/edges_NN.png and prints a checksum.
// Usage: canny [FRAMES=30] [OUTDIR=canny-out] [IMAGE=<repo>/data/china.jpg]
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "canny.hpp"
#include "example_main.hpp"
#include "image_io.hpp"

#ifndef CANNY_DEFAULT_IMAGE
#define CANNY_DEFAULT_IMAGE "data/china.jpg"
#endif

namespace {

constexpr int kRows = 354, kCols = 626;
constexpr int kLow = 60, kHigh = 150;  // on |gx| + |gy| of the blurred image (0..2040)

// Frame f of n: the window moves from the photo's top-left corner to its bottom-right one.
cei::Matrix<int> frame(const cei::Matrix<int>& photo, int f, int n) {
  const int dy = static_cast<int>(photo.extent(0)) - kRows;
  const int dx = static_cast<int>(photo.extent(1)) - kCols;
  const int y = n > 1 ? dy * f / (n - 1) : 0, x = n > 1 ? dx * f / (n - 1) : 0;
  cei::Matrix<int> window(kRows, kCols);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) window(r, c) = photo(y + r, x + c);
  return window;
}

}  // namespace

int run(int argc, char** argv) {
  const int frames = examples::positive(argc, argv, 1, 30);
  const std::filesystem::path outdir = argc > 2 ? argv[2] : "canny-out";
  const std::string image = argc > 3 ? argv[3] : CANNY_DEFAULT_IMAGE;
  const cei::Matrix<int> photo = read_gray(image);
  if (frames < 1 || photo.extent(0) < kRows || photo.extent(1) < kCols) {
    std::fprintf(stderr, "usage: %s [FRAMES>=1] [OUTDIR] [IMAGE of at least %dx%d]\n", argv[0],
                 kCols, kRows);
    return 2;
  }
  std::vector<cei::Matrix<int>> input(frames);
  for (int f = 0; f < frames; ++f) input[f] = frame(photo, f, frames);

  std::vector<cei::Matrix<int>> edges(frames);
  for (int f = 0; f < frames; ++f)
    edges[f] = canny::hysteresis(canny::nonmax(canny::sobel(canny::gaussian(input[f]))), kCols,
                                 kLow, kHigh);

  std::filesystem::create_directories(outdir);
  std::uint64_t hash = 14695981039346656037ull;
  long edge_pixels = 0;
  for (int f = 0; f < frames; ++f) {
    char name[32];
    std::snprintf(name, sizeof name, "edges_%02d.png", f);
    write_gray_png((outdir / name).string(), edges[f]);
    for (int v : edges[f]) {
      edge_pixels += v != 0;
      hash = (hash ^ static_cast<std::uint32_t>(v)) * 1099511628211ull;
    }
  }
  std::printf("canny: %d frames of %dx%d from %s, tasks=%d\n", frames, kCols, kRows, image.c_str(),
              4 * frames);
  std::printf("edge pixels %ld (%.2f%%)\n", edge_pixels,
              100.0 * edge_pixels / (static_cast<double>(frames) * kRows * kCols));
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(hash));
  std::printf("edge maps written to %s/edges_00.png .. edges_%02d.png\n", outdir.c_str(),
              frames - 1);
  return 0;
}
