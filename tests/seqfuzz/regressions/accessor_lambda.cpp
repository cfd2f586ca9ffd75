// seqfuzz regression (issue 16): a CE argument returned by reference from an accessor lambda is
// tracked as the lambda object, not as the container it points into.
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DMat M = fz::mmake(3, 4, 11.0);
  std::vector<DMat> tiles(4, DMat(3, 4));
  auto tile = [&](int i, int j) -> DMat& { return tiles[static_cast<std::size_t>(i * 2 + j)]; };
  fz::maxpy(tile(0, 1), M, 1.0);
  dig::begin("end"); dig::put("tiles", tiles); dig::end();
  return 0;
}
