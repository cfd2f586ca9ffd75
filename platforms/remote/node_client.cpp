#include "node_client.hpp"

#include "fast_continuations.hpp"

#include <cpprest/containerstream.h>
#include <cpprest/http_client.h>

#include <boost/asio/ssl.hpp>

#include <sys/mman.h>

#include <cstdint>

#include <algorithm>

namespace cei::remote {

namespace http = web::http;

namespace {

// A string of `n` bytes whose memory the kernel may back with transparent huge pages (where it
// allows them on request): first-touching hundreds of MiB in 4 KiB pages can cost more than
// moving them over loopback.
std::string large_string(std::size_t n) {
  std::string s;
  s.reserve(n);
  constexpr std::uintptr_t kHuge = 2u << 20;
  auto at = reinterpret_cast<std::uintptr_t>(s.data());
  auto begin = (at + kHuge - 1) & ~(kHuge - 1), end = (at + n) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  s.resize(n);
  return s;
}

}  // namespace

struct NodeClient::Impl {
  std::string token;
  ClientOptions opt;
  std::unique_ptr<http::client::http_client> client;     // ordinary requests
  std::unique_ptr<http::client::http_client> long_poll;  // its timeout leaves room for the wait

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
    // Straight into storage of the announced size: no growing, no second copy.
    std::string bytes = large_string(announced);
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
  static std::chrono::seconds retry_after(const http::http_response& resp) {
    if (resp.status_code() != http::status_codes::ServiceUnavailable) return {};
    long s = 1;
    auto h = resp.headers().find("Retry-After");
    if (h != resp.headers().end()) {
      try {
        s = std::stol(h->second);
      } catch (const std::exception&) {
      }
    }
    return std::chrono::seconds(std::clamp(s, 1L, 3600L));
  }

  // Sends, and turns every failure into a NodeError.
  std::string send(http::client::http_client& c, http::http_request r, http::status_code expected,
                   http::status_code also = 0) {
    http::http_response resp;
    try {
      resp = c.request(r).get();
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
      std::string message = body;
      try {
        message = nlohmann::json::parse(body).at("error").get<std::string>();
      } catch (const std::exception&) {
      }
      throw NodeError(resp.status_code(),
                      "node answered " + std::to_string(resp.status_code()) + ": " + message,
                      retry_after(resp));
    }
    return body;
  }
};

NodeClient::NodeClient(const std::string& url, std::string token, ClientOptions options)
    : url_(url), impl_(std::make_unique<Impl>()) {
  use_fast_continuations();
  impl_->token = std::move(token);
  impl_->opt = options;
  impl_->client =
      std::make_unique<http::client::http_client>(url, Impl::config(options, options.timeout));
  impl_->long_poll = std::make_unique<http::client::http_client>(
      url, Impl::config(options, options.timeout + std::chrono::milliseconds(60000)));
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
  auto r = impl_->request(http::methods::PUT,
                          "/v1/data/" + id + "?type=" + http::uri::encode_data_string(type_name));
  r.set_body(std::move(bytes), "application/octet-stream");
  impl_->send(*impl_->client, r, http::status_codes::Created, http::status_codes::OK);
}

std::string NodeClient::get(const std::string& id) {
  return impl_->send(*impl_->client, impl_->request(http::methods::GET, "/v1/data/" + id),
                     http::status_codes::OK);
}

void NodeClient::erase(const std::string& id) {
  impl_->send(*impl_->client, impl_->request(http::methods::DEL, "/v1/data/" + id),
              http::status_codes::NoContent);
}

std::string NodeClient::submit(const TaskRequest& req) {
  auto r = impl_->request(http::methods::POST, "/v1/tasks");
  r.set_body(to_json(req).dump(), "application/json");
  auto j = nlohmann::json::parse(impl_->send(*impl_->client, r, http::status_codes::Accepted));
  return j.at("id").get<std::string>();
}

TaskStatus NodeClient::status(const std::string& task, long wait_ms) {
  std::string path =
      "/v1/tasks/" + task + (wait_ms > 0 ? "?wait_ms=" + std::to_string(wait_ms) : "");
  auto& c = wait_ms > 0 ? *impl_->long_poll : *impl_->client;
  auto j = nlohmann::json::parse(
      impl_->send(c, impl_->request(http::methods::GET, path), http::status_codes::OK));
  TaskStatus s;
  s.state = j.at("state").get<std::string>();
  if (auto e = j.find("error"); e != j.end()) s.error = e->get<std::string>();
  if (auto e = j.find("exec_s"); e != j.end()) s.exec_s = e->get<double>();
  return s;
}

}  // namespace cei::remote
