// A task's [[cei::significance]]: the CE's expression over its arguments, evaluated once when
// the scheduler decides the task's Quality (its inputs ready by then).
//
//   int s = significance_of(t.ce(), t.args());  // 100 for a CE without one
#pragma once

#include <cei/rt/platform.hpp>

#include <vector>

namespace cei::rt {

// 0..100: a value outside is clamped (the expression is the program's weight, not a promise of
// range). A value the expression cannot read (an input kept only on a device, a failed input)
// or an evaluation error (a division by zero) gives 100, the program's own result, and a warning
// naming the CE. Thread-safe.
int significance_of(const CeInfo& ce, const std::vector<TaskArg>& args);

}  // namespace cei::rt
