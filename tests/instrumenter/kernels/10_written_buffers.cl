__kernel void split(__local const int* in, __global const int* odd, __constant int* acc,
                    __global const int* even) {}
