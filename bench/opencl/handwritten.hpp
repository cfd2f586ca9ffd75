// The same work as plain, synchronous OpenCL host code: what a programmer writes without CEI.
#pragma once

#include "kernels.hpp"

#include <string>
#include <vector>

namespace cei::bench {

struct HandResult {
  double total_s = 0, transfer_s = 0;  // transfer: summed write/read event durations (all exposed)
  double kernel_s = 0;                 // summed kernel event durations
  double cpu_s = 0;                    // process CPU time over the same interval as total_s
  double submit_s = 0;                 // thread CPU time setting arguments and enqueueing kernels
  std::vector<Image> outputs;
};

// How much the program keeps on the device between kernels.
// CPU time (user + system) of the whole process so far.
double cpu_seconds();
// CPU time of the calling thread so far: unlike wall time, not inflated when a shared machine's
// load takes the core away.
double thread_cpu_seconds();

enum class Keep {
  Nothing,  // copy in, kernel, copy out for every kernel: the paper's GPU scenario
  Chain,    // copy in once per frame (matmul: per run), chain the kernels, copy out once
};

// Every frame through the one-image kernels `stages` in order (canny: gaussian, sobel, nms,
// hysteresis); on the first OpenCL device.
HandResult handwritten_pipeline(const std::vector<Image>& frames,
                                const std::vector<std::string>& stages, Keep keep);
// C = A * B, then C = C * B, `steps` times.
HandResult handwritten_matmul(const Image& A, const Image& B, int steps, Keep keep);

}  // namespace cei::bench
