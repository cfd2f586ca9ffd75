// Every way a request can be wrong gets its documented status code, and the node keeps serving.
#include "node_client.hpp"
#include "raw_http.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace remote_test {
namespace {

using Vec = cei::Vector<float>;

std::string vec_bytes(std::size_t n) {
  Vec v(n);
  std::string s;
  cei::rt::type_ops<Vec>().serialize(&v, s);
  return s;
}

// A Vec framing with the given rank/extent fields and payload length.
std::string framing(std::int64_t rank, std::int64_t extent, std::size_t payload) {
  std::string s(16 + payload, '\0');
  std::memcpy(s.data(), &rank, 8);
  std::memcpy(s.data() + 8, &extent, 8);
  return s;
}

struct BadRequest {
  const char* name;
  const char* method;
  std::string path;
  enum Auth { None, Good, Wrong, Basic, Prefix } auth;
  std::string body;
  const char* content_type;
  int expected;
};

std::string task(const std::string& ce, const std::string& args,
                 const std::string& rest = R"(,"result":"r")") {
  return R"({"ce":{"interface":"TestCEI","name":")" + ce + R"("},"args":[)" + args + "]" + rest +
         "}";
}

TEST(RemoteBadRequests, TableOfStatusCodes) {
  WorkerProcess worker({"--max-body-mb", "1", "--max-tasks", "64"});
  cei::remote::NodeClient node(worker.url(), worker.token());
  const std::string vec_type = cei::rt::type_ops<Vec>().name;
  node.put("a", vec_type, vec_bytes(8));
  std::string one;
  int seven = 7;
  cei::rt::type_ops<int>().serialize(&seven, one);
  node.put("seven", cei::rt::type_ops<int>().name, one);
  std::string t1 = node.submit({"TestCEI", "inc", {{cei::rt::Dir::In, "seven", ""}}, "eight"});
  std::string vt = "?type=" + url_encode(vec_type);
  const std::string big(2u << 20, 'x');

  using A = BadRequest::Auth;
  const BadRequest table[] = {
      {"no token", "GET", "/v1/health", A::None, "", nullptr, 401},
      {"wrong token", "GET", "/v1/health", A::Wrong, "", nullptr, 401},
      {"basic scheme", "GET", "/v1/info", A::Basic, "", nullptr, 401},
      {"token prefix", "GET", "/v1/info", A::Prefix, "", nullptr, 401},
      {"upload without token", "PUT", "/v1/data/x" + vt, A::None, vec_bytes(4), nullptr, 401},
      {"task with wrong token", "POST", "/v1/tasks", A::Wrong,
       task("inc", R"({"dir":"in","data":"seven"})"), "application/json", 401},
      {"unknown path without token", "GET", "/v1/secret", A::None, "", nullptr, 401},
      {"oversized upload", "PUT", "/v1/data/big" + vt, A::Good, big, nullptr, 413},
      {"oversized JSON", "POST", "/v1/tasks", A::Good, big, "application/json", 413},
      {"malformed JSON", "POST", "/v1/tasks", A::Good, "{\"ce\":", "application/json", 400},
      {"JSON not an object", "POST", "/v1/tasks", A::Good, "[1,2]", "application/json", 400},
      {"missing ce", "POST", "/v1/tasks", A::Good, R"({"args":[]})", "application/json", 400},
      {"bad direction", "POST", "/v1/tasks", A::Good,
       task("inc", R"({"dir":"sideways","data":"seven"})"), "application/json", 400},
      {"invalid data id", "POST", "/v1/tasks", A::Good,
       task("inc", R"({"dir":"in","data":"../etc"})"), "application/json", 400},
      {"unknown CE", "POST", "/v1/tasks", A::Good, task("nope", R"({"dir":"in","data":"seven"})"),
       "application/json", 404},
      {"unknown data", "POST", "/v1/tasks", A::Good,
       task("inc", R"({"dir":"in","data":"missing"})"), "application/json", 404},
      {"wrong argument count", "POST", "/v1/tasks", A::Good, task("inc", ""), "application/json",
       400},
      {"wrong direction for CE", "POST", "/v1/tasks", A::Good,
       task("inc", R"({"dir":"inout","data":"seven","out":"s2"})"), "application/json", 400},
      {"type mismatch", "POST", "/v1/tasks", A::Good, task("inc", R"({"dir":"in","data":"a"})"),
       "application/json", 400},
      {"missing result", "POST", "/v1/tasks", A::Good,
       task("inc", R"({"dir":"in","data":"seven"})", ""), "application/json", 400},
      {"truncated binary", "PUT", "/v1/data/t" + vt, A::Good, framing(1, 100, 40), nullptr, 400},
      {"truncated header", "PUT", "/v1/data/t" + vt, A::Good, std::string(12, '\1'), nullptr, 400},
      {"negative extent", "PUT", "/v1/data/t" + vt, A::Good, framing(1, -5, 0), nullptr, 400},
      {"huge extent", "PUT", "/v1/data/t" + vt, A::Good, framing(1, INT64_C(1) << 60, 8), nullptr,
       400},
      {"rank mismatch", "PUT", "/v1/data/t" + vt, A::Good, framing(2, 1, 4), nullptr, 400},
      {"upload without type", "PUT", "/v1/data/t", A::Good, vec_bytes(4), nullptr, 400},
      {"upload of unknown type", "PUT", "/v1/data/t?type=double%2A", A::Good, vec_bytes(4), nullptr,
       400},
      {"download unknown data", "GET", "/v1/data/nope", A::Good, "", nullptr, 404},
      {"delete unknown data", "DELETE", "/v1/data/nope", A::Good, "", nullptr, 404},
      {"unknown task", "GET", "/v1/tasks/t999", A::Good, "", nullptr, 404},
      {"bad wait_ms", "GET", "/v1/tasks/" + t1 + "?wait_ms=soon", A::Good, "", nullptr, 400},
      {"unknown endpoint", "GET", "/v1/nothing", A::Good, "", nullptr, 404},
      {"POST health", "POST", "/v1/health", A::Good, "", nullptr, 405},
      {"DELETE info", "DELETE", "/v1/info", A::Good, "", nullptr, 405},
      {"PUT tasks", "PUT", "/v1/tasks", A::Good, "{}", "application/json", 405},
      {"POST data", "POST", "/v1/data/a", A::Good, "", nullptr, 405},
      {"TRACE health", "TRACE", "/v1/health", A::Good, "", nullptr, 405},
      {"OPTIONS tasks", "OPTIONS", "/v1/tasks", A::Good, "", nullptr, 405},
      {"forecast of unknown CE", "POST", "/v1/forecast", A::Good,
       R"({"ce":{"interface":"TestCEI","name":"nope"}})", "application/json", 404},
      {"malformed forecast", "POST", "/v1/forecast", A::Good, "nope", "application/json", 400},
      {"negative input_bytes", "POST", "/v1/forecast", A::Good,
       R"({"ce":{"interface":"TestCEI","name":"inc"},"input_bytes":-1})", "application/json", 400},
  };
  ASSERT_GE(std::size(table), 20u);
  for (const auto& b : table) {
    std::map<std::string, std::string> h;
    switch (b.auth) {
      case A::None:
        break;
      case A::Good:
        h["Authorization"] = "Bearer " + worker.token();
        break;
      case A::Wrong:
        h["Authorization"] = "Bearer wrong-token";
        break;
      case A::Basic:
        h["Authorization"] = "Basic " + worker.token();
        break;
      case A::Prefix:
        h["Authorization"] = "Bearer " + worker.token().substr(0, worker.token().size() - 1);
        break;
    }
    if (b.content_type) h["Content-Type"] = b.content_type;
    RawReply r = raw_request(worker.url(), b.method, b.path, h, b.body);
    EXPECT_EQ(r.status, b.expected) << b.name << ": " << r.body;
    if (r.status >= 400) {
      EXPECT_NE(r.body.find("\"error\""), std::string::npos) << b.name << ": error bodies say why";
    }
    if (r.status == 401) {
      EXPECT_EQ(r.headers["WWW-Authenticate"], "Bearer") << b.name;
    }
    if (r.status == 405) {
      EXPECT_FALSE(r.headers["Allow"].empty()) << b.name;
    }
  }
  // Nothing above broke the node or stored anything.
  EXPECT_TRUE(node.health());
  EXPECT_THROW(node.get("t"), cei::remote::NodeError);
  EXPECT_THROW(node.get("big"), cei::remote::NodeError);
  EXPECT_EQ(node.status(t1, 5000).state, "done");
}

TEST(RemoteBadRequests, OverCapacityIs503WithRetryAfter) {
  WorkerProcess worker({"--max-tasks", "1", "--threads", "1"});
  cei::remote::NodeClient node(worker.url(), worker.token());
  int ms = 800;
  std::string b;
  cei::rt::type_ops<int>().serialize(&ms, b);
  node.put("ms", cei::rt::type_ops<int>().name, b);
  std::string first = node.submit({"TestCEI", "nap", {{cei::rt::Dir::In, "ms", ""}}, "r1"});
  auto r = raw_request(
      worker.url(), "POST", "/v1/tasks",
      {{"Authorization", "Bearer " + worker.token()}, {"Content-Type", "application/json"}},
      task("nap", R"({"dir":"in","data":"ms"})", R"(,"result":"r2")"));
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_EQ(r.headers["Retry-After"], "1");
  EXPECT_EQ(node.status(first, 10000).state, "done");
  EXPECT_NO_THROW(node.submit({"TestCEI", "nap", {{cei::rt::Dir::In, "ms", ""}}, "r3"}));
}

}  // namespace
}  // namespace remote_test
