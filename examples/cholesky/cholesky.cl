// OpenCL versions of CholeskyCEI on square row-major n x n tiles. Each element gets its updates in
// the order of the native versions (cholesky.cpp), and a*b-c is never fused, so a device with
// correctly rounded division and square root (PoCL) gives the native results bit for bit.
#pragma OPENCL FP_CONTRACT OFF

// A = L L^T in place, one work-group of n work-items (local size = global size = n), item i
// owning row i: right-looking, one column per step, every element updated in column order.
__kernel void potrf(__global float* a) {
  const size_t n = get_global_size(0), i = get_global_id(0);
  for (size_t k = 0; k < n; ++k) {
    if (i == k) a[k * n + k] = sqrt(a[k * n + k]);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i > k) a[i * n + k] = a[i * n + k] / a[k * n + k];
    barrier(CLK_GLOBAL_MEM_FENCE);
    // Reads column k (final since the barrier), writes columns k+1..i of row i: no other item
    // touches them before the next step's barrier.
    if (i > k) {
      const float l = a[i * n + k];
      for (size_t j = k + 1; j <= i; ++j) a[i * n + j] -= l * a[j * n + k];
    }
  }
  for (size_t j = i + 1; j < n; ++j) a[i * n + j] = 0.f;
}

// B = B L^-T: work-item r solves row r by forward substitution.
__kernel void trsm(__global const float* l, __global float* b) {
  const size_t n = get_global_size(0);
  __global float* row = b + get_global_id(0) * n;
  for (size_t j = 0; j < n; ++j) {
    float acc = row[j];
    for (size_t p = 0; p < j; ++p) acc -= row[p] * l[j * n + p];
    row[j] = acc / l[j * n + j];
  }
}

// C -= A A^T on the lower triangle: work-item (i, j), j <= i.
__kernel void syrk(__global const float* a, __global float* c) {
  const size_t i = get_global_id(0), j = get_global_id(1), n = get_global_size(1);
  if (j > i) return;
  float acc = c[i * n + j];
  for (size_t p = 0; p < n; ++p) acc -= a[i * n + p] * a[j * n + p];
  c[i * n + j] = acc;
}

// C -= A B^T: work-item (i, j).
__kernel void gemm(__global const float* a, __global const float* b, __global float* c) {
  const size_t i = get_global_id(0), j = get_global_id(1), n = get_global_size(1);
  float acc = c[i * n + j];
  for (size_t p = 0; p < n; ++p) acc -= a[i * n + p] * b[j * n + p];
  c[i * n + j] = acc;
}
