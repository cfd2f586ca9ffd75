// RULE: ranges_refused
// clang 14, which ceic reads sources with, cannot compile libstdc++ 12's <ranges> views (g++
// can): ceic says so at the program's line, with what to write instead, rather than print
// clang's errors inside the standard library (issue 39, item 15).
#include <ranges>
#include "rows.hpp"

// -----
void views(std::vector<Row>& table) {
  for (auto& r : table | std::views::take(2)) vec::bump(r, 1.0f);  // expected-error@24 {{ceic: clang 14, which ceic reads the source with, cannot compile this use of <ranges> views (libstdc++ 12's; g++ can): write the loop over the container itself (an index or its iterators) here}} expected-note@24 {{clang's first error:}}
}

// -----
// Near form: the loop over the container itself.
void loop(std::vector<Row>& table) {
  for (std::size_t i = 0; i < 2 && i < table.size(); ++i) vec::bump(table[i], 1.0f);
  // CHECK: ::cei::rt::inout<std::vector<float>>(table[i], "table[i]", &(table))
}
