// OpenCL versions of CannyCEI: integer arithmetic only, so results equal canny.cpp's exactly.
// Matrices are row-major; the trailing parameter of each kernel is the CE's result.

__constant int kGauss[5][5] = {{2, 4, 5, 4, 2},
                               {4, 9, 12, 9, 4},
                               {5, 12, 15, 12, 5},
                               {4, 9, 12, 9, 4},
                               {2, 4, 5, 4, 2}};

__kernel void gaussian(__global const int* image, __global int* out) {
  const int r = (int)get_global_id(0), c = (int)get_global_id(1);
  const int rows = (int)get_global_size(0), cols = (int)get_global_size(1);
  int acc = 0;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      acc += kGauss[i + 2][j + 2] *
             image[clamp(r + i, 0, rows - 1) * cols + clamp(c + j, 0, cols - 1)];
  out[r * cols + c] = (acc + 79) / 159;
}

static int direction(int gx, int gy) {
  const int ax = abs(gx), ay = abs(gy);
  if (ay * 1000 <= ax * 414) return 0;
  if (ay * 414 >= ax * 1000) return 2;
  return (gx > 0) == (gy > 0) ? 1 : 3;
}

// out[0][r][c] = |gx| + |gy|, out[1][r][c] = direction.
__kernel void sobel(__global const int* b, __global int* out) {
  const int r = (int)get_global_id(0), c = (int)get_global_id(1);
  const int rows = (int)get_global_size(0), cols = (int)get_global_size(1);
  const int u = max(r - 1, 0) * cols, m = r * cols, d = min(r + 1, rows - 1) * cols;
  const int w = max(c - 1, 0), e = min(c + 1, cols - 1);
  const int gx = (b[u + e] + 2 * b[m + e] + b[d + e]) - (b[u + w] + 2 * b[m + w] + b[d + w]);
  const int gy = (b[d + w] + 2 * b[d + c] + b[d + e]) - (b[u + w] + 2 * b[u + c] + b[u + e]);
  out[m + c] = abs(gx) + abs(gy);
  out[rows * cols + m + c] = direction(gx, gy);
}

__kernel void nonmax(__global const int* g, __global int* out) {
  const int r = (int)get_global_id(0), c = (int)get_global_id(1);
  const int rows = (int)get_global_size(0), cols = (int)get_global_size(1);
  const int k = r * cols + c;
  int kept = 0;
  if (r > 0 && c > 0 && r + 1 < rows && c + 1 < cols) {
    const int dir = g[rows * cols + k];
    const int step = dir == 0 ? 1 : dir == 1 ? cols + 1 : dir == 2 ? cols : cols - 1;
    const int mag = g[k];
    if (mag > g[k + step] && mag >= g[k - step]) kept = mag;
  }
  out[k] = kept;
}

// One work-group, one work-item per row. Weak pixels (128) turn strong (255) when an 8-neighbour
// is strong; rows are swept forwards and backwards until a whole pass changes nothing. Values only
// grow, so reading a neighbour row while its owner updates it can delay, never change, the fixed
// point: the weak pixels connected to strong ones, as the native flood fill finds.
__kernel void hysteresis(__global const int* thin, int width, int low, int high,
                         __global int* out) {
  const int r = (int)get_global_id(0), rows = (int)get_global_size(0);
  __local int changed;
  __global int* row = out + r * width;
  for (int c = 0; c < width; ++c) {
    const int v = thin[r * width + c];
    row[c] = v >= high ? 255 : v >= low ? 128 : 0;
  }
  for (;;) {
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (r == 0) changed = 0;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    int mine = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int k = 0; k < width; ++k) {
        const int c = pass == 0 ? k : width - 1 - k;
        if (row[c] != 128) continue;
        for (int i = max(r - 1, 0); i <= min(r + 1, rows - 1); ++i)
          for (int j = max(c - 1, 0); j <= min(c + 1, width - 1); ++j)
            if (out[i * width + j] == 255) row[c] = 255;
        if (row[c] == 255) mine = 1;
      }
    if (mine) changed = 1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (!changed) break;
  }
  for (int c = 0; c < width; ++c)
    if (row[c] == 128) row[c] = 0;
}
