// Golden input: every rewriting rule of ceic once (see rewrite.expected).
#include <cstdio>

#include "ops.hpp"

struct Stats {
  long total = 0;
  Vec hist;
};

long consume(long x) { return x + 1; }

Vec by_value(Vec v) {
  v = ops::add(v, v);
  return v;
}

void by_reference(Vec& out, const Vec& in) { out = ops::add(in, in); }

int main() {
  Vec a = {1, 2, 3}, b = {4, 5, 6};
  Vec c;
  c = ops::add(a, b);
  auto d = ops::add(c, ops::add(a, b));
  ops::scale(d, 2);
  long n = ops::sum(d);
  std::vector<long> sums;
  sums.push_back(ops::sum(a));
  if (ops::sum(c) > 10) std::printf("big\n");
  std::printf("%ld %ld\n", n, consume(ops::sum(d)));
  Stats s;
  s.total = ops::sum(a);
  s.hist = ops::iota(3, 0);
  std::vector<long> parts(2);
  parts[1] = ops::sum(b);
  const Vec& view = c;
  std::printf("%ld %ld %zu %ld\n", s.total, parts[1], view.size(), s.hist[2]);
  a[0] = 7;
  auto twice = [n] { return n * 2; };
  for (auto& p : parts) p = ops::sum(c);
  return static_cast<int>(twice() + parts[0]);
}

long multi_line() {
  Vec a = {1, 2};
  long s = ops::sum(
      a);
  return s;  // still on its own line after the rewrite
}
