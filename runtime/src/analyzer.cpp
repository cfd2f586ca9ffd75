#include "analyzer.hpp"

#include "host_wait.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <unordered_map>

namespace cei::rt {

namespace {
// In-place readers finishing: rare (once per host value read by tasks), so one global set.
// The count, not the Datum's weak_ptr, says when they are gone: a reader decrements it under
// alias_mu after its last read, which orders that read before the writer's next access;
// weak_ptr::expired() is a relaxed load, which would not.
std::mutex alias_mu;
std::condition_variable alias_cv;
std::unordered_map<const void*, int> live_aliases;  // under alias_mu

std::atomic<std::uint64_t> unnamed_ids{kRuntimeDatumBase + 1};
}  // namespace

void host_alias_created(const void* host) {
  std::lock_guard g(alias_mu);
  ++live_aliases[host];
}

void host_alias_released(const void* host) {
  std::lock_guard g(alias_mu);
  if (auto it = live_aliases.find(host); it != live_aliases.end() && --it->second == 0)
    live_aliases.erase(it);
  alias_cv.notify_all();
}

std::uint64_t fresh_datum_id() {
  return unnamed_ids.fetch_add(1, std::memory_order_relaxed);
}

Analyzer::Datum& Analyzer::datum(void* address, const void* root, const TypeOps& type) {
  auto [it, added] = by_address_.try_emplace(address);
  Datum& d = it->second;
  if (added) {
    d.id = next_id_++;
    d.address = address;
    d.root = root;
    d.type = &type;
    if (root != address) by_root_[root].push_back(address);
  }
  return d;
}

VersionPtr Analyzer::read_version(Datum& d, const char* variable) {
  if (d.latest) return d.latest;
  if (d.host_alias) return d.host_alias;
  d.host_alias =
      VersionImpl::ready(*d.type, d.id, 0, d.address, VersionImpl::Storage::HostAlias, variable);
  host_alias_created(d.address);
  return d.host_alias;
}

void Analyzer::set_latest(Datum& d, VersionPtr v, bool replaces) {
  d.latest = std::move(v);
  d.latest_replaces = replaces;
  d.host_alias.reset();  // readers from now on read the new value
  dirty(d);
}

Version* Analyzer::build_args(TaskImpl& t, detail::ArgSpec* specs, std::size_t n,
                              const detail::ArgSpec* into) {
  auto& args = t.args();
  std::lock_guard g(mu_);
  // Reads first, then writes: f(inout x, in x) reads x's value from before the call, never its
  // own output.
  for (std::size_t i = 0; i < n; ++i) {
    const detail::ArgSpec& s = specs[i];
    TaskArg a{s.dir, s.type, nullptr, nullptr};
    switch (s.kind) {
      case detail::ArgKind::Tracked:
        if (s.dir != Dir::Out) a.in = read_version(datum(s.address, s.root, *s.type), s.name);
        break;
      case detail::ArgKind::Captured:
        // The runtime owns the object now; an output to a temporary is produced and dropped.
        if (s.dir != Dir::Out)
          a.in = VersionImpl::ready(*s.type, fresh_datum_id(), 0, s.address,
                                    VersionImpl::Storage::Owned);
        else
          s.type->destroy(s.address);
        break;
      case detail::ArgKind::Value: {
        // Looked up, never added: a variable no task wrote has no datum, and needs none.
        auto it = by_address_.find(s.address);
        if (it != by_address_.end() && it->second.latest) {
          a.in = it->second.latest;
        } else {
          void* copy = s.type->create();
          s.type->copy(copy, s.address);
          a.in = VersionImpl::ready(*s.type, fresh_datum_id(), 0, copy, VersionImpl::Storage::Owned,
                                    s.name);
        }
        break;
      }
      case detail::ArgKind::Pending: {
        auto* v = impl(s.version);
        a.in = v->shared_from_this();
        v->handle_release();  // the reference travelled with the spec
        break;
      }
    }
    args.push_back(std::move(a));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const detail::ArgSpec& s = specs[i];
    if (s.dir == Dir::In) continue;
    if (s.kind == detail::ArgKind::Tracked) {
      Datum& d = datum(s.address, s.root, *s.type);
      auto out = VersionImpl::pending(*s.type, d.id, d.next_number++, s.name);
      out->producer = t.id();
      set_latest(d, args[i].out = std::move(out));
    } else {
      args[i].out = VersionImpl::pending(*s.type, fresh_datum_id(), 1);
    }
    // Updated in place, a value usually keeps its size: the best guess for the tasks that read
    // it before it is produced (their forecasts look its size up in the profiles).
    if (args[i].in) impl(args[i].out.get())->expect_bytes(args[i].in->bytes());
  }
  const CeInfo& ce = t.ce();
  if (!ce.result) {
    // A void CE's handle is a version that settles with the task, for a Pending<void>::get() that
    // waits for it (a call inside a try block): its first output, else one of its own.
    for (auto& a : args)
      if (a.out) return impl(a.out.get())->to_handle();
    t.done = VersionImpl::pending(type_ops<char>(), fresh_datum_id(), 1);
    return impl(t.done.get())->to_handle();
  }
  std::shared_ptr<VersionImpl> result;
  if (into) {
    Datum& d = datum(into->address, into->root, *ce.result);
    result = VersionImpl::pending(*ce.result, d.id, d.next_number++, into->name);
    set_latest(d, result, true);
  } else {
    result = VersionImpl::pending(*ce.result, fresh_datum_id(), 1);
  }
  result->producer = t.id();
  args.push_back(TaskArg{Dir::Out, ce.result, nullptr, result});
  return result->to_handle();
}

void Analyzer::assign(const TypeOps& type, void* target, const void* root, Version* v) {
  auto* vi = impl(v);
  {
    std::lock_guard g(mu_);
    Datum& d = datum(target, root, type);
    set_latest(d, vi->shared_from_this(), true);
    d.next_number++;
  }
  vi->handle_release();
}

std::vector<void*> Analyzer::data_under(const void* root) {
  std::vector<void*> found;
  if (auto it = by_address_.find(root); it != by_address_.end())
    found.push_back(it->second.address);
  if (auto it = by_root_.find(root); it != by_root_.end())
    found.insert(found.end(), it->second.begin(), it->second.end());
  return found;
}

void Analyzer::wait_in_place_readers(Datum& d) {
  d.host_alias.reset();
  std::unique_lock g(alias_mu);
  alias_cv.wait(g, [&] { return !live_aliases.contains(d.address); });
}

std::exception_ptr Analyzer::update_host(Datum& d) {
  if (!d.latest) return nullptr;
  VersionPtr v = std::move(d.latest);
  try {
    wait_ready(*v);
    if (auto e = v->error()) {
      const std::uint64_t task = impl(v.get())->producer;
      if (task && !delivered_.insert(task).second) return nullptr;  // thrown once already
      std::rethrow_exception(e);
    }
    // A result assigned to the variable replaces its storage in `-seq` too (move assignment):
    // take the task's storage instead of copying it.
    const bool take = d.latest_replaces && !impl(v.get())->aliases_host();
    void* value = take ? wait_host(*v) : nullptr;
    wait_in_place_readers(d);  // they read the old host value
    if (value && last_reference(v))
      d.type->move(d.address, value);
    else
      write_into(*v, d.address);
  } catch (...) {
    return std::current_exception();  // a failed version is reported once, then forgotten
  }
  return nullptr;
}

void Analyzer::erase(void* address) {
  auto it = by_address_.find(address);
  if (it == by_address_.end()) return;
  const void* root = it->second.root;
  by_address_.erase(it);
  if (root == address) return;
  auto r = by_root_.find(root);
  if (r == by_root_.end()) return;
  std::erase(r->second, address);
  if (r->second.empty()) by_root_.erase(r);
}

void Analyzer::sync(const void* root, bool write) {
  std::exception_ptr first;
  std::lock_guard g(mu_);
  if (!write && clean_.contains(root)) return;
  for (void* address : data_under(root)) {
    Datum& d = by_address_.at(address);
    auto e = update_host(d);
    if (!first) first = e;
    if (write) {
      wait_in_place_readers(d);
      erase(address);
    }
  }
  if (first) std::rethrow_exception(first);
  if (!write) clean_.insert(root);
}

void Analyzer::forget(const void* root) {
  std::lock_guard g(mu_);
  for (void* address : data_under(root)) {
    Datum& d = by_address_.at(address);
    d.latest.reset();
    wait_in_place_readers(d);
    erase(address);
  }
}

void Analyzer::sync_all() {
  std::exception_ptr first;
  std::lock_guard g(mu_);
  for (auto& [address, d] : by_address_) {
    auto e = update_host(d);
    if (!first) first = e;
    wait_in_place_readers(d);
  }
  by_address_.clear();
  by_root_.clear();
  clean_.clear();
  if (first) std::rethrow_exception(first);
}

void Analyzer::delivered(std::uint64_t task) {
  std::lock_guard g(mu_);
  if (task) delivered_.insert(task);
}

std::size_t Analyzer::data_count() {
  std::lock_guard g(mu_);
  return by_address_.size();
}

}  // namespace cei::rt
