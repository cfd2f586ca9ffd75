// A small program on the real runtime for observed_test.cpp, which runs it with the environment
// switches set and reads what it leaves: `trace` reads one vector from four device tasks and brings
// their results back; `startup` runs a task the CPU platform can run, then one that only an OpenCL
// device can, and prints how many devices were open after each; `own_policy` sets a policy of its
// own and prints how many are open then; `native_only` registers, as generated code does, only a
// CE without a kernel, runs it and prints how many are open.
#include "kernels.hpp"

#include <cei/opencl/opencl_platform.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace rt = cei::rt;
using cei::test::IVec;

namespace {

IVec iota(std::size_t n, int from) {
  IVec v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

void inc_native(void* const* a) {
  IVec r = *static_cast<const IVec*>(a[0]);
  for (auto& x : r) x += 1;
  *static_cast<IVec*>(a[1]) = std::move(r);
}
const rt::NativeVersion inc_versions[] = {{"Native", &inc_native}};
// inc with a native version beside its kernel: any platform can run it.
const rt::CeInfo inc_anywhere{
    "inc", "ObservedCEI",     false, cei::test::inc_params, 1, &cei::test::ivec(), inc_versions,
    1,     &cei::test::inc_cl};

// After the platforms opening in the background are added (Runtime::platforms waits for them).
void print_open(const char* after) {
  std::string names;
  for (rt::Platform* p : rt::Runtime::instance().platforms())
    names += (names.empty() ? "" : " ") + p->name();
  std::printf("after %s: %zu devices open, platforms %s\n", after, cei::opencl::devices_opened(),
              names.c_str());
}

int trace() {
  const std::size_t n = 1 << 16;
  IVec v = iota(n, 0);
  rt::Scope scope(v);
  std::vector<rt::Pending<IVec>> results;
  for (int i = 0; i < 4; ++i) results.push_back(rt::call<IVec>(cei::test::inc_ce, rt::in<IVec>(v)));
  int wrong = 0;
  for (auto& r : results) wrong += std::move(r).get() != iota(n, 1);
  return wrong;
}

int startup() {
  IVec v = iota(1000, 0);
  rt::Scope scope(v);
  IVec w = rt::call<IVec>(inc_anywhere, rt::in<IVec>(v));
  print_open("a task the CPU can run");
  rt::Scope scope_w(w);
  IVec x = rt::call<IVec>(cei::test::inc_ce, rt::in<IVec>(w));
  print_open("a task only a device can run");
  return w == iota(1000, 1) && x == iota(1000, 2) ? 0 : 1;
}

// The program installs a policy of its own (the first candidate) before any task, as cei-soak does.
struct First final : rt::Policy {
  const char* name() const override { return "first"; }
  std::size_t choose(const rt::CeInfo&, std::span<const rt::Candidate>) override { return 0; }
};

int own_policy() {
  rt::Runtime::instance().set_policy(std::make_unique<First>());
  print_open("a policy the program set");
  return 0;
}

// inc without a kernel: no task of the program can run on a device.
const rt::CeInfo inc_native_only{"inc_native",
                                 "ObservedCEI",
                                 false,
                                 cei::test::inc_params,
                                 1,
                                 &cei::test::ivec(),
                                 inc_versions,
                                 1,
                                 nullptr};

int native_only() {
  rt::register_ce(inc_native_only);  // before the runtime starts, as static registration is
  IVec v = iota(1000, 0);
  rt::Scope scope(v);
  IVec w = rt::call<IVec>(inc_native_only, rt::in<IVec>(v));
  print_open("a program without kernels");
  return w == iota(1000, 1) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "trace") == 0) return trace();
  if (argc == 2 && std::strcmp(argv[1], "startup") == 0) return startup();
  if (argc == 2 && std::strcmp(argv[1], "own_policy") == 0) return own_policy();
  if (argc == 2 && std::strcmp(argv[1], "native_only") == 0) return native_only();
  std::fprintf(stderr, "usage: %s trace|startup|own_policy|native_only\n", argv[0]);
  return 2;
}
