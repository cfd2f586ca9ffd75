// Reference locals bound to elements (`auto& a = A[i]`): the tasks on `a` are tracked as A's
// element, the binding itself does not wait for A's other tasks, and host uses of `a` and of A
// wait for the tasks that write them.
#include <cstdio>

#include "rows.hpp"

int main() {
  std::vector<Row> A(6, Row(4, 1.0f));
  for (int i = 0; i < 6; ++i) {
    auto& a = A[i];
    vec::bump(a, static_cast<float>(i));
    vec::bump(a, 1.0f);
  }
  auto& last = A[5];
  std::printf("last=%g\n", last[2]);
  last[0] = 100.0f;
  vec::bump(last, 1.0f);
  for (const auto& a : A) std::printf("%g %g\n", a[0], a[3]);
  return 0;
}
