// Tasks on different elements of one container run at once when the elements are reached
// through an accessor lambda (inlined into the argument) or a reference local (the binding does
// not wait for the container): 4 tasks of 4 elements reach a concurrency of 4 on 4 workers.
#include <cstdio>

#include "rows.hpp"

int main() {
  std::vector<Row> A(4, Row(2, 0.0f));
  auto cell = [&](int i) -> Row& { return A[i]; };
  for (int i = 0; i < 4; ++i) vec::hold(cell(i), 100);
  const float a = A[3][0];  // waits for the tasks, before the peak is read
  std::printf("lambda: A[3][0]=%g peak=%ld\n", a, vec::peak_concurrency());
  vec::reset_peak();
  std::vector<Row> B(8, Row(2, 0.0f));
  for (int i = 4; i < 8; ++i) {
    auto& row = B[i];
    vec::hold(row, 100);
  }
  const float b = B[7][0];
  std::printf("reference: B[7][0]=%g peak=%ld\n", b, vec::peak_concurrency());
  return 0;
}
