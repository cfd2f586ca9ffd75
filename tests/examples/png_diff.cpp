// png_diff A.png B.png MAX_LEVELS: exit 0 when both are gray images of the same size whose pixels
// differ by at most MAX_LEVELS gray levels; prints the largest difference either way.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "canny/image_io.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s A.png B.png MAX_LEVELS\n", argv[0]);
    return 2;
  }
  try {
    const cei::Matrix<int> a = read_gray(argv[1]), b = read_gray(argv[2]);
    if (a.extents() != b.extents()) {
      std::printf("%s and %s differ in size\n", argv[1], argv[2]);
      return 1;
    }
    int worst = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
      worst = std::max(worst, std::abs(a.data()[k] - b.data()[k]));
    std::printf("largest difference %d gray levels\n", worst);
    return worst <= std::atoi(argv[3]) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
