#include "impl.hpp"

#include <cei/rt/decision/env.hpp>
#include <cei/rt/task_context.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <stdexcept>
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

// An opening platform's waiting room: the tasks that wait for the device and, once it is open,
// for their CE's kernel; its builder thread waits for the device, then builds the kernels one CE
// at a time and hands each CE's tasks to the device. Under mu unless said.
struct OpenCLPlatform::Opening {
  enum class State { Opening, Open, Gone };
  // A task with the attempt it came with: a verdict given here (Elsewhere) is for that attempt
  // only, never for a newer one the scheduler opened meanwhile (after a timeout).
  struct Held {
    rt::TaskPtr task;
    int attempt;
  };

  std::string name;  // constant
  Options options;   // constant
  rt::Clock::time_point expected_open;
  DecisionHooks hooks;  // forecasts while opening; constant once shared

  std::mutex mu;
  std::condition_variable cv;
  State state = State::Opening;
  std::string gone_why;
  std::map<const rt::OpenCLImpl*, bool> built;  // kernels built (true) or failed (false)
  std::map<const rt::OpenCLImpl*, std::vector<Held>> waiting;
  std::deque<const rt::CeInfo*> to_build;  // CEs with tasks waiting, in order of first use
  std::size_t held = 0;                    // tasks in `waiting`
  bool stopping = false;
  std::thread builder;  // started with the first task

  // Gives tasks back to the scheduler: this platform cannot run them. Through Task's verdict (the
  // platform library does not link the runtime); an attempt settled meanwhile (a timeout) is
  // left alone, and one that settles between the check and the verdict only has its next
  // attempt placed again, whose result its platform then drops.
  static void give_back(std::vector<Held>& tasks, const std::string& why) {
    for (Held& h : tasks)
      if (rt::context(*h.task).attempt() == h.attempt)
        h.task->fail(std::make_exception_ptr(std::runtime_error(why)), rt::Failure::Elsewhere);
  }
};

// Throws rt::EnvError for a value out of range; the runtime checked the same at launch.
Options Options::from_env() {
  Options o;
  const rt::OpenCLEnv e = rt::opencl_env();
  o.naive = e.naive.value_or(false);
  o.in_order = e.in_order.value_or(false);
  o.mem_cap = static_cast<std::size_t>(e.mem_cap.value_or(0));
  o.queues = static_cast<std::size_t>(e.queues.value_or(0));
  o.max_inflight = static_cast<std::size_t>(e.max_inflight.value_or(0));
  o.pinned = e.pinned;
  o.check_results = e.check_results.value_or(false);
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
  ready_.store(impl_.get(), std::memory_order_release);
}

OpenCLPlatform::OpenCLPlatform(std::string name, Options options, double expected_open_s)
    : opening_(std::make_shared<Opening>()) {
  opening_->name = std::move(name);
  opening_->options = std::move(options);
  opening_->expected_open =
      rt::Clock::now() + std::chrono::duration_cast<rt::Clock::duration>(
                             std::chrono::duration<double>(std::max(expected_open_s, 0.0)));
}

OpenCLPlatform::~OpenCLPlatform() {
  shutdown();
}

OpenCLPlatform::Impl* OpenCLPlatform::ready() const {
  return ready_.load(std::memory_order_acquire);
}

bool OpenCLPlatform::is_open() const {
  return ready() != nullptr;
}

void OpenCLPlatform::open(std::size_t device_index,
                          const std::function<void(OpenCLPlatform&)>& setup) {
  auto devices = all_devices();
  if (device_index >= devices.size())
    throw std::runtime_error("OpenCL device " + std::to_string(device_index) + " not found");
  impl_ = std::make_shared<Impl>(*this, opening_->name, devices[device_index], opening_->options);
  setup(*this);
  ready_.store(impl_.get(), std::memory_order_release);
  std::lock_guard g(opening_->mu);
  opening_->state = Opening::State::Open;
  opening_->cv.notify_all();
}

void OpenCLPlatform::gone(const std::string& why) {
  std::vector<Opening::Held> back;
  {
    std::lock_guard g(opening_->mu);
    opening_->state = Opening::State::Gone;
    opening_->gone_why = why;
    for (auto& [cl, tasks] : opening_->waiting) back.insert(back.end(), tasks.begin(), tasks.end());
    opening_->waiting.clear();
    opening_->to_build.clear();
    opening_->held = 0;
    opening_->cv.notify_all();
  }
  std::fprintf(stderr, "cei: warning: %s: %s; its %zu task(s) go to other platforms\n",
               opening_->name.c_str(), why.c_str(), back.size());
  Opening::give_back(back, opening_->name + ": " + why);
}

const std::string& OpenCLPlatform::name() const {
  return opening_ ? opening_->name : impl_->name;
}
const DeviceInfo& OpenCLPlatform::device() const {
  return impl_->device.info;
}
const Options& OpenCLPlatform::options() const {
  return opening_ ? opening_->options : impl_->options;
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
  if (!opening_) return impl_->buildable(ce);
  // Until its build says otherwise: the build runs when a task comes, off the caller's thread.
  std::lock_guard g(opening_->mu);
  if (opening_->state == Opening::State::Gone) return false;
  auto it = opening_->built.find(ce.opencl);
  return it == opening_->built.end() || it->second;
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
  if (opening_) {  // and those waiting for their kernel's build, which run first
    std::lock_guard g(opening_->mu);
    e.tasks_in_flight += static_cast<int>(opening_->held);
  }
  rt::Forecast& f = e.own;
  f.transfer_s = e.transfer_s;
  f.exec_s = rate > 0 ? rate * std::max(e.input_bytes, 1.0) : 1e-3;
  f.time_source = rate > 0 ? rt::Source::Measured : rt::Source::Default;
  f.end_s = seconds_since_start() + e.tasks_in_flight * f.exec_s + f.transfer_s + f.exec_s;
  return e;
}

rt::Forecast OpenCLPlatform::forecast(const rt::Task& t) const {
  if (ready()) {
    Estimate e = estimate(t);
    return impl_->hooks.forecast ? impl_->hooks.forecast(t, e) : e.own;
  }
  // Still opening: every input is to be copied, behind the tasks held, once the device is open.
  Estimate e;
  for (const auto& a : t.args())
    if (a.in) e.input_bytes += static_cast<double>(a.in->bytes());
  e.missing_bytes = e.input_bytes;
  e.transfer_s = e.missing_bytes / 4e9;
  const auto now = rt::Clock::now();
  {
    std::lock_guard g(opening_->mu);
    if (opening_->state == Opening::State::Gone) return {.feasible = false};
    e.tasks_in_flight = static_cast<int>(opening_->held);
  }
  // Late past its expected time: soon, for all it knows.
  e.opening_s = std::max(0.0, std::chrono::duration<double>(opening_->expected_open - now).count());
  rt::Forecast& f = e.own;
  f.transfer_s = e.transfer_s;
  f.exec_s = 1e-3;
  f.end_s = seconds_since_start() + e.opening_s + (e.tasks_in_flight + 1) * f.exec_s + f.transfer_s;
  rt::Forecast out = opening_->hooks.forecast ? opening_->hooks.forecast(t, e) : e.own;
  out.opening = true;
  return out;
}

void OpenCLPlatform::set_decision_hooks(DecisionHooks hooks) {
  (impl_ ? impl_->hooks : opening_->hooks) = std::move(hooks);
}

void OpenCLPlatform::set_trace_hooks(TraceHooks hooks) {
  impl_->trace = hooks;
}

void OpenCLPlatform::submit(rt::TaskPtr t) {
  if (!opening_) return impl_->submit(std::move(t));
  const rt::OpenCLImpl* cl = t->ce().opencl;
  Opening& o = *opening_;
  std::unique_lock g(o.mu);
  if (o.state == Opening::State::Open)
    if (auto it = o.built.find(cl); it != o.built.end() && it->second) {
      g.unlock();
      return impl_->submit(std::move(t));
    }
  std::vector<Opening::Held> back{{t, rt::context(*t).attempt()}};
  if (o.state == Opening::State::Gone || o.built.contains(cl)) {
    const std::string why =
        o.name + ": " +
        (o.state == Opening::State::Gone
             ? o.gone_why
             : "the kernel of CE " + std::string(t->ce().name) + " did not build");
    g.unlock();
    return Opening::give_back(back, why);
  }
  auto& waiting = o.waiting[cl];
  if (waiting.empty()) o.to_build.push_back(&t->ce());
  waiting.push_back(std::move(back.front()));
  ++o.held;
  if (!o.builder.joinable()) o.builder = std::thread([this] { build_kernels(); });
  o.cv.notify_all();
}

void OpenCLPlatform::build_kernels() {
  Opening& o = *opening_;
  std::unique_lock g(o.mu);
  for (;;) {
    o.cv.wait(
        g, [&] { return o.stopping || (o.state == Opening::State::Open && !o.to_build.empty()); });
    if (o.stopping) return;
    const rt::CeInfo& ce = *o.to_build.front();
    o.to_build.pop_front();
    g.unlock();
    bool ok = false;
    try {  // a driver error is a build that failed: the CE runs elsewhere
      ok = impl_->buildable(ce);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cei: %s: building the kernel of CE %s: %s\n", o.name.c_str(), ce.name,
                   e.what());
    }
    g.lock();
    o.built[ce.opencl] = ok;
    std::vector<Opening::Held> tasks = std::move(o.waiting[ce.opencl]);
    o.waiting.erase(ce.opencl);
    o.held -= tasks.size();
    g.unlock();
    if (ok)
      for (Opening::Held& h : tasks) impl_->submit(std::move(h.task));
    else {
      std::fprintf(stderr, "cei: %s: CE %s runs elsewhere: its kernel did not build\n",
                   o.name.c_str(), ce.name);
      Opening::give_back(tasks, o.name + ": the kernel of CE " + ce.name + " did not build");
    }
    g.lock();
  }
}

bool OpenCLPlatform::withdraw(rt::Task& t) {
  if (opening_) {
    // Tasks held for the device or for a kernel build are not given back (yet): they are few and
    // the device is on its way.
    std::lock_guard g(opening_->mu);
    if (opening_->state != Opening::State::Open) return false;
  }
  return impl_->withdraw(t);
}

void OpenCLPlatform::shutdown() {
  if (opening_) {
    {
      std::lock_guard g(opening_->mu);
      opening_->stopping = true;
      opening_->cv.notify_all();
    }
    if (opening_->builder.joinable()) opening_->builder.join();
  }
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
