#include "impl.hpp"

#include <cstring>

namespace cei::opencl {

DeviceReplica::DeviceReplica(std::shared_ptr<OpenCLPlatform::Impl> impl, Mem mem, Event written,
                             std::shared_ptr<Outcome> outcome, const rt::TypeOps& type,
                             std::size_t bytes, std::array<std::int64_t, 3> extents,
                             const rt::Version& of)
    : impl_(std::move(impl)),
      mem_(std::move(mem)),
      written_(std::move(written)),
      outcome_(std::move(outcome)),
      type_(type),
      bytes_(bytes),
      extents_(extents),
      datum_(of.datum_id()),
      number_(of.number()),
      variable_(of.variable()) {
  std::lock_guard lock(impl_->mem_mu);
  impl_->resident.emplace(this, OpenCLPlatform::Impl::Resident{{}, bytes_, ++impl_->tick});
  impl_->used += bytes_;
}

DeviceReplica::~DeviceReplica() {
  // Every command that used the buffer has completed (they pin their replicas): reuse it.
  impl_->release_replica(this, std::move(mem_), bytes_);
}

void DeviceReplica::to_host(void* dst, std::function<void(std::exception_ptr)> done) {
  // Enqueued on the caller's thread (the read waits for the producing kernel's event, so a
  // host fetch requested early overlaps later kernels), except inside an event callback.
  // `self` keeps the buffer alive until the read completes.
  auto self = shared_from_this();
  auto read = [this, self, dst, done = std::move(done)]() mutable {
    // A value whose kernel failed after publishing it: the program sees that kernel's error.
    if (auto e = outcome_->failure()) return done(e);
    try {
      if (type_.rank > 0 && type_.reshape_for_overwrite)
        type_.reshape_for_overwrite(dst, extents_.data(), type_.rank);  // the read fills it
      void* data = type_.data(dst);
      cl_event ev = nullptr;
      cl_event wait[2];
      cl_uint n = 0;
      for (const Event* e : {&written_, &slot_})
        if (*e) wait[n++] = e->get();
      Staging::Chunk chunk = impl_->staging ? impl_->staging->take(bytes_) : Staging::Chunk{};
      impl_->flush_marked(impl_->read_queue());
      check(clEnqueueReadBuffer(impl_->read_queue(), mem_.get(), CL_FALSE, 0, bytes_,
                                chunk ? chunk.host : data, n, n ? wait : nullptr, &ev),
            "clEnqueueReadBuffer");
      Event read(ev);
      clFlush(impl_->read_queue());
      auto callback =
          impl_->on_complete(ev, [impl = impl_, self, read, data, chunk, done = std::move(done)](
                                     cl_int st, rt::Clock::time_point seen) {
            if (chunk) {
              if (st >= 0) std::memcpy(data, chunk.host, self->bytes_);
              impl->staging->give(chunk);
            }
            auto span = event_span(read.get());
            double s = static_cast<double>(span.second - span.first) * 1e-9;
            if (st >= 0 && impl->trace.on()) {
              // The driver's report is the read's end, give or take its delay. Whoever asked (the
              // host, another platform's task) is not known here: task 0.
              const rt::Clock::time_point end = seen;
              impl->trace.transfer({&impl->self, 0,
                                    data_name(self->variable_, self->datum_, self->number_),
                                    self->bytes(), false,
                                    end - std::chrono::duration_cast<rt::Clock::duration>(
                                              std::chrono::nanoseconds(span.second - span.first)),
                                    end});
            }
            {
              std::lock_guard lock(impl->stats_mu);
              impl->stats.bytes_to_host += self->bytes();
              impl->stats.reads++;
              if (chunk) impl->stats.pinned_copies++;
              impl->stats.read_s += s;
              impl->add_span(span, true);
            }
            std::exception_ptr e = self->outcome_->ended();
            if (!e && st < 0) e = std::make_exception_ptr(Error("reading a device buffer", st));
            done(e);
          });
      std::lock_guard lock(read_mu_);
      read_ = std::move(callback);
    } catch (...) {
      done(std::current_exception());
    }
  };
  if (in_event_callback)
    impl_->post(std::move(read));
  else
    read();
}

void DeviceReplica::expedite() {
  std::weak_ptr<OpenCLPlatform::Impl::Callback> read;
  {
    std::lock_guard lock(read_mu_);
    read = read_;
  }
  OpenCLPlatform::Impl::run_here(read);
}

}  // namespace cei::opencl
