// Everything the observers learn about a run, kept in memory until the run finishes, so that the
// trace, the graph and the summary are written from one consistent picture and the hot path only
// appends a small event to a buffer.
//
//   auto rec = std::make_shared<cei::rt::trace::Recorder>();
//   rec->on_finish([](const cei::rt::trace::RunRecord& r) { cei::rt::trace::write_dot(r, out); });
//   cei::rt::add_observer(rec);
#pragma once

#include <cei/rt/observer.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace cei::rt::trace {

inline const char* source_name(Source s) {
  switch (s) {
    case Source::Measured:
      return "measured";
    case Source::Regression:
      return "regression";
    case Source::Default:
      return "default";
  }
  return "?";
}

struct DataUse {
  std::string version;  // "d3v2", or the program's text: "labels[c] v1"
  Dir dir;              // In: read; Out: produced (an InOut argument gives one of each)
  std::size_t bytes;
  std::uint64_t datum = 0;  // tells apart values the program's text names alike (0: unknown)
};

struct PlatformForecast {
  std::string platform;
  Forecast forecast;
};

inline constexpr const char* kApproximateSuffix = " (approximate)";

struct TaskRecord {
  std::uint64_t id = 0;
  std::string ce;              // "multiply"
  std::string interface_name;  // "MatmulCEI"
  std::vector<DataUse> data;
  std::vector<Dependency> deps;
  std::vector<PlatformForecast> forecasts;
  int chosen = -1;  // index into forecasts
  std::string policy;
  std::string platform;  // where it ran; the chosen one until it starts
  int lane = -1;
  // The native version's declaring class, or "opencl"; kApproximateSuffix appended for an
  // approximation; "dropped" for a task that ran nothing (docs/language.md).
  std::string implementation;
  std::size_t native_versions = 0;  // the CE's (CeInfo::nversions)
  bool started = false, finished = false, failed = false;
  Clock::time_point submitted{}, start{}, end{};
  Task::Timing timing{};

  std::string qualified_ce() const { return interface_name + "::" + ce; }
};

struct TransferRecord {
  std::string platform;
  std::uint64_t task = 0;  // 0: a host sync
  std::string version;
  std::size_t bytes = 0;
  bool to_device = true;
  Clock::time_point start{}, end{};
  std::string from = {};  // to_device: the platform it came from, "" for the host
};

// Second thoughts: a queued task given back by a platform behind its forecasts and placed again.
struct ReplacementRecord {
  std::uint64_t task = 0;
  std::string from, to;
  double lag = 1;  // how many times slower than its forecasts `from` ran; 0: a device opened
  Clock::time_point at{};
};

// A platform lost (it reported itself gone), admitted again (a node answering again), or joined
// (added during the run: `joined`, `lost` false).
struct MembershipRecord {
  std::string platform;
  bool lost = true;
  Clock::time_point at{};
  bool joined = false;
};

struct PlatformRecord {
  std::string name;
  std::string kind;  // "cpu" | "opencl" | "remote"
  std::size_t workers = 0;
  Platform::Pricing prices;  // what running there costs (Platform::prices)
};

// A metered platform's last account of the run (Observer::platform_energy).
struct MeterRecord {
  std::string platform;
  std::string source;  // "rapl", "nvml"
  double tasks_j = 0, idle_j = 0, pending_j = 0, total_j = 0, seconds = 0;
};

struct RunRecord {
  Clock::time_point origin{};             // time zero of the trace
  std::vector<PlatformRecord> platforms;  // in order of first appearance
  // Each task's Timing carries its measured energy too (Observer::task_energy, added to it).
  std::vector<TaskRecord> tasks;                // by id
  std::vector<TransferRecord> transfers;        // by start
  std::vector<MeterRecord> meters;              // in order of first report
  std::vector<ReplacementRecord> replacements;  // in the order they happened
  std::vector<MembershipRecord> memberships;    // losses and re-admissions, in order
  std::vector<GroupReport> groups;              // task groups, in the order they closed

  double seconds(Clock::time_point t) const {
    return std::chrono::duration<double>(t - origin).count();
  }
  const TaskRecord* find_task(std::uint64_t id) const;
  const PlatformRecord* find_platform(const std::string& name) const;
  // From the first submission to the last end (0 for an empty run).
  double makespan_s() const;
};

// Buffers observer events (thread-safe, a short critical section on one of several shards) and
// hands the assembled RunRecord to its sinks at run_finished.
class Recorder : public Observer {
 public:
  using Sink = std::function<void(const RunRecord&)>;
  explicit Recorder(Clock::time_point origin = Clock::now());

  void on_finish(Sink s) { sinks_.push_back(std::move(s)); }
  RunRecord snapshot() const;

  void task_submitted(const Task& t, std::span<const Dependency> deps,
                      std::span<const Candidate> candidates, std::size_t chosen,
                      const char* policy) override;
  void task_started(const Task& t, const Platform& p, int lane) override;
  void task_finished(const Task& t, const Platform& p, int lane, bool failed) override;
  void transfer(const TransferEvent& e) override;
  void task_replaced(const Task& t, const Platform& from, const Platform& to, double lag) override;
  void platform_membership(const Platform& p, bool lost) override;
  void platform_joined(const Platform& p) override;
  void task_energy(std::uint64_t task, const Platform& p, double joules,
                   const char* source) override;
  void platform_energy(const Platform& p, const PlatformEnergy& e) override;
  void group_closed(const GroupReport& g) override;
  void run_finished() override;

 private:
  struct Started {
    std::uint64_t task;
    PlatformRecord platform;
    int lane;
    Clock::time_point at;
  };
  struct Finished {
    std::uint64_t task;
    PlatformRecord platform;
    int lane;
    bool failed;
    Clock::time_point at;
    Task::Timing timing;
    std::string implementation;
    std::vector<DataUse> data;  // sizes are known now: inputs were ready, outputs produced
  };
  struct Submitted {
    TaskRecord task;
    std::vector<PlatformRecord> candidates;
  };
  struct Transferred {
    TransferRecord transfer;
    PlatformRecord platform;
  };
  struct Measured {
    std::uint64_t task;
    double joules;
    const char* source;  // a static string (to_string(EnergySource))
  };
  struct Replaced {
    ReplacementRecord replacement;
    PlatformRecord from;
  };
  struct Membership {
    MembershipRecord change;
    PlatformRecord platform;
  };
  using Event = std::variant<Submitted, Started, Finished, Transferred, Measured, MeterRecord,
                             Replaced, GroupReport, Membership>;
  struct Sequenced {
    std::uint64_t seq;  // merges the shards back into the order events happened
    Event event;
  };
  struct Shard {
    mutable std::mutex mutex;
    std::vector<Sequenced> events;
  };

  void push(Event e);

  Clock::time_point origin_;
  std::atomic<std::uint64_t> seq_{0};
  std::array<Shard, 16> shards_;
  std::vector<Sink> sinks_;
};

}  // namespace cei::rt::trace
