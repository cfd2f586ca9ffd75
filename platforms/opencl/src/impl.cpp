#include "impl.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

namespace cei::opencl {

struct OpenCLPlatform::Impl::Callback {
  const Impl* owner;
  std::weak_ptr<Impl> impl;
  Event event;
  std::function<void(cl_int, rt::Clock::time_point)> fn;
  // Runs fn, by whoever took it from the registry: the platform's dispatcher for the driver, a
  // thread waiting in run_here(), a sweep. What fn would enqueue is posted to the dispatcher.
  // `seen`: when the event was seen complete (the driver's call, not the dispatcher's turn).
  void fire(cl_int status, rt::Clock::time_point seen = rt::Clock::now()) {
    auto keep = impl.lock();
    const bool nested = in_event_callback;
    in_event_callback = true;
    fn(status, seen);
    fn = nullptr;  // and what it captured, before counting the platform's references
    in_event_callback = nested;
    let_go(std::move(keep));
  }
  // Never destroy the platform on its own dispatcher, nor on the driver's thread (its destructor
  // waits for the queues and joins the dispatcher): the last reference goes to a thread of its own.
  static void let_go(std::shared_ptr<Impl> impl) {
    if (impl && impl.use_count() == 1) std::thread([impl = std::move(impl)] {}).detach();
  }
};

namespace {
// Every callback not run yet, by the key the driver holds. The driver gets a plain key, never an
// owner: a callback the driver never calls (PoCL 3.1 does not, for a command failed through its
// wait list) would otherwise leak, with the platform its function holds. Whoever takes a callback
// out runs it — the dispatcher for the driver's call, a waiting thread, the platform's sweep — so
// it runs once; what a shutdown takes out unrun is freed. Never destroyed: a driver thread may
// call back during exit.
struct Registry {
  std::mutex mu;
  std::map<OpenCLPlatform::Impl::Callback*, std::shared_ptr<OpenCLPlatform::Impl::Callback>> live;

  std::shared_ptr<OpenCLPlatform::Impl::Callback> take(OpenCLPlatform::Impl::Callback* key) {
    std::lock_guard lock(mu);
    auto it = live.find(key);
    if (it == live.end()) return nullptr;
    auto d = std::move(it->second);
    live.erase(it);
    return d;
  }
  std::shared_ptr<OpenCLPlatform::Impl::Callback> find(OpenCLPlatform::Impl::Callback* key) {
    std::lock_guard lock(mu);
    auto it = live.find(key);
    return it == live.end() ? nullptr : it->second;
  }
  // The callbacks of one platform not run yet, with the status of their events.
  std::vector<std::pair<OpenCLPlatform::Impl::Callback*, cl_int>> of(
      const OpenCLPlatform::Impl* owner);
};
Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

void CL_CALLBACK event_done(cl_event, cl_int status, void* user) {
  // On the driver's thread, which holds driver locks while it calls back: callbacks that called
  // into the driver hung NVIDIA's (matmul 4096/512 on an H100, one run of a few). Nothing here
  // calls OpenCL: the platform's dispatcher takes the callback out of the registry and runs it.
  // It stays in the registry until then, so a shutdown waiting for the callbacks still sees it.
  const rt::Clock::time_point seen = rt::Clock::now();  // the completion's time, not the hop's
  auto d = registry().find(static_cast<OpenCLPlatform::Impl::Callback*>(user));
  if (!d) return;
  auto impl = d->impl.lock();
  if (!impl) {  // only at exit: every callback holds its platform
    if (registry().take(d.get())) d->fire(status, seen);
    return;
  }
  // d held: the key's address cannot be reused by another callback before the dispatcher's take.
  impl->post([d, status, seen] {
    if (registry().take(d.get())) d->fire(status, seen);
  });
  OpenCLPlatform::Impl::Callback::let_go(std::move(impl));
}

cl_int status_of(cl_event e) {
  cl_int st = CL_COMPLETE;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
  return st;
}

std::vector<std::pair<OpenCLPlatform::Impl::Callback*, cl_int>> Registry::of(
    const OpenCLPlatform::Impl* owner) {
  std::vector<std::pair<OpenCLPlatform::Impl::Callback*, cl_int>> out;
  std::lock_guard lock(mu);
  for (auto& [key, d] : live)
    if (d->owner == owner) out.emplace_back(key, status_of(d->event.get()));
  return out;
}

std::atomic<std::size_t> opened{0};  // contexts created: devices_opened()
}  // namespace

std::size_t devices_opened() {
  return opened.load();
}

OpenCLPlatform::Impl::Impl(OpenCLPlatform& self, std::string name, const Device& dev, Options opts)
    : self(self),
      name(std::move(name)),
      device(dev),
      options(std::move(opts)),
      context([&] {
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(dev.platform), 0};
        cl_int err = CL_SUCCESS;
        cl_context c = clCreateContext(props, 1, &dev.id, nullptr, nullptr, &err);
        check(err, "clCreateContext");
        ++opened;
        return Context(c);
      }()),
      programs(context.get(), dev.id, dev.info, options.cache_dir, options.build_options),
      dispatcher("cei-" + this->name) {
  cl_int err = CL_SUCCESS;
  cl_device_type type = 0;
  check(clGetDeviceInfo(dev.id, CL_DEVICE_TYPE, sizeof type, &type, nullptr), "clGetDeviceInfo");
  const bool cpu_device = type & CL_DEVICE_TYPE_CPU;
  cl_command_queue q = nullptr;
  // A GPU gets an in-order queue: NVIDIA's driver runs an out-of-order queue in order anyway, and
  // on an in-order queue one callback completes a whole flush's kernels (Impl::batched). One, not
  // several: kernels running side by side each take longer, and the profiles learn those longer
  // spans (four queues on an H100: matmul 4096/512 products measured 2.1 ms instead of 0.56, and
  // DynPerf moved more of them to the CPU). A CPU device keeps its out-of-order queue, capped at
  // one kernel at a time.
  const std::size_t gpu_queues = 1;
  if (!options.in_order && options.queues == 0 && cpu_device) {
    q = clCreateCommandQueue(context.get(), dev.id,
                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
                             &err);
    if (err == CL_SUCCESS) queues.emplace_back(q);
  }
  if (queues.empty()) {
    // One in-order queue when asked for; several when asked for, on a GPU, or without
    // out-of-order support, ordered among themselves by events.
    in_order = true;
    const std::size_t n = options.in_order ? 1
                          : options.queues ? options.queues
                          : cpu_device     ? 3
                                           : gpu_queues;
    for (std::size_t i = 0; i < n; ++i) {
      q = clCreateCommandQueue(context.get(), dev.id, CL_QUEUE_PROFILING_ENABLE, &err);
      check(err, "clCreateCommandQueue");
      queues.emplace_back(q);
    }
  }
  ncompute = queues.size();
  // The copy queues, and function_queue() when the compute queue runs out of order.
  for (int extra = in_order ? 2 : 3; extra > 0; --extra) {
    q = clCreateCommandQueue(context.get(), dev.id, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    queues.emplace_back(q);
  }
  if (options.pinned.value_or(!cpu_device) && !options.naive)
    staging = std::make_unique<Staging>(context.get(), dev.id);
  unflushed = std::make_unique<std::atomic<bool>[]>(queues.size());
  batched = in_order && !options.naive;
  unreported.resize(ncompute);
  enqueued_kernels.assign(ncompute, 0);
  in_queue.resize(ncompute);
  queue_end = std::make_unique<std::atomic<cl_ulong>[]>(ncompute);
  cl_ulong global = 0;
  check(clGetDeviceInfo(dev.id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr),
        "clGetDeviceInfo");
  cap = options.mem_cap ? options.mem_cap : static_cast<std::size_t>(global / 4 * 3);
  if (cpu_device) {
    cl_uint units = 0;
    check(clGetDeviceInfo(dev.id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr),
          "clGetDeviceInfo");
    host_cores = units;
  }
  // In-order queues run one kernel each at a time: the queues are the cap, unless one is asked for.
  max_inflight = options.max_inflight ? options.max_inflight : in_order ? 0 : cpu_device ? 1 : 16;
  if (in_order && ncompute == 1) max_inflight = 0;  // the queue runs one kernel at a time
  min_ahead = 2 * std::max<std::size_t>({1, max_inflight, in_order ? ncompute : 0});
  hold = !in_order;
}

OpenCLPlatform::Impl::~Impl() {
  for (auto& q : queues) clFinish(q.get());
}

std::pair<cl_command_queue, int> OpenCLPlatform::Impl::queue(
    const std::vector<std::shared_ptr<DeviceReplica>>& reps) {
  if (ncompute == 1) return {queues[0].get(), 0};
  if (in_order)
    for (auto& rep : reps)
      if (rep && rep->queue() >= 0)
        return {queues[static_cast<std::size_t>(rep->queue())].get(), rep->queue()};
  const std::size_t i = next_queue.fetch_add(1) % ncompute;
  return {queues[i].get(), static_cast<int>(i)};
}

void OpenCLPlatform::Impl::enqueued(cl_command_queue q) {
  for (std::size_t i = 0; i < queues.size(); ++i)
    if (queues[i].get() == q) unflushed[i].store(true);
}

void OpenCLPlatform::Impl::flush_marked(cl_command_queue except) {
  // A mark seen here was set after its command was enqueued, so this flush sends that command;
  // one set after the exchange stays for the next flush.
  for (std::size_t i = 0; i < queues.size(); ++i)
    if (queues[i].get() != except && unflushed[i].exchange(false)) clFlush(queues[i].get());
}

void OpenCLPlatform::Impl::flush() {
  std::vector<std::shared_ptr<Running>> report;
  {
    std::lock_guard lock(report_mu);
    for (auto& r : unreported)
      if (r) report.push_back(std::move(r));
  }
  // After taking the kernels to report: each of them is enqueued and marked, so sent now.
  flush_marked();
  if (report.empty()) return;
  {
    std::lock_guard lock(stats_mu);
    stats.completion_callbacks += report.size();
  }
  // Outside every lock: a callback for a kernel already complete may run right here, and
  // complete tasks whose successors launch.
  for (auto& r : report)
    on_complete(r->kernel.get(),
                [impl = shared_from_this(), r](cl_int st, rt::Clock::time_point seen) {
                  impl->complete_through(r, st, seen);
                });
}

void OpenCLPlatform::Impl::flush_soon() {
  if (!batched) return flush();
  if (flush_now.exchange(false)) flush_marked();
  if (!flush_posted.exchange(true))
    post([impl = shared_from_this()] {
      impl->flush_posted = false;  // before flushing: a launch from now on posts again
      impl->flush();
    });
}

void OpenCLPlatform::Impl::complete_through(const std::shared_ptr<Running>& last, cl_int status,
                                            rt::Clock::time_point seen) {
  std::vector<std::shared_ptr<Running>> done;
  {
    std::lock_guard lock(done_mu);
    auto& q = in_queue[static_cast<std::size_t>(last->queue)];
    while (!q.empty() && q.front()->seq <= last->seq) {
      done.push_back(std::move(q.front()));
      q.pop_front();
    }
  }
  // Earlier kernels ended before `last` did, each with a status of its own.
  const cl_ulong last_end = done.size() > 1 ? event_span(last->kernel.get()).second : 0;
  for (auto& r : done) {
    if (r != last) {
      r->anchor_host = seen;
      r->anchor_device = last_end;
    }
    complete(r, r == last ? status : status_of(r->kernel.get()), seen);
  }
}

std::weak_ptr<OpenCLPlatform::Impl::Callback> OpenCLPlatform::Impl::on_complete(
    cl_event e, std::function<void(cl_int, rt::Clock::time_point)> fn) {
  auto d = std::make_shared<Callback>();
  d->owner = this;
  d->impl = weak_from_this();
  clRetainEvent(e);
  d->event = Event(e);
  d->fn = std::move(fn);
  Callback* key = d.get();
  std::weak_ptr<Callback> handle = d;
  {
    std::lock_guard lock(registry().mu);
    registry().live.emplace(key, std::move(d));
  }
  if (cl_int err = clSetEventCallback(e, CL_COMPLETE, event_done, key); err != CL_SUCCESS) {
    registry().take(key);
    throw Error("clSetEventCallback", err);
  }
  return handle;
}

void OpenCLPlatform::Impl::run_here(const std::weak_ptr<Callback>& callback) {
  auto d = callback.lock();  // held: its address, the registry's key, cannot be reused meanwhile
  if (!d) return;
  cl_event e = d->event.get();
  // Polled first: clWaitForEvents sleeps, and wakes a tenth of a millisecond late on NVIDIA's
  // driver; the caller blocks in any case, and a copy it waits for is usually about to end.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
  while (status_of(e) > CL_COMPLETE && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  clWaitForEvents(1, &e);  // an error here is the event's failure, which fire() reports
  if (auto taken = registry().take(d.get())) taken->fire(status_of(e));
}

void OpenCLPlatform::Impl::sweep_failures(bool always) {
  if (!always && !failures_seen.load()) return;
  for (auto [key, st] : registry().of(this))
    if (st < 0)
      if (auto d = registry().take(key)) d->fire(st);
}

void OpenCLPlatform::Impl::settle_callbacks() {
  // After clFinish: a failed command's callback is run here; a complete one's is the driver's to
  // run, shortly; a command still short of complete never will be (failed through its wait list
  // without a status of its own), and its callback is freed unrun.
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);;) {
    bool awaited = false;
    for (auto [key, st] : registry().of(this)) {
      if (st == CL_COMPLETE && std::chrono::steady_clock::now() < deadline) {
        awaited = true;
      } else if (auto d = registry().take(key)) {
        if (st < 0) d->fire(st);
      }
    }
    if (!awaited) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  dispatcher.drain();  // the callbacks the driver handed over, and what they posted
}

std::shared_ptr<DeviceReplica> OpenCLPlatform::Impl::replica_of(rt::Version& v) {
  // Only this platform's replicas are on it: no dynamic cast per argument and launch.
  return std::static_pointer_cast<DeviceReplica>(v.replica_on(self));
}

Mem OpenCLPlatform::Impl::allocate(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  {
    std::lock_guard lock(mem_mu);
    if (auto it = pool.find(bytes); it != pool.end()) {
      Mem m = std::move(it->second);
      pool.erase(it);
      pooled -= bytes;
      return m;
    }
  }
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "clCreateBuffer");
  return Mem(m);
}

void OpenCLPlatform::Impl::recycle(Mem m, std::size_t bytes) {
  Mem dropped;  // released outside the lock
  std::lock_guard lock(mem_mu);
  pool_locked(std::move(m), bytes, dropped);
}

void OpenCLPlatform::Impl::pool_locked(Mem m, std::size_t bytes, Mem& dropped) {
  bytes = std::max<std::size_t>(bytes, 1);
  if (used + pooled + bytes > cap) {
    dropped = std::move(m);
    return;
  }
  pool.emplace(bytes, std::move(m));
  pooled += bytes;
}

void OpenCLPlatform::Impl::release_replica(DeviceReplica* rep, Mem m, std::size_t bytes) {
  Mem dropped;  // released outside the lock
  std::lock_guard lock(mem_mu);
  resident.erase(rep);
  used -= bytes;
  pool_locked(std::move(m), bytes, dropped);
}

void OpenCLPlatform::Impl::pin(const std::shared_ptr<DeviceReplica>& rep, Running& r,
                               const rt::VersionPtr& of) {
  std::lock_guard lock(mem_mu);
  if (auto it = resident.find(rep.get()); it != resident.end()) {
    it->second.pins++;
    it->second.last_use = ++tick;
    if (of) it->second.version = of;
  }
  r.pinned.push_back(rep);
}

void OpenCLPlatform::Impl::unpin(Running& r) {
  r.buffers.clear();
  for (auto& c : r.staged) staging->give(std::move(c));
  r.staged.clear();
  {
    std::lock_guard lock(mem_mu);
    for (auto& rep : r.pinned)
      if (auto it = resident.find(rep.get()); it != resident.end()) it->second.pins--;
  }
  r.pinned.clear();
}

bool OpenCLPlatform::Impl::admit(std::size_t need, const std::shared_ptr<Running>& r) {
  std::vector<std::pair<DeviceReplica*, rt::VersionPtr>> drop, fetch;
  std::multimap<std::size_t, Mem> unpooled;  // released outside the lock
  {
    std::lock_guard lock(mem_mu);
    if (used + pooled + need <= cap) return true;
    unpooled.swap(pool);
    pooled = 0;
    if (used + need <= cap) return true;
    std::vector<std::pair<std::uint64_t, DeviceReplica*>> lru;
    for (auto& [rep, res] : resident)
      if (res.pins == 0 && !res.evicting) lru.emplace_back(res.last_use, rep);
    std::sort(lru.begin(), lru.end());
    std::size_t freeing = 0;
    for (auto& [use, rep] : lru) {
      if (used - freeing + need <= cap) break;
      Resident& res = resident.at(rep);
      rt::VersionPtr v = res.version.lock();
      if (!v) continue;
      res.evicting = true;
      freeing += res.bytes;
      // A value that exists only here goes to the host first; the rest can just be dropped.
      (v->host() ? drop : fetch).emplace_back(rep, std::move(v));
    }
    evictions_in_flight += static_cast<int>(fetch.size());
  }
  for (auto& [rep, v] : drop) {
    v->drop_replica(self);
    std::lock_guard lock(stats_mu);
    stats.evictions++;
  }
  for (auto& [rep, v] : fetch) {
    // `v = v`, not `v`: Clang 14 cannot capture a structured binding (a C++20 addition).
    v->ensure_host([impl = shared_from_this(), v = v](std::exception_ptr) {
      impl->post([impl, v] {
        v->drop_replica(impl->self);
        {
          std::lock_guard lock(impl->stats_mu);
          impl->stats.evictions++;
        }
        {
          std::lock_guard lock(impl->mem_mu);
          impl->evictions_in_flight--;
        }
        impl->retry_deferred();
      });
    });
  }
  std::lock_guard lock(mem_mu);
  if (used + need <= cap) return true;
  if (evictions_in_flight == 0 && running == 0) return true;  // nothing left to wait for
  deferred.push_back(r);
  return false;
}

void OpenCLPlatform::Impl::add_span(std::pair<cl_ulong, cl_ulong> span, bool transfer) {
  auto [start, end] = span;
  if (end <= start) return;
  if (spans.size() >= 1 << 16) {  // bounded memory in long runs
    folded_exposed_s = exposed_transfer_s();
    folded_peak = peak_kernels();
    spans.clear();
  }
  spans.push_back({start, end, transfer});
}

// Transfer time not hidden behind a kernel: the paper's "memory transfer overhead". The measure
// of (union of copies) minus (union of copies and union of kernels), in one sweep.
double OpenCLPlatform::Impl::exposed_transfer_s() const {
  using Interval = std::pair<cl_ulong, cl_ulong>;
  auto merged = [](std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (auto& x : v) {
      if (!out.empty() && x.first <= out.back().second)
        out.back().second = std::max(out.back().second, x.second);
      else
        out.push_back(x);
    }
    return out;
  };
  std::vector<Interval> kernels, copies;
  for (auto& s : spans) (s.transfer ? copies : kernels).emplace_back(s.start, s.end);
  const auto busy = merged(std::move(kernels));
  cl_ulong exposed = 0;
  std::size_t first = 0;  // the first kernel interval that may meet this copy or a later one
  for (auto [start, end] : merged(std::move(copies))) {
    exposed += end - start;
    while (first < busy.size() && busy[first].second <= start) ++first;
    for (std::size_t j = first; j < busy.size() && busy[j].first < end; ++j)
      exposed -= std::min(end, busy[j].second) - std::max(start, busy[j].first);
  }
  return folded_exposed_s + static_cast<double>(exposed) * 1e-9;
}

std::uint64_t OpenCLPlatform::Impl::peak_kernels() const {
  std::vector<std::pair<cl_ulong, int>> edges;  // {time, +1 start / -1 end}: ends sort first
  for (auto& s : spans)
    if (!s.transfer) edges.insert(edges.end(), {{s.start, 1}, {s.end, -1}});
  std::sort(edges.begin(), edges.end());
  std::int64_t now = 0, peak = 0;
  for (auto& e : edges) peak = std::max(peak, now += e.second);
  return std::max(folded_peak, static_cast<std::uint64_t>(peak));
}

void OpenCLPlatform::Impl::retry_deferred() {
  std::vector<std::shared_ptr<Running>> waiting;
  {
    std::lock_guard lock(mem_mu);
    waiting.swap(deferred);
  }
  for (auto& r : waiting) launch(r);
}

void OpenCLPlatform::Impl::submit(rt::TaskPtr t) {
  tasks_in_flight++;
  auto r = std::make_shared<Running>();
  r->context = t->attempts();
  if (r->context) r->attempt = r->context->attempt();
  r->task = std::move(t);
  r->pinned.reserve(4);
  r->buffers.reserve(4);
  // Wait for every input without blocking; whoever makes the last one ready launches the task,
  // so inputs that are ready now are copied at once and overlap earlier tasks' kernels.
  auto ready = [impl = shared_from_this(), r](rt::Task&) { impl->inputs_ready(r); };
  if (!r->inputs.until_ready(*r->task, ready)) inputs_ready(r);
}

void OpenCLPlatform::Impl::inputs_ready(const std::shared_ptr<Running>& r) {
  if (in_event_callback || options.naive)
    post([impl = shared_from_this(), r] { impl->launch(r); });
  else
    launch(r);
}

void OpenCLPlatform::Impl::launch(const std::shared_ptr<Running>& r) {
  // A launch publishes outputs, which may make dependants ready on this very thread, on this or
  // another device: they join this thread's batch instead of recursing, so no thread ever holds
  // two launch locks (two devices feeding each other cannot deadlock) and the stack stays flat.
  struct Launch {
    std::shared_ptr<Impl> impl;
    std::shared_ptr<Running> r;
  };
  thread_local std::vector<Launch>* batch = nullptr;
  if (batch) return batch->push_back({shared_from_this(), r});
  std::vector<Launch> mine{{shared_from_this(), r}};
  batch = &mine;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    Launch next = mine[i];  // a copy: the batch may grow meanwhile
    {
      std::lock_guard lock(next.impl->launch_mu);
      next.impl->try_launch(next.r);
    }
    // A CPU task this launch made ready runs elsewhere, not after the rest of the batch.
    if (i + 1 < mine.size() && next.impl->options.between_launches)
      next.impl->options.between_launches();
  }
  batch = nullptr;
  std::vector<Impl*> flushed;  // one flush per queue and batch, not per command
  for (auto& l : mine)
    if (std::find(flushed.begin(), flushed.end(), l.impl.get()) == flushed.end()) {
      l.impl->flush_soon();
      flushed.push_back(l.impl.get());
    }
  for (Impl* impl : flushed) impl->sweep_failures();
}

void OpenCLPlatform::Impl::free_slot(Running& r) {
  if (!r.slot) return;
  clSetUserEventStatus(r.slot.get(), CL_COMPLETE);
  r.slot = Event();
}

void OpenCLPlatform::Impl::fail(const std::shared_ptr<Running>& r, std::exception_ptr e) {
  if (hooks.abandoned) hooks.abandoned(*r->task);
  if (!r->staged.empty()) {
    // Its uploads may still read their pinned chunks: done before the chunks go back. (They wait
    // for nothing, so they end once sent.)
    flush_marked();
    for (auto& w : r->writes)
      if (cl_event ev = w.event.get(); ev && w.host_bytes > 0) clWaitForEvents(1, &ev);
  }
  free_slot(*r);
  unpin(*r);
  settle(*r, e);
  leave(*r);
  tasks_in_flight--;
}

void OpenCLPlatform::Impl::settle(Running& r, std::exception_ptr e) {
  // An attempt settled meanwhile (timed out) may have been placed again already: its next
  // attempt is not this kernel's to settle. (TaskContext's claiming verdicts are the runtime's
  // code, which this library does not link: the platform is also driven without the runtime.)
  if (!r.context || r.context->attempt() == r.attempt) r.task->finish(std::move(e));
}

double OpenCLPlatform::Impl::forecast_exec_s(const rt::Task& t) const {
  double bytes = 0;
  for (const auto& a : t.args())
    if (a.in) bytes += static_cast<double>(a.in->bytes());
  std::lock_guard lock(stats_mu);
  auto it = kernel_s_per_byte.find(&t.ce());
  return it == kernel_s_per_byte.end() ? 0 : it->second * std::max(bytes, 1.0);
}

bool OpenCLPlatform::Impl::enter(const std::shared_ptr<Running>& r) {
  if (r->begun) return true;  // again after a host copy, or device memory, it waited for
  if (!hold) {                // nothing waits on the host: no forecast, no window to count it in
    if (r->context && !r->context->begin(r->attempt)) {
      tasks_in_flight--;  // settled meanwhile (timed out, its platform lost)
      return false;
    }
    return r->begun = true;
  }
  const double exec_s = r->released ? r->exec_s : forecast_exec_s(*r->task);
  std::unique_lock lock(hold_mu);
  // Behind the held ones, in their order (held).
  if (!r->released && (!held.empty() || window_full())) {
    r->exec_s = exec_s;
    held.emplace(std::pair{-r->task->upward_s(), arrivals++}, r);
    return false;
  }
  if (r->context && !r->context->begin(r->attempt)) {
    // Settled while it waited (timed out, its platform lost): someone else gives the verdict.
    lock.unlock();
    leave(*r);
    tasks_in_flight--;
    return false;
  }
  r->begun = true;
  if (!r->ahead) {
    r->exec_s = exec_s;
    r->ahead = true;
    ahead_s += exec_s;
    ++ahead_n;
  }
  return true;
}

void OpenCLPlatform::Impl::leave(Running& r) {
  if (!hold) return;  // nothing was counted in a window
  std::vector<std::shared_ptr<Running>> go;
  {
    std::lock_guard lock(hold_mu);
    if (!r.ahead) return;
    r.ahead = false;
    ahead_s = --ahead_n == 0 ? 0 : ahead_s - r.exec_s;  // no rounding left over when empty
    while (!held.empty() && !window_full()) {
      auto& next = go.emplace_back(std::move(held.begin()->second));
      held.erase(held.begin());
      next->released = next->ahead = true;
      ahead_s += next->exec_s;
      ++ahead_n;
    }
  }
  for (auto& next : go) inputs_ready(next);
}

bool OpenCLPlatform::Impl::withdraw(rt::Task& t) {
  std::lock_guard lock(hold_mu);
  auto it = std::find_if(held.begin(), held.end(),
                         [&t](const auto& h) { return h.second->task.get() == &t; });
  if (it == held.end() || !it->second->context || !it->second->context->withdraw()) return false;
  held.erase(it);
  tasks_in_flight--;  // the forecasts stop counting it
  return true;
}

}  // namespace cei::opencl
