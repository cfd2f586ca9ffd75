// red-team p89m on main dfbdd4b: build error: 'vbump(ROW(1))' with '#define ROW(i) rows[i]' became
// 'inout(ROW(1), &())' (now refused). forms: minimal: CE argument written through an
// object-like/function-like macro ROW(1) -> rows[1]
#include "ces.hpp"
#include "digest.hpp"

#define ROW(i) rows[i]

int main() {
  std::vector<DVec> rows(2, DVec{1, 2, 3});
  fz::vbump(ROW(1), 5.0);
  dig::begin("end");
  dig::put("rows", rows);
  dig::end();
  return 0;
}
