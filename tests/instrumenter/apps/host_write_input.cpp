// The host writes data that earlier tasks still read: the write must wait for those readers.
#include <cstdio>

#include "ops.hpp"

int main() {
  Vec a = {1, 2, 3, 4};
  long before = ops::sum(a);
  Vec doubled = ops::add(a, a);
  a[0] = 1000;  // the two tasks above must see a[0] == 1
  a.push_back(5);
  long after = ops::sum(a);
  std::printf("before=%ld doubled0=%ld after=%ld\n", before, doubled[0], after);
  return 0;
}
