// FINDING seqfuzz seed-105: policy only:cpu; class new
// reduced: exit 0; line 1 end: expected `pk.m=3x4[ 0 0 0 0 0 12 0 0 0 0 0 0 ]`, got `pk.m=3x4[ 0 0 0 0 0 0 0 0 0 0 0 0 ]`; stderr: 
// forms: container, field, helper, var
// seqfuzz program, seed 105 (tests/seqfuzz/gen.py); chunks [2]
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ces.hpp"
#include "digest.hpp"

double helper2(DVec& v, DMat& m, const DMat& M0, double k) {  // @chunk2,helper
  fz::vbump(v, k);  // @chunk2,helper
  fz::sget(m(1, 1), v, 2);  // @chunk2,helper
  fz::maxpy(m, M0, k);  // @chunk2,helper
  return std::fmod(v[1] + m(2, 3) + k, 1009.0);  // @chunk2,helper
}  // @chunk2,helper

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
  chk = std::fmod(chk + helper2(a, pk.m, tiles[3], s1), 1009.0);  // @chunk2,container,field,helper,var
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
