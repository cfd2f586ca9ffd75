#include "version_impl.hpp"

#include "pool.hpp"
#include "task_impl.hpp"

#include <mutex>
#include <stdexcept>
#include <utility>

namespace cei::rt {

std::shared_ptr<VersionImpl> VersionImpl::pending(const TypeOps& t, std::uint64_t datum,
                                                  std::uint32_t number, const char* variable) {
  return std::allocate_shared<VersionImpl>(PoolAllocator<VersionImpl>{}, t, datum, number,
                                           variable);
}

std::shared_ptr<VersionImpl> VersionImpl::ready(const TypeOps& t, std::uint64_t datum,
                                                std::uint32_t number, void* storage, Storage s,
                                                const char* variable) {
  auto v =
      std::allocate_shared<VersionImpl>(PoolAllocator<VersionImpl>{}, t, datum, number, variable);
  v->storage_ = s;
  v->host_.store(storage, std::memory_order_relaxed);
  v->state_.store(State::Ready, std::memory_order_release);
  return v;
}

VersionImpl::VersionImpl(const TypeOps& t, std::uint64_t datum, std::uint32_t number,
                         const char* variable)
    : type_(&t), datum_(datum), number_(number), variable_(variable) {}

VersionImpl::~VersionImpl() {
  void* h = host_.load(std::memory_order_relaxed);
  if (storage_ == Storage::HostAlias)
    host_alias_released(h);
  else if (h)
    type_->destroy(h);
}

std::exception_ptr VersionImpl::error() const {
  return state() == State::Failed ? error_ : nullptr;
}

void VersionImpl::on_ready(std::function<void()> cb) {
  if (state() != State::Pending) return cb();
  lock_.lock();
  if (state() != State::Pending) {
    lock_.unlock();
    return cb();
  }
  if (!first_subscriber_)
    first_subscriber_ = std::move(cb);
  else
    more_subscribers_.push_back(std::move(cb));
  lock_.unlock();
}

void VersionImpl::set_producer(TaskImpl* t) {
  std::lock_guard g(lock_);
  producer_task_ = t;
}

void VersionImpl::raise_producer(float reader_rank, int& budget, Promoted& promoted) {
  if (budget <= 0 || state() != State::Pending) return;
  std::lock_guard g(lock_);
  TaskImpl* p = producer_task_;
  if (!p) return;
  --budget;
  const float r = p->dur_s + reader_rank;
  if (r <= p->upward_rank_s.load(std::memory_order_relaxed)) return;  // its producers know more
  // Queued ready on a platform: queued again at its new priority. (One still waiting for an
  // input is queued once that input is ready, at the priority it has then.)
  if (p->raise_rank(r) && p->queued_on.load(std::memory_order_acquire) && !p->inputs().waiting() &&
      promoted.n < Promoted::kMax)
    promoted.tasks[promoted.n++] = p->self;
  // Locks are taken from a reader's version to its producer's inputs only: a DAG, no cycle.
  for (const auto& a : p->args())
    if (a.in) impl(a.in.get())->raise_producer(r, budget, promoted);
}

void VersionImpl::forget_producer(const TaskImpl* t) {
  if (state() != State::Pending) return;  // set_state forgot it
  std::lock_guard g(lock_);
  if (producer_task_ == t) producer_task_ = nullptr;
}

void VersionImpl::set_state(State s) {
  std::function<void()> first;
  std::vector<std::function<void()>> more;
  producer_task_ = nullptr;
  state_.store(s, std::memory_order_release);
  first.swap(first_subscriber_);
  more.swap(more_subscribers_);
  lock_.unlock();
  if (first) first();
  for (auto& cb : more) cb();
}

void VersionImpl::publish_host(void* storage) {
  lock_.lock();
  if (state() != State::Pending) {
    lock_.unlock();
    type_->destroy(storage);  // a late result: the version has its value (or failure) already
    return;
  }
  host_.store(storage, std::memory_order_release);
  set_state(State::Ready);
}

void VersionImpl::publish_replica(std::shared_ptr<Replica> r) {
  lock_.lock();
  if (state() != State::Pending) return lock_.unlock();
  replicas_.push_back(std::move(r));
  set_state(State::Ready);
}

void VersionImpl::fail(std::exception_ptr e) {
  lock_.lock();
  if (state() != State::Pending) return lock_.unlock();
  error_ = std::move(e);
  set_state(State::Failed);
}

void VersionImpl::ensure_host(std::function<void(std::exception_ptr)> done) {
  State s = state();
  if (s == State::Pending) {
    auto self = shared_from_this();
    on_ready([self, done = std::move(done)]() mutable { self->ensure_host(std::move(done)); });
    return;
  }
  if (s == State::Failed) return done(error_);
  if (host()) return done(nullptr);
  std::shared_ptr<Replica> from;
  {
    std::lock_guard g(lock_);
    // One fetch per version: whoever asks while it is in flight waits for the same copy.
    if (fetch_waiters_) return fetch_waiters_->push_back(std::move(done));
    if (!host() && !replicas_.empty()) {
      from = replicas_.front();
      fetch_waiters_ = std::make_unique<std::vector<std::function<void(std::exception_ptr)>>>();
    }
  }
  if (!from) {
    if (host()) return done(nullptr);  // a fetch finished in between
    return done(std::make_exception_ptr(std::logic_error("version has no value")));
  }
  void* storage = type_->create();
  auto self = shared_from_this();
  from->to_host(storage, [self, storage, done = std::move(done)](std::exception_ptr e) {
    if (e) {
      self->type_->destroy(storage);
    } else {
      self->host_.store(storage, std::memory_order_release);
    }
    std::unique_ptr<std::vector<std::function<void(std::exception_ptr)>>> waiters;
    {
      std::lock_guard g(self->lock_);
      waiters.swap(self->fetch_waiters_);
    }
    done(e);
    for (auto& w : *waiters) w(e);
  });
}

std::shared_ptr<Replica> VersionImpl::replica_on(const Platform& p) {
  std::lock_guard g(lock_);
  for (auto& r : replicas_)
    if (&r->owner() == &p) return r;
  return nullptr;
}

std::vector<std::shared_ptr<Replica>> VersionImpl::replicas() {
  std::lock_guard g(lock_);
  return replicas_;
}

void VersionImpl::add_replica(std::shared_ptr<Replica> r) {
  std::lock_guard g(lock_);
  replicas_.push_back(std::move(r));
}

void VersionImpl::drop_replica(const Platform& p) {
  std::lock_guard g(lock_);
  std::erase_if(replicas_, [&](const auto& r) { return &r->owner() == &p; });
}

std::size_t VersionImpl::bytes() const {
  if (void* h = host_.load(std::memory_order_acquire)) return type_->bytes(h);
  auto& self = const_cast<VersionImpl&>(*this);
  std::lock_guard g(self.lock_);
  return replicas_.empty() ? expected_bytes_.load(std::memory_order_relaxed)
                           : replicas_.front()->bytes();
}

void* VersionImpl::take_storage() {
  if (storage_ != Storage::Owned || state() != State::Ready) return nullptr;
  if (void* h = host_.load(std::memory_order_acquire)) expect_bytes(type_->bytes(h));
  return host_.exchange(nullptr, std::memory_order_acq_rel);
}

Version* VersionImpl::to_handle() {
  if (handles_.fetch_add(1, std::memory_order_relaxed) == 0) held_by_handles_ = shared_from_this();
  return this;
}

void VersionImpl::handle_release() noexcept {
  if (handles_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    auto last = std::move(held_by_handles_);  // may destroy *this: touch nothing after
  }
}

}  // namespace cei::rt
