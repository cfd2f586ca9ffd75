#include <cei/rt/decision/config.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace cei::rt {
namespace {

const std::string kDir = CEI_DECISION_TEST_DATA;

TEST(Config, ReadsEveryKey) {
  Config c = load_config(kDir + "/good.toml");
  EXPECT_EQ(c.source, kDir + "/good.toml");
  ASSERT_EQ(c.platforms.size(), 3u);
  EXPECT_FALSE(c.all_opencl_devices);
  const PlatformConfig* cpu = c.find("cpu");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->type, PlatformType::Cpu);
  EXPECT_EQ(cpu->cores, 4);
  EXPECT_TRUE(c.names_opencl_platform("gpu"));
  EXPECT_FALSE(c.names_opencl_platform("node1"));
  EXPECT_FALSE(c.names_opencl_platform("opencl0"));  // not listed, and no discovery here
  EXPECT_EQ(cpu->power.active_w, 12.5);
  EXPECT_EQ(cpu->power.idle_w, 2);  // an integer where a number is expected is fine
  EXPECT_TRUE(cpu->power_configured);
  const PlatformConfig* gpu = c.find("gpu");
  ASSERT_TRUE(gpu);
  EXPECT_EQ(gpu->type, PlatformType::OpenCL);
  EXPECT_EQ(gpu->device_match, "NVIDIA");
  EXPECT_TRUE(gpu->naive);
  EXPECT_EQ(gpu->memory_cap_bytes, 512u << 20);
  EXPECT_EQ(gpu->host_cores, 8);
  EXPECT_EQ(cpu->host_cores, -1) << "not set: the device decides";
  EXPECT_TRUE(gpu->fallback);
  EXPECT_FALSE(cpu->fallback) << "not set: a listed platform is a candidate like any other";
  const PlatformConfig* node = c.find("node1");
  ASSERT_TRUE(node);
  EXPECT_EQ(node->url, "https://node1.example.org:8443/cei");
  EXPECT_EQ(node->token, "s3cret");
  EXPECT_EQ(node->prices.per_gb, 0.09);
  EXPECT_EQ(node->prices.per_hour, 0.5);
  EXPECT_FALSE(node->power_configured);
  EXPECT_EQ(c.policy.name, "static");
  EXPECT_EQ(c.policy.j_per_s, 7);
  EXPECT_EQ(c.policy.budget, 0.25);
  EXPECT_EQ(c.policy.slack_s, 1.5);
  EXPECT_EQ(c.policy.static_map.at("MatmulCEI.multiply"), "gpu");
  EXPECT_EQ(c.policy.static_map.at("sort"), "node1");
  EXPECT_EQ(c.failure.policy, FailurePolicy::Retry);
  EXPECT_EQ(c.failure.retries, 3);
  EXPECT_EQ(c.failure.timeout_ms, 5000);
  EXPECT_EQ(c.profile.path, "profile.json");
  EXPECT_EQ(c.profile.explore_runs, 2);
  EXPECT_EQ(c.profile.default_exec_s, 0.01);
}

TEST(Config, EmbeddedDefaultIsCpuPlusEveryOpenCLDevice) {
  Config c = default_config();
  ASSERT_EQ(c.platforms.size(), 1u);
  EXPECT_EQ(c.platforms[0].name, "cpu");
  EXPECT_EQ(c.platforms[0].cores, 0);
  EXPECT_TRUE(c.all_opencl_devices);
  EXPECT_TRUE(c.knows_platform("opencl0"));
  EXPECT_TRUE(c.knows_platform("opencl12"));
  EXPECT_FALSE(c.knows_platform("opencl"));
  EXPECT_FALSE(c.knows_platform("gpu"));
  EXPECT_TRUE(c.names_opencl_platform("opencl3"));
  EXPECT_FALSE(c.names_opencl_platform("cpu"));
  EXPECT_FALSE(c.names_opencl_platform("node1"));  // only:node1 opens no device
  EXPECT_EQ(c.policy.name, "dynperf");
  EXPECT_EQ(c.policy.j_per_s, 5);
  PlatformConfig ocl = c.platform_or_default("opencl1", PlatformType::OpenCL);
  EXPECT_EQ(ocl.type, PlatformType::OpenCL);
  EXPECT_GT(ocl.power.active_w, ocl.power.idle_w);
  EXPECT_FALSE(ocl.power_configured);
}

TEST(Config, EnvironmentOverrides) {
  setenv("CEI_PLATFORMS", (kDir + "/good.toml").c_str(), 1);
  setenv("CEI_POLICY", "only:node1", 1);
  setenv("CEI_DYNEN_J_PER_S", "0.5", 1);
  setenv("CEI_CPU_CORES", "2", 1);
  setenv("CEI_PROFILE", "/tmp/p.json", 1);
  Config c = config_from_env();
  EXPECT_EQ(c.policy.name, "only:node1");
  EXPECT_EQ(c.policy.j_per_s, 0.5);
  EXPECT_EQ(c.find("cpu")->cores, 2);
  EXPECT_EQ(c.profile.path, "/tmp/p.json");

  setenv("CEI_POLICY", "only:tpu", 1);
  EXPECT_THROW(config_from_env(), ConfigError);
  setenv("CEI_POLICY", "dynen", 1);
  setenv("CEI_DYNEN_J_PER_S", "five", 1);
  try {
    config_from_env();
    FAIL() << "CEI_DYNEN_J_PER_S=five accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "CEI_DYNEN_J_PER_S");
  }
  setenv("CEI_DYNEN_J_PER_S", "5", 1);
  setenv("CEI_CPU_CORES", "1.5", 1);
  EXPECT_THROW(config_from_env(), ConfigError);
  for (const char* v :
       {"CEI_PLATFORMS", "CEI_POLICY", "CEI_DYNEN_J_PER_S", "CEI_CPU_CORES", "CEI_PROFILE"})
    unsetenv(v);
  EXPECT_EQ(config_from_env().source, "<embedded>");
}

struct BadConfig {
  const char* file;
  int line;
  const char* key;
  const char* message_part;
};

class BadConfigs : public ::testing::TestWithParam<BadConfig> {};

TEST_P(BadConfigs, NameFileLineAndKey) {
  const BadConfig& bad = GetParam();
  const std::string path = kDir + "/" + bad.file;
  try {
    load_config(path);
    FAIL() << path << " was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), bad.line) << e.what();
    EXPECT_EQ(e.key(), bad.key) << e.what();
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ":" + std::to_string(bad.line) + ": " + bad.key + ": ", 0), 0u)
        << what;
    EXPECT_NE(what.find(bad.message_part), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Decision, BadConfigs,
    ::testing::Values(
        BadConfig{"unknown_key.toml", 3, "platforms.cpu.cors", "unknown key"},
        BadConfig{"too_many_cores.toml", 3, "platforms.cpu.cores", "must be <= 1024"},
        BadConfig{"infinite_power.toml", 4, "platforms.cpu.active_w", "must be a finite number"},
        BadConfig{"wrong_type.toml", 6, "platforms.gpu.active_w", "expected a number, got string"},
        BadConfig{"static_unknown_platform.toml", 8, "policy.static.multiply",
                  "unknown platform 'gpu'"},
        BadConfig{"bad_url.toml", 4, "platforms.node1.url", "bad URL"},
        BadConfig{"bad_port.toml", 4, "platforms.node1.url", "bad URL"},
        BadConfig{"unknown_policy.toml", 3, "policy.name", "unknown policy 'fastest'"},
        BadConfig{"only_unknown_platform.toml", 4, "policy.name",
                  "unknown platform 'gpu' (platforms: cpu; did you mean 'cpu'?)"},
        BadConfig{"negative_power.toml", 3, "platforms.cpu.active_w", "must be >= 0"},
        BadConfig{"key_for_other_type.toml", 3, "platforms.cpu.device",
                  "only for type = \"opencl\""},
        BadConfig{"host_cores_on_cpu.toml", 4, "platforms.cpu.host_cores",
                  "only for type = \"opencl\""},
        BadConfig{"negative_host_cores.toml", 4, "platforms.pocl.host_cores", "must be >= 0"},
        BadConfig{"fallback_not_boolean.toml", 6, "platforms.pocl.fallback",
                  "expected a boolean, got string"},
        BadConfig{"empty_platforms.toml", 2, "platforms", "names no platform"},
        BadConfig{"unknown_type.toml", 3, "platforms.tpu.type", "unknown platform type 'tpu'"},
        BadConfig{"missing_token.toml", 1, "platforms.node1.token", "missing key"},
        BadConfig{"token_crlf.toml", 4, "platforms.node1.token",
                  "control characters (CR, LF, ...) are not allowed"},
        BadConfig{"unknown_section.toml", 4, "scheduler", "unknown key"},
        BadConfig{"syntax.toml", 2, "(syntax)", ""},
        BadConfig{"bad_failure.toml", 2, "failure.retries", "expected an integer"},
        BadConfig{"float_cores.toml", 3, "platforms.cpu.cores", "expected an integer"}),
    [](const auto& info) {
      std::string n = info.param.file;
      return n.substr(0, n.find('.'));
    });

// The run summary spells a CE "Iface::ce": a static map written that way means "Iface.ce".
TEST(Config, StaticMapTakesTheRunSummarysSpelling) {
  const Config c = parse_config(
      "[platforms.cpu]\ntype = \"cpu\"\n[policy.static]\n\"KMeansCEI::assign\" = \"cpu\"\n",
      "p.toml");
  EXPECT_EQ(c.policy.static_map.at("KMeansCEI.assign"), "cpu");
  const std::string ces[] = {"KMeansCEI.assign", "KMeansCEI.update"};
  EXPECT_NO_THROW(check_static_map(c, ces));
}

// A CE the program does not have is refused at its line, with the program's CEs and the closest.
TEST(Config, StaticMapNamingNoCeOfTheProgramIsRefused) {
  const Config c = parse_config(
      "[platforms.cpu]\ntype = \"cpu\"\n[policy.static]\nupdate = \"cpu\"\nasign = \"cpu\"\n",
      "p.toml");
  const std::string ces[] = {"KMeansCEI.assign", "KMeansCEI.update"};
  try {
    check_static_map(c, ces);
    FAIL() << "asign was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "p.toml:5: policy.static.asign: no CE of that name in this program (CEs: "
              "KMeansCEI.assign, KMeansCEI.update; did you mean 'KMeansCEI.assign'?)");
  }
  EXPECT_NO_THROW(check_static_map(c, {}));  // a program whose CEs are not registered
}

TEST(Config, MissingFileIsAnError) {
  EXPECT_THROW(load_config(kDir + "/no-such.toml"), ConfigError);
}

}  // namespace
}  // namespace cei::rt
