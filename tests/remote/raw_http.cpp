#include "raw_http.hpp"

#include <cpprest/http_client.h>

namespace remote_test {

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
