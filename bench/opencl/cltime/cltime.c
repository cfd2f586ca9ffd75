/* Where a program's host time goes inside the OpenCL driver: an LD_PRELOAD shim that times every
 * call of the entry points a runtime uses per task and prints, at exit, calls, total and mean
 * microseconds for each (stderr). Made to find the per-task cost of the OpenCL platform on
 * NVIDIA's driver, where no sampling profiler is at hand:
 *   LD_PRELOAD=libcltime.so cei_opencl_bench 30 256 8 300 5 tiny
 * Only calls made through the ICD loader's exported symbols are seen (all of CEI's are).
 * CLTIME_LOG=file also writes every call in order (start and duration in us from the first call,
 * thread, entry point) and the marks a program sets with cltime_mark("...") (a program finds it
 * with dlsym, so it runs unchanged without the shim): where a millisecond goes between two calls,
 * which the totals cannot show. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { kSlots = 32 };
static const char* names[kSlots];
static atomic_ullong calls[kSlots], nanos[kSlots];

static unsigned long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

/* The timeline of CLTIME_LOG: a fixed array (no allocation on the timed path); calls past its end
 * are counted in the totals only. */
enum { kEvents = 1 << 20 };
struct Event {
  unsigned long long start, nanos;
  int slot, thread;
  const char* mark;   /* a cltime_mark, else null */
  const void* object; /* clGetEventProfilingInfo: the event, which param, and the device time */
  unsigned param;
  unsigned long long value;
};
static struct Event events[kEvents];
static atomic_uint nevents;
static atomic_ullong first_ns;
static int logging = -1; /* unknown until the first call */

static void log_event_of(int slot, unsigned long long t0, unsigned long long ns, const char* mark,
                         const void* object, unsigned param, unsigned long long value) {
  if (logging < 0) logging = getenv("CLTIME_LOG") != NULL;
  if (!logging) return;
  unsigned long long zero = 0;
  atomic_compare_exchange_strong(&first_ns, &zero, t0);
  unsigned i = atomic_fetch_add(&nevents, 1);
  if (i >= kEvents) return;
  events[i] = (struct Event){t0, ns, slot, (int)syscall(SYS_gettid), mark, object, param, value};
}

void cltime_mark(const char* what) {
  log_event_of(-1, now_ns(), 0, strdup(what), NULL, 0, 0);
}

static void write_log(void) {
  unsigned n = atomic_load(&nevents);
  /* A process that made no call (`timeout`, a shell, preloaded too) leaves the file alone. */
  const char* path = getenv("CLTIME_LOG");
  FILE* f = path && n ? fopen(path, "w") : NULL;
  if (!f) return;
  if (n > kEvents) n = kEvents;
  const unsigned long long t0 = atomic_load(&first_ns);
  /* Some drivers (NVIDIA's) give device times on the host's real-time clock: with this offset
   * they fall on the timeline's axis. */
  struct timespec rt, mono;
  clock_gettime(CLOCK_REALTIME, &rt);
  clock_gettime(CLOCK_MONOTONIC, &mono);
  const long long offset = ((long long)rt.tv_sec - (long long)mono.tv_sec) * 1000000000ll +
                           ((long long)rt.tv_nsec - (long long)mono.tv_nsec);
  fprintf(f, "# first call at monotonic %llu ns; realtime - monotonic = %lld ns\n", t0, offset);
  fprintf(f, "# start_us duration_us thread what\n");
  for (unsigned i = 0; i < n; ++i) {
    const struct Event* e = &events[i];
    fprintf(f, "%.3f %.3f %d %s", (double)(e->start - t0) / 1e3, (double)e->nanos / 1e3, e->thread,
            e->mark ? e->mark : names[e->slot]);
    if (e->object) fprintf(f, " %p 0x%x %llu", e->object, e->param, e->value);
    fputc('\n', f);
  }
  fclose(f);
}

__attribute__((destructor)) static void report(void) {
  write_log();
  fprintf(stderr, "cltime: %-32s %9s %10s %8s\n", "entry point", "calls", "total ms", "mean us");
  for (int i = 0; i < kSlots; ++i)
    if (names[i] && calls[i])
      fprintf(stderr, "cltime: %-32s %9llu %10.3f %8.2f\n", names[i], (unsigned long long)calls[i],
              (double)nanos[i] / 1e6, (double)nanos[i] / 1e3 / (double)calls[i]);
}

/* One wrapper per entry point: look the real one up once, time the call, add it to slot S, and
 * log it with OBJECT and PARAM (what the timeline says of the call beside its name). */
#define WRAP_LOGGED(S, RET, NAME, PARAMS, ARGS, OBJECT, PARAM) \
  RET NAME PARAMS {                                            \
    static RET(*real) PARAMS;                                  \
    if (!real) {                                               \
      real = (RET(*) PARAMS)dlsym(RTLD_NEXT, #NAME);           \
      names[S] = #NAME;                                        \
    }                                                          \
    unsigned long long t0 = now_ns();                          \
    RET result_ = real ARGS;                                   \
    unsigned long long ns_ = now_ns() - t0;                    \
    atomic_fetch_add(&nanos[S], ns_);                          \
    atomic_fetch_add(&calls[S], 1);                            \
    log_event_of(S, t0, ns_, NULL, OBJECT, PARAM, 0);          \
    return result_;                                            \
  }
#define WRAP(S, RET, NAME, PARAMS, ARGS) WRAP_LOGGED(S, RET, NAME, PARAMS, ARGS, NULL, 0)
/* An enqueue: in the timeline with the event it made and the length of its wait list, so that the
 * event's device times (clGetEventProfilingInfo) name the command. */
#define WRAP_ENQUEUE(S, NAME, PARAMS, ARGS) \
  WRAP_LOGGED(S, cl_int, NAME, PARAMS, ARGS, e ? (const void*)*e : NULL, n)

WRAP_ENQUEUE(0, clEnqueueNDRangeKernel,
             (cl_command_queue q, cl_kernel k, cl_uint d, const size_t* o, const size_t* g,
              const size_t* l, cl_uint n, const cl_event* w, cl_event* e),
             (q, k, d, o, g, l, n, w, e))
WRAP(1, cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void* v), (k, i, s, v))
WRAP(2, cl_int, clSetEventCallback,
     (cl_event e, cl_int t, void(CL_CALLBACK* f)(cl_event, cl_int, void*), void* u), (e, t, f, u))
WRAP(3, cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void* h, cl_int* err),
     (c, f, s, h, err))
WRAP(4, cl_event, clCreateUserEvent, (cl_context c, cl_int* err), (c, err))
WRAP(5, cl_int, clSetUserEventStatus, (cl_event e, cl_int s), (e, s))
/* Timed as the others, and in the timeline with the device time it returns. */
cl_int clGetEventProfilingInfo(cl_event e, cl_profiling_info p, size_t s, void* v, size_t* r) {
  static cl_int (*real)(cl_event, cl_profiling_info, size_t, void*, size_t*);
  if (!real) {
    real = (cl_int(*)(cl_event, cl_profiling_info, size_t, void*, size_t*))dlsym(
        RTLD_NEXT, "clGetEventProfilingInfo");
    names[6] = "clGetEventProfilingInfo";
  }
  unsigned long long t0 = now_ns();
  cl_int result = real(e, p, s, v, r);
  unsigned long long ns = now_ns() - t0;
  atomic_fetch_add(&nanos[6], ns);
  atomic_fetch_add(&calls[6], 1);
  unsigned long long value = result == CL_SUCCESS && v && s >= sizeof(cl_ulong) ? *(cl_ulong*)v : 0;
  log_event_of(6, t0, ns, NULL, e, p, value);
  return result;
}
WRAP(7, cl_int, clGetEventInfo, (cl_event e, cl_event_info p, size_t s, void* v, size_t* r),
     (e, p, s, v, r))
WRAP(8, cl_int, clRetainEvent, (cl_event e), (e))
WRAP(9, cl_int, clReleaseEvent, (cl_event e), (e))
WRAP(10, cl_int, clFlush, (cl_command_queue q), (q))
WRAP(11, cl_int, clFinish, (cl_command_queue q), (q))
WRAP(12, cl_int, clWaitForEvents, (cl_uint n, const cl_event* e), (n, e))
WRAP_ENQUEUE(13, clEnqueueWriteBuffer,
             (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, const void* p, cl_uint n,
              const cl_event* w, cl_event* e),
             (q, m, b, o, s, p, n, w, e))
WRAP_ENQUEUE(14, clEnqueueReadBuffer,
             (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, void* p, cl_uint n,
              const cl_event* w, cl_event* e),
             (q, m, b, o, s, p, n, w, e))
WRAP_ENQUEUE(15, clEnqueueCopyBuffer,
             (cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob, size_t s, cl_uint n,
              const cl_event* w, cl_event* e),
             (q, a, b, oa, ob, s, n, w, e))
WRAP(16, cl_int, clRetainMemObject, (cl_mem m), (m))
WRAP(17, cl_int, clReleaseMemObject, (cl_mem m), (m))
WRAP_ENQUEUE(18, clEnqueueMarkerWithWaitList,
             (cl_command_queue q, cl_uint n, const cl_event* w, cl_event* e), (q, n, w, e))
WRAP(19, cl_int, clEnqueueBarrierWithWaitList,
     (cl_command_queue q, cl_uint n, const cl_event* w, cl_event* e), (q, n, w, e))
WRAP(20, cl_int, clGetCommandQueueInfo,
     (cl_command_queue q, cl_command_queue_info p, size_t s, void* v, size_t* r), (q, p, s, v, r))
/* Pinned staging memory (docs/opencl.md): what mapping and unmapping a chunk costs. */
WRAP(21, void*, clEnqueueMapBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t o, size_t s, cl_uint n,
      const cl_event* w, cl_event* e, cl_int* err),
     (q, m, b, f, o, s, n, w, e, err))
WRAP(22, cl_int, clEnqueueUnmapMemObject,
     (cl_command_queue q, cl_mem m, void* p, cl_uint n, const cl_event* w, cl_event* e),
     (q, m, p, n, w, e))
