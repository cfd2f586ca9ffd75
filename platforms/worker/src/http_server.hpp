// The worker node's HTTP/1.1 transport (Boost.Beast over asio, asio::ssl for https). Beast parses
// request heads; bodies with a Content-Length are read into the memory the handler names in large
// reads (a destination of 4 MiB or more through a buffer that stays in the cache,
// platforms/remote/stream_copy.hpp), and responses go out as one gathered write of the head and
// the body's buffers where they already lie. One strand per connection, a small thread pool for
// all of them.
//
//   struct Api : cei::worker::HttpHandler { ... };
//   Api api;
//   cei::worker::HttpServer server(api, {.host = "127.0.0.1", .port = 8080});
//   ...
//   server.stop();  // no more requests; connections close when `server` is destroyed
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/buffer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace cei::worker {

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // Content-Length is added
  std::string body;
  // Sent after `body` from where they lie (no copy); `keep` owns that memory until then.
  std::vector<boost::asio::const_buffer> more;
  std::shared_ptr<const void> keep;
};

// A request whose head has arrived.
class HttpHead {
 public:
  virtual ~HttpHead() = default;
  virtual std::string_view method() const = 0;
  virtual std::string_view target() const = 0;  // as sent: path and query, not decoded
  virtual std::string_view header(std::string_view name) const = 0;  // "" when absent
  virtual std::optional<std::uint64_t> content_length() const = 0;   // none: chunked
};

class HttpConnection;

// Answers one request, once, from any thread.
class HttpReply {
 public:
  HttpReply(std::shared_ptr<HttpConnection> connection, std::shared_ptr<void> life)
      : connection_(std::move(connection)), life_(std::move(life)) {}
  void send(HttpResponse response) const;
  // Runs `f` on the connection's strand, unless the server has stopped.
  void post(std::function<void()> f) const;
  boost::asio::any_io_executor executor() const;  // the connection's strand

 private:
  std::shared_ptr<HttpConnection> connection_;
  std::shared_ptr<void> life_;
};

// A request the handler accepted: where its body goes and what happens once it is in.
class HttpExchange {
 public:
  virtual ~HttpExchange() = default;
  virtual std::size_t body_limit() const = 0;  // larger bodies get 413 unread
  // The body's size, once known (its Content-Length, or a chunked body read in full). Throws
  // remote::ProtocolError to refuse the body unread (e.g. no room for it).
  virtual void start(std::size_t body_bytes) { body_total_ = body_bytes; }
  // The memory the next body bytes fill, in order, until they add up to the body's size.
  // Throws remote::ProtocolError to refuse the body (e.g. malformed framing).
  virtual std::span<char> space() {
    // The string grows as bytes arrive: an announced length alone commits no memory.
    std::size_t at = body_.size(), step = std::min<std::size_t>(body_total_ - at, 1 << 20);
    body_.resize(at + step);
    return {body_.data() + at, step};
  }
  // The body is in (on the connection's strand): answer through `reply`, now or later.
  virtual void finish(HttpReply reply) = 0;
  // The connection closes before the body is in (on its strand): let go of what was held for
  // it that others may use. The memory of space() stays until the exchange is destroyed.
  virtual void abandon() {}

 protected:
  std::string body_;  // the default destination: one string of the body's size
  std::size_t body_total_ = 0;
};

class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  // On the connection's strand, right after the head: an answer now (the body is skipped) or
  // the exchange that takes the body.
  virtual std::variant<HttpResponse, std::unique_ptr<HttpExchange>> admit(const HttpHead& head) = 0;
  // The answer to what the transport refuses itself: malformed HTTP (400), bodies over the
  // exchange's limit (413), a ProtocolError thrown by an exchange.
  virtual HttpResponse error(int status, const std::string& message) = 0;
  // Whether the request's sender is known (its token): from then on its connection is never
  // evicted for a newcomer, nor counted against its address's limit of connections, and it may
  // stay idle between requests (HttpServerOptions).
  virtual bool trusted(const HttpHead& head) const = 0;
};

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string tls_cert, tls_key, tls_dh;  // PEM files; cert and key set: https
  unsigned threads = 0;                   // 0: one per core, 2 to 8
  // A body (request or response) moving fewer bytes than min_rate_bytes_s * rate_window_s in
  // any window of rate_window_s has its connection closed (at least one byte per window).
  std::size_t min_rate_bytes_s = 16 << 10;
  int rate_window_s = 10;
  // Connections open at once. A newcomer past the bound takes the place of the oldest connection
  // that has not sent a trusted request (HttpHandler::trusted), or is closed at once if every
  // connection has.
  std::size_t max_connections = 4096;
  // Connections from one address that have not sent a trusted request: a newcomer past it takes
  // the place of that address's oldest one.
  std::size_t max_peer_connections = 64;
  // A request head must arrive whole within this many seconds: of the connection's start, or of
  // its first byte on a trusted connection (which may be idle 120 s between requests).
  int head_timeout_s = 10;
};

class HttpServer {
 public:
  // Listens at once; throws when the address is taken or the TLS files do not load.
  HttpServer(HttpHandler& handler, const HttpServerOptions& options);
  ~HttpServer();  // stop(), then every connection closes
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  // Stops the threads (a handler running finishes first) and closes the listener; replies sent
  // later are dropped. Connections, and what pending replies hold, go with the server: drop
  // outside references to HttpReply objects before destroying it. Idempotent.
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace cei::worker
