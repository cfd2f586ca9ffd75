// One HTTP exchange with a worker, headers and body as given (the bad-request table needs
// requests that NodeClient would never send).
#pragma once

#include <map>
#include <string>

namespace remote_test {

struct RawReply {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;
};

std::string url_encode(const std::string& s);

RawReply raw_request(const std::string& url, const std::string& method, const std::string& path,
                     const std::map<std::string, std::string>& headers, const std::string& body);

}  // namespace remote_test
