// red-team p75 on main dfbdd4b: W2: 'for (double x : xs)' read xs unsynced after an out task on
// xs[1]. forms: vector<double> / std::array<double,4> elements as scalar out, then by-value
// range-for read
#include <array>
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  std::vector<double> xs(3, 0.0);
  std::array<double, 4> arr{};
  fz::sget(xs[1], a, 2);
  fz::sget(arr[2], a, 5);
  dig::begin("end");
  for (double x : xs) dig::put("x", x);
  for (double y : arr) dig::put("y", y);
  dig::end();
  return 0;
}
