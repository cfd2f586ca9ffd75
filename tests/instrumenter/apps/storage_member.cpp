// Item 3 of "Program storage": an instance CE's result written into a member of the same object
// (`c.hist.push_back(c.add(1))`): the host write comes after the task's write to c, as in -seq.
#include <cstdio>

#include "storage.hpp"

int main() {
  Tally c;
  c.hist.push_back(c.add(1));
  c.hist.push_back(c.add(2));
  c.total += c.add(10);
  std::printf("hist: %zu %ld %ld total=%ld\n", c.hist.size(), c.hist.front(), c.hist.back(),
              c.total);
  return 0;
}
