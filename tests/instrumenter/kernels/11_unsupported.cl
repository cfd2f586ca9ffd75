__kernel void bump(__global int* counter, double step) { counter[0] += (int)step; }
