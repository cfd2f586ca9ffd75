// What a client that speaks broken HTTP gets from a node: 400/401/413 or a closed connection,
// never a crash or a hang; and what a correct one gets on a kept-alive connection: pipelining,
// chunked uploads, long polls that block nobody.
#include "node_client.hpp"
#include "test_app.hpp"
#include "worker_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace remote_test {
namespace {

using Clock = std::chrono::steady_clock;

// Sends `bytes` on a new connection (optionally closing our side), then reads until the node
// closes or `timeout_s` passes. Returns what came back.
std::string exchange(int port, const std::string& bytes, bool half_close = false,
                     int timeout_s = 5) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(s);
    return "<connect failed>";
  }
  timeval tv{timeout_s, 0};
  setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = send(s, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the node may close early on a refused body
    sent += static_cast<std::size_t>(n);
  }
  if (half_close) shutdown(s, SHUT_WR);
  std::string got;
  char buf[65536];
  for (;;) {
    ssize_t n = recv(s, buf, sizeof buf, 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      got += "<timeout>";
      break;
    }
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  close(s);
  return got;
}

int status_of(const std::string& reply) {
  return reply.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(reply.c_str() + 9) : 0;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(RemoteMalformedHttp, BrokenRequestsGet400Or413OrAClose) {
  WorkerProcess worker({"--max-body-mb", "1"});
  const std::string auth = "Authorization: Bearer " + worker.token() + "\r\n";
  struct Case {
    const char* name;
    std::string bytes;
    int expected;  // 0: the connection just closes
    bool half_close = false;
  };
  const Case cases[] = {
      {"garbage request line", "GARBAGE\r\n\r\n", 400},
      {"bad HTTP version", "GET /v1/health HTTP/7.q\r\n" + auth + "\r\n", 400},
      {"head over 64 KiB", "GET /v1/health HTTP/1.1\r\nX: " + std::string(100000, 'a') + "\r\n\r\n",
       400},
      {"Content-Length not a number",
       "POST /v1/tasks HTTP/1.1\r\n" + auth + "Content-Length: ten\r\n\r\n", 400},
      {"two Content-Lengths",
       "POST /v1/tasks HTTP/1.1\r\n" + auth + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
       400},
      {"bad chunk size",
       "POST /v1/forecast HTTP/1.1\r\n" + auth + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {"body shorter than its Content-Length",
       "POST /v1/tasks HTTP/1.1\r\n" + auth + "Content-Length: 100\r\n\r\n{\"ce\"", 0, true},
      {"huge upload without token",
       "PUT /v1/data/a?type=int HTTP/1.1\r\nContent-Length: 100000000000\r\n\r\nxxxx", 401},
      {"huge upload with token",
       "PUT /v1/data/a?type=int HTTP/1.1\r\n" + auth + "Content-Length: 100000000000\r\n\r\nxxxx",
       413},
      {"chunked body over the limit",
       "PUT /v1/data/a?type=int HTTP/1.1\r\n" + auth +
           "Transfer-Encoding: chunked\r\n\r\n200000\r\n" + std::string(0x200000, 'x') +
           "\r\n0\r\n\r\n",
       413},
      {"percent sign without hex", "GET /v1/%zz HTTP/1.1\r\n" + auth + "Connection: close\r\n\r\n",
       400},
  };
  for (const auto& c : cases) {
    auto t0 = Clock::now();
    std::string reply = exchange(worker.port(), c.bytes, c.half_close);
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    EXPECT_EQ(status_of(reply), c.expected) << c.name << ": " << reply.substr(0, 200);
    EXPECT_EQ(reply.find("<timeout>"), std::string::npos) << c.name << ": the node hung";
    EXPECT_LT(secs, 4.0) << c.name;
    if (c.expected) {
      EXPECT_NE(reply.find("\"error\""), std::string::npos) << c.name;
    }
  }
  cei::remote::NodeClient node(worker.url(), worker.token());
  EXPECT_TRUE(node.health());
}

// Finding 9: heads whose body length a proxy and the node could read differently (RFC 9112 6.1,
// 6.3) ran what followed as a second request. Each now gets one 400, and the connection closes.
TEST(RemoteMalformedHttp, AmbiguousBodyLengthsGet400AndTheConnectionCloses) {
  WorkerProcess worker;
  const std::string auth = "Authorization: Bearer " + worker.token() + "\r\n";
  const std::string smuggled = "GET /v1/health HTTP/1.1\r\n" + auth + "\r\n";
  const std::pair<const char*, std::string> cases[] = {
      {"chunked, identity",
       "Transfer-Encoding: chunked, identity\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"},
      {"xchunked", "Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"},
      {"chunked beside a Content-Length",
       "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"},
      {"a doubled identical Content-Length",
       "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"},
  };
  for (const auto& [name, rest] : cases) {
    std::string reply =
        exchange(worker.port(), "POST /v1/forecast HTTP/1.1\r\n" + auth + rest + smuggled);
    EXPECT_EQ(status_of(reply), 400) << name << ": " << reply.substr(0, 200);
    EXPECT_EQ(count(reply, "HTTP/1.1 "), 1u) << name << ": " << reply;
    EXPECT_NE(reply.find("Connection: close"), std::string::npos) << name << ": " << reply;
  }
}

TEST(RemoteMalformedHttp, KeptAliveConnectionCarriesPipelinedAndChunkedRequests) {
  WorkerProcess worker;
  const std::string auth = "Authorization: Bearer " + worker.token() + "\r\n";
  // A chunked upload of int 7 (rank 0, then 4 bytes), then its download, on one connection; a
  // request after a too-short Content-Length body reads the rest as a new (bad) request.
  std::string seven(12, '\0');
  seven[8] = 7;
  std::string pipelined = "PUT /v1/data/s?type=int HTTP/1.1\r\n" + auth +
                          "Transfer-Encoding: chunked\r\n\r\n5\r\n" + seven.substr(0, 5) +
                          "\r\n7\r\n" + seven.substr(5) + "\r\n0\r\n\r\n" +
                          "GET /v1/data/s HTTP/1.1\r\n" + auth + "\r\n" +
                          "GET /v1/health HTTP/1.1\r\n" + auth + "Connection: close\r\n\r\n";
  std::string reply = exchange(worker.port(), pipelined);
  EXPECT_EQ(status_of(reply), 201) << reply;
  EXPECT_NE(reply.find(seven), std::string::npos) << "the download carries the uploaded bytes";
  EXPECT_EQ(count(reply, "HTTP/1.1 200 OK"), 2u) << reply;
  std::string short_body = "POST /v1/forecast HTTP/1.1\r\n" + auth +
                           "Content-Length: 2\r\n\r\n{}trailing garbage\r\n\r\n";
  reply = exchange(worker.port(), short_body);
  EXPECT_EQ(count(reply, "HTTP/1.1 400"), 2u) << reply;
}

TEST(RemoteMalformedHttp, LongPollsBlockNoOtherRequest) {
  WorkerProcess worker({"--threads", "1"});
  cei::remote::NodeClient node(worker.url(), worker.token());
  std::string b;
  int ms = 700;
  cei::rt::type_ops<int>().serialize(&ms, b);
  node.put("ms", cei::rt::type_ops<int>().name, b);
  auto t0 = Clock::now();
  std::string task = node.submit({"TestCEI", "nap", {{cei::rt::Dir::In, "ms", ""}}, "r"});
  // More long polls than the node has threads (and than cpprest's listener allowed).
  std::vector<std::future<std::string>> polls;
  for (int i = 0; i < 40; ++i) {
    polls.push_back(std::async(std::launch::async, [&] {
      cei::remote::NodeClient c(worker.url(), worker.token());
      return c.status(task, 30000).state;
    }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto h0 = Clock::now();
  EXPECT_TRUE(node.health());
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - h0).count(), 0.3);
  for (auto& p : polls) EXPECT_EQ(p.get(), "done");
  double waited = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_GE(waited, 0.69);
  EXPECT_LT(waited, 10.0) << "long polls woke when the task ended, not at their deadline";
}

}  // namespace
}  // namespace remote_test
