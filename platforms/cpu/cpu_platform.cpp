#include "cpu_platform.hpp"

#include "version_impl.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cei::rt {

struct CpuPlatform::Worker {
  CpuPlatform* platform;
  int lane;
  TaskImpl* next = nullptr;  // a task this worker's last task made ready: run it without queuing
};

namespace {
thread_local void* current_worker = nullptr;

std::size_t cpu_threads() {
  std::size_t n = std::thread::hardware_concurrency();
  if (const char* s = std::getenv("CEI_CPU_CORES")) {
    char* end = nullptr;
    unsigned long v = std::strtoul(s, &end, 10);
    if (end && *end == '\0' && v > 0) n = v;
  }
  return n ? n : 1;
}

const bool registered = register_platform_factory("cpu", [](Runtime& rt) {
  rt.add_platform(std::make_unique<CpuPlatform>(rt, "cpu", cpu_threads()));
});
}  // namespace

CpuPlatform::CpuPlatform(Runtime& rt, std::string name, std::size_t threads)
    : rt_(rt), name_(std::move(name)) {
  (void)registered;
  for (std::size_t i = 0; i < threads; ++i)
    threads_.emplace_back([this, i] {
      Worker w{this, static_cast<int>(i)};
      current_worker = &w;
      work(w);
      current_worker = nullptr;
    });
}

CpuPlatform::~CpuPlatform() {
  shutdown();
}

void CpuPlatform::shutdown() {
  queue_.stop();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

Forecast CpuPlatform::forecast(const Task& t) const {
  Forecast f;
  if (Profiles* profiles = rt_.profiles()) {
    double bytes = 0;
    for (auto& a : const_cast<Task&>(t).args())
      if (a.in) bytes += static_cast<double>(a.in->bytes());
    Prediction p = profiles->predict(t.ce(), 0, name_, bytes);
    f.exec_s = p.seconds;
    f.time_source = p.source;
  }
  double queued = static_cast<double>(queue_.size()) / static_cast<double>(workers());
  f.end_s = rt_.now_s() + queued * f.exec_s + f.exec_s;
  return f;
}

void CpuPlatform::submit(TaskPtr task) {
  TaskImpl* t = impl(task.get());  // alive until finish() through t->self
  t->waiting.store(1, std::memory_order_relaxed);
  for (auto& a : t->args()) {
    if (!a.in || a.in->state() != Version::State::Pending) continue;
    t->waiting.fetch_add(1, std::memory_order_relaxed);
    a.in->on_ready([this, t] {
      if (t->waiting.fetch_sub(1, std::memory_order_acq_rel) == 1) make_ready(t);
    });
  }
  if (t->waiting.fetch_sub(1, std::memory_order_acq_rel) == 1) make_ready(t);
}

void CpuPlatform::make_ready(TaskImpl* t) {
  auto* w = static_cast<Worker*>(current_worker);
  if (w && w->platform == this && !w->next)
    w->next = t;
  else
    queue_.push(t);
}

void CpuPlatform::work(Worker& w) {
  for (;;) {
    TaskImpl* t = w.next ? std::exchange(w.next, nullptr) : queue_.pop();
    if (!t) return;
    run(t, w.lane);
  }
}

void CpuPlatform::fetch_inputs(TaskImpl* t) {
  t->fetched_inputs = true;
  t->waiting.store(1, std::memory_order_relaxed);
  for (auto& a : t->args()) {
    if (!a.in || a.in->host()) continue;
    t->waiting.fetch_add(1, std::memory_order_relaxed);
    a.in->ensure_host([this, t](std::exception_ptr) {
      if (t->waiting.fetch_sub(1, std::memory_order_acq_rel) == 1) make_ready(t);
    });
  }
  if (t->waiting.fetch_sub(1, std::memory_order_acq_rel) == 1) make_ready(t);
}

void CpuPlatform::run(TaskImpl* t, int lane) {
  auto& args = t->args();
  for (auto& a : args) {
    if (!a.in) continue;
    if (auto e = a.in->error()) return t->finish(e);  // a failed input: do not run
    if (!a.in->host()) {
      if (t->fetched_inputs)
        return t->finish(
            std::make_exception_ptr(std::runtime_error("could not bring an input to the host")));
      return fetch_inputs(t);
    }
  }
  constexpr std::size_t kInline = 16;
  const std::size_t n = args.size();
  void* inline_ptrs[kInline];
  void* inline_fresh[kInline];
  std::vector<void*> heap;
  void** ptrs = inline_ptrs;
  void** fresh = inline_fresh;
  if (n > kInline) {
    heap.resize(2 * n);
    ptrs = heap.data();
    fresh = heap.data() + n;
  }
  const CeInfo& ce = t->ce();
  auto& tm = t->timing();
  if (tm.version_index < 0 || static_cast<std::size_t>(tm.version_index) >= ce.nversions)
    tm.version_index = 0;
  std::fill(fresh, fresh + n, nullptr);
  try {
    for (std::size_t i = 0; i < n; ++i) {
      TaskArg& a = args[i];
      switch (a.dir) {
        case Dir::In:
          ptrs[i] = a.in->host();
          break;
        case Dir::Out:
          ptrs[i] = fresh[i] = a.type->create();
          break;
        case Dir::InOut: {
          // Nothing else can read the old value: update it in place instead of copying.
          void* s = a.in.use_count() == 1 ? impl(a.in.get())->take_storage() : nullptr;
          if (!s) {
            s = fresh[i] = a.type->create();
            a.type->copy(s, a.in->host());
          }
          ptrs[i] = fresh[i] = s;
          break;
        }
      }
    }
    if (observing()) observe_task_started(*t, *this, lane);
    tm.start = Clock::now();
    ce.versions[tm.version_index].invoke(ptrs);
    tm.end = Clock::now();
  } catch (...) {
    tm.end = Clock::now();
    for (std::size_t i = 0; i < n; ++i)
      if (fresh[i]) args[i].type->destroy(fresh[i]);
    return t->finish(std::current_exception());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (fresh[i]) args[i].out->publish_host(fresh[i]);
  t->finish(nullptr);
}

}  // namespace cei::rt
