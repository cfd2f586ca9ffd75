#include "node_client.hpp"

#include "data_channel.hpp"
#include "fast_continuations.hpp"
#include "wire_check.hpp"

#include <cpprest/containerstream.h>
#include <cpprest/http_client.h>

#include <boost/asio/ssl.hpp>

#include <algorithm>
#include <cstdint>
#include <system_error>
#include <vector>

namespace cei::remote {

namespace http = web::http;

namespace {

// The body of GET /v1/data for `type`: a contiguous value's framing is checked as it arrives and
// the payload goes straight into the value's own storage; an object's bytes are collected and
// deserialized at the end.
class ValueSink final : public BodySink {
 public:
  ValueSink(const rt::TypeOps& type, void* value) : type_(type), value_(value) {}

  void start(std::size_t bytes) override {
    total_ = bytes;
    if (type_.kind == rt::TypeKind::Object) bytes_.resize(bytes);
  }
  std::span<char> space() override {
    if (type_.kind == rt::TypeKind::Object || bytes_.empty()) {
      if (type_.kind != rt::TypeKind::Object)
        bytes_.resize(std::min(total_, wire_head_bytes(type_)));
      return {bytes_.data(), bytes_.size()};
    }
    make();
    return {static_cast<char*>(type_.data(value_)), total_ - bytes_.size()};
  }
  std::size_t bytes() const { return total_; }
  // Once the whole body is in.
  void finish() {
    if (type_.kind != rt::TypeKind::Object) return make();
    try {
      type_.deserialize(value_, bytes_);
    } catch (const std::exception& e) {
      throw malformed(e.what());
    }
  }

 private:
  // The framing read so far gives the value its shape, once checked against the body's size.
  void make() {
    if (made_) return;
    made_ = true;
    std::vector<std::int64_t> extents;
    if (auto err = framing_error(type_, bytes_, total_, &extents); !err.empty())
      throw malformed(err);
    type_.reshape_for_overwrite(value_, extents.data(), static_cast<int>(extents.size()));
    if (type_.bytes(value_) != total_ - bytes_.size())
      throw malformed("reshape disagrees with the extents");
  }
  std::runtime_error malformed(const std::string& what) const {
    return std::runtime_error(std::string("malformed ") + type_.name + " from the node: " + what);
  }

  const rt::TypeOps& type_;
  void* value_;
  std::size_t total_ = 0;
  std::string bytes_;  // the framing, or an object's whole body
  bool made_ = false;
};

}  // namespace

struct NodeClient::Impl {
  std::string token;
  ClientOptions opt;
  std::unique_ptr<http::client::http_client> client;  // every JSON request, long polls too
  std::unique_ptr<DataChannel> data;                  // PUT and GET of /v1/data

  static http::client::http_client_config config(const ClientOptions& o,
                                                 std::chrono::milliseconds timeout) {
    http::client::http_client_config c;
    c.set_timeout(timeout);
    c.set_chunksize(1 << 20);
    c.set_validate_certificates(o.validate_certificates);
    if (!o.ca_file.empty()) {
      c.set_ssl_context_callback(
          [ca = o.ca_file](boost::asio::ssl::context& ctx) { ctx.load_verify_file(ca); });
    }
    return c;
  }

  http::http_request request(const http::method& m, const std::string& path) const {
    http::http_request r(m);
    r.set_request_uri(path);
    r.headers().add(http::header_names::authorization, "Bearer " + token);
    return r;
  }

  static std::string body_of(http::http_response& resp) {
    auto announced = resp.headers().content_length();
    if (announced == 0) {
      Concurrency::streams::container_buffer<std::string> buf;
      resp.body().read_to_end(buf).get();
      return std::move(buf.collection());
    }
    // In getn() calls of the announced size: read_to_end's loop of continuations can deadlock
    // on the body's buffer under the inline continuations of fast_continuations.hpp.
    std::string bytes(announced, '\0');
    auto buf = resp.body().streambuf();
    std::size_t got = 0;
    while (got < bytes.size()) {
      std::size_t n =
          buf.getn(reinterpret_cast<uint8_t*>(bytes.data()) + got, bytes.size() - got).get();
      if (n == 0) break;
      got += n;
    }
    if (got != bytes.size()) throw std::runtime_error("response shorter than its Content-Length");
    return bytes;
  }

  // A 503's Retry-After in seconds (the HTTP-date form is not sent by nodes): at least 1 s.
  static std::chrono::seconds retry_after(int status, const std::string* header) {
    if (status != http::status_codes::ServiceUnavailable) return {};
    long s = 1;
    if (header) {
      try {
        s = std::stol(*header);
      } catch (const std::exception&) {
      }
    }
    return std::chrono::seconds(std::clamp(s, 1L, 3600L));
  }

  [[noreturn]] static void fail(int status, const std::string& body, const std::string* retry) {
    std::string message = body;
    try {
      message = nlohmann::json::parse(body).at("error").get<std::string>();
    } catch (const std::exception&) {
    }
    throw NodeError(status, "node answered " + std::to_string(status) + ": " + message,
                    retry_after(status, retry));
  }

  // Sends, and turns every failure into a NodeError.
  std::string send(http::client::http_client& c, http::http_request r, http::status_code expected,
                   http::status_code also = 0) {
    http::http_response resp;
    try {
      resp = c.request(r).get();
    } catch (const http::http_exception& e) {
      throw NodeError(0, std::string("node unreachable: ") + e.what(), {},
                      e.error_code() == std::errc::timed_out);
    } catch (const std::exception& e) {
      throw NodeError(0, std::string("node unreachable: ") + e.what());
    }
    std::string body;
    try {
      body = body_of(resp);
    } catch (const std::exception& e) {
      throw NodeError(0, std::string("node connection lost: ") + e.what());
    }
    if (resp.status_code() != expected && (also == 0 || resp.status_code() != also)) {
      auto h = resp.headers().find("Retry-After");
      fail(resp.status_code(), body, h == resp.headers().end() ? nullptr : &h->second);
    }
    return body;
  }

  // PUT /v1/data/{id} of these parts, on the data channel.
  void upload(const std::string& id, const std::string& type_name,
              std::span<const std::string_view> parts) {
    check(data->exchange(
              "PUT", "/v1/data/" + id + "?type=" + http::uri::encode_data_string(type_name), parts),
          http::status_codes::Created, http::status_codes::OK);
  }

  static void check(const DataChannel::Reply& reply, int expected, int also = 0) {
    if (reply.status != expected && (also == 0 || reply.status != also))
      fail(reply.status, reply.body, reply.retry_after.empty() ? nullptr : &reply.retry_after);
  }
};

NodeClient::NodeClient(const std::string& url, std::string token, ClientOptions options)
    : url_(url), impl_(std::make_unique<Impl>()) {
  use_fast_continuations();
  impl_->token = std::move(token);
  impl_->opt = options;
  impl_->client =
      std::make_unique<http::client::http_client>(url, Impl::config(options, options.timeout));
  impl_->data = std::make_unique<DataChannel>(url, "Bearer " + impl_->token, options);
}

NodeClient::~NodeClient() = default;

bool NodeClient::health() {
  try {
    impl_->send(*impl_->client, impl_->request(http::methods::GET, "/v1/health"),
                http::status_codes::OK);
    return true;
  } catch (const NodeError&) {
    return false;
  }
}

nlohmann::json NodeClient::info() {
  return nlohmann::json::parse(impl_->send(
      *impl_->client, impl_->request(http::methods::GET, "/v1/info"), http::status_codes::OK));
}

nlohmann::json NodeClient::forecast(const std::string& interface_name, const std::string& ce,
                                    double input_bytes) {
  auto r = impl_->request(http::methods::POST, "/v1/forecast");
  nlohmann::json j{{"ce", {{"interface", interface_name}, {"name", ce}}},
                   {"input_bytes", input_bytes}};
  r.set_body(j.dump(), "application/json");
  return nlohmann::json::parse(impl_->send(*impl_->client, r, http::status_codes::OK));
}

void NodeClient::put(const std::string& id, const std::string& type_name, std::string bytes) {
  std::string_view parts[] = {bytes};
  impl_->upload(id, type_name, parts);
}

std::string NodeClient::get(const std::string& id) {
  auto reply = impl_->data->exchange("GET", "/v1/data/" + id);
  Impl::check(reply, http::status_codes::OK);
  return std::move(reply.body);
}

std::size_t NodeClient::put(const std::string& id, const rt::TypeOps& type, const void* value) {
  std::string bytes;  // an object's cereal bytes, or a contiguous value's framing
  if (type.kind == rt::TypeKind::Object) {
    type.serialize(value, bytes);
    std::string_view parts[] = {bytes};
    impl_->upload(id, type.name, parts);
    return bytes.size();
  }
  std::int64_t framing[4] = {type.rank};
  for (int d = 0; d < type.rank; ++d) framing[1 + d] = type.extent(value, d);
  bytes.assign(reinterpret_cast<const char*>(framing), sizeof(std::int64_t) * (1 + type.rank));
  std::string_view parts[] = {
      bytes, {static_cast<const char*>(type.data(const_cast<void*>(value))), type.bytes(value)}};
  impl_->upload(id, type.name, parts);
  return parts[0].size() + parts[1].size();
}

std::size_t NodeClient::get(const std::string& id, const rt::TypeOps& type, void* value) {
  ValueSink sink(type, value);
  auto reply = impl_->data->exchange("GET", "/v1/data/" + id, {}, &sink);
  Impl::check(reply, http::status_codes::OK);
  sink.finish();
  return sink.bytes();
}

void NodeClient::erase(const std::string& id) {
  // On the data channel too: cpprest's client held a DELETE to a frozen node several times the
  // request timeout, and the remote platform's shutdown with it.
  Impl::check(impl_->data->exchange("DELETE", "/v1/data/" + id), http::status_codes::NoContent);
}

std::string NodeClient::submit(const TaskRequest& req) {
  auto r = impl_->request(http::methods::POST, "/v1/tasks");
  r.set_body(to_json(req).dump(), "application/json");
  auto j = nlohmann::json::parse(impl_->send(*impl_->client, r, http::status_codes::Accepted));
  return j.at("id").get<std::string>();
}

TaskStatus NodeClient::status(const std::string& task, long wait_ms) {
  // At most half the request timeout: the node answers within the other half or is down, so a
  // frozen node is noticed within the timeout, as with any other request.
  wait_ms = std::min<long>(wait_ms, static_cast<long>(impl_->opt.timeout.count() / 2));
  std::string path =
      "/v1/tasks/" + task + (wait_ms > 0 ? "?wait_ms=" + std::to_string(wait_ms) : "");
  auto j = nlohmann::json::parse(impl_->send(
      *impl_->client, impl_->request(http::methods::GET, path), http::status_codes::OK));
  TaskStatus s;
  s.state = j.at("state").get<std::string>();
  if (auto e = j.find("error"); e != j.end()) s.error = e->get<std::string>();
  if (auto c = j.find("crashed"); c != j.end()) s.crashed = c->get<bool>();
  if (auto e = j.find("exec_s"); e != j.end()) s.exec_s = e->get<double>();
  return s;
}

}  // namespace cei::remote
