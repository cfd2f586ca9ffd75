#include "raw_http.hpp"

#include <cpprest/http_client.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace remote_test {

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
  timeval limit{20, 0};
  setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  return s;
}

bool send_all(int s, const std::string& bytes) {
  return send(s, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

std::optional<std::string> read_to_close(int s) {
  std::string got;
  char buf[4096];
  for (;;) {
    ssize_t n = recv(s, buf, sizeof buf, 0);
    if (n == 0 || (n < 0 && errno == ECONNRESET)) return got;
    if (n < 0) return std::nullopt;
    got.append(buf, static_cast<std::size_t>(n));
  }
}

std::string url_encode(const std::string& s) {
  return web::http::uri::encode_data_string(s);
}

RawReply raw_request(const std::string& url, const std::string& method, const std::string& path,
                     const std::map<std::string, std::string>& headers, const std::string& body) {
  web::http::client::http_client client(url);
  web::http::http_request req(method);
  req.set_request_uri(path);
  for (const auto& [k, v] : headers) req.headers().add(k, v);
  if (!body.empty()) {
    auto type =
        headers.count("Content-Type") ? headers.at("Content-Type") : "application/octet-stream";
    req.set_body(body, type);
  }
  auto resp = client.request(req).get();
  RawReply r;
  r.status = resp.status_code();
  auto bytes = resp.extract_vector().get();
  r.body.assign(bytes.begin(), bytes.end());
  for (const auto& [k, v] : resp.headers()) r.headers[k] = v;
  return r;
}

}  // namespace remote_test
