#include "data_channel.hpp"

#include "stream_copy.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

// After Boost: cpprest defines a macro U that Boost uses as a template parameter name.
#include <cpprest/base_uri.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <limits>
#include <optional>

namespace cei::remote {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t kStep = 16 << 20;  // bytes moved per deadline (https)
// Plain http sends in calls of this size: 256 KiB, 1 MiB and 16 MiB were measured slower for a
// 256 MiB upload over loopback.
constexpr std::size_t kPlainWrite = 512 << 10;
constexpr std::size_t kIdle = 8;  // pooled connections at most
constexpr std::uint32_t kHeaderLimit = 64 << 10;

// A body of no known size, or one that failed, read into a string (error messages).
class StringSink final : public BodySink {
 public:
  explicit StringSink(std::string& s) : s_(s) {}
  void start(std::size_t bytes) override { s_.resize(bytes); }
  std::span<char> space() override { return {s_.data(), s_.size()}; }

 private:
  std::string& s_;
};

// Until the buffers are done, in system calls as large as they are: asio's transfer_all moves at
// most 64 KiB per call, a round trip through the reactor each.
std::size_t whole(const beast::error_code& ec, std::size_t) {
  return ec ? 0 : kStep;
}

}  // namespace

struct DataChannel::Settings {
  std::string host, port, host_header, base_path, authorization;
  bool https = false, validate = true;
  std::chrono::milliseconds timeout{0};
  double min_rate = 1;  // bytes per second
  std::optional<asio::ssl::context> tls;
};

// System calls on a connected socket that do not block (MSG_DONTWAIT), and poll() under the
// timeout when it has no data or no room: as cheap per byte as raw TCP, where asio's reactor
// adds a failing call, an epoll_wait and a pass through its queue to every step. (Blocking calls
// with SO_SNDTIMEO were measured slower for uploads.) A SyncReadStream and SyncWriteStream for
// Beast and asio's free functions.
class PollingSocket {
 public:
  using Deadline = std::chrono::steady_clock::time_point;
  // Each wait lasts at most `timeout`, and none goes past `end` (the exchange's deadline).
  PollingSocket(int fd, std::chrono::milliseconds timeout, Deadline end)
      : fd_(fd), timeout_(timeout), end_(end) {}

  template <typename Buffers>
  std::size_t read_some(const Buffers& b, beast::error_code& ec) {
    return call(
        b, ec, [this](msghdr& m) { return ::recvmsg(fd_, &m, MSG_DONTWAIT); }, POLLIN);
  }
  template <typename Buffers>
  std::size_t write_some(const Buffers& b, beast::error_code& ec) {
    return call(
        b, ec, [this](msghdr& m) { return ::sendmsg(fd_, &m, MSG_DONTWAIT | MSG_NOSIGNAL); },
        POLLOUT);
  }
  template <typename Buffers>
  std::size_t read_some(const Buffers& b) {
    beast::error_code ec;
    std::size_t n = read_some(b, ec);
    if (ec) throw beast::system_error(ec);
    return n;
  }
  template <typename Buffers>
  std::size_t write_some(const Buffers& b) {
    beast::error_code ec;
    std::size_t n = write_some(b, ec);
    if (ec) throw beast::system_error(ec);
    return n;
  }

 private:
  template <typename Buffers, typename Call>
  std::size_t call(const Buffers& b, beast::error_code& ec, Call&& c, short events) {
    iovec iov[64];
    std::size_t count = 0, bytes = 0;
    for (auto i = asio::buffer_sequence_begin(b); i != asio::buffer_sequence_end(b) && count < 64;
         ++i) {
      asio::const_buffer one(*i);
      if (one.size() == 0) continue;
      iov[count].iov_base = const_cast<void*>(one.data());
      iov[count++].iov_len = one.size();
      bytes += one.size();
    }
    ec = {};
    if (bytes == 0) return 0;
    msghdr m{};
    m.msg_iov = iov;
    m.msg_iovlen = count;
    for (;;) {
      ssize_t n = c(m);
      if (n > 0) return static_cast<std::size_t>(n);
      if (n == 0 && events == POLLIN) {
        ec = asio::error::eof;
        return 0;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        ec = beast::error_code(errno, beast::system_category());
        return 0;
      }
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(
          end_ - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        ec = beast::error::timeout;
        return 0;
      }
      pollfd p{fd_, events, 0};
      int ready = ::poll(&p, 1, static_cast<int>(std::min(timeout_, left).count()));
      if (ready == 0) {
        ec = beast::error::timeout;
        return 0;
      }
      if (ready < 0 && errno != EINTR) {
        ec = beast::error_code(errno, beast::system_category());
        return 0;
      }
    }
  }

  int fd_;
  std::chrono::milliseconds timeout_;
  Deadline end_;
};

// One keep-alive connection. Plain http uses PollingSocket's system calls; https runs asio
// operations on the connection's own io_context in the calling thread, each step under a deadline
// of its own (not beast::tcp_stream's timeouts: they arm and cancel a timer for every read or
// write of the socket, which costs more than the read at loopback speeds).
struct DataChannel::Connection {
  explicit Connection(std::chrono::milliseconds t) : timeout(t) {}

  std::chrono::milliseconds timeout;
  // The exchange's deadline: no step waits past it (exchange() sets it).
  PollingSocket::Deadline end = PollingSocket::Deadline::max();
  asio::io_context io;
  asio::steady_timer deadline{io};
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;
  std::unique_ptr<char[]> bounce;  // for large bodies, made on the first

  beast::tcp_stream& lowest() { return secure ? beast::get_lowest_layer(*secure) : *plain; }

  // Runs `sync(stream, ec)` on plain http, or starts `async(stream, handler)` on https and runs it
  // to completion here; a step past the timeout fails with beast::error::timeout.
  template <typename Sync, typename Async>
  std::size_t step(Sync&& sync, Async&& async) {
    if (!secure) {
      PollingSocket s(plain->socket().native_handle(), timeout, end);
      beast::error_code ec;
      std::size_t n = sync(s, ec);
      if (ec) throw beast::system_error(ec);
      return n;
    }
    return run([&](auto done) { async(*secure, done); });
  }

  // Starts op(handler) and runs it to completion here; past the timeout the socket is closed.
  template <typename Op>
  std::size_t run(Op&& op) {
    beast::error_code ec;
    std::size_t n = 0;
    bool late = false;
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= decltype(left)::zero()) throw beast::system_error(beast::error::timeout);
    deadline.expires_after(std::min<std::chrono::steady_clock::duration>(timeout, left));
    deadline.async_wait([&](beast::error_code e) {
      if (e) return;
      late = true;
      lowest().close();
    });
    op([&](beast::error_code e, std::size_t k) {
      ec = e;
      n = k;
      deadline.cancel();
    });
    io.restart();
    io.run();
    if (late) throw beast::system_error(beast::error::timeout);
    if (ec) throw beast::system_error(ec);
    return n;
  }
};

DataChannel::DataChannel(const std::string& url, std::string authorization,
                         const ClientOptions& options)
    : settings_(std::make_unique<Settings>()) {
  web::uri u(utility::conversions::to_string_t(url));
  auto& s = *settings_;
  s.https = u.scheme() == "https";
  s.host = u.host();
  s.port = std::to_string(u.port() > 0 ? u.port() : (s.https ? 443 : 80));
  s.host_header = s.host + ":" + s.port;
  s.base_path = u.path() == "/" ? "" : u.path();
  s.authorization = std::move(authorization);
  s.timeout = options.timeout;
  s.min_rate = static_cast<double>(std::max<std::size_t>(1, options.min_rate_bytes_s));
  s.validate = options.validate_certificates;
  if (s.https) {
    s.tls.emplace(asio::ssl::context::tls_client);
    // As cpprest's client: the system's trust store, plus the CA file when one is given.
    s.tls->set_default_verify_paths();
    if (!options.ca_file.empty()) s.tls->load_verify_file(options.ca_file);
    s.tls->set_verify_mode(s.validate ? asio::ssl::verify_peer : asio::ssl::verify_none);
  }
}

DataChannel::~DataChannel() = default;

std::unique_ptr<DataChannel::Connection> DataChannel::connect(Clock::time_point end) {
  auto& s = *settings_;
  auto c = std::make_unique<Connection>(s.timeout);
  c->end = end;
  tcp::resolver resolver(c->io);
  auto endpoints = resolver.resolve(s.host, s.port);
  if (s.https) {
    c->secure.emplace(c->io, *s.tls);
    if (!SSL_set_tlsext_host_name(c->secure->native_handle(), s.host.c_str()))
      throw beast::system_error(
          beast::error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()));
    if (s.validate) c->secure->set_verify_callback(asio::ssl::host_name_verification(s.host));
  } else {
    c->plain.emplace(c->io);
  }
  c->run([&](auto done) {
    c->lowest().async_connect(endpoints,
                              [done](beast::error_code e, const tcp::endpoint&) { done(e, 0); });
  });
  c->lowest().socket().set_option(tcp::no_delay(true));
  if (s.https) {
    c->run([&](auto done) {
      c->secure->async_handshake(asio::ssl::stream_base::client,
                                 [done](beast::error_code e) { done(e, 0); });
    });
  }
  return c;
}

void DataChannel::release(std::unique_ptr<Connection> c) {
  std::lock_guard lock(mu_);
  if (idle_.size() < kIdle) idle_.push_back(std::move(c));
}

DataChannel::Clock::time_point DataChannel::deadline(Clock::time_point from,
                                                    std::uint64_t bytes) const {
  const auto& s = *settings_;
  // Past a year the sum would overflow the clock: no transfer lasts that long anyway.
  const double seconds = std::min(static_cast<double>(bytes) / s.min_rate, 3.2e7);
  return from + s.timeout +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

DataChannel::Reply DataChannel::exchange(std::string_view method, const std::string& target,
                                         std::span<const std::string_view> body, BodySink* sink,
                                         std::string_view content_type) {
  auto& s = *settings_;
  std::size_t length = 0;
  for (auto part : body) length += part.size();
  const auto begin = Clock::now();
  std::string head = std::string(method) + " " + s.base_path + target +
                     " HTTP/1.1\r\nHost: " + s.host_header +
                     "\r\nAuthorization: " + s.authorization + "\r\n";
  if (length > 0 || method == "PUT" || method == "POST") {
    head += "Content-Type: " + std::string(content_type) +
            "\r\nContent-Length: " + std::to_string(length) + "\r\n";
  }
  head += "\r\n";
  std::vector<asio::const_buffer> out{asio::buffer(head)};
  for (auto part : body) {
    if (!part.empty()) out.push_back(asio::buffer(part.data(), part.size()));
  }

  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<Connection> c;
    bool pooled = false;
    if (attempt == 0) {
      std::lock_guard lock(mu_);
      if (!idle_.empty()) {
        c = std::move(idle_.back());
        idle_.pop_back();
        pooled = true;
      }
    }
    if (c) c->end = deadline(begin, length);
    if (!c) {
      try {
        c = connect(deadline(begin, length));
      } catch (const std::exception& e) {
        throw NodeError(0, std::string("node unreachable: ") + e.what());
      }
    }
    bool answered = false;  // part of the answer arrived: sending again is no longer safe
    try {
      // The request in steps of kStep bytes, each with its own deadline.
      std::optional<beast::system_error> unsent;
      try {
        beast::buffers_suffix<std::vector<asio::const_buffer>> rest(out);
        while (beast::buffer_bytes(rest) > 0) {
          auto part = beast::buffers_prefix(c->secure ? kStep : kPlainWrite, rest);
          rest.consume(c->step(
              [&](auto& stream, auto& ec) { return asio::write(stream, part, whole, ec); },
              [&](auto& stream, auto done) { asio::async_write(stream, part, whole, done); }));
        }
      } catch (const beast::system_error& e) {
        // A node that refuses a body (401, 413) answers before reading it and may then close:
        // its answer says more than the failed write.
        unsent = e;
      }

      bhttp::response_parser<bhttp::empty_body> parser;
      parser.header_limit(kHeaderLimit);
      // The body bypasses the parser: its size is the sink's to judge. (Not boost::none: Beast
      // 1.74 compares a Content-Length with an empty limit as if it were over it.)
      parser.body_limit(std::numeric_limits<std::uint64_t>::max());
      try {
        c->step([&](auto& stream,
                    auto& ec) { return bhttp::read_header(stream, c->buffer, parser, ec); },
                [&](auto& stream, auto done) {
                  bhttp::async_read_header(stream, c->buffer, parser, done);
                });
      } catch (const beast::system_error&) {
        if (unsent) throw *unsent;
        throw;
      }
      answered = true;
      Reply reply;
      const auto& res = parser.get();
      reply.status = static_cast<int>(res.result_int());
      if (auto h = res.find(bhttp::field::retry_after); h != res.end())
        reply.retry_after = std::string(h->value());
      bool keep_alive = res.keep_alive() && !unsent;
      StringSink own(reply.body);
      BodySink& into = sink && reply.status / 100 == 2 ? *sink : own;
      if (auto announced = parser.content_length(); announced && !parser.chunked()) {
        if (&into == &own && *announced > kMaxTextBody) {
          throw NodeError::malformed("an answer of " + std::to_string(*announced) +
                                     " bytes, more than the " + std::to_string(kMaxTextBody) +
                                     " a client reads");
        }
        c->end = deadline(begin, length + *announced);  // the node may take its time to send it
        // Straight from the socket into the sink's memory, after what the head's read took.
        into.start(static_cast<std::size_t>(*announced));
        std::size_t left = static_cast<std::size_t>(*announced);
        while (left > 0) {
          auto space = into.space();
          if (space.empty() || space.size() > left)
            throw std::logic_error("a body sink gave no room or more than the body");
          left -= space.size();
          std::size_t have =
              asio::buffer_copy(asio::buffer(space.data(), space.size()), c->buffer.data());
          c->buffer.consume(have);
          // A large destination through the connection's bounce buffer (stream_copy.hpp).
          bool bounce = space.size() >= kBounceFrom;
          if (bounce && !c->bounce) c->bounce = std::make_unique<char[]>(kBounceBytes);
          for (std::size_t at = have; at < space.size();) {
            std::size_t step = std::min(bounce ? kBounceBytes : kStep, space.size() - at);
            auto into = asio::buffer(bounce ? c->bounce.get() : space.data() + at, step);
            c->step([&](auto& stream, auto& ec) { return asio::read(stream, into, whole, ec); },
                    [&](auto& stream, auto done) { asio::async_read(stream, into, whole, done); });
            if (bounce) stream_copy(space.data() + at, c->bounce.get(), step);
            at += step;
          }
        }
      } else if (!parser.is_done()) {
        // Nodes never send chunked answers: whatever comes so is read within the text limit.
        bhttp::response_parser<bhttp::string_body> full(std::move(parser));
        full.body_limit(kMaxTextBody);
        c->step([&](auto& stream, auto& ec) { return bhttp::read(stream, c->buffer, full, ec); },
                [&](auto& stream, auto done) { bhttp::async_read(stream, c->buffer, full, done); });
        keep_alive = keep_alive && full.get().keep_alive();
        const std::string& got = full.get().body();
        into.start(got.size());
        for (std::size_t at = 0; at < got.size();) {
          auto space = into.space();
          if (space.empty() || space.size() > got.size() - at)
            throw std::logic_error("a body sink gave no room or more than the body");
          std::copy_n(got.data() + at, space.size(), space.data());
          at += space.size();
        }
      } else {
        into.start(0);
      }
      if (keep_alive) release(std::move(c));
      return reply;
    } catch (const beast::system_error& e) {
      // A pooled connection that the node closed while it was idle fails before any answer:
      // send once more on a new one. Not after a timeout: the node is silent, not gone, and
      // another wait would only double the time it takes to notice.
      const bool timed_out = e.code() == beast::error::timeout;
      if (pooled && !answered && !timed_out) {
        std::lock_guard lock(mu_);
        idle_.clear();  // as old as the failed one: likely closed as well
        continue;
      }
      throw NodeError(
          0, std::string(answered ? "node connection lost: " : "node unreachable: ") + e.what(), {},
          timed_out);
    }
  }
}

}  // namespace cei::remote
