#include "runtime_core.hpp"
#include "task_impl.hpp"

#include <cei/rt/task_error.hpp>

#include <string>

namespace cei::rt {

TaskImpl::TaskImpl(RuntimeCore& rt, std::uint64_t id, const CeInfo& ce, std::size_t nargs)
    : rt_(&rt), id_(id), ce_(&ce) {
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

void TaskImpl::finish(std::exception_ptr error) {
  if (error) {
    error = as_task_error(*ce_, error);
    for (auto& a : args_)
      if (a.out && a.out->state() == Version::State::Pending) a.out->fail(error);
  }
  rt_->observe(*this, error != nullptr);
  for (auto& a : args_) {
    a.in.reset();  // frees versions that nothing can read any more
    a.out.reset();
  }
  RuntimeCore* rt = rt_;
  { TaskPtr last = std::move(self); }  // may destroy *this: touch nothing after
  rt->task_done();
}

}  // namespace cei::rt
