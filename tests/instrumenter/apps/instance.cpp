// Instance methods: the callee is inout; calls on one object run in order, on different objects
// independently.
#include <cstdio>

#include "ops.hpp"

int main() {
  Counter c;
  c.bump(3);
  c.bump(4);
  std::printf("c=%ld bumps=%ld\n", c.value, c.bumps);
  c.value = 100;
  c.bump(1);
  std::vector<Counter> cs(3);
  for (int i = 0; i < 3; ++i) cs[static_cast<std::size_t>(i)].bump(i + 10);
  std::printf("c=%ld cs=%ld %ld %ld\n", c.value, cs[0].value, cs[1].value, cs[2].value);
  Counter& alias = c;
  alias.bump(5);  // through a reference: tracked as c (a pointer, p->bump(5), is refused)
  std::printf("c=%ld\n", c.value);
  return 0;
}
