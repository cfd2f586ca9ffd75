// The overhead patterns on CEI's runtime, through api.hpp as instrumented code calls it. The CE
// tables are what ceic generates for:
//   void empty();  void step([[cei::inout]] V& s);  void spread(const V& s, [[cei::out]] V& o);
//   void gather([[cei::inout]] V& s, const V& o1, ..., const V& o7);
// They are not registered, as generated code would: a program whose registered CEs have no kernel
// opens no device (docs/opencl.md), and the cost is measured with the devices open, as in a
// program with kernels elsewhere (more platforms to weigh, ranks kept).
#include "cei_driver.hpp"

#include "heap.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace bench {
namespace {

namespace rt = cei::rt;
using V = std::vector<int>;
using rt::Dir;

std::atomic<bool> gate_open{false};
std::atomic<int> gates_running{0};

void run_nothing(void* const*) {}
void run_gate(void* const*) {
  ++gates_running;
  while (!gate_open.load()) std::this_thread::sleep_for(std::chrono::microseconds(50));
}

const rt::NativeVersion nothing_v[] = {{"bench", &run_nothing}};
const rt::NativeVersion gate_v[] = {{"bench", &run_gate}};
const rt::ParamInfo step_p[] = {{"s", Dir::InOut, &rt::type_ops<V>()}};
const rt::ParamInfo spread_p[] = {{"s", Dir::In, &rt::type_ops<V>()},
                                  {"o", Dir::Out, &rt::type_ops<V>()}};
const rt::ParamInfo gather_p[] = {
    {"s", Dir::InOut, &rt::type_ops<V>()}, {"o1", Dir::In, &rt::type_ops<V>()},
    {"o2", Dir::In, &rt::type_ops<V>()},   {"o3", Dir::In, &rt::type_ops<V>()},
    {"o4", Dir::In, &rt::type_ops<V>()},   {"o5", Dir::In, &rt::type_ops<V>()},
    {"o6", Dir::In, &rt::type_ops<V>()},   {"o7", Dir::In, &rt::type_ops<V>()}};
static_assert(std::size(gather_p) == kFan + 1);

const rt::CeInfo empty_ce{"empty", "OverheadCEI", false, nullptr, 0,
                          nullptr, nothing_v,     1,     nullptr};
const rt::CeInfo gate_ce{"gate", "OverheadCEI", false, nullptr, 0, nullptr, gate_v, 1, nullptr};
const rt::CeInfo gate_on_ce{"gate_on", "OverheadCEI", false, step_p, 1,
                            nullptr,   gate_v,        1,     nullptr};
const rt::CeInfo step_ce{"step", "OverheadCEI", false, step_p, 1, nullptr, nothing_v, 1, nullptr};
const rt::CeInfo spread_ce{"spread", "OverheadCEI", false, spread_p, 2,
                           nullptr,  nothing_v,     1,     nullptr};
const rt::CeInfo gather_ce{"gather", "OverheadCEI", false, gather_p, kFan + 1,
                           nullptr,  nothing_v,     1,     nullptr};

struct Data {
  V s{0};
  std::array<V, kFan> o;
};

void submit(const std::string& pattern, std::size_t tasks, Data& d) {
  if (pattern == "independent") {
    for (std::size_t i = 0; i < tasks; ++i) rt::call<void>(empty_ce);
  } else if (pattern == "chain") {
    for (std::size_t i = 0; i < tasks; ++i) rt::call<void>(step_ce, rt::inout<V>(d.s));
  } else {
    for (std::size_t g = 0; g < fan_groups(tasks); ++g) {
      rt::call<void>(step_ce, rt::inout<V>(d.s));
      for (auto& o : d.o) rt::call<void>(spread_ce, rt::in<V>(d.s), rt::out<V>(o));
      rt::call<void>(gather_ce, rt::inout<V>(d.s), rt::in<V>(d.o[0]), rt::in<V>(d.o[1]),
                     rt::in<V>(d.o[2]), rt::in<V>(d.o[3]), rt::in<V>(d.o[4]), rt::in<V>(d.o[5]),
                     rt::in<V>(d.o[6]));
    }
  }
}

std::size_t submitted(const std::string& pattern, std::size_t tasks) {
  return pattern == "fan" ? fan_groups(tasks) * (kFan + 2) : tasks;
}

}  // namespace

void cei_warm_up() {
  cei_time("independent", 1000);
  // Timed beside a driver that starts, the first runs would measure the driver's threads too.
  rt::Runtime::instance().wait_for_platforms();
}

double cei_time(const std::string& pattern, std::size_t tasks) {
  Data d;
  auto t0 = std::chrono::steady_clock::now();
  submit(pattern, tasks, d);
  cei::barrier();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() /
         static_cast<double>(submitted(pattern, tasks));
}

double cei_bytes_in_flight(const std::string& pattern, std::size_t tasks) {
  Data d;
  std::size_t workers = rt::Runtime::instance().find_platform("cpu")->workers();
  gate_open = false;
  gates_running = 0;
  // Hold every worker (independent tasks) or the first datum (chain, fan) so nothing can run.
  if (pattern == "independent")
    for (std::size_t i = 0; i < workers; ++i) rt::call<void>(gate_ce);
  else
    rt::call<void>(gate_on_ce, rt::inout<V>(d.s));
  std::size_t expect = pattern == "independent" ? workers : 1;
  while (gates_running.load() < static_cast<int>(expect)) std::this_thread::yield();
  std::size_t before = heap_in_use();
  submit(pattern, tasks, d);
  std::size_t after = heap_in_use();
  gate_open = true;
  cei::barrier();
  return (static_cast<double>(after) - static_cast<double>(before)) /
         static_cast<double>(submitted(pattern, tasks));
}

}  // namespace bench
