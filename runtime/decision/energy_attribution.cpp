#include <cei/rt/decision/energy.hpp>

#include <algorithm>

namespace cei::rt {

const char* to_string(EnergySource s) {
  switch (s) {
    case EnergySource::Rapl:
      return "rapl";
    case EnergySource::Nvml:
      return "nvml";
    case EnergySource::PowerModel:
      return "model";
  }
  return "?";
}

namespace {

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

MeterOpener& meter_opener() {
  static MeterOpener opener;
  return opener;
}

}  // namespace

double model_energy(const PowerModel& model, Clock::time_point start, Clock::time_point end) {
  return model.active_w * std::max(0.0, seconds(end - start));
}

// ---- EnergyLedger ----

EnergyLedger::EnergyLedger(std::size_t max_pending)
    : max_pending_(std::max<std::size_t>(max_pending, 2)) {}

EnergyLedger::RunId EnergyLedger::begin() {
  std::lock_guard lock(mu_);
  if (closed_down_) return 0;
  // Stamped here: a sample split before this point was read before this instant, and the task
  // starts after it.
  const RunId id = next_++;
  open_.emplace(id, Clock::now());
  return id;
}

EnergyLedger::RunId EnergyLedger::begin(Clock::time_point since) {
  std::lock_guard lock(mu_);
  if (closed_down_) return 0;
  const RunId id = next_++;
  // What was split already cannot be claimed again.
  open_.emplace(id, sampled_ ? std::max(since, split_to_) : since);
  return id;
}

void EnergyLedger::end(RunId run, Clock::time_point start, Clock::time_point end,
                       Resolved on_final) {
  {
    std::lock_guard lock(mu_);
    auto it = open_.find(run);
    if (it != open_.end()) {
      start = std::max(start, it->second);
      open_.erase(it);
      // Split at the next sample, on the sampler's thread: nothing of the split runs here.
      closed_.emplace(run, Closed{start, std::max(start, end), 0.0, std::move(on_final)});
      return;
    }
  }
  if (on_final) on_final(0.0);  // begun after close(), or never begun: nothing was metered
}

void EnergyLedger::cancel(RunId run) {
  std::lock_guard lock(mu_);
  open_.erase(run);
}

void EnergyLedger::sample(Clock::time_point t, double joules) {
  Ready ready;
  {
    std::lock_guard lock(mu_);
    if (closed_down_) return;
    if (!sampled_) {
      sampled_ = true;
      first_t_ = last_t_ = split_to_ = t;
      first_j_ = last_j_ = joules;
      return;
    }
    t = std::max(t, last_t_);
    joules = std::max(joules, last_j_);  // a counter never runs back; a failed read repeats
    pending_.push_back({last_t_, t, joules - last_j_});
    last_t_ = t;
    last_j_ = joules;
    if (pending_.size() > max_pending_) {
      // A run open for long holds every segment back: merge the oldest two.
      pending_[1].t0 = pending_[0].t0;
      pending_[1].joules += pending_[0].joules;
      pending_.pop_front();
    }
    ready = resolve(false);
  }
  for (auto& [cb, j] : ready)
    if (cb) cb(j);
}

void EnergyLedger::close() {
  Ready ready;
  {
    std::lock_guard lock(mu_);
    if (closed_down_) return;
    closed_down_ = true;
    ready = resolve(true);
  }
  for (auto& [cb, j] : ready)
    if (cb) cb(j);
}

EnergyLedger::Ready EnergyLedger::resolve(bool final) {
  // A segment is split once no open run can have run in it: each began after its end.
  Clock::time_point limit = Clock::time_point::max();
  if (final)
    open_.clear();  // never ended: their time is idle
  else
    for (const auto& [id, since] : open_) limit = std::min(limit, since);

  std::size_t n = 0;
  while (n < pending_.size() && pending_[n].t1 <= limit) ++n;
  if (n == 0 && !final) return {};  // nothing split: nothing new is final
  if (n > 0) {
    // One sweep over the segments in order, the runs by start: each run joins the running set
    // once and leaves it once.
    std::vector<Closed*> by_start;
    by_start.reserve(closed_.size());
    for (auto& [id, c] : closed_) by_start.push_back(&c);
    std::sort(by_start.begin(), by_start.end(),
              [](const Closed* a, const Closed* b) { return a->start < b->start; });
    std::size_t next = 0;
    std::vector<Closed*> running;
    for (std::size_t i = 0; i < n; ++i) {
      const Segment& s = pending_[i];
      while (next < by_start.size() && by_start[next]->start < s.t1)
        running.push_back(by_start[next++]);
      std::erase_if(running, [&](const Closed* c) { return c->end <= s.t0; });
      split(s, running);
      split_to_ = s.t1;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  Ready ready;
  for (auto it = closed_.begin(); it != closed_.end();) {
    if (final || it->second.end <= split_to_) {
      ready.emplace_back(std::move(it->second.on_final), it->second.joules);
      it = closed_.erase(it);
    } else {
      ++it;
    }
  }
  return ready;
}

void EnergyLedger::split(const Segment& s, std::vector<Closed*>& running) {
  const double length = seconds(s.t1 - s.t0);
  if (length <= 0 || running.empty()) {
    idle_j_ += s.joules;
    return;
  }
  // F(x) = ∫ from t0 to x of 1/k(t) where k > 0; a run's share of the segment is F(end) - F(start).
  struct Event {
    Clock::time_point t;
    std::size_t run;
    bool starts;
  };
  std::vector<Event> events;
  events.reserve(2 * running.size());
  for (std::size_t i = 0; i < running.size(); ++i) {
    const Clock::time_point a = std::max(running[i]->start, s.t0);
    const Clock::time_point b = std::min(running[i]->end, s.t1);
    if (a >= b) continue;
    events.push_back({a, i, true});
    events.push_back({b, i, false});
  }
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) { return x.t < y.t; });
  std::vector<double> from(running.size(), 0.0);
  double f = 0, idle_s = 0;
  int k = 0;
  Clock::time_point prev = s.t0;
  for (const Event& e : events) {
    const double dt = seconds(e.t - prev);
    if (k > 0)
      f += dt / k;
    else
      idle_s += dt;
    prev = e.t;
    if (e.starts) {
      from[e.run] = f;
      ++k;
    } else {
      const double j = s.joules * (f - from[e.run]) / length;
      running[e.run]->joules += j;
      tasks_j_ += j;
      --k;
    }
  }
  idle_s += seconds(s.t1 - prev);
  idle_j_ += s.joules * idle_s / length;
}

EnergyTotals EnergyLedger::totals() const {
  std::lock_guard lock(mu_);
  EnergyTotals t;
  t.tasks_j = tasks_j_;
  t.idle_j = idle_j_;
  for (const Segment& s : pending_) t.pending_j += s.joules;
  t.total_j = last_j_ - first_j_;
  t.seconds = seconds(last_t_ - first_t_);
  return t;
}

// ---- MeterSampler ----

MeterSampler::MeterSampler(std::unique_ptr<EnergyMeter> meter, std::chrono::milliseconds period,
                           std::size_t max_pending)
    : meter_(std::move(meter)),
      source_(meter_->source()),
      describe_(meter_->describe()),
      ledger_(max_pending) {
  read_once();
  timer_ = Timers::shared().every(period, [this] { read_once(); });
}

MeterSampler::~MeterSampler() {
  finish();
}

std::unique_ptr<MeterSampler> MeterSampler::open_for(const PlatformConfig& p,
                                                     std::optional<unsigned> nvml_index) {
  std::unique_ptr<EnergyMeter> meter;
  if (meter_opener())
    meter = meter_opener()(p);
  else if (p.type == PlatformType::Cpu)
    meter = open_rapl_meter();
  else if (p.type == PlatformType::OpenCL && nvml_index)
    meter = open_nvml_meter(*nvml_index);
  if (!meter) return nullptr;
  // An NVML read takes 2.5-4 ms of the driver on an H100, and reads every 20 ms slowed the
  // kernels beside them (matmul 2048/256 on the GPU: 0.104 s against 0.082 s with no meter);
  // a RAPL read is a sysfs file. The period bounds how late a task's figure arrives, not its
  // accuracy: each segment's energy is split exactly, however long.
  const auto period = std::chrono::milliseconds(meter->source() == EnergySource::Nvml ? 200 : 20);
  return std::make_unique<MeterSampler>(std::move(meter), period);
}

void MeterSampler::read_once() {
  std::lock_guard lock(read_mu_);
  // A read takes milliseconds (NVML): its value belongs to the middle of it.
  const auto before = Clock::now();
  const double joules = meter_->read_joules();
  const auto after = Clock::now();
  ledger_.sample(before + (after - before) / 2, joules);
}

void MeterSampler::settle() {
  read_once();
}

EnergyTotals MeterSampler::finish() {
  {
    std::lock_guard lock(stop_mu_);
    if (stop_) return ledger_.totals();
    stop_ = true;
  }
  Timers::shared().cancel(timer_);
  read_once();
  ledger_.close();
  return ledger_.totals();
}

void set_meter_opener(MeterOpener opener) {
  meter_opener() = std::move(opener);
}

}  // namespace cei::rt
