#include "impl.hpp"

#include <cei/rt/decision/env.hpp>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace cei::opencl {

namespace {
bool runnable_type(const rt::TypeOps* t) {
  return t && t->kind != rt::TypeKind::Object && t->elem_size > 0 && t->data;
}

double seconds_since_start() {
  static const rt::Clock::time_point start = rt::Clock::now();
  return std::chrono::duration<double>(rt::Clock::now() - start).count();
}
}  // namespace

// Throws rt::EnvError for a value out of range; the runtime checked the same at launch.
Options Options::from_env() {
  Options o;
  const rt::OpenCLEnv e = rt::opencl_env();
  o.naive = e.naive.value_or(false);
  o.in_order = e.in_order.value_or(false);
  o.mem_cap = static_cast<std::size_t>(e.mem_cap.value_or(0));
  o.queues = static_cast<std::size_t>(e.queues.value_or(0));
  o.max_inflight = static_cast<std::size_t>(e.max_inflight.value_or(0));
  if (const char* v = std::getenv("CEI_OPENCL_CACHE")) o.cache_dir = v;
  if (const char* v = std::getenv("CEI_OPENCL_BUILD_OPTIONS")) o.build_options = v;
  if (const char* v = std::getenv("CEI_OPENCL_FAIL_KERNEL")) o.fail_kernel = v;
  return o;
}

OpenCLPlatform::OpenCLPlatform(std::string name, std::size_t device_index, Options options) {
  auto devices = all_devices();
  if (device_index >= devices.size())
    throw std::runtime_error("OpenCL device " + std::to_string(device_index) + " not found (" +
                             std::to_string(devices.size()) + " devices)");
  impl_ = std::make_shared<Impl>(*this, std::move(name), devices[device_index], std::move(options));
}

OpenCLPlatform::~OpenCLPlatform() {
  shutdown();
}

const std::string& OpenCLPlatform::name() const {
  return impl_->name;
}
const DeviceInfo& OpenCLPlatform::device() const {
  return impl_->device.info;
}
const Options& OpenCLPlatform::options() const {
  return impl_->options;
}

std::size_t OpenCLPlatform::max_inflight() const {
  return impl_->max_inflight;
}

unsigned OpenCLPlatform::host_cores() const {
  return impl_->host_cores;
}

bool OpenCLPlatform::can_run(const rt::CeInfo& ce) const {
  if ((!ce.opencl && !ce.opencl_approximate) || ce.is_instance) return false;
  for (std::size_t i = 0; i < ce.nparams; ++i)
    if (!runnable_type(ce.params[i].type)) return false;
  if (ce.result && !runnable_type(ce.result)) return false;
  // Both kernels, when the CE has both: the scheduler sends either kind of task here.
  for (const rt::OpenCLImpl* cl : {ce.opencl, ce.opencl_approximate})
    if (cl && !impl_->programs.kernel_for(ce, *cl).kernel) return false;
  return true;
}

Estimate OpenCLPlatform::estimate(const rt::Task& t) const {
  Estimate e;
  for (const auto& a : t.args()) {
    if (!a.in) continue;
    double b = static_cast<double>(a.in->bytes());
    e.input_bytes += b;
    if (!a.in->replica_on(*this)) e.missing_bytes += b;
  }
  double rate = 0, bandwidth = 4e9;
  {
    // Not stats(): the exposed-transfer sweep is far too slow for every forecast.
    std::lock_guard lock(impl_->stats_mu);
    const Stats& s = impl_->stats;
    if (s.write_s > 0 && s.bytes_to_device > 0)
      bandwidth = static_cast<double>(s.bytes_to_device) / s.write_s;
    if (auto it = impl_->kernel_s_per_byte.find(&t.ce()); it != impl_->kernel_s_per_byte.end())
      rate = it->second;
  }
  e.transfer_s = e.missing_bytes / bandwidth;
  e.tasks_in_flight = impl_->tasks_in_flight.load();
  rt::Forecast& f = e.own;
  f.transfer_s = e.transfer_s;
  f.exec_s = rate > 0 ? rate * std::max(e.input_bytes, 1.0) : 1e-3;
  f.time_source = rate > 0 ? rt::Source::Measured : rt::Source::Default;
  f.end_s = seconds_since_start() + e.tasks_in_flight * f.exec_s + f.transfer_s + f.exec_s;
  return e;
}

rt::Forecast OpenCLPlatform::forecast(const rt::Task& t) const {
  Estimate e = estimate(t);
  return impl_->hooks.forecast ? impl_->hooks.forecast(t, e) : e.own;
}

void OpenCLPlatform::set_decision_hooks(DecisionHooks hooks) {
  impl_->hooks = std::move(hooks);
}

void OpenCLPlatform::set_trace_hooks(TraceHooks hooks) {
  impl_->trace = hooks;
}

void OpenCLPlatform::submit(rt::TaskPtr t) {
  impl_->submit(std::move(t));
}

bool OpenCLPlatform::withdraw(rt::Task& t) {
  return impl_->withdraw(t);
}

void OpenCLPlatform::shutdown() {
  if (!impl_) return;
  while (impl_->tasks_in_flight.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    impl_->sweep_failures(true);
  }
  for (auto& q : impl_->queues) clFinish(q.get());
  impl_->settle_callbacks();
  if (impl_->hooks.settle_energy) impl_->hooks.settle_energy(true);
}

void OpenCLPlatform::settle_energy() {
  if (impl_ && impl_->hooks.settle_energy) impl_->hooks.settle_energy(false);
}

Stats OpenCLPlatform::stats() const {
  std::lock_guard lock(impl_->stats_mu);
  Stats s = impl_->stats;
  s.exposed_transfer_s = impl_->exposed_transfer_s();
  s.peak_kernels = impl_->peak_kernels();
  std::lock_guard mlock(impl_->mem_mu);
  s.resident_bytes = impl_->used;
  return s;
}

std::vector<std::unique_ptr<OpenCLPlatform>> make_platforms(const std::string& device_match,
                                                            const Options& options) {
  std::vector<std::unique_ptr<OpenCLPlatform>> out;
  std::size_t n = 0;
  for (auto& d : all_devices()) {
    if (!device_match.empty() && d.info.name.find(device_match) == std::string::npos) continue;
    out.push_back(
        std::make_unique<OpenCLPlatform>("opencl" + std::to_string(n++), d.info.index, options));
  }
  return out;
}

std::unique_ptr<OpenCLPlatform> make_platform(const std::string& name,
                                              const std::string& device_match,
                                              const Options& options) {
  for (auto& d : all_devices())
    if (d.info.name.find(device_match) != std::string::npos)
      return std::make_unique<OpenCLPlatform>(name, d.info.index, options);
  return nullptr;
}

}  // namespace cei::opencl
