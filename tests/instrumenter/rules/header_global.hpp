// A header of header_global.cpp: inline functions that read a global, directly or through
// another inline function.
#pragma once

#include "ops.hpp"

extern Vec shared;
inline long first_of_shared() { return shared[0]; }
inline long twice_first() { return 2 * first_of_shared(); }
inline long unrelated(long x) { return x + 1; }
