// Transfer throughput to a loopback worker node against raw loopback TCP in the same run, and the
// round trip of a tiny task. Usage: cei-bench-remote [MiB=256] [tiny-task runs=2000]
#include "node_client.hpp"

#include <cei/rt/type_ops.hpp>
#include <cei/worker/node.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Vec = cei::Vector<float>;
using cei::rt::Dir;

void invoke_inc(void* const* a) {
  *static_cast<int*>(a[1]) = *static_cast<int*>(a[0]) + 1;
}
const cei::rt::ParamInfo p_inc[] = {{"x", Dir::In, &cei::rt::type_ops<int>()}};
const cei::rt::NativeVersion v_inc[] = {{"bench", &invoke_inc}};
const cei::rt::CeInfo ce_inc{"inc", "BenchCEI", false,  p_inc, 1, &cei::rt::type_ops<int>(),
                             v_inc, 1,          nullptr};
void invoke_sum(void* const* a) {
  const auto& v = *static_cast<const Vec*>(a[0]);
  float s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v.data()[i];
  *static_cast<float*>(a[1]) = s;
}
const cei::rt::ParamInfo p_sum[] = {{"v", Dir::In, &cei::rt::type_ops<Vec>()}};
const cei::rt::NativeVersion v_sum[] = {{"bench", &invoke_sum}};
const cei::rt::CeInfo ce_sum{"sum", "BenchCEI", false,  p_sum, 1, &cei::rt::type_ops<float>(),
                             v_sum, 1,          nullptr};

int listen_any(int& port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(s, 1) != 0)
    throw std::runtime_error("bind");
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return s;
}

int connect_loopback(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    throw std::runtime_error("connect");
  return s;
}

// Where raw_tcp's bytes come from and go to.
enum class Memory {
  Hot,    // a reused 1 MiB buffer on each side (the baseline)
  Fresh,  // into new memory of the full size, as a receiver that keeps the bytes must
  Warm,   // from `src` into `dst`, both of the full size and already touched, read straight into
          // `dst` (the node and the client read large bodies through a cached buffer instead)
};

// Seconds to push `bytes` through one loopback TCP connection in 1 MiB writes and reads.
double raw_tcp(std::size_t bytes, Memory memory, const char* src = nullptr, char* dst = nullptr) {
  int port = 0;
  int ls = listen_any(port);
  std::thread reader([&] {
    int c = accept(ls, nullptr, nullptr);
    std::vector<char> buf(1 << 20);
    std::unique_ptr<char[]> fresh(memory == Memory::Fresh ? new char[bytes]
                                                          : nullptr);  // untouched
    char* all = memory == Memory::Fresh ? fresh.get() : dst;
    std::size_t got = 0;
    while (got < bytes) {
      std::size_t want = std::min<std::size_t>(bytes - got, 1 << 20);
      ssize_t n = read(c, memory == Memory::Hot ? buf.data() : all + got, want);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    char ack = 1;
    if (write(c, &ack, 1) != 1) std::perror("ack");
    close(c);
  });
  int s = connect_loopback(port);
  std::vector<char> buf(1 << 20, 'x');
  auto t0 = Clock::now();
  std::size_t sent = 0;
  while (sent < bytes) {
    std::size_t want = std::min(buf.size(), bytes - sent);
    ssize_t n = write(s, memory == Memory::Warm ? src + sent : buf.data(), want);
    if (n <= 0) throw std::runtime_error("write");
    sent += static_cast<std::size_t>(n);
  }
  char ack;
  if (read(s, &ack, 1) != 1) throw std::runtime_error("ack");
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  close(s);
  reader.join();
  close(ls);
  return secs;
}

void write_all(int s, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t k = write(s, p, std::min<std::size_t>(n, 1 << 20));
    if (k <= 0) throw std::runtime_error("write");
    p += k;
    n -= static_cast<std::size_t>(k);
  }
}

// One HTTP exchange on a plain socket (the timing split without cpprest's client): the request
// head and body in 1 MiB writes, the answer's body read into `into` (sized from Content-Length).
int raw_http(int port, const std::string& head, const std::string& body, std::string& into) {
  int s = connect_loopback(port);
  write_all(s, head.data(), head.size());
  write_all(s, body.data(), body.size());
  std::string got;
  std::size_t end = std::string::npos;
  char buf[4096];
  while (end == std::string::npos) {
    ssize_t k = read(s, buf, sizeof buf);
    if (k <= 0) throw std::runtime_error("read head");
    got.append(buf, static_cast<std::size_t>(k));
    end = got.find("\r\n\r\n");
  }
  int status = std::atoi(got.c_str() + 9);
  auto cl = got.find("Content-Length: ");
  std::size_t length =
      cl == std::string::npos ? 0 : std::strtoull(got.c_str() + cl + 16, nullptr, 10);
  into.resize(length);
  std::size_t have = std::min(length, got.size() - end - 4);
  std::copy_n(got.data() + end + 4, have, into.data());
  while (have < length) {
    ssize_t k = read(s, into.data() + have, std::min<std::size_t>(length - have, 1 << 20));
    if (k <= 0) throw std::runtime_error("read body");
    have += static_cast<std::size_t>(k);
  }
  close(s);
  return status;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  // Positive whole numbers or nothing: a typo must not become a benchmark of 0 bytes.
  auto count = [&](int i, long fallback) {
    if (argc <= i) return fallback;
    char* end = nullptr;
    long v = std::strtol(argv[i], &end, 10);
    if (*end != '\0' || v <= 0) {
      std::fprintf(stderr,
                   "usage: cei-bench-remote [MiB=256] [tiny-task runs=2000]\n"
                   "  '%s' is not a positive whole number\n",
                   argv[i]);
      std::exit(2);
    }
    return v;
  };
  auto mib = static_cast<std::size_t>(count(1, 256));
  int runs = static_cast<int>(count(2, 2000));
  int port = 0;
  close(listen_any(port));
  cei::worker::NodeOptions o;
  o.port = port;
  o.token = "bench-token";
  o.threads = 1;
  o.max_body_bytes = (mib + 16) << 20;
  const cei::rt::CeInfo* ces[] = {&ce_inc, &ce_sum};
  cei::worker::Node node(o, ces);
  node.open();
  cei::remote::NodeClient client(node.url(), o.token);

  std::size_t n = (mib << 20) / sizeof(float);
  Vec v(n);
  for (std::size_t i = 0; i < n; ++i) v.data()[i] = static_cast<float>(i % 1000);
  std::string wire;
  cei::rt::type_ops<Vec>().serialize(&v, wire);
  const char* type = cei::rt::type_ops<Vec>().name;
  std::string web_type;  // the type name, URL-encoded
  for (char c : std::string(type)) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      web_type += c;
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      web_type += hex;
    }
  }

  // The first upload lands in memory the node never touched (a page fault per 4 KiB): timed
  // before anything else, and reported on its own.
  const auto& ops = cei::rt::type_ops<Vec>();
  auto t_cold = Clock::now();
  client.put("big", ops, &v);
  double cold_up = std::chrono::duration<double>(Clock::now() - t_cold).count();

  std::vector<double> tcp, tcp_fresh, tcp_warm, up, down, raw_up, raw_down;
  std::string auth = "Authorization: Bearer " + o.token + "\r\n";
  // Two untimed exchanges first, for the reason given below for the remote platform's path.
  for (int r = 0; r < 5; ++r) {
    std::string answer;
    if (r == 2) {
      raw_up.clear();
      raw_down.clear();
    }
    auto t0 = Clock::now();
    int st = raw_http(port,
                      "PUT /v1/data/raw?type=" + web_type + " HTTP/1.1\r\nHost: x\r\n" + auth +
                          "Content-Length: " + std::to_string(wire.size()) + "\r\n\r\n",
                      wire, answer);
    raw_up.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    if (st != 201 && st != 200) throw std::runtime_error("raw upload: " + answer);
    t0 = Clock::now();
    st = raw_http(port, "GET /v1/data/raw HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n", "", answer);
    raw_down.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    if (st != 200 || answer != wire) throw std::runtime_error("raw download differs");
  }
  client.erase("raw");
  // The path the remote platform takes: a value sent from its own memory and received into a
  // host copy's. After the cold upload above, one more untimed exchange, as on a node serving a
  // run: a value replaced under its name is held twice while the new one arrives, so the steady
  // state has two blocks of the size on each side (connections pooled, freed blocks cached).
  // Then raw TCP and the node take turns. The remote platform knows the shape of what it uploaded
  // (and of a CE's result_size): its downloads go straight into the value then.
  Vec back;
  const cei::remote::Expected shape{{static_cast<std::int64_t>(v.size())}};
  client.get("big", ops, &back, shape);
  client.put("big", ops, &v);
  client.get("big", ops, &back, shape);
  constexpr int kRounds = 9;
  std::string warm_dst(wire.size(), '\0');
  for (int r = 0; r < kRounds; ++r) {
    tcp.push_back(raw_tcp(wire.size(), Memory::Hot));
    tcp_fresh.push_back(raw_tcp(wire.size(), Memory::Fresh));
    tcp_warm.push_back(raw_tcp(wire.size(), Memory::Warm, wire.data(), warm_dst.data()));
    auto t0 = Clock::now();
    client.put("big", ops, &v);
    up.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    t0 = Clock::now();
    client.get("big", ops, &back, shape);
    down.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    if (!(back == v)) throw std::runtime_error("download differs from upload");
  }
  double gb = static_cast<double>(wire.size()) / 1e9;
  double tcp_gbs = gb / median(tcp), up_gbs = gb / median(up), down_gbs = gb / median(down);
  std::printf("transfer of %zu MiB over loopback (median of %d)\n", mib, kRounds);
  std::printf("  raw TCP          %8.2f GB/s\n", tcp_gbs);
  std::printf("  node upload      %8.2f GB/s  (%5.1f%% of raw TCP)\n", up_gbs,
              100 * up_gbs / tcp_gbs);
  std::printf("  node download    %8.2f GB/s  (%5.1f%% of raw TCP)\n", down_gbs,
              100 * down_gbs / tcp_gbs);
  std::printf("  first upload, into memory the node never touched\n");
  std::printf("                   %8.2f GB/s  (%5.1f%% of raw TCP)\n", gb / cold_up,
              100 * gb / cold_up / tcp_gbs);
  // The same transfers from a plain-socket HTTP client: what the node costs without the client.
  double raw_up_gbs = gb / median(raw_up), raw_down_gbs = gb / median(raw_down);
  double fresh_gbs = gb / median(tcp_fresh);
  std::printf("  split: raw TCP into fresh memory (first-touch page faults)\n");
  std::printf("                   %8.2f GB/s  (%5.1f%% of raw TCP)\n", fresh_gbs,
              100 * fresh_gbs / tcp_gbs);
  double warm_gbs = gb / median(tcp_warm);
  std::printf("  split: raw TCP between warm buffers of the full size, read straight into them\n");
  std::printf("                   %8.2f GB/s  (%5.1f%% of raw TCP)\n", warm_gbs,
              100 * warm_gbs / tcp_gbs);
  std::printf("  split: node alone, plain-socket client\n");
  std::printf("    upload         %8.2f GB/s  (%5.1f%% of raw TCP)\n", raw_up_gbs,
              100 * raw_up_gbs / tcp_gbs);
  std::printf("    download       %8.2f GB/s  (%5.1f%% of raw TCP)\n", raw_down_gbs,
              100 * raw_down_gbs / tcp_gbs);

  int x = 41;
  std::string xs;
  cei::rt::type_ops<int>().serialize(&x, xs);
  client.put("x", cei::rt::type_ops<int>().name, xs);
  std::vector<double> rtt;
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    std::string task = client.submit({"BenchCEI", "inc", {{Dir::In, "x", ""}}, "y"});
    auto st = client.status(task, 10000);
    rtt.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    if (st.state != "done") throw std::runtime_error("tiny task: " + st.state + " " + st.error);
  }
  std::sort(rtt.begin(), rtt.end());
  std::printf("tiny task round trip (submit + long-poll status, %d runs)\n", runs);
  std::printf("  median %.3f ms   p90 %.3f ms   min %.3f ms\n", rtt[rtt.size() / 2] * 1e3,
              rtt[rtt.size() * 9 / 10] * 1e3, rtt.front() * 1e3);
  node.close();
  return 0;
}
