// The remote Computing Platform: offloads tasks to a worker node over REST (docs/remote.md).
// Configured by CEI_REMOTE="node1=http://10.0.0.5:8080,token=secret;node2=..." or by the platform
// config (type "remote"), whose loader calls:
//
//   rt.add_platform(cei::remote::make_remote_platform("node1", "http://10.0.0.5:8080", token, {}));
#pragma once

#include <cei/rt/platform.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace cei::remote {

struct RemoteOptions {
  // Per request, long polls included: a node silent longer is lost for the run; a node busy
  // (503) longer gets the task moved (unless the policy is only:<node>).
  std::chrono::milliseconds timeout{30000};
  // Unused: a lost node comes back through its health checks (below), not by retrying a
  // request. Kept so that programs that set it still build, and CEI_REMOTE's retry_ms parses.
  std::chrono::milliseconds retry_after{1000};
  // Every health_period, GET /v1/health, answered within the period (or `timeout`, if shorter):
  // health_failures misses in a row lose the node; a lost node that answers again as a node of
  // the same application is admitted again, holding none of the run's values (docs/remote.md,
  // "A lost node"). 0 turns the checks off.
  std::chrono::milliseconds health_period{1000};
  int health_failures = 3;
  double price_per_gb = 0;    // cost model: data moved to or from the node
  double price_per_hour = 0;  // cost model: node compute time
  double power_w = 0;         // energy charged to the host while waiting (W)
  bool validate_certificates = true;
  std::string ca_file;
};

std::unique_ptr<rt::Platform> make_remote_platform(const std::string& name, const std::string& url,
                                                   const std::string& token, RemoteOptions options);

}  // namespace cei::remote
