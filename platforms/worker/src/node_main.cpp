#include <cei/worker/node.hpp>

#include <CLI/CLI.hpp>

#include <cctype>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string_view>
#include <utility>

namespace cei::worker {
namespace {

constexpr std::size_t kMaxTokenBytes = 4096;

// The token of --token-file: a regular file (/dev/zero or a FIFO would be read without end) of at
// most kMaxTokenBytes, trailing whitespace ignored, no control character within (the token is
// compared with a header's value, which cannot hold one).
std::string read_token(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::invalid_argument(path + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  std::string t(kMaxTokenBytes + 1, '\0');
  in.read(t.data(), static_cast<std::streamsize>(t.size()));
  if (in.bad()) throw std::invalid_argument(path + ": cannot be read");
  t.resize(static_cast<std::size_t>(in.gcount()));
  if (t.size() > kMaxTokenBytes)
    throw std::invalid_argument(path + ": larger than " + std::to_string(kMaxTokenBytes) +
                                " bytes: not a token");
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  if (t.empty()) throw std::invalid_argument(path + ": empty");
  for (char c : t)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw std::invalid_argument(path + ": control characters in the token");
  return t;
}

}  // namespace

int node_main(int argc, char** argv, std::span<const rt::CeInfo* const> ces,
              ExecutorFactory runtime_executor) {
  NodeOptions o;
  std::string token_file, platforms;
  double max_body_mb = static_cast<double>(o.max_body_bytes) / (1 << 20);
  double max_data_mb = static_cast<double>(o.max_data_bytes) / (1 << 20);
  std::string executor = "process";
  double min_rate_kib = static_cast<double>(o.min_rate_bytes_s) / 1024;
  CLI::App app{"CEI worker node: serves this application's Core Elements over REST (/v1/)"};
  app.set_version_flag("--version", "cei worker node (CEI) " CEI_VERSION);
  app.add_option("--host", o.host, "address to listen on")->capture_default_str();
  app.add_option("--port", o.port, "TCP port")->capture_default_str()->check(CLI::Range(1, 65535));
  app.add_option("--token-file", token_file, "file holding the bearer token clients must send")
      ->required();
  app.add_option("--platforms", platforms, "platform config of this node (TOML, as CEI_PLATFORMS)")
      ->check(CLI::ExistingFile);
  app.add_option("--max-body-mb", max_body_mb, "largest data upload, MiB")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--max-data-mb", max_data_mb, "all stored data, MiB")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--max-tasks", o.max_tasks, "tasks queued or running before 503")
      ->capture_default_str();
  app.add_option("--threads", o.threads,
                 "tasks at once, process and direct executors (0: every core)")
      ->capture_default_str();
  app.add_option("--executor", executor,
                 "process (each task in a child process), runtime (the node's Decision Engine, "
                 "in the node's process) or direct (the node's threads)")
      ->check(CLI::IsMember({"process", "runtime", "direct"}))
      ->capture_default_str();
  app.add_option("--task-timeout-ms", o.task_timeout_ms,
                 "process executor: kill a task running longer (0: only CEs' own timeouts)")
      ->capture_default_str()
      ->check(CLI::Range(0L, 86400000L));
  app.add_option("--finished-task-ttl-s", o.finished_task_ttl_s,
                 "forget a finished task after this long")
      ->capture_default_str()
      ->check(CLI::Range(0L, 604800L));
  app.add_option("--max-finished-tasks", o.max_finished_tasks, "finished tasks remembered at most")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{10000000}));
  app.add_option("--min-rate-kib", min_rate_kib,
                 "slowest body transfer kept, KiB/s over each --rate-window-s")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--rate-window-s", o.rate_window_s, "window of --min-rate-kib, seconds")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  app.add_option("--max-connections", o.max_connections,
                 "connections open at once; past it a newcomer replaces the oldest one without "
                 "the token yet, or is closed unanswered")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  app.add_option("--max-peer-connections", o.max_peer_connections,
                 "connections from one address without the token yet; past it a newcomer "
                 "replaces that address's oldest")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  app.add_option("--head-timeout-s", o.head_timeout_s, "a request head must arrive within this")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  app.add_option("--tls-cert", o.tls_cert, "PEM certificate chain: serve https")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", o.tls_key, "PEM private key of --tls-cert")->check(CLI::ExistingFile);
  app.add_option("--tls-dh", o.tls_dh, "PEM DH parameters (optional)")->check(CLI::ExistingFile);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a bad option or value exits 2 after naming it.
    return app.exit(e) == 0 ? 0 : 2;
  }
  // An option the chosen executor would not use is refused, not dropped: a node started with
  // --platforms and the default executor would run every task natively on the CPU.
  for (const auto& [option, executors] :
       {std::pair<const char*, const char*>{"--platforms", "runtime"},
        {"--threads", "process or direct"},
        {"--task-timeout-ms", "process"}})
    if (app.count(option) && std::string_view(executors).find(executor) == std::string_view::npos) {
      std::cerr << option << ": not used by --executor " << executor << " (only by --executor "
                << executors << ")\nRun with --help for more information.\n";
      return 2;
    }
  try {
    o.token = read_token(token_file);
  } catch (const std::invalid_argument& e) {
    std::cerr << "--token-file: " << e.what() << "\nRun with --help for more information.\n";
    return 2;
  }
  try {
    o.max_body_bytes = static_cast<std::size_t>(max_body_mb * (1 << 20));
    o.max_data_bytes = static_cast<std::size_t>(max_data_mb * (1 << 20));
    o.min_rate_bytes_s = static_cast<std::size_t>(min_rate_kib * 1024);
    o.isolate = executor == "process";
    if (executor == "runtime") {
      if (!runtime_executor)
        throw std::runtime_error("this node was built without the CEI runtime");
      o.executor = runtime_executor;
    }
    if (!platforms.empty()) setenv("CEI_PLATFORMS", platforms.c_str(), 1);
    // Block the signals before any thread starts so that only sigwait sees them.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    Node node(o, ces);
    node.open();
    std::cout << "cei worker listening on " << node.url() << " (" << ces.size() << " CEs)"
              << std::endl;
    int sig = 0;
    sigwait(&set, &sig);
    node.close();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "cei worker: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace cei::worker
