// The Analyzer: gives every datum (a host object, keyed by address) an id and every write a new
// version. A task's inputs are the data's latest versions (read-after-write is the only
// dependency); its outputs are fresh versions with their own storage (renaming removes
// write-after-read and write-after-write). The host object itself is read in place while it
// holds the latest value, and is brought up to date only when the program syncs.
#pragma once

#include "task_impl.hpp"
#include "version_impl.hpp"

#include <cei/rt/api.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cei::rt {

class Analyzer {
 public:
  // Fills t's arguments (and the result's, for non-void CEs); returns the result's handle (a
  // void CE's: a version that settles with the task). `into`: api.hpp's submit.
  Version* build_args(TaskImpl& t, detail::ArgSpec* specs, std::size_t n,
                      const detail::ArgSpec* into);
  void assign(const TypeOps& type, void* target, const void* root, Version* v);
  // Brings host copies under root up to date; `write` also forgets them. Throws the first
  // failure among them (after handling all).
  void sync(const void* root, bool write);
  // The variable dies: waits for in-place readers and forgets its data.
  void forget(const void* root);
  // After a drain: brings every host copy up to date and forgets all data.
  void sync_all();
  std::size_t data_count();
  // The program received the failure of task `task` (a handler may catch it), as the sequential
  // program receives the exception of the call: the task's other outputs do not throw it again
  // at their syncs, their objects keep the values they had before the call (cancelled
  // successors, other tasks, still throw where the program reads them).
  void delivered(std::uint64_t task);

 private:
  struct Datum {
    std::uint64_t id;
    void* address;
    const void* root;
    const TypeOps* type;
    VersionPtr latest;  // null: the host object holds the latest value
    // `latest` is a CE's result assigned to the variable (`x = ce(...)`), not a task's write
    // through an argument: as in `-seq`'s move assignment, its storage may replace the object's.
    bool latest_replaces = false;
    // The host object's value, read in place by tasks: held while it is the latest value, so
    // that its copies on devices and nodes serve every reader, not only those alive at once.
    VersionPtr host_alias;
    std::uint32_t next_number = 1;
  };

  Datum& datum(void* address, const void* root, const TypeOps& type);
  // `variable`: the text of the call that reads it, for a host value read for the first time.
  VersionPtr read_version(Datum& d, const char* variable);
  // d's next value from now on (not produced yet); `replaces`: Datum::latest_replaces.
  void set_latest(Datum& d, VersionPtr v, bool replaces = false);
  std::vector<void*> data_under(const void* root);
  // Writes the latest value into the host object, which keeps its storage (pointers and
  // references into it stay valid, as in `-seq`) unless the value is an assigned result; returns
  // its failure instead of throwing.
  std::exception_ptr update_host(Datum& d);
  // Lets go of the host alias, then waits for the tasks that still read it.
  void wait_in_place_readers(Datum& d);
  void erase(void* address);

  std::mutex mu_;
  std::uint64_t next_id_ = 1;
  std::unordered_map<const void*, Datum> by_address_;
  std::unordered_map<const void*, std::vector<void*>> by_root_;  // only where root != address
  // Keys whose data the host holds up to date since their last read sync: a host loop that
  // reads an element of a container per iteration (`sync_read(blocks)[i](r, c)`) must not walk
  // every datum under the container each time (bezier 4096: 16M syncs of 256 data).
  std::unordered_set<const void*> clean_;
  std::unordered_set<std::uint64_t> delivered_;  // failed tasks whose failure the program got
  void dirty(const Datum& d) {
    clean_.erase(d.address);
    clean_.erase(d.root);
  }
};

// Datum ids for values no variable holds yet (results, captured temporaries).
std::uint64_t fresh_datum_id();

}  // namespace cei::rt
