// Where the runtime's observers live, and the environment switches that install ours:
//   CEI_TRACE=trace.json  Chrome trace (Perfetto)      CEI_GRAPH=graph.dot  task graph
//   CEI_SUMMARY=1         table on stderr at exit       CEI_PROGRESS=1       tasks done/submitted
//   CEI_LOG=debug         every decision in the log (see log.hpp)
//
//   cei::rt::install_observers_from_env();            // the runtime, once, at start
//   for (auto& o : *cei::rt::observers()) o->task_started(task, platform, lane);
#pragma once

#include <cei/rt/observer.hpp>

#include <memory>
#include <vector>

namespace cei::rt {

using ObserverList = std::vector<std::shared_ptr<Observer>>;

// The observers added so far: an immutable snapshot, cheap enough to take for every event.
std::shared_ptr<const ObserverList> observers();
// Forgets every observer (tests; a runtime that restarts).
void clear_observers();
// Adds the observers the environment asks for. Call once per run, before the first task.
void install_observers_from_env();

}  // namespace cei::rt
