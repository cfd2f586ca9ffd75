/* Where a program's host time goes inside the OpenCL driver: an LD_PRELOAD shim that times every
 * call of the entry points a runtime uses per task and prints, at exit, calls, total and mean
 * microseconds for each (stderr). Made to find the per-task cost of the OpenCL platform on
 * NVIDIA's driver, where no sampling profiler is at hand:
 *   LD_PRELOAD=libcltime.so cei_opencl_bench 30 256 8 300 5 tiny
 * Only calls made through the ICD loader's exported symbols are seen (all of CEI's are). */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { kSlots = 32 };
static const char* names[kSlots];
static atomic_ullong calls[kSlots], nanos[kSlots];

static unsigned long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "cltime: %-32s %9s %10s %8s\n", "entry point", "calls", "total ms", "mean us");
  for (int i = 0; i < kSlots; ++i)
    if (names[i] && calls[i])
      fprintf(stderr, "cltime: %-32s %9llu %10.3f %8.2f\n", names[i], (unsigned long long)calls[i],
              (double)nanos[i] / 1e6, (double)nanos[i] / 1e3 / (double)calls[i]);
}

/* One wrapper per entry point: look the real one up once, time the call, add it to slot S. */
#define WRAP(S, RET, NAME, PARAMS, ARGS)                                  \
  RET NAME PARAMS {                                                       \
    static RET(*real) PARAMS;                                             \
    if (!real) {                                                          \
      real = (RET(*) PARAMS)dlsym(RTLD_NEXT, #NAME);                      \
      names[S] = #NAME;                                                   \
    }                                                                     \
    unsigned long long t0 = now_ns();                                     \
    RET result_ = real ARGS;                                              \
    atomic_fetch_add(&nanos[S], now_ns() - t0);                           \
    atomic_fetch_add(&calls[S], 1);                                       \
    return result_;                                                       \
  }

WRAP(0, cl_int, clEnqueueNDRangeKernel,
     (cl_command_queue q, cl_kernel k, cl_uint d, const size_t* o, const size_t* g, const size_t* l,
      cl_uint n, const cl_event* w, cl_event* e),
     (q, k, d, o, g, l, n, w, e))
WRAP(1, cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void* v), (k, i, s, v))
WRAP(2, cl_int, clSetEventCallback,
     (cl_event e, cl_int t, void(CL_CALLBACK* f)(cl_event, cl_int, void*), void* u), (e, t, f, u))
WRAP(3, cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void* h, cl_int* err),
     (c, f, s, h, err))
WRAP(4, cl_event, clCreateUserEvent, (cl_context c, cl_int* err), (c, err))
WRAP(5, cl_int, clSetUserEventStatus, (cl_event e, cl_int s), (e, s))
WRAP(6, cl_int, clGetEventProfilingInfo,
     (cl_event e, cl_profiling_info p, size_t s, void* v, size_t* r), (e, p, s, v, r))
WRAP(7, cl_int, clGetEventInfo, (cl_event e, cl_event_info p, size_t s, void* v, size_t* r),
     (e, p, s, v, r))
WRAP(8, cl_int, clRetainEvent, (cl_event e), (e))
WRAP(9, cl_int, clReleaseEvent, (cl_event e), (e))
WRAP(10, cl_int, clFlush, (cl_command_queue q), (q))
WRAP(11, cl_int, clFinish, (cl_command_queue q), (q))
WRAP(12, cl_int, clWaitForEvents, (cl_uint n, const cl_event* e), (n, e))
WRAP(13, cl_int, clEnqueueWriteBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, const void* p, cl_uint n,
      const cl_event* w, cl_event* e),
     (q, m, b, o, s, p, n, w, e))
WRAP(14, cl_int, clEnqueueReadBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, void* p, cl_uint n,
      const cl_event* w, cl_event* e),
     (q, m, b, o, s, p, n, w, e))
WRAP(15, cl_int, clEnqueueCopyBuffer,
     (cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob, size_t s, cl_uint n,
      const cl_event* w, cl_event* e),
     (q, a, b, oa, ob, s, n, w, e))
WRAP(16, cl_int, clRetainMemObject, (cl_mem m), (m))
WRAP(17, cl_int, clReleaseMemObject, (cl_mem m), (m))
WRAP(18, cl_int, clEnqueueMarkerWithWaitList,
     (cl_command_queue q, cl_uint n, const cl_event* w, cl_event* e), (q, n, w, e))
WRAP(19, cl_int, clEnqueueBarrierWithWaitList,
     (cl_command_queue q, cl_uint n, const cl_event* w, cl_event* e), (q, n, w, e))
WRAP(20, cl_int, clGetCommandQueueInfo,
     (cl_command_queue q, cl_command_queue_info p, size_t s, void* v, size_t* r), (q, p, s, v, r))
