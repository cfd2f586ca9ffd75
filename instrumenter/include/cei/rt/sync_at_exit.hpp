// Instrumented code only (ceic inserts it): a variable that outlives the function that hands it to
// tasks (a reference parameter, a field, a global, a static) is brought up to date, and its
// in-place readers are waited for, when that function's block ends, because code elsewhere
// (another translation unit, the caller) uses it without knowing about the tasks.
//
//   void scale(Matrix& m) { ::cei::rt::SyncAtExit __cei_exit_m(m); m = ...task...; }
#pragma once

#include <cei/rt/api.hpp>

#include <exception>

namespace cei::rt {

class SyncAtExit {
 public:
  template <typename T>
  explicit SyncAtExit(const T& x) : root_(&x), unwinding_(std::uncaught_exceptions()) {}
  // A task's failure surfaces here unless another exception is already propagating.
  ~SyncAtExit() noexcept(false) {
    if (std::uncaught_exceptions() > unwinding_) {
      try {
        detail::sync(root_, true);
      } catch (...) {
      }
      return;
    }
    detail::sync(root_, true);
  }
  SyncAtExit(const SyncAtExit&) = delete;
  SyncAtExit& operator=(const SyncAtExit&) = delete;

 private:
  const void* root_;
  int unwinding_;
};

}  // namespace cei::rt
