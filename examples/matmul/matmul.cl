// OpenCL versions of MatmulCEI. Operands are row-major; the trailing parameter is the CE's result.

// C = AB for square operands (n x n): work-item (i, j) computes C[i][j].
__kernel void multiply(__global const int* a, __global const int* b, __global int* c) {
  const size_t i = get_global_id(0), j = get_global_id(1);
  const size_t n = get_global_size(1);
  int sum = 0;
  for (size_t p = 0; p < n; ++p) sum += a[i * n + p] * b[p * n + j];
  c[i * n + j] = sum;
}

// C = A + B, element-wise.
__kernel void add(__global const int* a, __global const int* b, __global int* c) {
  const size_t k = get_global_id(0) * get_global_size(1) + get_global_id(1);
  c[k] = a[k] + b[k];
}
