// The runtime's entry points for instrumented code. Users never write these: `ceic` rewrites
//
//   C = matmul::multiply(A, B);
// into
//   ::cei::rt::call_into<cei::Matrix<int>>(::cei::rt::out<cei::Matrix<int>>(C, "C"),
//       __cei_ce_MatmulCEI_multiply, ::cei::rt::in<cei::Matrix<int>>(A, "A"),
//       ::cei::rt::in<cei::Matrix<int>>(B, "B"));
//
// and every host use of a variable that a task may touch into `::cei::rt::sync(x)` (may write)
// or `::cei::rt::sync_read(x)` (reads only). The contract:
//  - Tasks never write host objects. Outputs go to runtime-owned storage (renaming), so WAR and
//    WAW never serialise tasks; the host copy is brought up to date only at a sync, by writing
//    the value into the host object, which keeps its storage (pointers into it stay valid), except
//    for a result assigned to it, which replaces it as the program's move assignment does.
//  - Tasks may read host objects in place (an `in` of a variable that no pending task writes),
//    so a host write (`sync`) and the end of the variable's scope (`Scope`) wait for those readers.
//    An arithmetic variable is copied at the call instead (ArgKind::Value).
//  - Data are keyed by address; `root` is the variable the address belongs to (`&v` for `v[i]`,
//    `&s` for `s.field`), so a host use of `v` syncs every datum under it.
//  - `name` is the argument as the program wrote it ("C[i]"), a string literal: traces, graphs
//    and logs show the data after it (Version::variable); the runtime keeps the pointer only.
#pragma once

#include <cei/cei.hpp>
#include <cei/rt/ce.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace cei::rt {

class Version;  // runtime-internal, reference counted

namespace detail {
void retain(Version* v) noexcept;
void release(Version* v) noexcept;

// Value: an arithmetic variable passed `in`. The task reads its pending task output when a task
// writes it (a dependency, no host wait), else a copy of the host value taken at the call: never
// the host object in place, so host writes to loop counters and the like never wait for readers.
enum class ArgKind : std::uint8_t { Tracked, Captured, Pending, Value };

// One argument of a task as the instrumented call site describes it.
struct ArgSpec {
  ArgKind kind;
  Dir dir;
  const TypeOps* type;
  void* address;     // Tracked, Value: the host object; Captured: a heap object the runtime owns
  const void* root;  // Tracked: the variable the address belongs to
  Version* version;  // Pending: a task output (reference transferred to the runtime)
  const char* name = nullptr;  // Tracked, Value: the program's text for it; null: none
};

// Submits a task; returns the result's version (retained for the caller); for a void CE, a
// version that settles with the task. `into` (a Tracked Out spec, for a CE with a result): the
// variable whose next value the result is, as `assign` would make it, there and then.
Version* submit(const CeInfo& ce, ArgSpec* args, std::size_t n, const ArgSpec* into = nullptr);
// The host variable at `target` (under `root`) now has `v` as its latest value (no copy yet).
void assign(const TypeOps& type, void* target, const void* root, Version* v);
// Waits for v and moves/copies its value into `dst` (an object of v's type; null for a void CE:
// only waits). Rethrows a task's failure: the exception its CE threw, or a TaskError.
void get(Version* v, void* dst);
// Host use of everything under `root` (or keyed at `root`): waits for writers and brings host
// copies up to date; `write` also waits for tasks reading the host objects and forgets the data.
void sync(const void* root, bool write);
void scope_enter(const void* root) noexcept;
void scope_exit(const void* root) noexcept;
// Starts the runtime (its platforms, the background opening of devices) from a static
// initializer of the translation unit that defines main() (ceic adds it), so that devices open
// while the program prepares its data. A launch mistake it meets is reported at the first CE call,
// as without it. Returns true.
bool start_at_load() noexcept;
}  // namespace detail

// Right before the program's own `throw`: the tasks submitted so far finish first, and a CE's
// exception among them is thrown here instead, as the sequential program would have thrown it at
// its call, before reaching this `throw`. Nothing on a worker thread (a CE's own code).
void before_throw();

// A task's output that no host variable holds yet: `f(g(x))`, or the right side of `C = f(x)`.
template <typename R>
class Pending {
 public:
  explicit Pending(Version* v) : v_(v) {}
  Pending(Pending&& o) noexcept : v_(std::exchange(o.v_, nullptr)) {}
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
  ~Pending() {
    if (v_) detail::release(v_);
  }
  // The value, waiting for it: used where the result feeds ordinary host code, and inside try
  // blocks, where a void CE's task is waited for too, so that its exception is thrown at the call.
  R get() && {
    if constexpr (!std::is_void_v<R>) {
      R r{};
      detail::get(v_, &r);
      return r;
    } else {
      detail::get(v_, nullptr);
    }
  }
  operator R() && { return std::move(*this).get(); }  // NOLINT: implicit on purpose
  Version* release() { return std::exchange(v_, nullptr); }

 private:
  Version* v_;
};

namespace detail {
template <typename P, typename T>
ArgSpec make_arg(Dir dir, T&& x, const char* name, const void* root) {
  using D = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<D, Pending<P>>) {
    return {ArgKind::Pending, dir, &type_ops<P>(), nullptr, nullptr, x.release()};
  } else if constexpr (std::is_lvalue_reference_v<T> && std::is_same_v<D, P>) {
    void* a = const_cast<void*>(static_cast<const void*>(&x));
    if constexpr (std::is_arithmetic_v<P>)
      return {ArgKind::Value, dir, &type_ops<P>(), a, nullptr, nullptr, name};
    else
      return {ArgKind::Tracked, dir, &type_ops<P>(), a, root ? root : a, nullptr, name};
  } else {
    return {ArgKind::Captured, dir, &type_ops<P>(), new P(std::forward<T>(x)), nullptr, nullptr};
  }
}
}  // namespace detail

// Argument wrappers; P is the CE parameter's type without cv/ref; `name` and `root` as in the
// contract above.
template <typename P, typename T>
detail::ArgSpec in(T&& x, const char* name = nullptr, const void* root = nullptr) {
  return detail::make_arg<P>(Dir::In, std::forward<T>(x), name, root);
}
template <typename P>
detail::ArgSpec out(P& x, const char* name = nullptr, const void* root = nullptr) {
  return {detail::ArgKind::Tracked, Dir::Out, &type_ops<P>(), &x, root ? root : &x, nullptr, name};
}
template <typename P>
detail::ArgSpec inout(P& x, const char* name = nullptr, const void* root = nullptr) {
  return {
      detail::ArgKind::Tracked, Dir::InOut, &type_ops<P>(), &x, root ? root : &x, nullptr, name};
}

template <typename R, typename... A>
Pending<R> call(const CeInfo& ce, A... args) {
  detail::ArgSpec specs[] = {args..., detail::ArgSpec{}};
  return Pending<R>(detail::submit(ce, specs, sizeof...(A)));
}

// A waited call whose full expression also uses, on the host, a variable the task writes
// (`c.hist.push_back(c.add(1))`, add an instance CE of c): the result once the task's outputs are
// in their variables, so that the host code after the call works on (and keeps) what the task
// wrote, as in the sequential program; a later sync would otherwise overwrite it.
template <typename R, typename... A>
R call_synced(const CeInfo& ce, A... args) {
  detail::ArgSpec specs[] = {args..., detail::ArgSpec{}};
  Pending<R> p(detail::submit(ce, specs, sizeof...(A)));
  const auto write_back = [&specs] {
    for (std::size_t i = 0; i < sizeof...(A); ++i)
      if (specs[i].kind == detail::ArgKind::Tracked && specs[i].dir != Dir::In)
        detail::sync(specs[i].root, true);
  };
  if constexpr (std::is_void_v<R>) {
    std::move(p).get();
    write_back();
  } else {
    R r = std::move(p).get();
    write_back();
    return r;
  }
}

// `x = ce(args)`: `target` is `out<R>(x, ...)`; the result becomes x's next value at the call,
// named after x, as `assign(x, call<R>(ce, args...))` would make it a moment later. Thread-safe
// as `call` is (the Analyzer's lock orders submissions).
template <typename R, typename... A>
void call_into(detail::ArgSpec target, const CeInfo& ce, A... args) {
  detail::ArgSpec specs[] = {args..., detail::ArgSpec{}};
  detail::release(detail::submit(ce, specs, sizeof...(A), &target));
}

template <typename T, typename R>
void assign(T& target, Pending<R>&& p, const void* root = nullptr) {
  static_assert(std::is_same_v<T, R>, "ceic assigns a CE result only to a variable of its type");
  detail::assign(type_ops<T>(), &target, root ? root : &target, p.release());
}

template <typename T>
T& sync(T& x) {
  detail::sync(&x, true);
  return x;
}
template <typename T>
T& sync_read(T& x) {
  detail::sync(&x, false);
  return x;
}

// Declared right after a local that tasks may use: forgets its data when it dies, after
// waiting for tasks that read it in place.
class Scope {
 public:
  template <typename T>
  explicit Scope(const T& x) : root_(&x) {
    detail::scope_enter(root_);
  }
  ~Scope() { detail::scope_exit(root_); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  const void* root_;
};

}  // namespace cei::rt
