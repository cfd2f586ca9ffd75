#include "pool.hpp"
#include "runtime_core.hpp"
#include "task_impl.hpp"
#include "version_impl.hpp"

#include <cei/rt/task_error.hpp>
#include <cei/rt/trace/log.hpp>

#include <string>

namespace cei::rt {

TaskImpl::TaskImpl(RuntimeCore& rt, std::uint64_t id, const CeInfo& ce, std::size_t nargs,
                   FailureSpec failure)
    : TaskContext(id, ce, SpareVectors<TaskArg>::take(nargs), failure), rt_(&rt) {}

// The program thread makes tasks and workers end them: a fresh vector each time would be a
// malloc there and a free across threads here, per task.
TaskImpl::~TaskImpl() {
  SpareVectors<TaskArg>::give(std::move(args_));
}

namespace {
std::string ce_name(const CeInfo& ce) {
  return std::string(ce.interface_name) + "::" + ce.name;
}
}  // namespace

std::exception_ptr as_task_error(const CeInfo& ce, std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const TaskError&) {
    return e;
  } catch (const std::exception& x) {
    return std::make_exception_ptr(TaskError(ce_name(ce), x.what()));
  } catch (...) {
    return std::make_exception_ptr(TaskError(ce_name(ce), "unknown exception"));
  }
}

std::string describe_failure(const CeInfo& ce, const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const TaskError& x) {
    return x.what();
  } catch (const std::exception& x) {
    return "CE " + ce_name(ce) + " failed: " + x.what();
  } catch (...) {
    return "CE " + ce_name(ce) + " failed: unknown exception";
  }
}

int TaskImpl::open_attempt() {
  inputs_.reset();
  lane = -1;
  timing_ = Timing{};
  const int a = ++attempts_;
  open_.store(a, std::memory_order_release);
  return a;
}

bool TaskImpl::raise_rank(float r) {
  float was = upward_rank_s.load(std::memory_order_relaxed);
  while (was < r)
    if (upward_rank_s.compare_exchange_weak(was, r, std::memory_order_relaxed)) {
      const int cls = rank_class(r, dur_s);
      int had = rank.load(std::memory_order_relaxed);
      while (had < cls)
        if (rank.compare_exchange_weak(had, cls, std::memory_order_relaxed)) return true;
      return false;
    }
  return false;
}

// ---- TaskContext: every one is a TaskImpl ----

float TaskContext::upward_s() const {
  return static_cast<const TaskImpl*>(this)->upward_rank_s.load(std::memory_order_relaxed);
}

int TaskContext::bind_version(const Platform& p) {
  auto* t = static_cast<TaskImpl*>(this);
  const int v = t->rt_->scheduler().choose_version(*t, p);
  timing_.version_index = v;
  return v;
}

void TaskContext::done() {
  static_cast<TaskImpl*>(this)->complete(false);
}

void TaskContext::failed(std::exception_ptr error, Failure how) {
  static_cast<TaskImpl*>(this)->settle(std::move(error), how);
}

void TaskContext::threw(std::exception_ptr thrown) {
  static_cast<TaskImpl*>(this)->settle_thrown(std::move(thrown));
}

void TaskContext::start_timeout(int attempt) {
  auto* t = static_cast<TaskImpl*>(this);
  t->rt_->start_timeout(*t, attempt);
}

void* TaskContext::take_input(std::size_t i) {
  const VersionPtr& in = args_[i].in;
  return last_reference(in) ? impl(in.get())->take_storage() : nullptr;
}

TaskPtr TaskContext::keep_alive() const {
  return static_cast<const TaskImpl*>(this)->self;
}

void TaskContext::finish(std::exception_ptr error) {
  fail(std::move(error), Failure::Error);
}

void TaskContext::fail(std::exception_ptr error, Failure how) {
  const int a = attempt();
  if (a == 0 || !claim(a)) return;  // already settled (timed out, moved): a late verdict
  static_cast<TaskImpl*>(this)->settle(std::move(error), how);
}

void TaskImpl::settle(std::exception_ptr error, Failure how) {
  if (!error) return complete(false);
  if (how == Failure::Elsewhere) {
    if (rt_->scheduler().place_again(*this)) return;
    how = Failure::Error;  // nowhere else to go: it failed here
  }
  settle_failure(std::move(error), false, how);
}

void TaskImpl::settle_thrown(std::exception_ptr thrown) {
  settle_failure(std::move(thrown), true, Failure::Error);
}

void TaskImpl::settle_failure(std::exception_ptr error, bool thrown_by_ce, Failure how) {
  std::exception_ptr input_error;
  bool has_outputs = false;
  for (auto& a : args_) {
    if (!input_error && a.in && a.in->state() == Version::State::Failed)
      input_error = a.in->error();
    if (a.out) has_outputs = true;
  }
  // A failed input cancels this task whatever its policy: the failure is already reported
  // through the data it came from, and the program sees that same exception through this
  // task's outputs.
  if (input_error) {
    error = input_error;
  } else {
    if (!thrown_by_ce) error = as_task_error(*ce_, error);
    if (how != Failure::Final && failure_.policy == FailurePolicy::Retry &&
        retries_done < failure_.retries) {
      ++retries_done;
      if (rt_->scheduler().retry(*this, error, how)) return;
    }
    if (failure_.policy == FailurePolicy::Ignore) {
      ignore_failure(error);
      return complete(true);
    }
    if (failure_.policy == FailurePolicy::Fail || failure_.policy == FailurePolicy::Retry)
      rt_->report_fatal(*this, error);
    else if (!has_outputs)
      rt_->report_at_barrier(error);
  }
  for (auto& a : args_)
    if (a.out && a.out->state() == Version::State::Pending) a.out->fail(error);
  if (done) done->fail(error);
  complete(true);
}

// The outputs keep the values they had before the task (inout) or their type's default value
// (out, result), so that successors run.
void TaskImpl::ignore_failure(const std::exception_ptr& error) {
  log().warn("{} (ignored: its outputs keep their previous values)", describe_failure(*ce_, error));
  for (auto& a : args_) {
    if (!a.out || a.out->state() != Version::State::Pending) continue;
    try {
      void* old = a.dir == Dir::InOut && a.in ? a.in->host() : nullptr;
      if (a.dir == Dir::InOut && a.in && !old && !a.in->replicas().empty()) {
        a.out->publish_replica(a.in->replicas().front());
        continue;
      }
      void* value = a.type->create();
      if (old) a.type->copy(value, old);
      a.out->publish_host(value);
    } catch (...) {
      a.out->fail(as_task_error(*ce_, std::current_exception()));
    }
  }
}

void TaskImpl::complete(bool failed) {
  if (tracked) rt_->scheduler().untrack(*this);
  if (done) done->publish_host(done->type().create());  // no-op when failed above
  rt_->observe(*this, failed);
  for (auto& a : args_) {
    a.in.reset();  // frees versions that nothing can read any more
    a.out.reset();
  }
  RuntimeCore* rt = rt_;
  { TaskPtr last = std::move(self); }  // may destroy *this: touch nothing after
  rt->task_done();
}

}  // namespace cei::rt
