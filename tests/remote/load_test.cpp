// Load on one worker node: a real node on 127.0.0.1 with a small capacity
// (--max-tasks 3; --max-data-mb 2, above what the clients hold at once: a task whose output finds
// the store full fails on the node, which is not what this test is about) and, at once, raw HTTP
// clients (threads, each with its own data ids) and client runtimes (cei-load-client processes,
// each with its own remote platform). Only the public behaviour of docs/rest-api.yaml is used.
// Asserted: every result right (no lost or mixed-up data), the node answered 503 with a Retry-After
// header at least once, it never answered another 5xx nor stopped answering, and the client
// runtimes lost no task to a busy node.
#include "raw_http.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include "protocol.hpp"

#include <cei/rt/type_ops.hpp>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace remote_test {
namespace {

using Clock = std::chrono::steady_clock;
using Vec = cei::Vector<float>;

struct Stats {
  std::atomic<long> requests{0}, busy{0}, busy_without_retry_after{0}, other_5xx{0}, unanswered{0},
      unexpected{0}, wrong{0}, rounds{0};
  std::atomic<long> max_latency_us{0};

  void latency(Clock::duration d) {
    long us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
    long seen = max_latency_us.load();
    while (us > seen && !max_latency_us.compare_exchange_weak(seen, us)) {
    }
  }
};

// One raw client: its own ids, every request checked, 503 honoured by waiting its Retry-After.
class RawClient {
 public:
  RawClient(const WorkerProcess& node, int id, Stats& stats)
      : node_(node), id_(id), stats_(stats) {}

  // Sends until the answer is not 503; returns it (status 0: the node did not answer).
  RawReply send(const std::string& method, const std::string& path, const std::string& body,
                const std::string& type = "application/octet-stream") {
    for (;;) {
      auto t0 = Clock::now();
      RawReply r;
      try {
        r = raw_request(node_.url(), method, path,
                        {{"Authorization", "Bearer " + node_.token()}, {"Content-Type", type}},
                        body);
      } catch (const std::exception&) {
        r.status = 0;
      }
      stats_.latency(Clock::now() - t0);
      ++stats_.requests;
      if (r.status == 0) ++stats_.unanswered;
      if (r.status >= 500 && r.status != 503) ++stats_.other_5xx;
      if (r.status != 503) return r;
      ++stats_.busy;
      long wait_s = 0;
      auto h = r.headers.find("Retry-After");
      if (h != r.headers.end()) wait_s = std::atol(h->second.c_str());
      if (wait_s < 1) {
        ++stats_.busy_without_retry_after;
        wait_s = 1;
      }
      std::this_thread::sleep_for(std::chrono::seconds(wait_s));
    }
  }

  bool expect(const RawReply& r, std::initializer_list<int> ok, const char* what) {
    if (std::find(ok.begin(), ok.end(), r.status) != ok.end()) return true;
    ++stats_.unexpected;
    std::printf("client %d: %s answered %d: %s\n", id_, what, r.status, r.body.c_str());
    return false;
  }

  template <typename T>
  bool put(const std::string& data_id, const T& value) {
    std::string bytes;
    cei::rt::type_ops<T>().serialize(&value, bytes);
    auto type = url_encode(cei::rt::type_ops<T>().name);
    return expect(send("PUT", "/v1/data/" + data_id + "?type=" + type, bytes), {200, 201}, "PUT");
  }

  template <typename T>
  bool get(const std::string& data_id, T& value) {
    auto r = send("GET", "/v1/data/" + data_id, "");
    if (!expect(r, {200}, "GET")) return false;
    cei::rt::type_ops<T>().deserialize(&value, r.body);
    return true;
  }

  // Submits and waits (long polls) until the task is done.
  bool run(const cei::rt::CeInfo& ce, std::vector<std::string> inputs, const std::string& result) {
    cei::remote::TaskRequest req{ce.interface_name, ce.name, {}, result};
    for (auto& in : inputs) req.args.push_back({cei::rt::Dir::In, in, ""});
    auto r = send("POST", "/v1/tasks", cei::remote::to_json(req).dump(), "application/json");
    if (!expect(r, {202}, "POST /v1/tasks")) return false;
    std::string task = nlohmann::json::parse(r.body).at("id").get<std::string>();
    for (;;) {
      auto st = send("GET", "/v1/tasks/" + task + "?wait_ms=2000", "");
      if (!expect(st, {200}, "GET /v1/tasks")) return false;
      auto state = nlohmann::json::parse(st.body).at("state").get<std::string>();
      if (state == "done") return true;
      if (state == "failed") {
        ++stats_.unexpected;
        std::printf("client %d: task failed: %s\n", id_, st.body.c_str());
        return false;
      }
    }
  }

  // One round: two vectors and a scalar uploaded, add(a, b) and nap(ms) run, results checked,
  // everything deleted. Sizes vary (8 to 32 KiB a vector).
  void round(int n) {
    const std::string p = "load-c" + std::to_string(id_) + "-r" + std::to_string(n) + "-";
    const std::size_t len = 2048 + static_cast<std::size_t>((id_ * 131 + n * 977) % 6144);
    Vec a(len), b(len);
    for (std::size_t i = 0; i < len; ++i) {
      a(i) = static_cast<float>(id_ * 1000 + n);
      b(i) = static_cast<float>(i % 1000);
    }
    const int ms = 20 + n % 3 * 10;
    bool ok = put(p + "a", a) && put(p + "b", b) && put(p + "ms", ms) &&
              run(remote_test::ce_add, {p + "a", p + "b"}, p + "sum") &&
              run(remote_test::ce_nap, {p + "ms"}, p + "nap");
    Vec sum;
    int napped = 0;
    if (ok && get(p + "sum", sum) && get(p + "nap", napped)) {
      bool right = sum.size() == len && napped == ms;
      for (std::size_t i = 0; right && i < len; ++i) right = sum(i) == a(i) + b(i);
      if (!right) ++stats_.wrong;
    }
    for (const char* s : {"a", "b", "ms", "sum", "nap"})
      expect(send("DELETE", "/v1/data/" + p + s, ""), {204, 404}, "DELETE");
    ++stats_.rounds;
  }

 private:
  const WorkerProcess& node_;
  int id_;
  Stats& stats_;
};

// A child process with its environment; waited for with a deadline (killed past it).
struct Child {
  pid_t pid = -1;
  static Child start(const std::vector<std::string>& args, const std::vector<std::string>& env) {
    Child c;
    c.pid = fork();
    if (c.pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with the test, even one that aborts
      for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    return c;
  }
  // The exit status, or -1 if it did not end before the deadline (then it is killed).
  int wait(Clock::time_point deadline) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        ::kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

// Client runtimes: no OpenCL, one CPU core, every task to the node (CEI_POLICY=only:node1).
std::vector<std::string> client_env(const WorkerProcess& node, const std::string& config) {
  return {"CEI_PLATFORMS=" + config, "CEI_POLICY=only:node1",
          "CEI_REMOTE=node1=" + node.url() + ",token=" + node.token()};
}

std::string write_client_config() {
  std::string path = "/tmp/cei-load-test-" + std::to_string(getpid()) + ".toml";
  std::ofstream(path) << "[platforms.cpu]\ntype = \"cpu\"\ncores = 1\n";
  return path;
}

TEST(Load, ManyClientsOnASmallNode) {
  WorkerProcess node({"--max-tasks", "3", "--max-data-mb", "2", "--threads", "2"});
  const std::string config = write_client_config();
  constexpr int kRawClients = 16, kRuntimeClients = 8, kRounds = 6, kTasksPerRuntime = 10;
  Stats stats;
  auto t0 = Clock::now();
  std::vector<Child> runtimes;
  for (int c = 0; c < kRuntimeClients; ++c)
    runtimes.push_back(
        Child::start({CEI_LOAD_CLIENT, std::to_string(100 + c), std::to_string(kTasksPerRuntime)},
                     client_env(node, config)));
  std::vector<std::thread> raw;
  for (int c = 0; c < kRawClients; ++c) {
    raw.emplace_back([&node, &stats, c] {
      RawClient client(node, c, stats);
      for (int n = 0; n < kRounds; ++n) client.round(n);
    });
  }
  for (auto& t : raw) t.join();
  int runtime_failures = 0;
  for (auto& r : runtimes)
    if (r.wait(t0 + std::chrono::seconds(90)) != 0) ++runtime_failures;
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::remove(config.c_str());

  std::printf(
      "load: %d raw clients x %d rounds + %d client runtimes x %d tasks; %ld requests, "
      "%ld answered 503 (Retry-After honoured), max latency %.3f s, %.1f s\n",
      kRawClients, kRounds, kRuntimeClients, 3 * kTasksPerRuntime, stats.requests.load(),
      stats.busy.load(), static_cast<double>(stats.max_latency_us) / 1e6, seconds);
  EXPECT_EQ(stats.rounds, kRawClients * kRounds);
  EXPECT_EQ(stats.wrong, 0) << "a result that is not its client's";
  EXPECT_EQ(stats.unexpected, 0) << "a request refused or a task failed";
  EXPECT_GT(stats.busy, 0) << "the node never reached its capacity";
  EXPECT_EQ(stats.busy_without_retry_after, 0);
  EXPECT_EQ(stats.other_5xx, 0);
  EXPECT_EQ(stats.unanswered, 0) << "the node stopped answering";
  EXPECT_EQ(runtime_failures, 0) << "a client runtime lost a task or got a wrong value";
  EXPECT_EQ(raw_request(node.url(), "GET", "/v1/health",
                        {{"Authorization", "Bearer " + node.token()}}, "")
                .status,
            200);
}

// The remote platform treats 503 as busy: with the node's only task slot taken by a long task,
// a client runtime's tasks wait out Retry-After and then run there, none is lost or failed.
TEST(Load, ClientRuntimeWaitsOutABusyNode) {
  WorkerProcess node({"--max-tasks", "1", "--threads", "1"});
  const std::string config = write_client_config();
  Stats stats;
  RawClient hog(node, 0, stats);
  ASSERT_TRUE(hog.put("hog-ms", 3000));
  std::thread blocker([&] { hog.run(remote_test::ce_nap, {"hog-ms"}, "hog-out"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the nap holds the slot
  auto t0 = Clock::now();
  auto client = Child::start({CEI_LOAD_CLIENT, "7", "3"}, client_env(node, config));
  EXPECT_EQ(client.wait(t0 + std::chrono::seconds(60)), 0);
  blocker.join();
  std::remove(config.c_str());
  EXPECT_EQ(stats.unexpected, 0);
  EXPECT_EQ(raw_request(node.url(), "GET", "/v1/health",
                        {{"Authorization", "Bearer " + node.token()}}, "")
                .status,
            200);
}

// Over the data cap, PUT is refused with 503 and Retry-After (and nothing is stored).
TEST(Load, FullDataStoreAnswers503) {
  WorkerProcess node({"--max-data-mb", "1"});
  Stats stats;
  RawClient client(node, 0, stats);
  Vec big(160 * 1024);  // 640 KiB
  ASSERT_TRUE(client.put("first", big));
  std::string bytes;
  cei::rt::type_ops<Vec>().serialize(&big, bytes);
  auto r = raw_request(node.url(), "PUT",
                       "/v1/data/second?type=" + url_encode(cei::rt::type_ops<Vec>().name),
                       {{"Authorization", "Bearer " + node.token()}}, bytes);
  EXPECT_EQ(r.status, 503);
  EXPECT_GE(std::atol(r.headers["Retry-After"].c_str()), 1);
  EXPECT_EQ(client.send("GET", "/v1/data/second", "").status, 404);
  EXPECT_EQ(client.send("DELETE", "/v1/data/first", "").status, 204);
  EXPECT_TRUE(client.put("second", big)) << "room again once the first value is gone";
}

}  // namespace
}  // namespace remote_test
