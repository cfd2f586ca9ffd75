// The OpenCL C API as this platform uses it: one include point, error checking that names the
// call, and reference-counted handles.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace cei::opencl {

// True while one of this platform's completion callbacks runs: what it would enqueue is posted to
// the dispatcher, so that a completion stays short wherever it runs (on the dispatcher, or on a
// thread that waits for the value it completes).
inline thread_local bool in_event_callback = false;

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
    if (h_) Release(h_);
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
