// One HTTP exchange with a worker, headers and body as given (the bad-request table needs
// requests that NodeClient would never send).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace remote_test {

struct RawReply {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;
};

std::string url_encode(const std::string& s);

// A TCP connection to 127.0.0.1:port whose reads give up after 20 s (a failing test must not
// hang), or -1.
int connect_to(int port);
bool send_all(int s, const std::string& bytes);
// Reads until the peer closes the connection: what it sent, or nullopt on a read timeout.
std::optional<std::string> read_to_close(int s);

RawReply raw_request(const std::string& url, const std::string& method, const std::string& path,
                     const std::map<std::string, std::string>& headers, const std::string& body);

}  // namespace remote_test
