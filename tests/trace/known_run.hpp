// A small known program played to an observer as the runtime would: two initialisations on the
// CPU, a multiply on the OpenCL device that reads both, and a multiply back on the CPU that reads
// the device's result and one initial matrix. Platforms, tasks and versions implement the
// runtime's abstract classes with fixed answers (they are the inputs, not stand-ins for code
// under test).
//
//   t1 init (cpu) --d1v2--> t3 multiply (opencl0) --d3v1--> t4 multiply (cpu)
//   t2 init (cpu) --d2v2--> t3, t4
#pragma once

#include <cei/rt/observer.hpp>

#include <memory>
#include <string>
#include <vector>

namespace cei::rt::test {

class FixedPlatform final : public Platform {
 public:
  FixedPlatform(std::string name, const char* kind, std::size_t workers)
      : name_(std::move(name)), kind_(kind), workers_(workers) {}
  const std::string& name() const override { return name_; }
  const char* kind() const override { return kind_; }
  bool can_run(const CeInfo&) const override { return true; }
  Forecast forecast(const Task&) const override { return {}; }
  void submit(TaskPtr) override {}
  std::size_t workers() const override { return workers_; }
  void shutdown() override {}

 private:
  std::string name_;
  const char* kind_;
  std::size_t workers_;
};

class FixedVersion final : public Version {
 public:
  FixedVersion(std::uint64_t datum, std::uint32_t number, std::size_t bytes)
      : datum_(datum), number_(number), bytes_(bytes) {}
  const TypeOps& type() const override { return type_ops<std::vector<float>>(); }
  std::uint64_t datum_id() const override { return datum_; }
  std::uint32_t number() const override { return number_; }
  State state() const override { return State::Ready; }
  std::exception_ptr error() const override { return nullptr; }
  void on_ready(std::function<void()> cb) override { cb(); }
  void* host() override { return nullptr; }
  void ensure_host(std::function<void(std::exception_ptr)> done) override { done(nullptr); }
  std::shared_ptr<Replica> replica_on(const Platform&) override { return nullptr; }
  std::vector<std::shared_ptr<Replica>> replicas() override { return {}; }
  void add_replica(std::shared_ptr<Replica>) override {}
  void drop_replica(const Platform&) override {}
  std::size_t bytes() const override { return bytes_; }
  void publish_host(void*) override {}
  void publish_replica(std::shared_ptr<Replica>) override {}
  void fail(std::exception_ptr) override {}
  void set_bytes(std::size_t b) { bytes_ = b; }

 private:
  std::uint64_t datum_;
  std::uint32_t number_;
  std::size_t bytes_;
};

class FixedTask final : public Task {
 public:
  FixedTask(std::uint64_t id, const CeInfo& ce, std::vector<TaskArg> args)
      : id_(id), ce_(ce), args_(std::move(args)) {}
  std::uint64_t id() const override { return id_; }
  const CeInfo& ce() const override { return ce_; }
  std::vector<TaskArg>& args() override { return args_; }
  const std::vector<TaskArg>& args() const override { return args_; }
  void finish(std::exception_ptr) override {}
  Timing& timing() override { return timing_; }
  const Timing& timing() const override { return timing_; }

 private:
  std::uint64_t id_;
  const CeInfo& ce_;
  std::vector<TaskArg> args_;
  Timing timing_;
};

inline const NativeVersion kNative[] = {{"matmul", nullptr}};
inline const OpenCLImpl kKernel{"multiply", "", "matmul.cl", "par0.x", "", "", "par0.x"};
inline const CeInfo kInit{"init", "MatmulCEI", false, nullptr, 0, nullptr, kNative, 1, nullptr};
inline const CeInfo kMultiply{"multiply", "MatmulCEI", false, nullptr, 0,
                              nullptr,    kNative,     1,     &kKernel};

inline Forecast forecast(double end_s, double energy_j, double cost, Source src) {
  Forecast f;
  f.end_s = end_s;
  f.exec_s = end_s / 2;
  f.energy_j = energy_j;
  f.cost = cost;
  f.time_source = f.energy_source = f.cost_source = src;
  return f;
}

struct KnownRun {
  FixedPlatform cpu{"cpu", "cpu", 2};
  FixedPlatform gpu{"opencl0", "opencl", 1};
  Clock::time_point origin = Clock::now();
  std::vector<std::shared_ptr<FixedTask>> tasks;
  std::vector<const Platform*> ran_on;
  std::vector<int> lanes;

  Clock::time_point at_ms(double ms) const {
    return origin + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double, std::milli>(ms));
  }
  // Start and end of task i+1 in ms from the origin.
  static constexpr double kTimes[4][2] = {{0, 10}, {0, 12}, {15, 40}, {41, 60}};

  // Plays the whole run to `o`, ending with run_finished().
  void play(Observer& o) {
    auto v = [](std::uint64_t d, std::uint32_t n, std::size_t b) {
      return std::make_shared<FixedVersion>(d, n, b);
    };
    auto a1 = v(1, 1, 4000), a2 = v(1, 2, 4000), b1 = v(2, 1, 4000), b2 = v(2, 2, 4000);
    auto c1 = v(3, 1, 0), e1 = v(4, 1, 0);  // result sizes become known when the task ends
    const TypeOps* ty = &type_ops<std::vector<float>>();
    tasks = {std::make_shared<FixedTask>(1, kInit, std::vector<TaskArg>{{Dir::InOut, ty, a1, a2}}),
             std::make_shared<FixedTask>(2, kInit, std::vector<TaskArg>{{Dir::InOut, ty, b1, b2}}),
             std::make_shared<FixedTask>(3, kMultiply,
                                         std::vector<TaskArg>{{Dir::In, ty, a2, nullptr},
                                                              {Dir::In, ty, b2, nullptr},
                                                              {Dir::Out, ty, nullptr, c1}}),
             std::make_shared<FixedTask>(4, kMultiply,
                                         std::vector<TaskArg>{{Dir::In, ty, c1, nullptr},
                                                              {Dir::In, ty, b2, nullptr},
                                                              {Dir::Out, ty, nullptr, e1}})};
    ran_on = {&cpu, &cpu, &gpu, &cpu};
    lanes = {0, 1, 0, 0};
    const std::vector<std::vector<Dependency>> deps = {
        {}, {}, {{1, "d1v2"}, {2, "d2v2"}}, {{3, "d3v1"}, {2, "d2v2"}}};

    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const bool on_gpu = ran_on[i] == &gpu;
      const Candidate cands[] = {
          {&cpu, forecast(0.05 * (i + 1), on_gpu ? 3.0 : 1.0, 0.01, Source::Regression)},
          {&gpu, forecast(on_gpu ? 0.02 : 0.5, 2.0, 0.02, Source::Default)}};
      o.task_submitted(*tasks[i], deps[i], cands, on_gpu ? 1 : 0, "dynperf");
    }
    o.transfer({&gpu, 3, "d1v2", 4000, true, at_ms(12), at_ms(14)});
    o.transfer({&gpu, 3, "d2v2", 4000, true, at_ms(13), at_ms(15)});  // overlaps the first
    o.transfer({&gpu, 4, "d3v1", 16000, false, at_ms(40), at_ms(41)});
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      Task::Timing& t = tasks[i]->timing();
      t.start = at_ms(kTimes[i][0]);
      t.end = at_ms(kTimes[i][1]);
      t.version_index = ran_on[i] == &gpu ? -1 : 0;
      t.energy_j = i == 0 ? 0.5 : 0;  // only the first task's platform measured energy
      o.task_started(*tasks[i], *ran_on[i], lanes[i]);
      if (i == 2) c1->set_bytes(16000);
      if (i == 3) e1->set_bytes(16000);
      o.task_finished(*tasks[i], *ran_on[i], lanes[i], false);
    }
    o.run_finished();
  }
};

}  // namespace cei::rt::test
