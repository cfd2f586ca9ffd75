// A node fetching a value from its peer (POST /v1/data/{id}/fetch, docs/remote.md "Node-to-node
// transfers"), between two real worker processes with tokens of their own: the value arrives
// byte for byte; a wrong token, a value the peer lacks, a peer not listening, another shape than
// announced, or no room come back as errors naming the cause, and nothing is stored.
#include "node_client.hpp"
#include "raw_http.hpp"
#include "worker_process.hpp"

#include <cei/array.hpp>
#include <cei/rt/type_ops.hpp>

#include <gtest/gtest.h>

#include <string>

namespace remote_test {
namespace {

using cei::remote::NodeClient;
using cei::remote::NodeError;
using cei::remote::PeerFetch;
using Vec = cei::Vector<float>;

const auto& kVec = cei::rt::type_ops<Vec>();

Vec ramp(std::size_t n) {
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = static_cast<float>(i % 1013) * 0.5f;
  return v;
}

// Two nodes: `a` fetches, `b` holds "v" (a vector of n floats).
struct Pair {
  explicit Pair(std::size_t n, std::vector<std::string> a_args = {})
      : a(std::move(a_args), "token-a"),
        b({}, "token-b"),
        to_a(a.url(), a.token()),
        to_b(b.url(), b.token()),
        value(ramp(n)) {
    to_b.put("v", kVec, &value);
  }
  PeerFetch from_b(std::string token = "token-b", std::vector<std::int64_t> extents = {}) const {
    return {kVec.name, b.url(), std::move(token), "v", std::move(extents), 5000};
  }
  // The status of a fetch that must fail, with its message in `what`.
  int failed(const PeerFetch& f, std::string& what) {
    try {
      to_a.fetch("x", f);
    } catch (const NodeError& e) {
      what = e.what();
      return e.status();
    }
    return 0;
  }
  bool a_holds_x() {
    try {
      Vec back;
      to_a.get("x", kVec, &back);
      return true;
    } catch (const NodeError& e) {
      EXPECT_EQ(e.status(), 404) << e.what();
      return false;
    }
  }

  WorkerProcess a, b;
  NodeClient to_a, to_b;
  Vec value;
};

TEST(RemotePeerFetch, TheValueArrivesByteForByte) {
  Pair p(600'000);  // 2.4 MB
  const auto got = p.to_a.fetch("x", p.from_b("token-b", {600'000}));
  EXPECT_EQ(got.bytes, 16 + 4 * 600'000u);  // the framing (rank, extent) and the payload
  EXPECT_GT(got.seconds, 0);
  Vec back;
  p.to_a.get("x", kVec, &back);
  EXPECT_EQ(back, p.value);
  EXPECT_EQ(p.to_b.info()["load"]["stored_values"], 1) << "the peer keeps its copy";
}

TEST(RemotePeerFetch, AWrongTokenIsRefusedByThePeer) {
  Pair p(1000);
  std::string what;
  EXPECT_EQ(p.failed(p.from_b("token-a"), what), 502);
  EXPECT_NE(what.find("node answered 401"), std::string::npos) << what;
  EXPECT_NE(what.find(p.b.url()), std::string::npos) << what;
  EXPECT_FALSE(p.a_holds_x());
}

TEST(RemotePeerFetch, APeerThatCannotGiveTheValueIs502) {
  Pair p(1000);
  std::string what;
  PeerFetch missing = p.from_b();
  missing.id = "nope";
  EXPECT_EQ(p.failed(missing, what), 502);
  EXPECT_NE(what.find("node answered 404"), std::string::npos) << what;
  PeerFetch gone = p.from_b();
  gone.url = "http://127.0.0.1:" + std::to_string(free_port());
  EXPECT_EQ(p.failed(gone, what), 502);
  EXPECT_NE(what.find("unreachable"), std::string::npos) << what;
  EXPECT_EQ(p.failed(p.from_b("token-b", {999}), what), 502) << "another shape than announced";
  EXPECT_NE(what.find("malformed"), std::string::npos) << what;
  EXPECT_FALSE(p.a_holds_x());
}

TEST(RemotePeerFetch, TheUploadLimitsHold) {
  Pair p(600'000, {"--max-data-mb", "1"});  // 2.4 MB do not fit
  std::string what;
  EXPECT_EQ(p.failed(p.from_b(), what), 503);
  EXPECT_NE(what.find("the node's data store is full"), std::string::npos) << what;
  EXPECT_FALSE(p.a_holds_x());
  EXPECT_EQ(p.to_a.info()["load"]["receiving_bytes"], 0) << "the reservation is given back";
}

TEST(RemotePeerFetch, BadRequestsAreRefusedBeforeAnythingMoves) {
  Pair p(10);
  const std::string body = cei::remote::to_json(p.from_b()).dump();
  const std::map<std::string, std::string> json{{"Content-Type", "application/json"}},
      authorized{{"Content-Type", "application/json"}, {"Authorization", "Bearer token-a"}};
  EXPECT_EQ(raw_request(p.a.url(), "POST", "/v1/data/x/fetch", json, body).status, 401);
  EXPECT_EQ(raw_request(p.a.url(), "GET", "/v1/data/x/fetch", authorized, "").status, 405);
  auto with = [&](const char* key, nlohmann::json value) {
    auto j = cei::remote::to_json(p.from_b());
    j[key] = std::move(value);
    return raw_request(p.a.url(), "POST", "/v1/data/x/fetch", authorized, j.dump());
  };
  EXPECT_EQ(with("type", "double*").status, 400);
  EXPECT_EQ(with("timeout_ms", 0).status, 400);
  EXPECT_EQ(with("extents", {1, 2, 3, 4}).status, 400);
  const auto bad_url = with("from", {{"url", "ftp://x y"}, {"token", "t"}, {"id", "v"}});
  EXPECT_EQ(bad_url.status, 400);
  EXPECT_NE(bad_url.body.find("fetch.from: 'url'"), std::string::npos) << bad_url.body;
  const auto bad_id = with("from", {{"url", p.b.url()}, {"token", "t"}, {"id", "../v"}});
  EXPECT_EQ(bad_id.status, 400);
  EXPECT_NE(bad_id.body.find("fetch.from: 'id'"), std::string::npos) << bad_id.body;
  EXPECT_EQ(raw_request(p.a.url(), "POST", "/v1/data/x/fetch", authorized, "[1]").status, 400);
  EXPECT_FALSE(p.a_holds_x());
}

}  // namespace
}  // namespace remote_test
