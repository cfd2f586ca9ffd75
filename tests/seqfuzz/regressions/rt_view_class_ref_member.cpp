// red-team p112 on main dfbdd4b: W4: accessor returning an element of a reference member was
// tracked under the view (now refused). forms: view class holding a reference to a container,
// accessor row(i) returning rows[i] of it; CE inout; host read of the container
#include "ces.hpp"
#include "digest.hpp"

struct RowsView {
  std::vector<DVec>& rows;
  DVec& row(int i) { return rows[i]; }
};

int main() {
  std::vector<DVec> rows(2, DVec{1, 2, 3});
  RowsView v{rows};
  fz::vbump(v.row(1), 2.0);
  double x = rows[1][0];
  dig::begin("end");
  dig::put("x", x);
  dig::put("rows", rows);
  dig::end();
  return 0;
}
