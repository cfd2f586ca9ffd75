// Item 1 of "Program storage" (docs/language.md, "What a task writes"): a task's result lands in
// the program's own object, whose buffer stays where it was, so a raw pointer taken before the
// call reads the new value once the program waits (cei::wait_on, cei::barrier), as in -seq.
// Built with AddressSanitizer: a buffer replaced behind the program's back is a
// heap-use-after-free here. The pointers are kept where ceic cannot see them (a global, another
// function), so only the documented wait orders the reads.
#include <cstdio>
#include <string>
#include <vector>

#include <cei/cei.hpp>

#include "storage.hpp"

namespace {
const int* kept_int = nullptr;
const float* kept_row = nullptr;
const char* kept_text = nullptr;
const long* kept_hist = nullptr;
void keep(const int* p) { kept_int = p; }
}  // namespace

int main() {
  std::vector<int> v(1000, 1);
  keep(v.data());
  store::inc(v);
  cei::wait_on(v);
  std::printf("wait_on: %d %d\n", kept_int[0], kept_int[999]);
  store::inc(v);
  store::scale(v, 3);
  cei::barrier();
  std::printf("barrier: %d %d\n", kept_int[1], kept_int[500]);

  cei::Matrix<float> m(16, 8);
  for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i);
  kept_row = &m(2, 0);
  store::twice(m);
  store::twice(m);
  cei::wait_on(m);
  std::printf("matrix row 2: %g %g\n", kept_row[0], kept_row[7]);

  std::string s(64, 'a');  // past the small-string buffer: on the heap
  kept_text = s.data();
  store::shout(s);
  cei::wait_on(s);
  std::printf("string: %c%c\n", kept_text[0], kept_text[63]);

  Tally t;
  t.hist.assign(8, 4);
  kept_hist = t.hist.data();
  t.add(5);
  cei::wait_on(t);
  std::printf("object: %ld %ld\n", kept_hist[0], t.total);

  // A result assigned to the variable replaces its value as `-seq`'s move assignment does; the
  // program's later pointers are taken after it.
  std::vector<int> w(4, 9);
  store::inc(w);
  w = v;
  store::inc(w);
  keep(w.data());
  store::inc(w);
  cei::barrier();
  std::printf("assigned: %d %zu\n", kept_int[0], w.size());
  return 0;
}
