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

// Cumulative energy at t, interpolated between the samples around it (It: random access).
template <typename It>
std::optional<double> energy_at(It first, It last, Clock::time_point t) {
  if (first == last || t < first->t || t > std::prev(last)->t) return std::nullopt;
  auto hi = std::lower_bound(first, last, t,
                             [](const EnergySample& s, Clock::time_point v) { return s.t < v; });
  if (hi->t == t || hi == first) return hi->joules;
  auto lo = std::prev(hi);
  const double span = std::chrono::duration<double>(hi->t - lo->t).count();
  const double part = std::chrono::duration<double>(t - lo->t).count();
  return lo->joules + (hi->joules - lo->joules) * (part / span);
}

template <typename It>
std::optional<double> rise(It first, It last, Clock::time_point t0, Clock::time_point t1) {
  auto e0 = energy_at(first, last, t0);
  auto e1 = energy_at(first, last, t1);
  if (!e0 || !e1 || t1 < t0) return std::nullopt;
  return *e1 - *e0;
}

}  // namespace

std::optional<double> energy_between(std::span<const EnergySample> samples, Clock::time_point t0,
                                     Clock::time_point t1) {
  return rise(samples.begin(), samples.end(), t0, t1);
}

MeterSampler::MeterSampler(std::unique_ptr<EnergyMeter> meter, std::chrono::milliseconds period,
                           std::size_t max_samples)
    : meter_(std::move(meter)), source_(meter_->source()), max_samples_(max_samples) {
  sample_now();
  thread_ = std::thread([this, period] { loop(period); });
}

MeterSampler::~MeterSampler() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::unique_ptr<MeterSampler> MeterSampler::open_for(const PlatformConfig& p, unsigned gpu_index) {
  std::unique_ptr<EnergyMeter> meter;
  if (p.type == PlatformType::Cpu)
    meter = open_rapl_meter();
  else if (p.type == PlatformType::OpenCL &&
           (p.device_match.empty() || p.device_match.find("NVIDIA") != std::string::npos))
    meter = open_nvml_meter(gpu_index);
  if (!meter) return nullptr;
  return std::make_unique<MeterSampler>(std::move(meter), std::chrono::milliseconds(20));
}

void MeterSampler::sample_now() {
  std::lock_guard lock(mu_);  // also serialises the meter, which keeps running totals
  EnergySample s{Clock::now(), meter_->read_joules()};
  samples_.push_back(s);
  if (samples_.size() > max_samples_) samples_.pop_front();
}

void MeterSampler::loop(std::chrono::milliseconds period) {
  std::unique_lock lock(mu_);
  while (!cv_.wait_for(lock, period, [this] { return stop_; })) {
    lock.unlock();
    sample_now();
    lock.lock();
  }
}

std::optional<double> MeterSampler::energy_between(Clock::time_point t0,
                                                   Clock::time_point t1) const {
  std::lock_guard lock(mu_);
  return rise(samples_.begin(), samples_.end(), t0, t1);
}

Attribution attribute_energy(MeterSampler* sampler, const PowerModel& model,
                             Clock::time_point start, Clock::time_point end, double share) {
  if (sampler) {
    sampler->sample_now();  // so that the samples reach past `end`
    if (auto j = sampler->energy_between(start, end)) return {*j * share, sampler->source()};
  }
  const double seconds = std::max(0.0, std::chrono::duration<double>(end - start).count());
  return {model.active_w * seconds, EnergySource::PowerModel};
}

}  // namespace cei::rt
