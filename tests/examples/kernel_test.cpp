// Each example's OpenCL kernels against their native versions, on the first OpenCL device (PoCL in
// CI), called exactly as the CEI attributes say (work sizes, offsets, result sizes). Integer work
// must match exactly; float work within the tolerance each example's README states.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "bezier/bezier.hpp"
#include "canny/canny.hpp"
#include "canny/image_io.hpp"
#include "digits/dataset.hpp"
#include "digits/digits.hpp"
#include "matmul/matmul.hpp"
#include "opencl_runner.hpp"

namespace {

const std::string kExamples = CEI_EXAMPLES_DIR;
using Int3 = cei::Array<int, 3>;  // aliases keep template commas out of gtest macros
using Float3 = cei::Array<float, 3>;

template <typename T, std::size_t R>
cei::Array<T, R> random_array(const std::array<std::size_t, R>& extents, unsigned seed, T lo,
                              T hi) {
  std::mt19937 rng(seed);
  cei::Array<T, R> a(extents);
  for (T& v : a) {
    if constexpr (std::is_integral_v<T>)
      v = lo + static_cast<T>(rng() % static_cast<unsigned>(hi - lo + 1));
    else
      v = lo + (hi - lo) * static_cast<T>(rng() >> 8) / 16777216.f;
  }
  return a;
}

template <typename T, std::size_t R>
float max_abs_diff(const cei::Array<T, R>& a, const cei::Array<T, R>& b) {
  EXPECT_EQ(a.extents(), b.extents());
  float worst = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    worst = std::fmax(worst, std::fabs(static_cast<float>(a.data()[k] - b.data()[k])));
  return worst;
}

TEST(MatmulKernels, MultiplyAndAddEqualNative) {
  KernelFile cl(kExamples + "/matmul/matmul.cl");
  const std::size_t n = 48;
  const auto A = random_array<int, 2>({n, n}, 1, -9, 9), B = random_array<int, 2>({n, n}, 2, -9, 9);
  const cei::Matrix<int> C = matmul::multiply(A, B);
  EXPECT_EQ(cl.run<cei::Matrix<int>>("multiply", {n, n}, {}, {}, {n, n}, A, B), C);
  EXPECT_EQ(cl.run<cei::Matrix<int>>("add", {n, n}, {}, {}, {n, n}, A, C), matmul::add(A, C));
}

TEST(BezierKernels, PatchMatchesNativeWithin1e5) {
  KernelFile cl(kExamples + "/bezier/bezier.cl");
  const auto control = random_array<float, 2>({16, 16}, 7, 0.f, 1.f);
  const int side = 16, resolution = 256, row0 = 64, col0 = 128, block = 64;
  const auto native = bezier::patch(control, side, resolution, row0, col0, block);
  const auto opencl = cl.run<cei::Matrix<float>>("patch", {block, block}, {}, {}, {block, block},
                                                 control, side, resolution, row0, col0, block);
  EXPECT_LE(max_abs_diff(native, opencl), 1e-5f);
  EXPECT_GT(native(0, 0), 0.f);  // a real surface, not zeros on both sides
}

TEST(CannyKernels, EveryStageEqualsNativeOnThePhoto) {
  KernelFile cl(kExamples + "/canny/canny.cl");
  const cei::Matrix<int> frame = read_gray(CEI_DATA_DIR "/china.jpg");
  const std::size_t rows = frame.extent(0), cols = frame.extent(1);

  const auto blurred = canny::gaussian(frame);
  EXPECT_EQ(cl.run<cei::Matrix<int>>("gaussian", {rows, cols}, {}, {}, {rows, cols}, frame),
            blurred);
  const auto gradient = canny::sobel(blurred);
  EXPECT_EQ(cl.run<Int3>("sobel", {rows, cols}, {}, {}, {2, rows, cols}, blurred), gradient);
  const auto thin = canny::nonmax(gradient);
  EXPECT_EQ(cl.run<cei::Matrix<int>>("nonmax", {rows, cols}, {}, {}, {rows, cols}, gradient), thin);
  const int width = static_cast<int>(cols), low = 60, high = 150;
  const auto edges = canny::hysteresis(thin, width, low, high);
  EXPECT_EQ(cl.run<cei::Matrix<int>>("hysteresis", {rows}, {rows}, {}, {rows, cols}, thin, width,
                                     low, high),
            edges);
  long strong = 0, kept = 0;
  for (std::size_t k = 0; k < thin.size(); ++k) {
    strong += thin.data()[k] >= high;
    kept += edges.data()[k] != 0;
  }
  EXPECT_GT(kept, strong);  // hysteresis grew edges from weak pixels
}

TEST(DigitsKernels, LayersMatchNativeAndLabelsAreEqual) {
  KernelFile cl(kExamples + "/digits/digits.cl");
  const std::size_t batch = 37;
  const auto x = random_array<float, 3>({batch, 1, 64}, 3, 0.f, 1.f);
  const auto w1 = random_array<float, 1>({8 * 10}, 4, -1.f, 1.f);
  const auto w2 = random_array<float, 1>({16 * (8 * 9 + 1)}, 5, -.5f, .5f);
  const auto w3 = random_array<float, 1>({10 * 65}, 6, -.5f, .5f);

  const auto c1 = digits::conv(x, w1, 1, 8);
  EXPECT_LE(
      max_abs_diff(c1, cl.run<Float3>("conv", {batch, 8, 64}, {}, {}, {batch, 8, 64}, x, w1, 1, 8)),
      1e-5f);
  const auto r1 = digits::relu(c1);
  EXPECT_EQ(cl.run<Float3>("relu", {r1.size()}, {}, {}, c1.extents(), c1), r1);
  const auto p1 = digits::pool(r1);
  EXPECT_EQ(cl.run<Float3>("pool", {batch, 8, 16}, {}, {}, {batch, 8, 16}, r1), p1);
  const auto c2 = digits::conv(p1, w2, 8, 16);
  EXPECT_LE(max_abs_diff(c2, cl.run<Float3>("conv", {batch, 16, 16}, {}, {}, {batch, 16, 16}, p1,
                                            w2, 8, 16)),
            1e-4f);
  const auto p2 = digits::pool(digits::relu(c2));
  const auto scores = digits::dense(p2, w3, 64, 10);
  EXPECT_LE(max_abs_diff(scores, cl.run<cei::Matrix<float>>("dense", {batch, 10}, {}, {},
                                                            {batch, 10}, p2, w3, 64, 10)),
            1e-4f);
  EXPECT_EQ(cl.run<cei::Vector<int>>("classify", {batch}, {}, {}, {batch}, scores, 10),
            digits::classify(scores, 10));
}

}  // namespace
