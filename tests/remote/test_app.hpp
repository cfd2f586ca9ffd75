// A tiny application for the remote tests: its CeInfo tables are written by hand, as ceic would
// generate them, so the worker and the tests share them without the instrumenter.
#pragma once

#include <cei/array.hpp>
#include <cei/rt/ce.hpp>

#include <vector>

namespace remote_test {

// scale(v, k) = v * k; add(a, b) = a + b; iota(out v, n): v = 0..n-1; bump(inout v): v[i] += 1;
// nap(ms) sleeps ms and returns ms; boom(x) throws; inc(x) = x + 1.
cei::Vector<float> scale(const cei::Vector<float>& v, float k);
cei::Vector<float> add(const cei::Vector<float>& a, const cei::Vector<float>& b);
void iota(cei::Vector<float>& v, int n);
void bump(std::vector<int>& v);
int nap(int ms);
int boom(int x);
int inc(int x);

extern const cei::rt::CeInfo ce_scale, ce_add, ce_iota, ce_bump, ce_nap, ce_boom, ce_inc;
std::vector<const cei::rt::CeInfo*> all_ces();

}  // namespace remote_test
