// NodeClient's data path (PUT and GET of /v1/data on Boost.Beast, platforms/remote/
// data_channel.hpp): values sent from and received into their own memory over http and https
// (bodies far past one TLS record), statuses and messages as on the JSON path, concurrent callers
// sharing one client's pooled connections, and a node restarted under them.
#include "https_options.hpp"
#include "node_client.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <cei/worker/node.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace remote_test {
namespace {

using Vec = cei::Vector<float>;

Vec vec_of(std::size_t n, float seed) {
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = seed + static_cast<float>(i % 977);
  return v;
}

// Every form of value both ways: from and into objects, and as wire bytes.
void round_trips(cei::remote::NodeClient& client) {
  const auto& vops = cei::rt::type_ops<Vec>();
  Vec big = vec_of(3u << 20, 1.f), back;  // 12 MiB: hundreds of TLS records
  EXPECT_EQ(client.put("big", vops, &big), 16 + big.size() * sizeof(float));
  EXPECT_EQ(client.get("big", vops, &back), 16 + big.size() * sizeof(float));
  EXPECT_EQ(back, big);
  Vec small = vec_of(5, 2.f);
  client.put("big", vops, &small);  // replaced, on the same pooled connection
  client.get("big", vops, &back);   // reshaped to the smaller value
  EXPECT_EQ(back, small);
  std::string wire;
  vops.serialize(&big, wire);
  client.put("wire", vops.name, wire);
  EXPECT_EQ(client.get("wire"), wire);

  const auto& iops = cei::rt::type_ops<std::vector<int>>();
  std::vector<int> is(70000, 7), is2;
  is.back() = 9;
  client.put("is", iops, &is);
  client.get("is", iops, &is2);
  EXPECT_EQ(is2, is);
  Vec empty, e2 = vec_of(3, 0.f);
  client.put("empty", vops, &empty);
  client.get("empty", vops, &e2);
  EXPECT_EQ(e2.size(), 0u);
  int x = 41, y = 0;
  client.put("x", cei::rt::type_ops<int>(), &x);
  client.get("x", cei::rt::type_ops<int>(), &y);
  EXPECT_EQ(y, 41);

  try {
    client.get("absent", vops, &back);
    ADD_FAILURE() << "a missing id must throw";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_EQ(e.status(), 404);
    EXPECT_NE(std::string(e.what()).find("absent"), std::string::npos) << e.what();
  }
  try {
    client.get("x", vops, &back);  // an int is not a Vector<float>: the framing says so
    ADD_FAILURE() << "a value of another type must be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("malformed"), std::string::npos) << e.what();
  }
  try {
    client.put("bad", "no-such-type", "1234");
    ADD_FAILURE() << "an unknown type must be refused";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_EQ(e.status(), 400);
  }
}

TEST(RemoteDataPath, RoundTripsOverHttpsWithTheCertificateChecked) {
  const TestCertificate tls;
  auto o = https_options(tls, "tls-token");
  auto ces = all_ces();
  cei::worker::Node node(o, ces);
  node.open();
  cei::remote::ClientOptions trusted;
  trusted.ca_file = tls.cert();
  trusted.timeout = std::chrono::milliseconds(10000);
  cei::remote::NodeClient client(node.url(), o.token, trusted);
  round_trips(client);
  // Without the CA file the self-signed certificate is refused before any byte is sent.
  cei::remote::NodeClient untrusting(node.url(), o.token);
  int x = 1;
  try {
    untrusting.put("other", cei::rt::type_ops<int>(), &x);
    ADD_FAILURE() << "an untrusted certificate must be refused";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_TRUE(e.unreachable()) << e.what();
  }
  cei::remote::NodeClient wrong_token(node.url(), "nope", trusted);
  try {
    wrong_token.put("other", cei::rt::type_ops<int>(), &x);
    ADD_FAILURE() << "a wrong token must be refused";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_EQ(e.status(), 401);
  }
  node.close();
}

TEST(RemoteDataPath, RoundTripsOverHttpAndRefusalsNameTheCause) {
  cei::worker::NodeOptions o;
  o.port = free_port();
  o.token = "t";
  o.max_body_bytes = 8 << 20;
  auto ces = all_ces();
  cei::worker::Node node(o, ces);
  node.open();
  cei::remote::NodeClient client(node.url(), o.token);
  o.max_body_bytes = 64 << 20;  // round_trips needs 12 MiB: a node of its own
  o.port = free_port();
  cei::worker::Node roomy(o, ces);
  roomy.open();
  cei::remote::NodeClient roomy_client(roomy.url(), o.token);
  round_trips(roomy_client);
  // Over the node's limit: the 413 and its message, not a broken pipe.
  Vec over = vec_of(4u << 20, 0.f);  // 16 MiB
  try {
    client.put("over", cei::rt::type_ops<Vec>(), &over);
    ADD_FAILURE() << "a body over the limit must be refused";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_EQ(e.status(), 413) << e.what();
  }
  Vec ok = vec_of(10, 3.f), back;
  client.put("ok", cei::rt::type_ops<Vec>(), &ok);  // the client is usable again
  client.get("ok", cei::rt::type_ops<Vec>(), &back);
  EXPECT_EQ(back, ok);
  roomy.close();
  node.close();
}

TEST(RemoteDataPath, ConcurrentCallersShareOneClientAndSurviveARestart) {
  cei::worker::NodeOptions o;
  o.port = free_port();
  o.token = "t";
  o.threads = 2;
  auto ces = all_ces();
  auto node = std::make_unique<cei::worker::Node>(o, ces);
  node->open();
  cei::remote::NodeClient client(node->url(), o.token);
  constexpr int kThreads = 6, kRounds = 10;
  std::vector<std::thread> threads;
  std::vector<int> mismatches(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        std::string id = "v" + std::to_string(t) + "_" + std::to_string(r);
        Vec v = vec_of(1000 + static_cast<std::size_t>(t * 40099 + r * 1310),
                       static_cast<float>(t * 100 + r)),
            back;
        client.put(id, cei::rt::type_ops<Vec>(), &v);
        client.get(id, cei::rt::type_ops<Vec>(), &back);
        if (back != v) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0);
  // Pooled connections go stale when the node restarts: the next calls connect again.
  node->close();
  node.reset();
  cei::worker::Node again(o, ces);
  again.open();
  Vec v = vec_of(10, 3.f), back;
  client.put("after", cei::rt::type_ops<Vec>(), &v);
  client.get("after", cei::rt::type_ops<Vec>(), &back);
  EXPECT_EQ(back, v);
  again.close();
  // A node that is gone: unreachable, not a hang.
  try {
    client.get("after", cei::rt::type_ops<Vec>(), &back);
    ADD_FAILURE() << "a closed node must not answer";
  } catch (const cei::remote::NodeError& e) {
    EXPECT_TRUE(e.unreachable()) << e.what();
  }
}

// A peer that takes connections (the kernel's backlog) but never reads or answers: every step
// of an exchange has the client's timeout, whether it waits for room to send or for the answer.
TEST(RemoteDataPath, APeerThatNeverAnswersTimesOut) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  socklen_t len = sizeof a;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
  cei::remote::ClientOptions quick;
  quick.timeout = std::chrono::milliseconds(300);
  cei::remote::NodeClient client("http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)), "t",
                                 quick);
  for (std::size_t n : {std::size_t{4}, std::size_t{16} << 20}) {  // the answer; room to send
    Vec v = vec_of(n, 1.f);
    auto t0 = std::chrono::steady_clock::now();
    try {
      client.put("v", cei::rt::type_ops<Vec>(), &v);
      ADD_FAILURE() << "a silent peer must time out";
    } catch (const cei::remote::NodeError& e) {
      EXPECT_TRUE(e.unreachable()) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  }
  ::close(listener);
}

}  // namespace
}  // namespace remote_test
