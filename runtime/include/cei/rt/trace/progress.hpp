// Progress of a long run: tasks done / submitted with the share done, the rate tasks finish at and
// the time left for those submitted at that rate, and per platform. A program submits as it goes,
// so the count is of the tasks submitted so far. On a terminal one line rewritten in place;
// otherwise a line at most every `interval` (logs stay readable).
//
//   cei: 37/120 tasks (30%)  41.2 tasks/s, 2 s left  cpu 20/64  opencl0 17/56
//
//   cei::rt::add_observer(std::make_shared<cei::rt::trace::Progress>(stderr));
#pragma once

#include <cei/rt/observer.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace cei::rt::trace {

class Progress : public Observer {
 public:
  // `terminal`: rewrite one line with '\r'; the default asks isatty(out).
  explicit Progress(std::FILE* out);
  Progress(std::FILE* out, bool terminal, std::chrono::milliseconds interval);

  std::string line() const;

  void task_submitted(const Task& t, std::span<const Dependency> deps,
                      std::span<const Candidate> candidates, std::size_t chosen,
                      const char* policy) override;
  void task_started(const Task& t, const Platform& p, int lane) override;
  void task_finished(const Task& t, const Platform& p, int lane, bool failed) override;
  void transfer(const TransferEvent&) override {}
  void run_finished() override;

 private:
  struct Counts {
    std::size_t done = 0, submitted = 0;
  };
  std::string line_locked() const;
  void maybe_print_locked(bool force);

  std::FILE* out_;
  bool terminal_;
  std::chrono::milliseconds interval_;
  mutable std::mutex mutex_;
  std::map<std::string, Counts> per_platform_;
  std::unordered_map<std::uint64_t, std::string> placed_;  // unfinished task -> platform
  Counts total_;
  // The span the finished tasks ran over (their own timings), for the rate.
  Clock::time_point first_start_{}, last_end_{};
  Clock::time_point last_print_{};
  bool printed_ = false;
};

}  // namespace cei::rt::trace
