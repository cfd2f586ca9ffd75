// A counter with a budget: v[0] is the number of steps left, each step spends one and adds 1 to
// every other element (GuardCEI, guard.cei.hpp).
#pragma once

#include <cei/array.hpp>

namespace guard {
void spend(cei::Vector<int>& v);
}  // namespace guard
