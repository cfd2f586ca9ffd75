// A real worker process: data round trips byte for byte, tasks give what local calls give,
// long polls return when the task ends, failures come back with the CE's message, a task is
// `running` (docs/rest-api.yaml) while a thread of the node runs it.
#include "node_client.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

namespace remote_test {
namespace {

using cei::rt::Dir;
using Vec = cei::Vector<float>;

template <typename T>
void put(cei::remote::NodeClient& node, const std::string& id, const T& x) {
  std::string s;
  cei::rt::type_ops<T>().serialize(&x, s);
  node.put(id, cei::rt::type_ops<T>().name, std::move(s));
}

template <typename T>
T get(cei::remote::NodeClient& node, const std::string& id) {
  T x{};
  cei::rt::type_ops<T>().deserialize(&x, node.get(id));
  return x;
}

Vec random_vec(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = d(g);
  return v;
}

TEST(RemoteNode, UploadDownloadRoundTrip) {
  WorkerProcess worker;
  cei::remote::NodeClient node(worker.url(), worker.token());
  Vec big = random_vec(3'000'000, 1);  // 12 MB
  put(node, "big", big);
  EXPECT_EQ(get<Vec>(node, "big"), big);
  std::vector<int> small{1, -2, 3};
  put(node, "small", small);
  EXPECT_EQ(get<std::vector<int>>(node, "small"), small);
  put(node, "empty", Vec());
  EXPECT_EQ(get<Vec>(node, "empty").size(), 0u);
  auto info = node.info();
  EXPECT_EQ(info["load"]["stored_values"], 3);
  node.erase("big");
  try {
    node.get("big");
    FAIL() << "deleted data still downloads";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_EQ(e.status(), 404);
  }
}

TEST(RemoteNode, InfoListsCesAndPlatforms) {
  WorkerProcess worker;
  cei::remote::NodeClient node(worker.url(), worker.token());
  auto info = node.info();
  EXPECT_EQ(info["api"], "v1");
  EXPECT_EQ(info["ces"].size(), all_ces().size());
  bool found = false;
  for (const auto& ce : info["ces"]) {
    if (ce["name"] == "iota") {
      found = true;
      EXPECT_EQ(ce["params"][0]["dir"], "out");
      EXPECT_TRUE(ce["result"].is_null());
    }
  }
  EXPECT_TRUE(found);
  EXPECT_GE(info["platforms"].size(), 1u);
}

TEST(RemoteNode, TasksEqualLocalCalls) {
  WorkerProcess worker;
  cei::remote::NodeClient node(worker.url(), worker.token());
  Vec a = random_vec(10'000, 2), b = random_vec(10'000, 3);
  float k = 2.5f;
  put(node, "a", a);
  put(node, "b", b);
  put(node, "k", k);
  // Task outputs feed tasks: scale(a, k) + b, all on the node.
  auto t1 = node.submit({"TestCEI", "scale", {{Dir::In, "a", ""}, {Dir::In, "k", ""}}, "ak"});
  ASSERT_EQ(node.status(t1, 10000).state, "done");
  auto t2 = node.submit({"TestCEI", "add", {{Dir::In, "ak", ""}, {Dir::In, "b", ""}}, "sum"});
  auto st = node.status(t2, 10000);
  ASSERT_EQ(st.state, "done") << st.error;
  EXPECT_EQ(get<Vec>(node, "sum"), add(scale(a, k), b));
  // out parameter
  put(node, "n", 5);
  auto t3 = node.submit({"TestCEI", "iota", {{Dir::Out, "", "v"}, {Dir::In, "n", ""}}, ""});
  ASSERT_EQ(node.status(t3, 10000).state, "done");
  Vec expect_iota;
  iota(expect_iota, 5);
  EXPECT_EQ(get<Vec>(node, "v"), expect_iota);
  // inout: the input id keeps its value (ids name immutable versions)
  std::vector<int> w{1, 2, 3};
  put(node, "w0", w);
  auto t4 = node.submit({"TestCEI", "bump", {{Dir::InOut, "w0", "w1"}}, ""});
  ASSERT_EQ(node.status(t4, 10000).state, "done");
  EXPECT_EQ(get<std::vector<int>>(node, "w0"), w);
  bump(w);
  EXPECT_EQ(get<std::vector<int>>(node, "w1"), w);
}

TEST(RemoteNode, FailureCarriesTheMessage) {
  WorkerProcess worker;
  cei::remote::NodeClient node(worker.url(), worker.token());
  put(node, "x", 42);
  auto t = node.submit({"TestCEI", "boom", {{Dir::In, "x", ""}}, "y"});
  auto st = node.status(t, 10000);
  EXPECT_EQ(st.state, "failed");
  EXPECT_NE(st.error.find("boom 42"), std::string::npos) << st.error;
  EXPECT_FALSE(st.crashed) << "an exception is no crash: a client may retry it anywhere";
  EXPECT_THROW(node.get("y"), cei::remote::NodeError);
}

TEST(RemoteNode, LongPollReturnsWhenTheTaskEnds) {
  WorkerProcess worker;
  cei::remote::NodeClient node(worker.url(), worker.token());
  put(node, "ms", 300);
  auto t0 = std::chrono::steady_clock::now();
  auto t = node.submit({"TestCEI", "nap", {{Dir::In, "ms", ""}}, "r"});
  EXPECT_FALSE(node.status(t).finished());  // a plain poll answers at once
  auto st = node.status(t, 20000);
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(st.state, "done");
  EXPECT_GE(waited, 0.29);
  EXPECT_LT(waited, 5.0);  // woke on completion, not at the 20 s deadline
  EXPECT_EQ(get<int>(node, "r"), 300);
  auto f = node.forecast("TestCEI", "nap", 4);
  EXPECT_EQ(f["source"], "measured");
  EXPECT_NEAR(f["exec_s"].get<double>(), 0.3, 0.2);
}

TEST(RemoteNode, StateIsRunningWhileTheTaskRuns) {
  WorkerProcess worker;
  cei::remote::NodeClient node(worker.url(), worker.token());
  put(node, "ms", 600);
  auto t = node.submit({"TestCEI", "nap", {{Dir::In, "ms", ""}}, "r"});
  std::string state = node.status(t).state;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (state == "queued" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    state = node.status(t).state;
  }
  EXPECT_EQ(state, "running");  // the nap holds its thread for 600 ms
  EXPECT_EQ(node.status(t, 20000).state, "done");
}

}  // namespace
}  // namespace remote_test
