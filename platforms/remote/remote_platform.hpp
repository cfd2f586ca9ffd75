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
  // Unused: a node that fails is lost for the run, never retried (docs/remote.md, "A lost
  // node"). Kept so that programs that set it still build, and CEI_REMOTE's retry_ms parses.
  std::chrono::milliseconds retry_after{1000};
  double price_per_gb = 0;    // cost model: data moved to or from the node
  double price_per_hour = 0;  // cost model: node compute time
  double power_w = 0;         // energy charged to the host while waiting (W)
  bool validate_certificates = true;
  std::string ca_file;
};

std::unique_ptr<rt::Platform> make_remote_platform(const std::string& name, const std::string& url,
                                                   const std::string& token, RemoteOptions options);

}  // namespace cei::remote
