// The run as Chrome trace events (opens in Perfetto and chrome://tracing): a process per platform,
// a track per worker thread or device queue, a slice per task (its CE, implementation, data
// versions and sizes, every platform's forecast and the policy's choice), slices for transfers
// on their own tracks, and flow arrows from each producer to the tasks that read its output.
//
//   std::ofstream out("trace.json");
//   cei::rt::trace::write_chrome_trace(recorder.snapshot(), out);
#pragma once

#include <cei/rt/trace/run_record.hpp>

#include <ostream>

namespace cei::rt::trace {

// Transfer tracks get thread ids from here on, so they sort below a platform's lanes.
inline constexpr int kTransferTrackBase = 1000;
// Tasks that overlap others on their lane (kernels of an out-of-order queue running at once) go
// to extra tracks of that lane, "queue 0 (2)", ...: lane L's k-th extra track (k >= 1) has thread
// id kOverlapTrackBase + L * kOverlapTracksPerLane + k, the last one taking any further overlap.
inline constexpr int kOverlapTrackBase = 100000;
inline constexpr int kOverlapTracksPerLane = 64;
// Tracks are ordered by thread_sort_index: lane L at L * kOverlapTracksPerLane, its extra tracks
// right after it, the transfer tracks from here on.
inline constexpr long kTransferSortBase = 1L << 30;

void write_chrome_trace(const RunRecord& run, std::ostream& out);

}  // namespace cei::rt::trace
