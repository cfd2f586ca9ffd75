// Groups of tasks with an energy budget or an accuracy ratio (docs/language.md, "Energy budgets
// and accuracy ratios"): the tasks the program's thread submits while the object lives form a
// group that the Decision Engine plans together, and the object's end waits for them.
//
//   {
//     cei::EnergyBudget budget(300.0);  // joules for the tasks below
//     for (auto& tile : tiles) tile = app::render(tile, scene);
//   }                                   // waits for the group's tasks
//   {
//     cei::AccuracyRatio ratio(0.8);    // at least 80% of the tasks below accurate
//     ...
//   }
//
// In the sequential twin (NAME-seq) they do nothing, as the runtime is not there to set the hooks.
// Not copyable or movable: a group is the scope it was declared in. Bad values (a budget that is
// negative or not a number, a ratio outside [0, 1]) end the program with status 2 and a message
// naming the declaration's file and line, in both builds.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace cei {

namespace detail {
// Set by the runtime library at static initialisation; null in programs built without it.
// begin: budget_j (infinity: none), accurate_ratio (< 0: none), the declaration's file and line.
inline void (*group_begin_hook)(double budget_j, double accurate_ratio, const char* file,
                                unsigned line) = nullptr;
inline void (*group_end_hook)() = nullptr;

[[noreturn]] inline void bad_group(const char* file, unsigned line, const char* what,
                                   double value) {
  std::fprintf(stderr, "%s:%u: error: %s (got %g)\n", file, line, what, value);
  std::exit(2);
}

class Group {
 public:
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

 protected:
  Group(double budget_j, double accurate_ratio, const char* file, unsigned line) {
    if (group_begin_hook) group_begin_hook(budget_j, accurate_ratio, file, line);
  }
  // Only the end of the scope waits, as a barrier would: no exception comes from here (a task's
  // failure is thrown where the program next uses its data, as without a group).
  ~Group() {
    if (group_end_hook) group_end_hook();
  }
};
}  // namespace detail

// The tasks submitted in this scope should cost at most `joules` (forecasts, and the meters'
// figures as they come). Thread-safety: belongs to the thread that declares it; its tasks are
// those that thread submits.
class EnergyBudget : detail::Group {
 public:
  // file, line: the declaration's, as the compiler sees the call (C++20's source location type
  // is missing from the standard library as libclang 14 reads it, and ceic reads this header).
  explicit EnergyBudget(double joules, const char* file = __builtin_FILE(),
                        unsigned line = __builtin_LINE())
      : Group(checked(joules, file, line), -1.0, file, line) {}

 private:
  static double checked(double j, const char* file, unsigned line) {
    if (!(j >= 0) || std::isinf(j))
      detail::bad_group(file, line, "cei::EnergyBudget needs a finite number of joules >= 0", j);
    return j;
  }
};

// At least `ratio` (0..1) of the tasks submitted in this scope run their accurate versions; the
// others run approximate where that saves the most energy. Thread-safety as EnergyBudget.
class AccuracyRatio : detail::Group {
 public:
  explicit AccuracyRatio(double ratio, const char* file = __builtin_FILE(),
                         unsigned line = __builtin_LINE())
      : Group(std::numeric_limits<double>::infinity(), checked(ratio, file, line), file, line) {}

 private:
  static double checked(double r, const char* file, unsigned line) {
    if (!(r >= 0 && r <= 1))
      detail::bad_group(file, line, "cei::AccuracyRatio needs a ratio between 0 and 1", r);
    return r;
  }
};

}  // namespace cei
