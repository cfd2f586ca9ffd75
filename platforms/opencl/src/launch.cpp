// From a ready task to enqueued commands: argument marshalling (DESIGN.md: parameters in order as
// buffers or scalars, then the result buffer), work sizes from the CE's expressions, and the
// event chain copy-in -> kernel whose outputs stay on the device.
#include "expr_args.hpp"
#include "impl.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <numeric>
#include <optional>
#include <sstream>

namespace cei::opencl {

namespace {

bool is_buffer(const rt::TypeOps& t) {
  return t.kind != rt::TypeKind::Scalar;
}

std::array<std::int64_t, 3> host_extents(const rt::TypeOps& t, const void* obj) {
  std::array<std::int64_t, 3> e{0, 0, 0};
  for (int d = 0; d < t.rank && d < 3; ++d) e[d] = t.extent(obj, d);
  return e;
}

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// CEI_OPENCL_CHECK_RESULTS: the byte an output buffer is filled with before its kernel. 0xA5 in
// every byte is no small integer (int -1515870811) and an odd tiny float (-2.9e-16) or double
// (-2.5e-127): rare in real data; an element that does hold it is reported all the same.
constexpr unsigned char kUnwritten = 0xA5;

struct Unwritten {
  std::size_t count = 0, first = 0, total = 0;
};

// Reads buf back once the kernel is done and counts the elements still holding the pattern.
// Blocks the launching thread: a debug mode, which trades overlap for a clear report. Nothing
// when the kernel failed: that failure is reported as such.
std::optional<Unwritten> read_unwritten(cl_command_queue q, cl_mem buf, std::size_t bytes,
                                        std::size_t elem, cl_event kernel) {
  std::vector<unsigned char> host(bytes);
  cl_event ev = nullptr;
  check(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, bytes, host.data(), 1, &kernel, &ev),
        "clEnqueueReadBuffer");
  const Event read(ev);
  if (clWaitForEvents(1, &ev) != CL_SUCCESS) return std::nullopt;
  Unwritten u;
  u.total = elem ? bytes / elem : 0;
  for (std::size_t e = 0; e < u.total; ++e) {
    const unsigned char* p = host.data() + e * elem;
    if (std::all_of(p, p + elem, [](unsigned char b) { return b == kUnwritten; }))
      if (u.count++ == 0) u.first = e;
  }
  return u;
}

struct WorkSizes {
  std::vector<std::int64_t> global, local, offset, result;
};

WorkSizes work_sizes(const rt::CeInfo& ce, const rt::OpenCLImpl& cl,
                     const std::array<expr::ExprList, 4>& e, const std::vector<ArgView>& params) {
  ExprArgs args(params);
  WorkSizes w;
  if (!cl.function) w.global = expr::evaluate(e[0], args, ce.name);  // a function has none
  if (*cl.local_work_size) w.local = expr::evaluate(e[1], args, ce.name);
  if (*cl.offset) w.offset = expr::evaluate(e[2], args, ce.name);
  if (ce.result) w.result = expr::evaluate(e[3], args, ce.name);
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(std::string("CE ") + ce.interface_name + "::" + ce.name + ": " + why);
  };
  for (auto g : w.global)
    if (g <= 0)
      fail("global work size \"" + std::string(cl.global_work_size) + "\" is (" + join(w.global) +
           "); every dimension must be positive");
  if (!w.local.empty()) {
    if (w.local.size() != w.global.size())
      fail("local work size \"" + std::string(cl.local_work_size) + "\" has " +
           std::to_string(w.local.size()) + " dimensions, global work size has " +
           std::to_string(w.global.size()));
    for (std::size_t d = 0; d < w.global.size(); ++d)
      if (w.local[d] <= 0 || w.global[d] % w.local[d] != 0)
        fail("global work size (" + join(w.global) + ") is not divisible by local work size (" +
             join(w.local) + ") in dimension " + std::to_string(d) + " (global_work_size \"" +
             cl.global_work_size + "\", local_work_size \"" + cl.local_work_size + "\")");
  }
  if (!w.offset.empty() && w.offset.size() != w.global.size())
    fail("offset \"" + std::string(cl.offset) + "\" and global work size differ in dimensions");
  if (ce.result && static_cast<int>(w.result.size()) != std::max(ce.result->rank, 1))
    fail("result_size \"" + std::string(cl.result_size) + "\" has " +
         std::to_string(w.result.size()) + " dimensions, the result type " + ce.result->name +
         " has " + std::to_string(ce.result->rank));
  for (auto n : w.result)
    if (n < 0) fail("result_size \"" + std::string(cl.result_size) + "\" is negative");
  return w;
}

void set_args(cl_kernel k, const std::vector<Bound>& bound) {
  for (std::size_t i = 0; i < bound.size(); ++i) {
    const cl_uint idx = static_cast<cl_uint>(i);
    if (bound[i].mem)
      check(clSetKernelArg(k, idx, sizeof(cl_mem), &bound[i].mem), "clSetKernelArg");
    else
      check(clSetKernelArg(k, idx, bound[i].size, bound[i].value), "clSetKernelArg");
  }
}

// The device span of a task's work. A function's commands run from the barrier ahead of them to
// the event it returned, unless the function spent longer on the host than that (a library
// compiling its kernels at its first call): the device then waited for the host, and only the
// returned event's own command is known to be the work.
std::pair<cl_ulong, cl_ulong> work_span(const Running& r) {
  auto span = event_span(r.kernel.get());
  if (!r.begin) return span;
  const cl_ulong start = event_span(r.begin.get()).second;
  const double seconds = static_cast<double>(span.second - start) * 1e-9;
  if (start && start <= span.first && r.host_call_s < 0.5 * seconds) span.first = start;
  return span;
}

std::size_t count(const std::vector<std::int64_t>& e) {
  return std::accumulate(e.begin(), e.end(), std::size_t{1}, [](std::size_t a, std::int64_t b) {
    return a * static_cast<std::size_t>(b);
  });
}

// One line per output of a task with elements its kernel never wrote, with the work size that
// is the usual cause (issue 36: a wrong global_work_size otherwise crashes a later reader).
void warn_unwritten(const rt::CeInfo& ce, const rt::OpenCLImpl& cl, const std::string& device,
                    std::size_t arg, const Unwritten& u, const std::vector<std::int64_t>& global) {
  const std::string what = arg < ce.nparams ? "par" + std::to_string(arg) : "the result";
  std::ostringstream msg;
  msg << "cei: warning: CE '" << ce.interface_name << "::" << ce.name << "' on " << device << ": "
      << u.count << " of " << u.total << " elements of " << what
      << " were never written by kernel '" << cl.kernel_name << "' (first: " << u.first
      << "; global_work_size \"" << cl.global_work_size << "\" = " << join(global) << ")\n";
  std::cerr << msg.str() << std::flush;
}

}  // namespace

void OpenCLPlatform::Impl::try_launch(const std::shared_ptr<Running>& r) {
  if (!enter(r)) return;
  rt::Task& task = *r->task;
  const rt::CeInfo& ce = task.ce();
  // The scheduler sends a task of Quality::Approximate here only when the CE has that kernel.
  const rt::OpenCLImpl& cl =
      task.quality() == rt::Quality::Approximate ? *ce.opencl_approximate : *ce.opencl;
  auto& args = task.args();
  try {
    for (auto& a : args)
      if (a.in && a.in->state() == rt::Version::State::Failed) return fail(r, a.in->error());

    KernelPlan& plan = plans[&cl];
    auto& e = plan.sizes;
    if (!plan.what) {
      if (!cl.function) e[0] = expr::parse(cl.global_work_size);
      if (*cl.local_work_size) e[1] = expr::parse(cl.local_work_size);
      if (*cl.offset) e[2] = expr::parse(cl.offset);
      if (ce.result) e[3] = expr::parse(cl.result_size);
      for (auto& x : e) plan.reads_elements |= x.source.find('[') != std::string::npos;
      plan.what = std::make_shared<const std::string>((cl.function ? "function " : "kernel ") +
                                                      std::string(cl.kernel_name) + " on " + name);
    }
    const bool reads_elements = plan.reads_elements;

    // Values the kernel cannot take from this device must be on the host first.
    for (auto& a : args) {
      if (!a.in || a.in->host()) continue;
      bool resident = !options.naive && replica_of(*a.in);
      if (resident && is_buffer(*a.type) && !reads_elements) continue;
      auto impl = shared_from_this();
      a.in->ensure_host([impl, r](std::exception_ptr err) {
        impl->post([impl, r, err] { err ? impl->fail(r, err) : impl->launch(r); });
      });
      return;
    }

    std::vector<ArgView> views(args.size());
    std::vector<std::shared_ptr<DeviceReplica>> reps(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
      auto& a = args[i];
      views[i].type = a.type;
      if (a.in) {
        if (!options.naive) reps[i] = replica_of(*a.in);
        views[i].host = a.in->host();
        views[i].extents = reps[i] ? reps[i]->extents() : host_extents(*a.type, views[i].host);
      } else if (a.out && a.type->elem_size) {
        views[i].extents = {static_cast<std::int64_t>(a.out->bytes() / a.type->elem_size), 0, 0};
      }
    }
    // A value whose kernel failed after publishing it: this task does not run, and reports the
    // failure where it started.
    auto input_failure = [&]() -> std::exception_ptr {
      for (auto& rep : reps)
        if (rep)
          if (auto err = rep->outcome()->failure()) return err;
      return nullptr;
    };
    if (auto err = input_failure()) return fail(r, err);
    std::vector<ArgView> params(views.begin(), views.begin() + ce.nparams);
    WorkSizes w = work_sizes(ce, cl, e, params);
    if (ce.result) {
      std::copy(w.result.begin(), w.result.end(), views[ce.nparams].extents.begin());
      if (ce.result->rank == 0) views[ce.nparams].extents = {0, 0, 0};
    }

    cl_kernel k = nullptr;  // none for a function
    if (!cl.function) {
      const Programs::Built& built = programs.kernel_for(ce, cl);
      if (!built.kernel) throw std::runtime_error(built.log);
      k = built.kernel.get();
    }

    auto bytes_of = [&](std::size_t i) -> std::size_t {
      const rt::TypeOps& t = *args[i].type;
      if (t.rank == 0) return t.elem_size;
      if (args[i].in) return reps[i] ? reps[i]->bytes() : t.bytes(views[i].host);
      std::vector<std::int64_t> ext(views[i].extents.begin(), views[i].extents.begin() + t.rank);
      return count(ext) * t.elem_size;
    };

    if (!options.naive) {
      for (auto& rep : reps)
        if (rep) pin(rep, *r);
      std::size_t need = 0;
      for (std::size_t i = 0; i < args.size(); ++i)
        if (is_buffer(*args[i].type) || args[i].out) {
          if (args[i].in && !reps[i]) need += bytes_of(i);
          if (args[i].out) need += bytes_of(i);
        }
      if (!admit(need, r)) return unpin(*r);
    }

    // Marshal: buffers for arrays (and for outputs), values for scalars; bound to the kernel's
    // arguments, or handed to the function, once all are there.
    auto [kq, kq_index] = queue(reps);  // the kernel's queue, and its on-device copies
    r->queue = kq_index;
    // Functions write their outputs on the host and are not checked (docs/opencl.md).
    const bool checking = options.check_results && !cl.function;
    std::vector<cl_event> wait;
    std::vector<std::weak_ptr<Outcome>> sources;  // where a failure of the kernel may start
    for (auto& rep : reps)
      if (rep) sources.push_back(rep->outcome());
    std::vector<Mem> out_mem(args.size());
    std::size_t nargs = ce.nparams + (ce.result ? 1 : 0);
    std::vector<Bound> bound(nargs);
    for (std::size_t i = 0; i < nargs; ++i) {
      auto& a = args[i];
      if (!is_buffer(*a.type) && a.in) {
        bound[i].value = a.type->data(views[i].host);
        bound[i].size = a.type->elem_size;
        continue;
      }
      std::size_t bytes = bytes_of(i);
      Mem buf;
      cl_event ready = nullptr;
      if (a.in && reps[i]) {
        ready = reps[i]->written();
        buf = Mem(reps[i]->mem());
        clRetainMemObject(buf.get());
      } else if (a.in) {
        buf = allocate(bytes);
        if (options.naive) r->scratch.emplace_back(buf, bytes);
        const void* from = a.type->data(views[i].host);
        if (Staging::Chunk c = staging ? staging->take(bytes) : Staging::Chunk{}) {
          Staging::fill(c, from, bytes);
          from = c.host;
          r->staged.push_back(std::move(c));
        }
        cl_event ev = nullptr;
        check(clEnqueueWriteBuffer(write_queue(), buf.get(), CL_FALSE, 0, bytes, from, 0, nullptr,
                                   &ev),
              "clEnqueueWriteBuffer");
        enqueued(write_queue());
        r->writes.push_back({Event(ev), bytes, a.in->datum_id(), a.in->number(), a.in->variable()});
        r->bytes_in += bytes;
        ready = ev;
        // A value read in place is kept for later tasks; one updated in place is the output.
        if (!options.naive && a.dir == rt::Dir::In) {
          auto copied = std::make_shared<Outcome>(
              &ce,
              std::make_shared<const std::string>("copying parameter " + std::to_string(i) +
                                                  " to " + name),
              ev, std::vector<std::weak_ptr<Outcome>>{});
          sources.push_back(copied);
          auto rep =
              std::make_shared<DeviceReplica>(shared_from_this(), buf, Event(ev), std::move(copied),
                                              *a.type, bytes, views[i].extents, *a.in);
          clRetainEvent(ev);
          pin(rep, *r, a.in);
          a.in->add_replica(rep);
        }
      }
      if (ready) wait.push_back(ready);
      if (a.out) {
        if (a.in && reps[i]) {
          // Renaming: the new version gets its own buffer; the old value stays valid.
          Mem copy = allocate(bytes);
          cl_event ev = nullptr;
          if (ready) flush_marked(kq);
          check(clEnqueueCopyBuffer(kq, buf.get(), copy.get(), 0, 0, bytes, ready ? 1 : 0,
                                    ready ? &ready : nullptr, &ev),
                "clEnqueueCopyBuffer");
          enqueued(kq);
          r->writes.push_back({Event(ev)});
          wait.push_back(ev);
          buf = copy;
        } else if (!a.in) {
          buf = allocate(bytes);
          if (options.naive) r->scratch.emplace_back(buf, bytes);
          if (checking && bytes) {
            cl_event ev = nullptr;
            check(clEnqueueFillBuffer(kq, buf.get(), &kUnwritten, 1, 0, bytes, 0, nullptr, &ev),
                  "clEnqueueFillBuffer");
            enqueued(kq);
            r->writes.push_back({Event(ev)});
            wait.push_back(ev);
          }
        }
        out_mem[i] = buf;
      }
      bound[i].mem = buf.get();
      bound[i].extents = views[i].extents;
      r->buffers.push_back(buf);  // alive until the kernel is done, whatever the mode
    }
    if (k) set_args(k, bound);

    std::vector<std::size_t> g(w.global.begin(), w.global.end()), l(w.local.begin(), w.local.end()),
        o(w.offset.begin(), w.offset.end());
    const bool inject = !options.fail_kernel.empty() && options.fail_kernel == cl.kernel_name;
    if (inject) {
      // PoCL 3.1 crashes now and then (a segfault or an assertion in its driver thread) when a
      // user event fails while the driver makes the kernel that waits for it ready: let all else
      // the kernel waits for complete first, so that the injected failure is its one open
      // dependency.
      if (!wait.empty()) clWaitForEvents(static_cast<cl_uint>(wait.size()), wait.data());
      if (in_order) clFinish(kq);
      if (auto err = input_failure()) return fail(r, err);
      wait.clear();
    }
    const bool capped = max_inflight > 0 && !options.naive;
    if (capped && !inject && last_kernels.size() >= max_inflight)
      wait.push_back(last_kernels.front().get());
    Event slot;  // completed with the kernel whatever its status: a failure does not spread
    if (capped) {
      cl_int err = CL_SUCCESS;
      slot = Event(clCreateUserEvent(context.get(), &err));
      check(err, "clCreateUserEvent");
    }
    Event injected;  // Options::fail_kernel: completed with an error once the outputs are out
    if (inject) {
      cl_int err = CL_SUCCESS;
      injected = Event(clCreateUserEvent(context.get(), &err));
      check(err, "clCreateUserEvent");
      wait.push_back(injected.get());
      r->fault = std::make_shared<Outcome>(&ce, plan.what, injected.get(),
                                           std::vector<std::weak_ptr<Outcome>>{});
      sources.push_back(r->fault);
    }
    if (hooks.started) hooks.started(task);  // before the kernel can start
    cl_event kev = nullptr;
    if (cl.function) {
      kev = call_function(*r, cl, kq, wait, bound);
    } else {
      if (!wait.empty()) flush_marked(kq);
      check(clEnqueueNDRangeKernel(
                kq, k, static_cast<cl_uint>(g.size()), o.empty() ? nullptr : o.data(), g.data(),
                l.empty() ? nullptr : l.data(), static_cast<cl_uint>(wait.size()),
                wait.empty() ? nullptr : wait.data(), &kev),
            "clEnqueueNDRangeKernel");
      enqueued(kq);
    }
    r->kernel = Event(kev);
    if (checking && !inject) {  // an injected failure completes later in this function
      clFlush(kq);
      for (std::size_t i = 0; i < nargs; ++i)
        if (out_mem[i] && !args[i].in)
          if (auto u = read_unwritten(read_queue(), out_mem[i].get(), bytes_of(i),
                                      args[i].type->elem_size, kev);
              u && u->count)
            warn_unwritten(ce, cl, name, i, *u, w.global);
    }
    r->outcome = std::make_shared<Outcome>(&ce, plan.what, kev, std::move(sources));
    if (capped) {
      r->slot = slot;
      last_kernels.push_back(std::move(slot));
      if (last_kernels.size() > max_inflight) last_kernels.pop_front();
    }
    auto release_injected = [&] {
      if (!injected) return;
      failures_seen = true;
      clSetUserEventStatus(injected.get(), CL_OUT_OF_RESOURCES);
    };
    task.timing().start = rt::Clock::now();
    task.timing().version_index = rt::Task::kernel_version(task.quality());
    task.take_input_bytes();  // now, not once the outputs are out (Timing::input_bytes)
    if (trace.on()) trace.task_started(task, self, r->queue);

    if (options.naive) {
      // The paper's RGPU scenario: read every output back and wait for it all, then publish on
      // the host. (Blocking calls on an out-of-order queue upset PoCL: enqueue, then clFinish.)
      std::vector<std::pair<std::size_t, void*>> objs;
      for (std::size_t i = 0; i < args.size(); ++i) {
        if (!args[i].out) continue;
        const rt::TypeOps& t = *args[i].type;
        void* obj = t.create();
        objs.emplace_back(i, obj);
        if (t.rank > 0) t.reshape_for_overwrite(obj, views[i].extents.data(), t.rank);
        cl_event ev = nullptr;
        check(clEnqueueReadBuffer(read_queue(), out_mem[i].get(), CL_FALSE, 0, bytes_of(i),
                                  t.data(obj), 1, &kev, &ev),
              "clEnqueueReadBuffer");
        r->reads.push_back({Event(ev), bytes_of(i), args[i].out->datum_id(), args[i].out->number(),
                            args[i].out->variable()});
        r->bytes_out += bytes_of(i);
      }
      release_injected();
      for (auto& q : queues) clFinish(q.get());
      for (auto& [m, b] : r->scratch) recycle(m, b);
      r->scratch.clear();
      cl_int st = CL_COMPLETE;
      clGetEventInfo(kev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
      record(*r);  // before publishing: whoever sees the outputs sees the counts
      for (auto& [i, obj] : objs) {
        if (st < 0)
          args[i].type->destroy(obj);
        else
          args[i].out->publish_host(obj);
      }
      running++;
      return complete(r, st);
    }

    // Outputs stay on the device; their replicas exist from now on, so dependants on this device
    // chain on the kernel's event instead of waiting for the host.
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!args[i].out) continue;
      clRetainEvent(kev);
      auto rep = std::make_shared<DeviceReplica>(shared_from_this(), out_mem[i], Event(kev),
                                                 r->outcome, *args[i].type, bytes_of(i),
                                                 views[i].extents, *args[i].out);
      if (r->slot && max_inflight == 1) rep->read_with(r->slot);
      rep->written_on(r->queue);
      pin(rep, *r, args[i].out);
      args[i].out->publish_replica(rep);
    }
    if (running++ == 0) flush_now = true;
    // Flushed by launch() once the batch is enqueued.
    if (batched) {
      r->seq = ++enqueued_kernels[static_cast<std::size_t>(r->queue)];
      {
        std::lock_guard lock(done_mu);
        in_queue[static_cast<std::size_t>(r->queue)].push_back(r);
      }
      std::lock_guard lock(report_mu);
      unreported[static_cast<std::size_t>(r->queue)] = r;
    } else {
      on_complete(kev, [impl = shared_from_this(), r](cl_int st, rt::Clock::time_point seen) {
        impl->complete(r, st, seen);
      });
      std::lock_guard lock(stats_mu);
      stats.completion_callbacks++;
    }
    release_injected();
  } catch (...) {
    fail(r, std::current_exception());
  }
}

void OpenCLPlatform::Impl::record(Running& r, rt::Clock::time_point seen) {
  if (r.recorded) return;
  r.recorded = true;
  rt::Task::Timing& t = r.task->timing();
  // Each event's profile read once (a driver call per field), outside the lock.
  auto seconds = [](std::pair<cl_ulong, cl_ulong> s) {
    return static_cast<double>(s.second - s.first) * 1e-9;
  };
  std::vector<std::pair<cl_ulong, cl_ulong>> copies;  // empty for most optimized-mode tasks
  copies.reserve(r.writes.size() + r.reads.size());
  double w = 0, rd = 0;
  for (auto& c : r.writes) w += seconds(copies.emplace_back(event_span(c.event.get())));
  for (auto& c : r.reads) rd += seconds(copies.emplace_back(event_span(c.event.get())));
  auto kspan = work_span(r);
  if (in_order && kspan.second) kspan.first = after_previous(r.queue, kspan);
  const double k = seconds(kspan);
  // When the driver reported it, give or take its callback's delay, unless a later kernel's
  // report completes it.
  t.end = r.anchor_device >= kspan.second && kspan.second
              ? r.anchor_host - std::chrono::duration_cast<rt::Clock::duration>(
                                    std::chrono::nanoseconds(r.anchor_device - kspan.second))
              : seen;
  // The task ran for its kernel's span, not from its enqueue (maybe behind other kernels): that
  // span is what the profiles learn and what the energy covers.
  t.start = std::max(t.start, t.end - std::chrono::duration_cast<rt::Clock::duration>(
                                          std::chrono::duration<double>(k)));
  if (trace.on()) {
    // The device's clock, read against the host's at the kernel's end.
    auto host_time = [&](cl_ulong device_ns) {
      return t.end -
             std::chrono::duration_cast<rt::Clock::duration>(std::chrono::nanoseconds(
                 static_cast<std::int64_t>(kspan.second) - static_cast<std::int64_t>(device_ns)));
    };
    std::size_t i = 0;
    for (const auto* list : {&r.writes, &r.reads})
      for (const Running::Copy& c : *list) {
        const auto& span = copies[i++];
        if (c.host_bytes == 0) continue;  // a copy on the device moves nothing to or from the host
        trace.transfer({&self, r.task->id(), data_name(c.variable, c.datum, c.number), c.host_bytes,
                        list == &r.writes, host_time(span.first), host_time(span.second)});
      }
  }
  if (hooks.energy) t.energy_j = hooks.energy(*r.task);
  t.transfer_in_s = w;
  t.transfer_out_s = rd;
  t.bytes_in = r.bytes_in;
  t.bytes_out = r.bytes_out;
  std::lock_guard lock(stats_mu);
  for (auto& c : copies) add_span(c, true);
  add_span(kspan, false);
  stats.bytes_to_device += r.bytes_in;
  stats.bytes_to_host += r.bytes_out;
  stats.writes += r.writes.size();
  stats.reads += r.reads.size();
  stats.pinned_copies += r.staged.size();
  stats.kernels++;
  stats.write_s += w;
  stats.read_s += rd;
  stats.kernel_s += k;
  double bytes = static_cast<double>(std::max<std::uint64_t>(r.bytes_in, 1));
  double& rate = kernel_s_per_byte[&r.task->ce()];
  rate = rate == 0 ? k / bytes : 0.8 * rate + 0.2 * k / bytes;
}

cl_ulong OpenCLPlatform::Impl::after_previous(int queue, std::pair<cl_ulong, cl_ulong> span) {
  std::atomic<cl_ulong>& end = queue_end[static_cast<std::size_t>(queue)];
  const cl_ulong last = end.load(std::memory_order_relaxed);
  if (span.second > last) end.store(span.second, std::memory_order_relaxed);
  return last > span.first && last < span.second ? last : span.first;
}

void OpenCLPlatform::Impl::complete(const std::shared_ptr<Running>& r, cl_int status,
                                    rt::Clock::time_point seen) {
  free_slot(*r);
  record(*r, seen);
  running--;
  unpin(*r);
  // A failure after the outputs were published: they, and whatever read them, report it (the
  // failure of the kernel where it started, when this one failed for waiting on it).
  std::exception_ptr err = status < 0 ? r->outcome->failed(status) : r->outcome->completed();
  if (err && !failures_seen.exchange(true))
    post([impl = shared_from_this()] { impl->sweep_failures(); });
  settle(*r, err);
  leave(*r);
  bool waiting;
  {
    std::lock_guard lock(mem_mu);
    waiting = !deferred.empty();
  }
  // Last: shutdown() returns once nothing is in flight.
  tasks_in_flight--;
  if (waiting) {
    if (in_event_callback)
      post([impl = shared_from_this()] { impl->retry_deferred(); });
    else
      retry_deferred();
  }
}

}  // namespace cei::opencl
