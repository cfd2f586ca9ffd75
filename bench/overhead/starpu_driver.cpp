// The same three patterns on StarPU 1.3 (starpu_task_insert), one scheduler per process.
#include "starpu_driver.hpp"

#include "heap.hpp"

#include <starpu.h>

#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace bench {
namespace {

std::atomic<bool> gate_open{false};
std::atomic<int> gates_running{0};

void run_nothing(void**, void*) {}
void run_gate(void**, void*) {
  ++gates_running;
  while (!gate_open.load()) std::this_thread::sleep_for(std::chrono::microseconds(50));
}

starpu_codelet codelet(starpu_cpu_func_t f, int nbuffers, const starpu_data_access_mode* modes) {
  starpu_codelet cl{};
  cl.where = STARPU_CPU;
  cl.cpu_funcs[0] = f;
  cl.nbuffers = nbuffers;
  for (int i = 0; i < nbuffers; ++i) cl.modes[i] = modes[i];
  return cl;
}

const starpu_data_access_mode rw[] = {STARPU_RW};
const starpu_data_access_mode r_w[] = {STARPU_R, STARPU_W};
const starpu_data_access_mode gather_modes[] = {STARPU_RW, STARPU_R, STARPU_R, STARPU_R,
                                                STARPU_R,  STARPU_R, STARPU_R, STARPU_R};
starpu_codelet empty_cl = codelet(run_nothing, 0, nullptr);
starpu_codelet gate_cl = codelet(run_gate, 0, nullptr);
starpu_codelet gate_on_cl = codelet(run_gate, 1, rw);
starpu_codelet step_cl = codelet(run_nothing, 1, rw);
starpu_codelet spread_cl = codelet(run_nothing, 2, r_w);
starpu_codelet gather_cl = codelet(run_nothing, kFan + 1, gather_modes);

struct Data {
  int s = 0;
  std::array<int, kFan> o{};
  starpu_data_handle_t hs;
  std::array<starpu_data_handle_t, kFan> ho;
  Data() {
    starpu_variable_data_register(&hs, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(&s), sizeof s);
    for (int i = 0; i < kFan; ++i)
      starpu_variable_data_register(&ho[i], STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(&o[i]),
                                    sizeof(int));
  }
  ~Data() {
    starpu_data_unregister(hs);
    for (auto h : ho) starpu_data_unregister(h);
  }
};

void check(int rc) {
  if (rc != 0) throw std::runtime_error("starpu_task_insert failed");
}

void submit(const std::string& pattern, std::size_t tasks, Data& d) {
  if (pattern == "independent") {
    for (std::size_t i = 0; i < tasks; ++i) check(starpu_task_insert(&empty_cl, 0));
  } else if (pattern == "chain") {
    for (std::size_t i = 0; i < tasks; ++i) check(starpu_task_insert(&step_cl, STARPU_RW, d.hs, 0));
  } else {
    for (std::size_t g = 0; g < fan_groups(tasks); ++g) {
      check(starpu_task_insert(&step_cl, STARPU_RW, d.hs, 0));
      for (auto h : d.ho) check(starpu_task_insert(&spread_cl, STARPU_R, d.hs, STARPU_W, h, 0));
      check(starpu_task_insert(&gather_cl, STARPU_RW, d.hs, STARPU_R, d.ho[0], STARPU_R, d.ho[1],
                               STARPU_R, d.ho[2], STARPU_R, d.ho[3], STARPU_R, d.ho[4], STARPU_R,
                               d.ho[5], STARPU_R, d.ho[6], 0));
    }
  }
}

std::size_t submitted(const std::string& pattern, std::size_t tasks) {
  return pattern == "fan" ? fan_groups(tasks) * (kFan + 2) : tasks;
}

}  // namespace

StarPU::StarPU(const std::string& scheduler, int cpus) {
  starpu_conf conf;
  starpu_conf_init(&conf);
  conf.sched_policy_name = scheduler.c_str();
  conf.ncpus = cpus;
  conf.ncuda = 0;
  conf.nopencl = 0;
  if (starpu_init(&conf) != 0) throw std::runtime_error("starpu_init failed");
}

StarPU::~StarPU() {
  starpu_shutdown();
}

double StarPU::time(const std::string& pattern, std::size_t tasks) {
  Data d;
  auto t0 = std::chrono::steady_clock::now();
  submit(pattern, tasks, d);
  starpu_task_wait_for_all();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() /
         static_cast<double>(submitted(pattern, tasks));
}

double StarPU::bytes_in_flight(const std::string& pattern, std::size_t tasks) {
  Data d;
  gate_open = false;
  gates_running = 0;
  int workers = static_cast<int>(starpu_cpu_worker_get_count());
  if (pattern == "independent") {
    // One gate per worker, pinned: dmda may queue two gates on one worker, where the second
    // waits behind the first for ever.
    std::vector<int> ids(static_cast<std::size_t>(workers));
    starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids.data(), workers);
    for (int id : ids) check(starpu_task_insert(&gate_cl, STARPU_EXECUTE_ON_WORKER, id, 0));
  } else
    check(starpu_task_insert(&gate_on_cl, STARPU_RW, d.hs, 0));
  int expect = pattern == "independent" ? workers : 1;
  while (gates_running.load() < expect) std::this_thread::yield();
  std::size_t before = heap_in_use();
  submit(pattern, tasks, d);
  std::size_t after = heap_in_use();
  gate_open = true;
  starpu_task_wait_for_all();
  return static_cast<double>(after - before) / static_cast<double>(submitted(pattern, tasks));
}

}  // namespace bench
