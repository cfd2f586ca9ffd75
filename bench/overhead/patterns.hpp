// The three task graphs of the overhead benchmark, shared by both runtimes' drivers.
//   independent: N tasks without data
//   chain:       N tasks, each inout on the same datum
//   fan:         groups of 1 source (inout s) + kFan readers (in s, out o_i) + 1 sink
//                (inout s, in o_1..o_kFan): a fan-out/fan-in DAG with N tasks in all
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

inline constexpr int kFan = 7;  // sink: 1 + kFan buffers, within StarPU's default STARPU_NMAXBUFS
inline const std::vector<std::string> kPatterns{"independent", "chain", "fan"};

struct Sample {
  double us_per_task = 0;     // submission of the first task to completion of the last
  double bytes_per_task = 0;  // heap held per task that is submitted but cannot run yet
};

inline std::size_t fan_groups(std::size_t tasks) {
  return tasks / (kFan + 2);
}

}  // namespace bench
