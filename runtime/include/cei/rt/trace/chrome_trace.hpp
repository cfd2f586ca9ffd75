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

void write_chrome_trace(const RunRecord& run, std::ostream& out);

}  // namespace cei::rt::trace
