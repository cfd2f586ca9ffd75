// A relay pipeline over four nodes (tests/cluster/netns_test.sh, mode pipeline): item i is made
// by `make`, then goes through `smooth`, `rescale` and `digest`, each stage on a node of its own,
// so that each item's three vectors are made on one node and read on the next. Only the digests
// (one double per item) come back to the program, which prints their checksum and the makespan:
// from the first CE call until the last digest is read (pipeline-seq also prints each stage's
// compute time per item).
// Usage: pipeline [ITEMS=8] [MIB=8] [ROUNDS=1]  (MIB: each vector's size)
#include <chrono>
#include <cstdio>
#include <vector>

#include "example_main.hpp"
#include "pipeline.hpp"

int run(int argc, char** argv) {
  const int items = examples::positive<int>(argc, argv, 1, 8);
  const int mib = examples::positive<int>(argc, argv, 2, 8);
  const int rounds = examples::positive<int>(argc, argv, 3, 1);
  if (items == 0 || mib == 0 || mib > 256 || rounds == 0) {
    std::fprintf(stderr, "usage: %s [ITEMS] [MIB (at most 256)] [ROUNDS]\n", argv[0]);
    return 2;
  }
  const int n = mib * (1 << 20) / static_cast<int>(sizeof(float));
  const auto start = std::chrono::steady_clock::now();
  std::vector<cei::Vector<double>> digests(static_cast<std::size_t>(items));
  for (int i = 0; i < items; ++i) {
    // Not const: ceic waits for a const local's value where it is declared (docs/instrumenter.md,
    // result_declared), which would bring every vector to the program.
    cei::Vector<float> made = pipeline::make(i, n, rounds);
    cei::Vector<float> smoothed = pipeline::smooth(made, rounds);
    cei::Vector<float> rescaled = pipeline::rescale(smoothed, rounds);
    digests[static_cast<std::size_t>(i)] = pipeline::digest(rescaled, rounds);
  }
  double checksum = 0;
  for (const auto& d : digests) checksum += d(0);
  const double makespan =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("pipeline: items=%d mib=%d rounds=%d\n", items, mib, rounds);
  std::printf("checksum %.6f\n", checksum);
  std::printf("makespan_s %.3f\n", makespan);
  // pipeline-seq ran the stages here: their compute time per item (netns_test.sh's ideal).
  const double* stage = pipeline::stage_seconds();
  if (stage[0] > 0)
    std::printf("stage_s %.4f %.4f %.4f %.4f\n", stage[0] / items, stage[1] / items,
                stage[2] / items, stage[3] / items);
  return 0;
}
