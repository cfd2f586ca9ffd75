#include <cei/rt/trace/progress.hpp>

#include <fmt/format.h>

#include <unistd.h>

namespace cei::rt::trace {

Progress::Progress(std::FILE* out)
    : Progress(out, isatty(fileno(out)) != 0,
               isatty(fileno(out)) ? std::chrono::milliseconds(100) : std::chrono::seconds(2)) {}

Progress::Progress(std::FILE* out, bool terminal, std::chrono::milliseconds interval)
    : out_(out), terminal_(terminal), interval_(interval) {}

std::string Progress::line() const {
  std::lock_guard lock(mutex_);
  return line_locked();
}

namespace {

std::string time_left(double s) {
  if (s < 1) return "<1 s";
  if (s < 120) return fmt::format("{:.0f} s", s);
  const auto m = static_cast<long>(s / 60);
  return fmt::format("{}m{:02}s", m, static_cast<long>(s) - 60 * m);
}

}  // namespace

std::string Progress::line_locked() const {
  std::string l = fmt::format("cei: {}/{} tasks", total_.done, total_.submitted);
  if (total_.submitted > 0) l += fmt::format(" ({}%)", 100 * total_.done / total_.submitted);
  const double span = std::chrono::duration<double>(last_end_ - first_start_).count();
  if (total_.done > 0 && span > 0) {
    const double rate = static_cast<double>(total_.done) / span;
    l += fmt::format("  {:.3g} tasks/s", rate);
    if (total_.submitted > total_.done)
      l += ", " + time_left(static_cast<double>(total_.submitted - total_.done) / rate) + " left";
  }
  for (const auto& [name, c] : per_platform_)
    l += fmt::format("  {} {}/{}", name, c.done, c.submitted);
  return l;
}

void Progress::maybe_print_locked(bool force) {
  const auto now = Clock::now();
  if (!force && printed_ && now - last_print_ < interval_) return;
  last_print_ = now;
  printed_ = true;
  if (terminal_)
    fmt::print(out_, "\r{}\x1b[K", line_locked());  // clear what a longer line left behind
  else
    fmt::print(out_, "{}\n", line_locked());
  std::fflush(out_);
}

void Progress::task_submitted(const Task& t, std::span<const Dependency>,
                              std::span<const Candidate> candidates, std::size_t chosen,
                              const char*) {
  const std::string platform =
      chosen < candidates.size() ? candidates[chosen].platform->name() : "?";
  std::lock_guard lock(mutex_);
  ++total_.submitted;
  ++per_platform_[platform].submitted;
  placed_[t.id()] = platform;
}

void Progress::task_started(const Task& t, const Platform& p, int) {
  std::lock_guard lock(mutex_);
  // A platform may hand a task on (a remote node that fell over): count it where it runs.
  auto it = placed_.find(t.id());
  if (it == placed_.end() || it->second == p.name()) return;
  --per_platform_[it->second].submitted;
  ++per_platform_[p.name()].submitted;
  it->second = p.name();
}

void Progress::task_finished(const Task& t, const Platform& p, int, bool) {
  std::lock_guard lock(mutex_);
  auto it = placed_.find(t.id());
  if (it != placed_.end() && it->second != p.name()) {
    --per_platform_[it->second].submitted;
    ++per_platform_[p.name()].submitted;
  }
  if (it != placed_.end()) placed_.erase(it);
  const Task::Timing& tm = t.timing();
  if (tm.start != Clock::time_point{} && tm.end >= tm.start) {
    if (total_.done == 0 || tm.start < first_start_) first_start_ = tm.start;
    if (tm.end > last_end_) last_end_ = tm.end;
  }
  ++total_.done;
  ++per_platform_[p.name()].done;
  maybe_print_locked(false);
}

void Progress::run_finished() {
  std::lock_guard lock(mutex_);
  if (total_.submitted == 0) return;
  maybe_print_locked(true);
  if (terminal_) fmt::print(out_, "\n");
  std::fflush(out_);
}

}  // namespace cei::rt::trace
