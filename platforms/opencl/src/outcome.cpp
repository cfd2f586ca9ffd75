#include "outcome.hpp"

#include <cei/rt/task_error.hpp>

#include <algorithm>

namespace cei::opencl {

namespace {
cl_int status_of(cl_event e) {
  cl_int st = CL_COMPLETE;
  if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr) != CL_SUCCESS)
    return CL_COMPLETE;
  return st;
}
}  // namespace

Outcome::Outcome(const rt::CeInfo* ce, std::shared_ptr<const std::string> what, cl_event command,
                 std::vector<std::weak_ptr<Outcome>> sources)
    : ce_(ce), what_(std::move(what)), command_(command), sources_(std::move(sources)) {
  if (command) clRetainEvent(command);
}

std::exception_ptr Outcome::failure() {
  {
    std::lock_guard lock(mu_);
    if (error_) return error_;
  }
  const cl_int st = command_ ? status_of(command_.get()) : CL_COMPLETE;
  return st < 0 ? failed(st) : nullptr;
}

std::exception_ptr Outcome::failed(cl_int status) {
  {
    std::lock_guard lock(mu_);
    if (error_) return error_;
  }
  for (auto& s : sources_)
    if (auto source = s.lock())
      if (auto e = source->failure()) return settle(e);
  // Nested like the runtime's own TaskErrors: the OpenCL error inside the CE's.
  try {
    throw Error(*what_ + " failed at execution (status " + std::to_string(status) + ")", status);
  } catch (const Error& e) {
    const std::string ce = ce_ ? std::string(ce_->interface_name) + "::" + ce_->name : "(input)";
    try {
      throw rt::TaskError(ce, e.what());
    } catch (...) {
      return settle(std::current_exception());
    }
  }
}

std::exception_ptr Outcome::completed() {
  if (ok_) return nullptr;
  // Iterative: the commands not checked yet upstream can be a long chain on another queue.
  std::vector<std::shared_ptr<Outcome>> stack, seen;
  auto push_sources = [&](const Outcome& o) {
    for (auto& s : o.sources_)
      if (auto source = s.lock(); source && !source->ok_) stack.push_back(std::move(source));
  };
  push_sources(*this);
  while (!stack.empty()) {
    auto o = std::move(stack.back());
    stack.pop_back();
    if (o->ok_ || std::find(seen.begin(), seen.end(), o) != seen.end()) continue;
    if (auto e = o->failure()) return settle(e);
    push_sources(*o);
    seen.push_back(std::move(o));
  }
  for (auto& o : seen) o->ok_ = true;
  ok_ = true;
  return nullptr;
}

std::exception_ptr Outcome::ended() {
  if (ok_) return nullptr;
  if (auto e = failure()) return e;
  return completed();
}

std::exception_ptr Outcome::settle(std::exception_ptr e) {
  std::lock_guard lock(mu_);
  if (!error_) error_ = std::move(e);
  return error_;
}

}  // namespace cei::opencl
