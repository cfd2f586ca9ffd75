#include "runtime_core.hpp"
#include "task_impl.hpp"

#include <cei/rt/task_error.hpp>
#include <cei/rt/trace/log.hpp>

#include <string>

namespace cei::rt {

TaskImpl::TaskImpl(RuntimeCore& rt, std::uint64_t id, const CeInfo& ce, std::size_t nargs,
                   FailureSpec failure)
    : rt_(&rt), id_(id), ce_(&ce), failure_(failure) {
  args_.reserve(nargs);
}

std::exception_ptr as_task_error(const CeInfo& ce, std::exception_ptr e) {
  std::string name = std::string(ce.interface_name) + "::" + ce.name;
  try {
    std::rethrow_exception(e);
  } catch (const TaskError&) {
    return e;
  } catch (const std::exception& x) {
    try {
      throw TaskError(name, x.what());
    } catch (...) {
      return std::current_exception();
    }
  } catch (...) {
    try {
      throw TaskError(name, "unknown exception");
    } catch (...) {
      return std::current_exception();
    }
  }
}

int TaskImpl::open_attempt() {
  waiting.store(0, std::memory_order_relaxed);
  next = nullptr;
  fetched_inputs = false;
  lane = -1;
  timing_ = Timing{};
  const int a = ++attempts_;
  open_.store(a, std::memory_order_release);
  return a;
}

void TaskImpl::finish(std::exception_ptr error) {
  const int a = attempt();
  if (a == 0 || !claim(a)) return;  // already settled (timed out, moved): a late verdict
  settle(std::move(error));
}

void TaskImpl::settle(std::exception_ptr error) {
  if (!error) return complete(false);
  error = as_task_error(*ce_, error);
  bool from_input = false;
  bool has_outputs = false;
  for (auto& a : args_) {
    if (a.in && a.in->state() == Version::State::Failed) from_input = true;
    if (a.out) has_outputs = true;
  }
  // A failed input cancels this task whatever its policy: the failure is already reported
  // through the data it came from.
  if (!from_input) {
    if (failure_.policy == FailurePolicy::Retry && retries_done < failure_.retries) {
      ++retries_done;
      if (rt_->retry(*this, error)) return;
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
  complete(true);
}

// The outputs keep the values they had before the task (inout) or their type's default value
// (out, result), so that successors run.
void TaskImpl::ignore_failure(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    log().warn("{} (ignored: its outputs keep their previous values)", e.what());
  }
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
  if (tracked) rt_->untrack(*this);
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
