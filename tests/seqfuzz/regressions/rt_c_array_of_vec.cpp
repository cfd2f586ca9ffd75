// red-team p97 on main dfbdd4b: W2: 'for (DVec r : a)' over a built-in array read it unsynced.
// forms: built-in array DVec a[3]: a[i] inout in a loop, then const& range-for read and by-value
// range-for read
#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a[3] = {DVec{1, 2}, DVec{3, 4}, DVec{5, 6}};
  for (int i = 0; i < 3; ++i) fz::vbump(a[i], i + 1.0);
  dig::begin("r");
  for (const DVec& r : a) dig::put("r", r);
  dig::end();
  fz::vbump(a[1], 1.0);
  double s = 0;
  for (DVec r : a) s += r[0];
  dig::begin("s");
  dig::put("s", s);
  dig::end();
  return 0;
}
