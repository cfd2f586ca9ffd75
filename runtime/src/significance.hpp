// A task's [[cei::significance]]: the CE's expression over its arguments, evaluated once when
// the scheduler decides the task's Quality (its inputs ready by then).
//
//   int s = significance_of(t.ce(), t.args());  // 100 for a CE without one
//   if (auto s = significance_if_readable(t.ce(), t.args())) ...  // before its inputs are ready
#pragma once

#include <cei/rt/platform.hpp>

#include <optional>
#include <vector>

namespace cei::rt {

// 0..100: a value outside is clamped (the expression is the program's weight, not a promise of
// range). A value the expression cannot read (an input kept only on a device, a failed input)
// or an evaluation error (a division by zero) gives 100, the program's own result, and a warning
// naming the CE. Thread-safe.
int significance_of(const CeInfo& ce, const std::vector<TaskArg>& args);

// The same, or nullopt while an argument the expression reads is not on the host (the output of
// a task still pending): only those it reads count, so "par1" over an int parameter is known at
// once whatever the task's arrays wait for.
std::optional<int> significance_if_readable(const CeInfo& ce, const std::vector<TaskArg>& args);

}  // namespace cei::rt
