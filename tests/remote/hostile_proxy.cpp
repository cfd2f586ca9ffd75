#include "hostile_proxy.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace remote_test {
namespace {

// One HTTP message of a connection: its head (through the blank line) and its body, whose length
// is the head's Content-Length (the node and the client send no other kind).
struct Message {
  std::string head, body;
};

std::optional<std::size_t> content_length(const std::string& head) {
  for (std::size_t at = head.find("\r\n"); at != std::string::npos;
       at = head.find("\r\n", at + 2)) {
    static constexpr char kName[] = "content-length:";
    if (strncasecmp(head.c_str() + at + 2, kName, sizeof kName - 1) == 0)
      return std::stoull(head.substr(at + 2 + sizeof kName - 1));
  }
  return std::nullopt;
}

// Reads the next message of fd, after what `buffer` holds already; nullopt when it closes.
std::optional<Message> read_message(int fd, std::string& buffer) {
  auto fill = [&] {
    char chunk[65536];
    ssize_t n = recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  };
  std::size_t end;
  while ((end = buffer.find("\r\n\r\n")) == std::string::npos)
    if (!fill()) return std::nullopt;
  Message m;
  m.head = buffer.substr(0, end + 4);
  buffer.erase(0, end + 4);
  const std::size_t length = content_length(m.head).value_or(0);
  while (buffer.size() < length)
    if (!fill()) return std::nullopt;
  m.body = buffer.substr(0, length);
  buffer.erase(0, length);
  return m;
}

bool send_all(int fd, const std::string& bytes) {
  return send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

int connect_to(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(s);
    return -1;
  }
  return s;
}

// The head with another Content-Length.
std::string with_length(const std::string& head, std::size_t length) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t eol; (eol = head.find("\r\n", at)) != std::string::npos; at = eol + 2) {
    std::string line = head.substr(at, eol - at);
    if (strncasecmp(line.c_str(), "content-length:", 15) == 0)
      line = "Content-Length: " + std::to_string(length);
    if (!line.empty()) out += line + "\r\n";
  }
  return out + "\r\n";
}

}  // namespace

HostileProxy::HostileProxy(int node_port, Mode mode) : node_port_(node_port), mode_(mode) {
  listener_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      listen(listener_, 64) != 0 ||
      getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    throw std::runtime_error("the proxy cannot listen");
  port_ = ntohs(a.sin_port);
  // Under mu_: the accept loop, started inside this emplace_back, adds the threads it starts.
  std::lock_guard lock(mu_);
  threads_.emplace_back([this] { accept_loop(); });
}

HostileProxy::~HostileProxy() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    // Wakes every blocked accept, recv and send: the threads then end.
    shutdown(listener_, SHUT_RDWR);
    for (int s : sockets_) shutdown(s, SHUT_RDWR);
  }
  cv_.notify_all();
  for (std::size_t i = 0;; ++i) {
    std::thread t;
    {
      std::lock_guard lock(mu_);  // the accept loop (threads_[0]) may add some until joined
      if (i == threads_.size()) break;
      t = std::move(threads_[i]);
    }
    t.join();
  }
  close(listener_);
  for (int s : sockets_) close(s);
}

bool HostileProxy::stopping() {
  std::lock_guard lock(mu_);
  return stop_;
}

void HostileProxy::hold() {
  frozen_ = true;
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return stop_.load(); });
}

void HostileProxy::accept_loop() {
  for (;;) {
    int client = accept(listener_, nullptr, nullptr);
    std::lock_guard lock(mu_);
    if (client < 0 || stop_) {
      if (client >= 0) close(client);
      return;
    }
    sockets_.push_back(client);
    threads_.emplace_back([this, client] { serve(client); });
  }
}

void HostileProxy::serve(int client) {
  std::string buffer;
  while (!stopping()) {
    auto request = read_message(client, buffer);
    if (!request) return;
    if (mode_ == Mode::Freeze && (frozen_ || request->head.rfind("PUT /v1/data", 0) == 0))
      return hold();
    int upstream = connect_to(node_port_);
    if (upstream < 0) return;
    {
      std::lock_guard lock(mu_);
      sockets_.push_back(upstream);
    }
    const bool go_on = send_all(upstream, request->head + request->body) &&
                       answer(client, upstream, request->head);
    shutdown(upstream, SHUT_RDWR);
    if (!go_on) return;
  }
}

bool HostileProxy::answer(int client, int upstream, const std::string& request) {
  std::string buffer;
  auto reply = read_message(upstream, buffer);
  if (!reply) return false;
  const bool ok = reply->head.rfind("HTTP/1.1 200", 0) == 0;
  const bool data = ok && request.rfind("GET /v1/data/", 0) == 0;
  if (mode_ == Mode::HugeInfo && request.rfind("GET /v1/info", 0) == 0) {
    send_all(client, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                         std::to_string(1000ull << 20) + "\r\n\r\n{");
    hold();
    return false;
  }
  const int nth = data ? ++data_gets_ : 0;
  if (nth != (mode_ == Mode::HugeUnknown ? 2 : 1) || mode_ == Mode::Pass || mode_ == Mode::Freeze)
    return send_all(client, reply->head + reply->body);
  switch (mode_) {
    case Mode::HugeValue:
    case Mode::HugeUnknown: {
      const std::size_t bytes = mode_ == Mode::HugeValue ? std::size_t{3} << 30 : 1 << 30;
      const std::int64_t framing[2] = {1, static_cast<std::int64_t>(bytes / sizeof(float))};
      send_all(client, with_length(reply->head, 16 + bytes) +
                           std::string(reinterpret_cast<const char*>(framing), sizeof framing));
      hold();
      return false;
    }
    case Mode::ShortVector: {
      std::int64_t extent = 0;
      std::memcpy(&extent, reply->body.data() + 8, 8);
      --extent;
      std::memcpy(reply->body.data() + 8, &extent, 8);
      reply->body.resize(reply->body.size() - sizeof(float));
      return send_all(client, with_length(reply->head, reply->body.size()) + reply->body);
    }
    case Mode::Trickle: {
      const std::string all = reply->head + reply->body;
      for (char c : all) {
        std::unique_lock lock(mu_);
        if (cv_.wait_for(lock, std::chrono::milliseconds(100), [&] { return stop_.load(); }))
          return false;
        lock.unlock();
        if (!send_all(client, std::string(1, c))) return false;
      }
      return true;
    }
    default:
      return send_all(client, reply->head + reply->body);
  }
}

}  // namespace remote_test
