// The OpenCL C API as this platform uses it: one include point, error checking that names the
// call, and reference-counted handles.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>

namespace cei::opencl {

// True on a thread inside one of this platform's OpenCL event callbacks, where enqueueing or
// blocking is not allowed.
inline thread_local bool in_event_callback = false;

// Releasing an OpenCL object inside an event callback deadlocked NVIDIA's driver: its callback
// thread holds a driver lock while it runs callbacks, and a release that frees the object takes
// that lock for writing (matmul 4096/512 on an H100 hung in one run of a few, a completion
// callback waiting in clReleaseEvent). Releases there are kept for the next thread outside a
// callback that releases a handle (the dispatcher's flush does, often), or release_deferred().
void defer_release(cl_int (*release)(void*), void* object);
void release_all_deferred();
inline std::atomic<bool> releases_deferred{false};
// Releases what callbacks kept, unless called inside one; thread-safe.
inline void release_deferred() {
  if (releases_deferred.load(std::memory_order_relaxed) && !in_event_callback)
    release_all_deferred();
}

const char* error_name(cl_int err);

struct Error : std::runtime_error {
  Error(const std::string& what, cl_int code)
      : std::runtime_error(what + ": " + error_name(code)), code(code) {}
  cl_int code;
};

inline void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw Error(what, err);
}

// Owns one reference to a cl_* object; copies retain, destruction releases.
template <typename T, cl_int (*Retain)(T), cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}  // adopts a reference the caller owns
  Handle(const Handle& o) : h_(o.h_) {
    if (h_) Retain(h_);
  }
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  ~Handle() {
    if (!h_) return;
    if (in_event_callback) {
      defer_release([](void* o) { return Release(static_cast<T>(o)); }, h_);
      return;
    }
    Release(h_);
    release_deferred();
  }
  T get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  T h_ = nullptr;
};

using Context = Handle<cl_context, clRetainContext, clReleaseContext>;
using Queue = Handle<cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clRetainProgram, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clRetainKernel, clReleaseKernel>;
using Mem = Handle<cl_mem, clRetainMemObject, clReleaseMemObject>;
using Event = Handle<cl_event, clRetainEvent, clReleaseEvent>;

// The profiled [start, end] of a command in device nanoseconds ({0, 0} when unavailable).
std::pair<cl_ulong, cl_ulong> event_span(cl_event e);

std::string device_string(cl_device_id d, cl_device_info what);

}  // namespace cei::opencl
