// A node embedded in the test process: https with the documented certificate options, and
// close() that returns at once while keep-alive connections and long polls are open.
#include "https_options.hpp"
#include "node_client.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/worker/node.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

#include <unistd.h>

namespace remote_test {
namespace {

using Clock = std::chrono::steady_clock;
using cei::rt::Dir;

void put_int(cei::remote::NodeClient& node, const std::string& id, int x) {
  std::string b;
  cei::rt::type_ops<int>().serialize(&x, b);
  node.put(id, cei::rt::type_ops<int>().name, b);
}

TEST(RemoteNodeLifecycle, ServesHttpsWithTheGivenCertificate) {
  const TestCertificate tls;
  auto o = https_options(tls, "tls-token");
  auto ces = all_ces();
  cei::worker::Node node(o, ces);
  node.open();
  EXPECT_EQ(node.url().rfind("https://", 0), 0u);
  cei::remote::ClientOptions insecure;
  insecure.validate_certificates = false;  // self-signed
  cei::remote::NodeClient client(node.url(), o.token, insecure);
  EXPECT_TRUE(client.health());
  put_int(client, "x", 41);
  auto t = client.submit({"TestCEI", "inc", {{Dir::In, "x", ""}}, "y"});
  EXPECT_EQ(client.status(t, 10000).state, "done");
  int y = 0;
  cei::rt::type_ops<int>().deserialize(&y, client.get("y"));
  EXPECT_EQ(y, 42);
  // Plain http to the https port gets no answer; a client that checks certificates refuses it.
  cei::remote::NodeClient plain("http://127.0.0.1:" + std::to_string(o.port), o.token);
  EXPECT_FALSE(plain.health());
  cei::remote::NodeClient checking(node.url(), o.token);
  EXPECT_FALSE(checking.health());
  node.close();
}

TEST(RemoteNodeLifecycle, CloseReturnsAtOnceWithOpenConnectionsAndLongPolls) {
  cei::worker::NodeOptions o;
  o.port = free_port();
  o.token = "close-token";
  o.threads = 1;
  auto ces = all_ces();
  cei::worker::Node node(o, ces);
  node.open();
  cei::remote::NodeClient client(node.url(), o.token);  // keeps its connection alive
  put_int(client, "ms", 600);
  auto t = client.submit({"TestCEI", "nap", {{Dir::In, "ms", ""}}, "r"});
  auto poll = std::async(std::launch::async, [&] {
    cei::remote::NodeClient c(node.url(), o.token);
    try {
      return c.status(t, 30000).state;
    } catch (const cei::remote::NodeError& e) {
      return std::string(e.unreachable() ? "unreachable" : "error");
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  auto t0 = Clock::now();
  node.close();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 0.5);
  EXPECT_EQ(poll.get(), "unreachable");  // its connection closed with the node
  EXPECT_FALSE(client.health());
  node.open();  // and it serves again, with what it stored
  EXPECT_TRUE(client.health());
  EXPECT_EQ(client.status(t, 10000).state, "done");
}

}  // namespace
}  // namespace remote_test
