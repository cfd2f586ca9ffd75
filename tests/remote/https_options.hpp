// Options for a node of the test app, in the test process, serving https with a test
// certificate on a free port:
//   const TestCertificate tls;
//   auto o = https_options(tls, "token");
//   cei::worker::Node node(o, ces);
#pragma once

#include "worker_process.hpp"

#include <cei/worker/node.hpp>

#include <string>
#include <utility>

namespace remote_test {

inline cei::worker::NodeOptions https_options(const TestCertificate& tls, std::string token) {
  cei::worker::NodeOptions o;
  o.port = free_port();
  o.token = std::move(token);
  o.tls_cert = tls.cert();
  o.tls_key = tls.key();
  return o;
}

}  // namespace remote_test
