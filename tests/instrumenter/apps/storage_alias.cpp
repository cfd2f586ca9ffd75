// Item 2 of "Program storage": references, pointers, iterators and spans into a variable, kept
// across a task that writes it, read what -seq reads: a use of one waits for the variable's
// tasks, as a use of the variable does (docs/instrumenter.md, "What the analysis sees").
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "storage.hpp"

int main() {
  std::vector<int> v(100, 1);
  int& first = v[0];
  store::inc(v);
  std::printf("reference: %d\n", first);

  std::vector<int> w(10, 2);
  auto it = w.begin();
  store::scale(w, 5);
  std::printf("iterator: %d\n", *it);
  *it = 7;  // a write through it waits too, and the next task reads it
  store::scale(w, 2);
  std::printf("written: %d %d\n", *it, w[1]);

  int* p = v.data();
  store::inc(v);
  std::printf("pointer: %d %d\n", p[1], *(p + 2));

  const int& last = *(w.end() - 1);
  store::scale(w, 3);
  std::printf("bound to *it: %d\n", last);

  long sum = 0;
  for (auto q = w.cbegin(); q != w.cend(); ++q) sum += *q;
  store::inc(v);
  std::span<int> view(v);
  store::inc(v);
  std::printf("span: %d sum=%ld\n", view[3], sum);

  std::string s = "abc";
  const char* c = s.c_str();
  store::shout(s);
  std::printf("string: %s\n", c);
  return 0;
}
