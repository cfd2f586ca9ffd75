#include "requirements_check.hpp"

#include <cei/rt/requirements.hpp>
#include <cei/rt/task_error.hpp>
#include <cei/rt/trace/log.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace cei::rt {
namespace {

void warn_unchecked(const CeInfo& ce, const std::exception& e) {
  static std::mutex mu;
  static std::set<const CeInfo*> warned;  // once per CE: a loop of such tasks says it once
  std::lock_guard g(mu);
  if (warned.insert(&ce).second)
    log().warn("CE {}: requires not checked ({}): such tasks run unchecked", qualified_name(ce),
               e.what());
}

// The host copy, else the extents a replica knows (a value kept on a device is not copied for
// requirements that read only its shape).
CallArg call_arg(const TaskArg& a) {
  CallArg c;
  if (!a.in) return c;
  c.host = a.in->host();
  if (c.host) return c;
  for (const auto& r : a.in->replicas())
    if ((c.extents = r->known_extents())) break;
  return c;
}

}  // namespace

Requirements check_requirements(TaskImpl& t, bool fetched) {
  const CeInfo& ce = t.ce();
  if (ce.nrequirements == 0) return Requirements::Met;
  std::vector<CallArg> call;  // out parameters (none is read) and the result: nothing
  for (const TaskArg& a : t.args()) call.push_back(call_arg(a));
  std::string broken;
  try {
    broken = broken_requirement(ce, call);
  } catch (const NotOnHost& e) {
    if (!fetched) return Requirements::Unreadable;
    // A failed input has no value to check: the task is cancelled by it wherever it is placed.
    const bool input_failed = std::any_of(t.args().begin(), t.args().end(), [](const TaskArg& a) {
      return a.in && a.in->state() == Version::State::Failed;
    });
    if (!input_failed) warn_unchecked(ce, e);
    return Requirements::Met;
  }
  if (broken.empty()) return Requirements::Met;
  t.open_attempt();
  t.fail(std::make_exception_ptr(TaskError(qualified_name(ce), broken)), Failure::Final);
  return Requirements::Broken;
}

void bring_inputs_to_host(TaskImpl& t, std::function<void()> then) {
  std::vector<VersionPtr> missing;
  for (const TaskArg& a : t.args())
    if (a.in && !a.in->host()) missing.push_back(a.in);
  // One count more than the copies, released below: `then` runs after every copy was asked for.
  auto left = std::make_shared<std::atomic<std::size_t>>(missing.size() + 1);
  auto last = std::make_shared<std::function<void()>>(std::move(then));
  const auto one_done = [left, last] {
    if (left->fetch_sub(1, std::memory_order_acq_rel) == 1) (*last)();
  };
  for (const VersionPtr& v : missing)
    v->ensure_host([one_done](std::exception_ptr) { one_done(); });
  one_done();
}

}  // namespace cei::rt
