// FINDING seqfuzz seed-104: policy only:cpu; class exc_late
// reduced: exit 0; line 2 end: expected `pk.n=2`, got `pk.n=3`; stderr: cei: task 2 failed and its failure policy is 'fail': CE FuzzCEI::checked failed: checked: d is zero
// forms: container, elem, exc_late, exception, field
// seqfuzz program, seed 104 (tests/seqfuzz/gen.py); chunks [24]
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
  try {  // @chunk24,container,elem,exc_late,exception,field
    double e7 = fz::checked(rows[2], 0.0);  // @chunk24,container,elem,exc_late,exception,field
    fz::iinc(pk.n, cnt[0] % 6);  // @chunk24,container,elem,exc_late,exception,field
    chk = std::fmod(chk + e7, 1009.0);  // @chunk24,container,elem,exc_late,exception,field
  } catch (const std::exception&) {  // @chunk24,container,elem,exc_late,exception,field
    std::printf("caught\n");  // @chunk24,container,elem,exc_late,exception,field
    chk = std::fmod(chk + 1.0, 1009.0);  // @chunk24,container,elem,exc_late,exception,field
  }  // @chunk24,container,elem,exc_late,exception,field
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
