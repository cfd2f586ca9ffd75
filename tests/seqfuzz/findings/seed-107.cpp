// FINDING seqfuzz seed-107: policy only:cpu; class accessor_lambda+pointer
// reduced: exit 0; line 1 end: expected `rows2=[ 6 8 10 12 14 16 ]`, got `rows2=[ 1 2 3 4 5 6 ]`; stderr: 
// forms: accessor_lambda, branch, container, elem, host_read, host_write, instance, nested, pointer
// seqfuzz program, seed 107 (tests/seqfuzz/gen.py); chunks [2, 3]
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ces.hpp"
#include "digest.hpp"

int main() {
  DVec a{3, 1, 4, 1, 5, 9};
  DVec b{2, 6, 5, 3, 5, 8};
  DVec c(6, 7.0);
  DMat M = fz::mmake(3, 4, 11.0);
  DMat P(3, 4);
  DArr av(6);
  double s1 = 4;
  double s2 = 9;
  int i1 = 5;
  double chk = 0;
  Pack pk;
  std::vector<DVec> rows(3, DVec{1, 2, 3, 4, 5, 6});
  std::vector<DMat> tiles(4, DMat(3, 4));
  std::vector<double> sc{8, 6, 7, 5, 3, 0};
  std::vector<int> cnt{1, 2, 3, 4};
  Acc acc;
  std::vector<Acc> accs(2);
  Grid g;
  auto row = [&](int k) -> DVec& { return rows[static_cast<std::size_t>(k)]; };
  auto tile = [&](int i, int j) -> DMat& { return tiles[static_cast<std::size_t>(i * 2 + j)]; };
  DVec* pv = &b;
  double* ps = &sc[1];
  DMat* pm = &P;
  Acc* pa = &accs[0];
  (void)row; (void)tile; (void)pv; (void)ps; (void)pm; (void)pa;
  fz::vbump(row(2), 4.0);  // @chunk2,accessor_lambda,elem,host_read,pointer
  chk = std::fmod(chk + c[1] + (*pv)[1], 1009.0);  // @chunk2,accessor_lambda,elem,host_read,pointer
  if (i1 % 2 == 0) {  // @chunk3,branch,container,elem,host_write,instance,nested
    accs[1].add(fz::vsum(b));  // @chunk3,branch,container,elem,host_write,instance,nested
  } else {  // @chunk3,branch,container,elem,host_write,instance,nested
    sc[3] = std::fmod(sc[3] + 1.0, 1009.0);  // @chunk3,branch,container,elem,host_write,instance,nested
  }  // @chunk3,branch,container,elem,host_write,instance,nested
  dig::begin("end");
  dig::put("a", a);
  dig::put("b", b);
  dig::put("c", c);
  dig::put("M", M);
  dig::put("P", P);
  dig::put("av", av);
  dig::put("s1", s1);
  dig::put("s2", s2);
  dig::put("i1", i1);
  dig::put("chk", chk);
  dig::put("pk", pk);
  dig::put("rows", rows);
  dig::put("tiles", tiles);
  dig::put("sc", sc);
  dig::put("cnt", cnt);
  dig::put("acc", acc);
  dig::put("accs", accs);
  dig::put("g", g);
  dig::end();
  return 0;
}
