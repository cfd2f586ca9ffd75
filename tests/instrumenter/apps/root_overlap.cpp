// Task data that contain one another: v as a whole (scale) and its element v[0] (a CE result
// assigned in place). The runtime keys them apart, so each call that starts from v waits for
// all of v's tasks first.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec v = {1, 2, 3};
  Vec w = {10, 20};
  ops::scale(v, 2);
  v[0] = ops::sum(w);
  ops::scale(v, 3);
  v[1] = ops::sum(v);
  std::printf("v=%ld %ld %ld\n", v[0], v[1], v[2]);
  return 0;
}
