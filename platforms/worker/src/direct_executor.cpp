#include "executor.hpp"
#include "job_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace cei::worker {
namespace {

class DirectExecutor : public Executor {
 public:
  explicit DirectExecutor(unsigned threads)
      : pool_(threads ? threads : std::max(1u, std::thread::hardware_concurrency()), execute) {}

  void run(Job job) override { pool_.push(std::move(job)); }
  std::size_t workers() const override { return pool_.size(); }
  nlohmann::json platforms() const override {
    return nlohmann::json::array({{{"name", "cpu"}, {"kind", "cpu"}, {"workers", pool_.size()}}});
  }

 private:
  static void execute(Job& job) {
    std::vector<void*> raw;
    raw.reserve(job.args.size());
    for (auto& a : job.args) raw.push_back(a.get());
    if (job.ce->nversions == 0) throw std::runtime_error("the CE has no native version");
    job.ce->versions[0].invoke(raw.data());
  }

  JobPool pool_;
};

}  // namespace

std::unique_ptr<Executor> make_direct_executor(unsigned threads) {
  return std::make_unique<DirectExecutor>(threads);
}

}  // namespace cei::worker
