#include "http_server.hpp"

#include "protocol.hpp"
#include "stream_copy.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace cei::worker {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kIdle = std::chrono::seconds(120);  // a trusted connection between requests
constexpr std::size_t kFirstRead = 4096;           // what waits for a trusted request's first byte
constexpr auto kProgress = std::chrono::seconds(30);  // a handshake, a 100 Continue, skipping
constexpr auto kChunked = std::chrono::seconds(300);  // a whole chunked body
constexpr auto kLinger = std::chrono::seconds(2);     // reading what a refused client still sends
constexpr std::uint32_t kHeaderLimit = 64 << 10;
constexpr std::uint64_t kSkipLimit = 64 << 20;  // refused bodies up to this are read and dropped,
                                                // so that the connection stays usable
// What a refused body is read into on its way out: small, since closing connections of clients
// that never authenticated hold one each for up to kLinger.
constexpr std::size_t kScratch = 4 << 10;
// Plain http sends at most this much per call: larger writes were measured slower over loopback
// (the receiver drains less per wake-up).
constexpr std::size_t kWriteStep = 1 << 20;

}  // namespace

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  virtual ~HttpConnection() = default;
  virtual void respond(HttpResponse response) = 0;  // on the strand
  virtual asio::any_io_executor executor() = 0;
  virtual void evict() = 0;  // from any thread: closes it (a newcomer takes its place)
};

namespace {

// The connections that have not sent a trusted request, oldest first, and how many there are per
// address: what a newcomer evicts when the node or its address is at its bound. Thread-safe.
class Untrusted {
 public:
  struct Slot;
  using List = std::list<std::shared_ptr<Slot>>;
  struct Slot {
    std::weak_ptr<HttpConnection> connection;
    asio::ip::address peer;
    std::optional<List::iterator> at;  // none once trusted, evicted or closed
  };

  std::shared_ptr<Slot> add(std::weak_ptr<HttpConnection> c, const asio::ip::address& peer) {
    auto slot = std::make_shared<Slot>(Slot{std::move(c), peer, std::nullopt});
    std::lock_guard lock(mu_);
    slot->at = list_.insert(list_.end(), slot);
    ++per_peer_[peer];
    return slot;
  }
  void remove(Slot& slot) {
    std::lock_guard lock(mu_);
    drop(slot);
  }
  // The connection that a newcomer from `peer` replaces: that address's oldest when it holds
  // `max_peer` already, else the oldest of all when the node is full; null when none must go
  // (or, the node being full, none may).
  std::shared_ptr<HttpConnection> victim(const asio::ip::address& peer, bool full,
                                         std::size_t max_peer) {
    std::lock_guard lock(mu_);
    auto it = list_.end();
    if (auto n = per_peer_.find(peer); n != per_peer_.end() && n->second >= max_peer)
      it = std::find_if(list_.begin(), list_.end(), [&](const auto& s) { return s->peer == peer; });
    else if (full)
      it = list_.begin();
    if (it == list_.end()) return nullptr;
    auto slot = *it;
    drop(*slot);
    return slot->connection.lock();
  }

 private:
  void drop(Slot& slot) {  // mu_ held
    if (!slot.at) return;
    list_.erase(*slot.at);
    slot.at.reset();
    if (auto n = per_peer_.find(slot.peer); n != per_peer_.end() && --n->second == 0)
      per_peer_.erase(n);
  }

  std::mutex mu_;
  List list_;
  std::map<asio::ip::address, std::size_t> per_peer_;
};

struct Life {
  std::mutex mu;
  bool running = true;
  std::atomic<std::size_t> sessions{0};  // open connections
  Untrusted untrusted;
};

struct Pace {                   // HttpServerOptions' time limits
  std::uint64_t min_bytes = 1;  // per window
  std::chrono::seconds window{10};
  std::chrono::seconds head{10};  // a request head, whole
};

bool is_http_error(const beast::error_code& ec) {
  return ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category();
}

std::string clean(std::string_view s) {  // header values must not smuggle in lines
  std::string out(s);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
  return out;
}

}  // namespace

void HttpReply::send(HttpResponse response) const {
  auto r = std::make_shared<HttpResponse>(std::move(response));
  post([c = connection_, r] { c->respond(std::move(*r)); });
}

void HttpReply::post(std::function<void()> f) const {
  auto& life = *static_cast<Life*>(life_.get());
  std::lock_guard lock(life.mu);
  if (life.running) asio::post(connection_->executor(), std::move(f));
}

asio::any_io_executor HttpReply::executor() const {
  return connection_->executor();
}

namespace {

class Head final : public HttpHead {
 public:
  explicit Head(const bhttp::request_parser<bhttp::empty_body>& p) : p_(p) {}
  std::string_view method() const override {
    auto m = p_.get().method_string();
    return {m.data(), m.size()};
  }
  std::string_view target() const override {
    auto t = p_.get().target();
    return {t.data(), t.size()};
  }
  std::string_view header(std::string_view name) const override {
    auto v = p_.get()[beast::string_view(name.data(), name.size())];
    return {v.data(), v.size()};
  }
  std::optional<std::uint64_t> content_length() const override {
    if (p_.chunked()) return std::nullopt;
    return p_.content_length().value_or(0);
  }

 private:
  const bhttp::request_parser<bhttp::empty_body>& p_;
};

// One connection: head, body, answer, and again while the client keeps it alive.
template <class Stream>
class Session final : public HttpConnection {
 public:
  template <class... Args>
  Session(HttpHandler& handler, std::shared_ptr<Life> life, Pace pace, Args&&... args)
      : stream_(std::forward<Args>(args)...),
        handler_(handler),
        life_(std::move(life)),
        pace_(pace),
        watchdog_(stream_.get_executor()) {
    ++life_->sessions;
  }
  ~Session() override {
    if (slot_) life_->untrusted.remove(*slot_);
    --life_->sessions;
  }

  // Counted among the untrusted connections of `peer` until its first trusted request.
  void run(const asio::ip::address& peer) {
    slot_ = life_->untrusted.add(weak_from_this(), peer);
    if constexpr (kPlain) {
      // Bodies are read and written at once while the socket has data or room (read_body,
      // write_some), and through the reactor only when it has none: a round trip through the
      // reactor, the strand and a second thread for every step of a large body cost more than
      // the copy itself. Asynchronous operations work as before on a non-blocking socket.
      beast::error_code ignored;
      tcp().socket().non_blocking(true, ignored);
      read_head();
    } else {
      deadline(kProgress);
      stream_.async_handshake(asio::ssl::stream_base::server,
                              [self = self()](beast::error_code ec) {
                                if (ec) return self->close();
                                self->read_head();
                              });
    }
  }

  asio::any_io_executor executor() override { return stream_.get_executor(); }

  void evict() override {
    asio::post(stream_.get_executor(), [self = self()] { self->close(); });
  }

  void respond(HttpResponse response) override {
    if (replied_) return;  // one answer per request
    replied_ = true;
    write(std::move(response), keep_alive_ ? Then::Next : Then::Linger);
  }

 private:
  enum class Then { Next, Skip, Linger };
  static constexpr bool kPlain = std::is_same_v<Stream, beast::tcp_stream>;

  std::shared_ptr<Session> self() { return std::static_pointer_cast<Session>(shared_from_this()); }
  beast::tcp_stream& tcp() { return beast::get_lowest_layer(stream_); }

  // The next operations' time limit.
  void deadline(std::chrono::seconds limit) {
    bulk_ = false;
    unwatch();
    tcp().expires_after(limit);
  }

  // A body moves in many reads or writes, and a timer armed for each costs more than the read
  // itself at loopback speeds: instead a watchdog closes the connection when a window of the
  // body's transfer moved fewer bytes than the minimum rate asks (a stalled or trickling upload
  // would otherwise hold its reservation, and a download its value, for as long as it likes).
  void progress() {
    if (!bulk_) {
      bulk_ = true;
      tcp().expires_never();
    }
    if (!watching_) watch();
  }
  void watch() {
    watching_ = true;
    watched_ = moved_;
    auto generation = ++watch_generation_;
    watchdog_.expires_after(pace_.window);
    watchdog_.async_wait([self = self(), generation](beast::error_code ec) {
      if (generation != self->watch_generation_) return;  // cancelled or re-armed since
      self->watching_ = false;
      if (ec || !self->bulk_) return;
      if (self->moved_ - self->watched_ < self->pace_.min_bytes) return self->close();
      self->watch();
    });
  }
  // The watchdog lets go of the session at once: a closed connection must not live on in it.
  void unwatch() {
    if (!watching_) return;
    watching_ = false;
    ++watch_generation_;
    watchdog_.cancel();
  }

  void read_head() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());  // exchanges set their own
    exchange_.reset();
    space_ = {};
    used_ = 0;
    bounced_ = 0;
    replied_ = false;
    if (!trusted_ || buffer_.size() > 0) return read_header();
    // A trusted connection may wait between requests; the head's time counts from its first byte.
    deadline(kIdle);
    stream_.async_read_some(buffer_.prepare(kFirstRead),
                            [self = self()](beast::error_code ec, std::size_t n) {
                              if (ec) return self->close();
                              self->buffer_.commit(n);
                              self->read_header();
                            });
  }
  void read_header() {
    deadline(pace_.head);
    bhttp::async_read_header(
        stream_, buffer_, *parser_,
        [self = self()](beast::error_code ec, std::size_t) { self->on_head(ec); });
  }

  void on_head(beast::error_code ec) {
    if (ec) {
      // A client closing between requests, a timeout, a reset: nothing to answer.
      if (!is_http_error(ec) || ec == bhttp::error::end_of_stream ||
          ec == bhttp::error::partial_message) {
        return close();
      }
      return malformed(ec == bhttp::error::header_limit
                           ? "request head exceeds " + std::to_string(kHeaderLimit) + " bytes"
                           : "malformed HTTP request: " + ec.message());
    }
    if (auto why = framing_refused(); !why.empty()) return malformed(why);
    if (!trusted_ && handler_.trusted(Head(*parser_))) {
      trusted_ = true;
      life_->untrusted.remove(*slot_);
    }
    keep_alive_ = parser_->get().keep_alive();
    head_only_ = parser_->get().method() == bhttp::verb::head;
    chunked_ = parser_->chunked();
    body_left_ = chunked_ ? 0 : parser_->content_length().value_or(0);
    auto expect = parser_->get()[bhttp::field::expect];
    expect_continue_ = beast::iequals(expect, "100-continue");
    std::variant<HttpResponse, std::unique_ptr<HttpExchange>> admitted;
    try {
      admitted = handler_.admit(Head(*parser_));
    } catch (const std::exception& e) {
      admitted = handler_.error(500, e.what());
    }
    if (auto* r = std::get_if<HttpResponse>(&admitted)) return refuse(std::move(*r));
    exchange_ = std::move(std::get<std::unique_ptr<HttpExchange>>(admitted));
    auto limit = exchange_->body_limit();
    if (!chunked_ && body_left_ > limit) {
      return refuse(handler_.error(413, "body of " + std::to_string(body_left_) +
                                            " bytes exceeds the limit of " +
                                            std::to_string(limit)));
    }
    if (expect_continue_ && (chunked_ || body_left_ > 0) && buffer_.size() == 0) {
      static constexpr char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
      deadline(kProgress);
      return asio::async_write(stream_, asio::buffer(kContinue, sizeof kContinue - 1),
                               [self = self()](beast::error_code ec, std::size_t) {
                                 if (ec) return self->close();
                                 self->read_body_start();
                               });
    }
    read_body_start();
  }

  // 400, and the connection closes: what follows cannot be told apart from a next request.
  void malformed(const std::string& what) {
    keep_alive_ = false;
    replied_ = true;
    write(handler_.error(400, what), Then::Linger);
  }

  // A head whose body length two parties could read differently (RFC 9112 6.1, 6.3): a
  // Transfer-Encoding other than exactly "chunked", or beside a Content-Length, or a
  // Content-Length sent twice. Beast reads some of these one way, a proxy in front another: the
  // rest of the body would run as a request of its own. "" when it is not one.
  std::string framing_refused() const {
    const auto& h = parser_->get();
    const std::size_t lengths = h.count(bhttp::field::content_length);
    if (lengths > 1) return "Content-Length sent " + std::to_string(lengths) + " times";
    const std::size_t codings = h.count(bhttp::field::transfer_encoding);
    if (codings == 0) return "";
    const auto te = h[bhttp::field::transfer_encoding];
    if (codings > 1 || !beast::iequals(te, "chunked"))
      return "Transfer-Encoding '" + std::string(te) + "' (only 'chunked' is accepted)";
    if (lengths > 0) return "both Transfer-Encoding and Content-Length";
    return "";
  }

  void read_body_start() {
    if (chunked_) return read_chunked();
    if (!guard([&] { exchange_->start(body_left_); })) return;
    read_body();
  }

  // Runs an exchange's step; a refusal it throws is answered and false returned.
  template <class F>
  bool guard(F f) {
    try {
      f();
      return true;
    } catch (const remote::ProtocolError& e) {
      refuse(handler_.error(e.status(), e.what()));
    } catch (const std::exception& e) {
      refuse(handler_.error(500, e.what()));
    }
    return false;
  }

  // The body goes where the exchange says: what the head's read brought along first, then
  // reads straight into that memory, as large as the socket gives; into a large destination
  // through bounce_ (stream_copy.hpp says why).
  void read_body() {
    while (body_left_ > 0) {
      if (used_ == space_.size()) {
        if (!guard([&] { space_ = exchange_->space(); })) return;
        used_ = 0;
        if (space_.empty() || space_.size() > body_left_) {
          return refuse(handler_.error(500, "the exchange gave no room for the body"));
        }
      }
      std::size_t want = space_.size() - used_;
      if (buffer_.size() > 0) {
        std::size_t n =
            asio::buffer_copy(asio::buffer(space_.data() + used_, want), buffer_.data());
        buffer_.consume(n);
        used_ += n;
        body_left_ -= n;
        continue;
      }
      bool bounce = space_.size() >= remote::kBounceFrom;
      if (bounce && !bounce_) bounce_ = std::make_unique<char[]>(remote::kBounceBytes);
      // Through the bounce buffer, whole chunks are copied on: fewer, larger streaming copies
      // were measured faster than one per read.
      auto into = bounce ? asio::buffer(bounce_.get() + bounced_,
                                        std::min(want, remote::kBounceBytes) - bounced_)
                         : asio::buffer(space_.data() + used_, want);
      progress();
      if constexpr (kPlain) {
        beast::error_code ec;
        std::size_t n = tcp().socket().read_some(into, ec);
        if (!ec) {
          received(n, bounce);
          continue;
        }
        if (ec != asio::error::would_block) return close();  // truncated body
      }
      return stream_.async_read_some(into,
                                     [self = self(), bounce](beast::error_code ec, std::size_t n) {
                                       // A truncated body, or a close (the watchdog's) that
                                       // came after this read completed: the exchange is gone.
                                       if (ec || !self->exchange_) return self->close();
                                       self->received(n, bounce);
                                       self->read_body();
                                     });
    }
    finish();
  }
  void received(std::size_t n, bool bounce) {
    body_left_ -= n;
    moved_ += n;
    if (!bounce) {
      used_ += n;
      return;
    }
    bounced_ += n;
    if (bounced_ < std::min(space_.size() - used_, remote::kBounceBytes)) return;
    remote::stream_copy(space_.data() + used_, bounce_.get(), bounced_);
    used_ += bounced_;
    bounced_ = 0;
  }

  void read_chunked() {
    chunked_parser_ =
        std::make_unique<bhttp::request_parser<bhttp::string_body>>(std::move(*parser_));
    chunked_parser_->body_limit(exchange_->body_limit());
    deadline(kChunked);
    bhttp::async_read(stream_, buffer_, *chunked_parser_,
                      [self = self()](beast::error_code ec, std::size_t) { self->on_chunked(ec); });
  }

  void on_chunked(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) {
      return refuse(handler_.error(
          413, "body exceeds the limit of " + std::to_string(exchange_->body_limit())));
    }
    if (ec && is_http_error(ec) && ec != bhttp::error::partial_message) {
      return refuse(handler_.error(400, "malformed chunked body: " + ec.message()));
    }
    if (ec) return close();
    std::string body = std::move(chunked_parser_->get().body());
    chunked_parser_.reset();
    chunked_ = false;  // read in full: the connection is usable again
    if (!guard([&] { exchange_->start(body.size()); })) return;
    std::size_t at = 0;
    while (at < body.size()) {
      std::span<char> s;
      if (!guard([&] { s = exchange_->space(); })) return;
      if (s.empty() || s.size() > body.size() - at) {
        return refuse(handler_.error(500, "the exchange gave no room for the body"));
      }
      std::copy_n(body.data() + at, s.size(), s.data());
      at += s.size();
    }
    finish();
  }

  void finish() {
    auto exchange = std::move(exchange_);
    try {
      exchange->finish(HttpReply(shared_from_this(), life_));
    } catch (const std::exception& e) {  // exchanges answer their own errors; this is a bug
      respond(handler_.error(500, e.what()));
    }
  }

  // An answer before (or instead of) reading the body: the unread rest is dropped when small
  // enough to keep the connection, else the connection closes after the answer.
  void refuse(HttpResponse response) {
    replied_ = true;
    exchange_.reset();
    bool skippable = !chunked_ && !expect_continue_ && body_left_ <= kSkipLimit;
    write(std::move(response), keep_alive_ && skippable ? Then::Skip : Then::Linger);
  }

  void write(HttpResponse r, Then then) {
    then_ = then;
    out_ = std::move(r);
    std::size_t length = out_.body.size();
    for (const auto& b : out_.more) length += b.size();
    bool bodiless = out_.status == 204 || out_.status == 304 || out_.status < 200;
    head_ = "HTTP/1.1 " + std::to_string(out_.status) + " ";
    auto reason = bhttp::obsolete_reason(static_cast<bhttp::status>(out_.status));
    head_.append(reason.data(), reason.size());
    head_ += "\r\n";
    for (const auto& [name, value] : out_.headers)
      head_ += clean(name) + ": " + clean(value) + "\r\n";
    if (!bodiless) head_ += "Content-Length: " + std::to_string(length) + "\r\n";
    if (then_ == Then::Linger) head_ += "Connection: close\r\n";
    head_ += "\r\n";
    std::vector<asio::const_buffer> buffers{asio::buffer(head_)};
    if (!bodiless && !head_only_) {
      if (!out_.body.empty()) buffers.push_back(asio::buffer(out_.body));
      for (const auto& b : out_.more) {
        if (b.size() > 0) buffers.push_back(b);
      }
    }
    pending_.emplace(std::move(buffers));
    write_some();
  }

  // One gathered write per step, as much as the socket takes.
  void write_some() {
    for (;;) {
      if (beast::buffer_bytes(*pending_) == 0) return written();
      progress();
      if constexpr (kPlain) {
        beast::error_code ec;
        std::size_t n = tcp().socket().write_some(beast::buffers_prefix(kWriteStep, *pending_), ec);
        if (!ec) {
          pending_->consume(n);
          moved_ += n;
          continue;
        }
        if (ec != asio::error::would_block) return close();
      }
      break;
    }
    stream_.async_write_some(*pending_, [self = self()](beast::error_code ec, std::size_t n) {
      if (ec) return self->close();
      self->pending_->consume(n);
      self->moved_ += n;
      self->write_some();
    });
  }

  void written() {
    pending_.reset();
    out_ = {};  // releases what `keep` held
    switch (then_) {
      case Then::Next:
        return read_head();
      case Then::Skip:
        return skip();
      case Then::Linger:
        return linger();
    }
  }

  void skip() {
    std::size_t n = std::min<std::uint64_t>(body_left_, buffer_.size());
    buffer_.consume(n);
    body_left_ -= n;
    if (body_left_ == 0) return read_head();
    scratch_.resize(kScratch);
    deadline(kProgress);
    stream_.async_read_some(
        asio::buffer(scratch_.data(), std::min<std::uint64_t>(body_left_, scratch_.size())),
        [self = self()](beast::error_code ec, std::size_t n) {
          if (ec) return self->close();
          self->body_left_ -= n;
          self->skip();
        });
  }

  // Closes gracefully: no more sending, and what the client still sends is read (for a
  // while) so that it sees the answer rather than a reset.
  void linger() {
    beast::error_code ignored;
    tcp().socket().shutdown(tcp::socket::shutdown_send, ignored);
    scratch_.resize(kScratch);
    linger_left_ = kSkipLimit;
    deadline(kLinger);
    drain();
  }
  void drain() {
    tcp().async_read_some(asio::buffer(scratch_),
                          [self = self()](beast::error_code ec, std::size_t n) {
                            if (ec || n >= self->linger_left_) return self->close();
                            self->linger_left_ -= n;
                            self->drain();
                          });
  }

  void close() {
    if (exchange_) exchange_->abandon();  // before the client can see the connection close
    unwatch();
    beast::error_code ignored;
    tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
    tcp().close();
    exchange_.reset();  // after: a read pending until the close may still write into its memory
  }

  Stream stream_;
  HttpHandler& handler_;
  std::shared_ptr<Life> life_;
  Pace pace_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::empty_body>> parser_;
  std::unique_ptr<bhttp::request_parser<bhttp::string_body>> chunked_parser_;
  std::unique_ptr<HttpExchange> exchange_;
  std::uint64_t body_left_ = 0;
  std::span<char> space_;
  std::size_t used_ = 0;
  bool keep_alive_ = true, head_only_ = false, chunked_ = false, expect_continue_ = false;
  bool replied_ = false;
  Then then_ = Then::Next;
  HttpResponse out_;
  std::string head_;
  std::optional<beast::buffers_suffix<std::vector<asio::const_buffer>>> pending_;
  std::vector<char> scratch_;
  std::uint64_t linger_left_ = 0;
  std::unique_ptr<char[]> bounce_;  // for large bodies, made on the first
  std::size_t bounced_ = 0;         // bytes in it, not yet copied on
  asio::steady_timer watchdog_;
  std::uint64_t moved_ = 0, watched_ = 0;  // body bytes read and written; at the window's start
  std::uint64_t watch_generation_ = 0;     // of the watchdog's current wait
  bool bulk_ = false, watching_ = false;
  std::shared_ptr<Untrusted::Slot> slot_;
  bool trusted_ = false;  // it sent a trusted request
};

}  // namespace

struct HttpServer::Impl {
  HttpHandler& handler;
  std::shared_ptr<Life> life = std::make_shared<Life>();
  Pace pace;
  std::size_t max_connections = 0, max_peer_connections = 0;
  std::optional<asio::ssl::context> ssl;  // before the io_context: sessions use it until then
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::vector<std::thread> threads;

  explicit Impl(HttpHandler& h) : handler(h) {}

  // Past a bound a newcomer takes the place of the oldest connection that never sent a trusted
  // request (its address's, or anyone's): what clients without the token make the node hold is
  // bounded, and they cannot keep those with it out. With every slot trusted it is closed unread.
  void admit(tcp::socket s) {
    beast::error_code ec;
    const auto peer = s.remote_endpoint(ec).address();
    if (ec) return;
    const bool full = life->sessions >= max_connections;
    auto victim = life->untrusted.victim(peer, full, max_peer_connections);
    if (full && !victim) {
      s.close(ec);
      return;
    }
    if (victim) victim->evict();
    s.set_option(tcp::no_delay(true), ec);
    if (ssl) {
      std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(handler, life, pace,
                                                                      std::move(s), *ssl)
          ->run(peer);
    } else {
      std::make_shared<Session<beast::tcp_stream>>(handler, life, pace, std::move(s))->run(peer);
    }
  }

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket s) {
      if (!acceptor.is_open()) return;
      if (!ec) admit(std::move(s));
      accept();
    });
  }
};

HttpServer::HttpServer(HttpHandler& handler, const HttpServerOptions& o)
    : impl_(std::make_unique<Impl>(handler)) {
  auto& m = *impl_;
  m.max_connections = o.max_connections;
  m.max_peer_connections = std::max<std::size_t>(1, o.max_peer_connections);
  m.pace.head = std::chrono::seconds(std::max(1, o.head_timeout_s));
  m.pace.window = std::chrono::seconds(std::max(1, o.rate_window_s));
  m.pace.min_bytes = std::max<std::uint64_t>(1, o.min_rate_bytes_s * m.pace.window.count());
  if (!o.tls_cert.empty() || !o.tls_key.empty()) {
    if (o.tls_cert.empty() || o.tls_key.empty()) {
      throw std::invalid_argument("TLS needs both a certificate and a private key");
    }
    m.ssl.emplace(asio::ssl::context::tls_server);
    m.ssl->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                       asio::ssl::context::no_tlsv1_1);
    m.ssl->use_certificate_chain_file(o.tls_cert);
    m.ssl->use_private_key_file(o.tls_key, asio::ssl::context::pem);
    if (!o.tls_dh.empty()) m.ssl->use_tmp_dh_file(o.tls_dh);
  }
  tcp::resolver resolver(m.ioc);
  auto endpoint = resolver.resolve(o.host, std::to_string(o.port))->endpoint();
  m.acceptor.open(endpoint.protocol());
  m.acceptor.set_option(asio::socket_base::reuse_address(true));
  // Boost's own words ("bind: Address already in use") name neither the address nor the port.
  boost::system::error_code bound;
  m.acceptor.bind(endpoint, bound);
  if (bound)
    throw std::runtime_error("cannot listen on " + o.host + " port " + std::to_string(o.port) +
                             ": " + bound.message() +
                             (bound == asio::error::address_in_use
                                  ? " (another process holds it: choose another port)"
                                  : ""));
  m.acceptor.listen(asio::socket_base::max_listen_connections);
  m.accept();
  unsigned n = o.threads ? o.threads : std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
  for (unsigned i = 0; i < n; ++i) {
    m.threads.emplace_back([&m] {
      for (;;) {
        try {
          m.ioc.run();
          return;
        } catch (const std::exception&) {  // one request's failure must not end the server
        }
      }
    });
  }
}

HttpServer::~HttpServer() {
  stop();
}

void HttpServer::stop() {
  auto& m = *impl_;
  {
    std::lock_guard lock(m.life->mu);
    if (!m.life->running) return;
    m.life->running = false;
  }
  m.ioc.stop();
  for (auto& t : m.threads) t.join();
  m.threads.clear();
  beast::error_code ignored;
  m.acceptor.close(ignored);
}

}  // namespace cei::worker
