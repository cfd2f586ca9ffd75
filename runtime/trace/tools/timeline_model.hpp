// A Chrome trace (as CEI writes it, or any trace of complete "X" events) reduced to what a Gantt
// chart draws: lanes grouped by process, slices with their category, and the CE names in order.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cei::trace_tool {

struct Slice {
  double start_us = 0, dur_us = 0;
  std::string name;
  bool transfer = false;   // cat "transfer"
  bool to_device = false;  // for transfers
  bool failed = false;
};

struct Lane {
  int pid = 0, tid = 0;
  std::string process, thread;
  std::vector<Slice> slices;
};

struct Timeline {
  std::vector<Lane> lanes;       // by process sort order, then thread id
  std::vector<std::string> ces;  // task names in order of first appearance (legend, colors)
  double end_us = 0;
  std::size_t tasks = 0;
  std::string policy;
};

// Throws std::runtime_error when the document holds no trace events.
Timeline load_timeline(const nlohmann::json& trace);

}  // namespace cei::trace_tool
