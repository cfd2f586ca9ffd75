// The runtime's side of [[cei::requires]] (cei/rt/requirements.hpp): a task whose arguments break
// its CE's requirements fails with a TaskError naming the condition and the values it read,
// before the Scheduler places it anywhere, so no platform ever runs it with shapes its
// implementations do not take. The program sees the error where it sees any task's failure.
//
//   switch (check_requirements(t, false)) { ... }  // Scheduler::dispatch, before the placement
#pragma once

#include "task_impl.hpp"

#include <functional>

namespace cei::rt {

enum class Requirements {
  Met,         // every requirement holds (or the CE has none)
  Broken,      // one does not: t has been failed (Failure::Final), nothing ran
  Unreadable,  // a requirement reads an argument not on the host (a pending task's output)
};

// `fetched`: t's inputs were brought to the host (bring_inputs_to_host) and one still is not
// there (its copy failed): its requirements are then not checked (a warning, once per CE), and
// Met is returned; the task meets that input's failure where it runs.
Requirements check_requirements(TaskImpl& t, bool fetched);

// Brings every ready input of t that lives only in replicas (an OpenCL device's, a node's) to the
// host, then calls `then` once, on any thread: what requirements read is then readable. (Only
// for a requirement that reads a value or an element there, or shapes no replica knows.)
void bring_inputs_to_host(TaskImpl& t, std::function<void()> then);

}  // namespace cei::rt
