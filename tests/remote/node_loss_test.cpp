// A lost node (frozen, restarted, replaced; unusable from the start), against real processes on
// 127.0.0.1: the program (cei-node-loss-client) leaves a value on node1; then the node is frozen
// (SIGSTOP), restarted on its port, or replaced there by another application's worker, and the
// program goes on. Under CEI_POLICY=only:node1 it must stop with status 3 and a message naming the
// node and the cause; under another policy it must finish with every result right and a warning
// naming the node. Either within the request timeout + 10 s. A node that is not there, or refuses
// the token, from the start stops only:node1 with status 2 (and is a warning under other policies),
// where it once ran every task on the CPU without a word.
#include "client_process.hpp"
#include "worker_process.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace remote_test {
namespace {

constexpr int kTimeoutMs = 1000;  // CEI_REMOTE's timeout_ms for node1
constexpr auto kGrace = std::chrono::milliseconds(kTimeoutMs) + std::chrono::seconds(10);

// The client program, ended within the grace time.
class Client : public ClientProcess {
 public:
  explicit Client(const std::vector<std::string>& env)
      : ClientProcess({CEI_LOSS_CLIENT}, env,
                      std::chrono::duration_cast<std::chrono::milliseconds>(kGrace)) {}
};

// One CPU core and no OpenCL for the client: its platforms start in no time.
const std::string& cpu_config() {
  static const std::string path = [] {
    std::string p = "/tmp/cei-node-loss-test-" + std::to_string(getpid()) + ".toml";
    std::ofstream(p) << "[platforms.cpu]\ntype = \"cpu\"\ncores = 1\n";
    return p;
  }();
  return path;
}

std::vector<std::string> client_env(const std::string& url, const std::string& token,
                                    bool only_node1) {
  std::vector<std::string> env = {
      "CEI_PLATFORMS=" + cpu_config(),
      "CEI_REMOTE=node1=" + url + ",token=" + token + ",timeout_ms=" + std::to_string(kTimeoutMs)};
  if (only_node1) env.push_back("CEI_POLICY=only:node1");
  return env;
}

// Runs the client against a node that `action` freezes, restarts or replaces once the client
// left a value on it; returns the client when it has ended.
std::unique_ptr<Client> run_with(bool only_node1,
                                 const std::function<void(std::unique_ptr<WorkerProcess>&)>& action,
                                 std::unique_ptr<WorkerProcess>& node) {
  node = std::make_unique<WorkerProcess>();
  auto client = std::make_unique<Client>(client_env(node->url(), node->token(), only_node1));
  EXPECT_TRUE(client->ready()) << client->out() << client->err();
  action(node);
  client->go();
  return client;
}

void freeze(std::unique_ptr<WorkerProcess>& node) {
  node->freeze();
}
void restart(std::unique_ptr<WorkerProcess>& node) {
  const int port = node->port();
  const std::string token = node->token();
  node->kill9();
  node = std::make_unique<WorkerProcess>(std::vector<std::string>{}, token, port);
}
void replace(std::unique_ptr<WorkerProcess>& node) {
  const int port = node->port();
  const std::string token = node->token();
  node->kill9();
  node = std::make_unique<WorkerProcess>(std::vector<std::string>{}, token, port, CEI_OTHER_WORKER);
}

struct Case {
  const char* name;
  void (*action)(std::unique_ptr<WorkerProcess>&);
  const char* cause;  // in the message
};
const Case kCases[] = {{"frozen", freeze, "node unreachable"},
                       {"restarted", restart, "restarted (instance "},
                       {"replaced", replace, "replaced by a node of another application"}};

TEST(NodeLoss, OnlyNode1StopsWithStatus3NamingTheNodeAndTheCause) {
  for (const Case& c : kCases) {
    std::unique_ptr<WorkerProcess> node;
    auto client = run_with(true, c.action, node);
    EXPECT_EQ(client->status(), 3) << c.name << "\n" << client->out() << client->err();
    EXPECT_NE(client->err().find("cei: node node1 (" + node->url() + ") lost: "), std::string::npos)
        << c.name << "\n"
        << client->err();
    EXPECT_NE(client->err().find(c.cause), std::string::npos) << c.name << "\n" << client->err();
    EXPECT_EQ(client->out().find("right"), std::string::npos) << c.name;
  }
}

TEST(NodeLoss, OtherPoliciesFinishRightWithAWarning) {
  for (const Case& c : kCases) {
    std::unique_ptr<WorkerProcess> node;
    auto client = run_with(false, c.action, node);
    EXPECT_EQ(client->status(), 0) << c.name << "\n" << client->out() << client->err();
    EXPECT_NE(client->out().find("right"), std::string::npos) << c.name << "\n" << client->out();
    EXPECT_NE(client->err().find("node node1 (" + node->url() + ") lost: "), std::string::npos)
        << c.name << "\n"
        << client->err();
    EXPECT_NE(client->err().find(c.cause), std::string::npos) << c.name << "\n" << client->err();
  }
}

// Finding 6: the node is never usable.
TEST(NodeLoss, AnUnusableNodeStopsOnlyNode1WithStatus2) {
  WorkerProcess node;
  const std::string nobody = "http://127.0.0.1:" + std::to_string(free_port());
  const std::pair<std::string, std::string> cases[] = {
      {nobody, "cei: node node1 (" + nobody + ") cannot be used: node unreachable"},
      {node.url(), "cei: node node1 (" + node.url() + ") cannot be used: node answered 401"}};
  for (const auto& [url, message] : cases) {
    Client client(client_env(url, "wrong-token", true));
    EXPECT_EQ(client.status(), 2) << url << "\n" << client.out() << client.err();
    EXPECT_NE(client.err().find(message), std::string::npos) << client.err();
    EXPECT_NE(client.err().find("the policy only:node1 runs its tasks nowhere else"),
              std::string::npos)
        << client.err();
  }
}

TEST(NodeLoss, AnUnusableNodeIsAWarningUnderOtherPolicies) {
  WorkerProcess node;
  Client client(client_env(node.url(), "wrong-token", false));
  ASSERT_TRUE(client.ready()) << client.out() << client.err();
  client.go();
  EXPECT_EQ(client.status(), 0) << client.out() << client.err();
  EXPECT_NE(client.out().find("right"), std::string::npos) << client.out();
  EXPECT_NE(client.err().find("node node1 (" + node.url() + ") not used: node answered 401"),
            std::string::npos)
      << client.err();
}

}  // namespace
}  // namespace remote_test
