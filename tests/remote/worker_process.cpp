#include "worker_process.hpp"

#include "node_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace remote_test {

TestCertificate::TestCertificate() {
  auto dir = std::filesystem::temp_directory_path() /
             ("cei-tls-" + std::to_string(getpid()) + "-" + std::to_string(free_port()));
  std::filesystem::create_directories(dir);
  dir_ = dir.string();
  cert_ = (dir / "cert.pem").string();
  key_ = (dir / "key.pem").string();
  std::string cmd =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
      "-addext subjectAltName=IP:127.0.0.1 -keyout " +
      key_ + " -out " + cert_ + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::filesystem::remove_all(dir_);
    throw std::runtime_error("openssl could not make a test certificate");
  }
}

TestCertificate::~TestCertificate() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

int free_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw std::runtime_error("bind");
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  close(s);
  return ntohs(a.sin_port);
}

WorkerProcess::WorkerProcess(std::vector<std::string> extra, std::string token, int port,
                             const char* binary)
    : token_(std::move(token)) {
  port_ = port != 0 ? port : free_port();
  url_ = "http://127.0.0.1:" + std::to_string(port_);
  token_file_ =
      "/tmp/cei-remote-test-token-" + std::to_string(getpid()) + "-" + std::to_string(port_);
  std::ofstream(token_file_) << token_ << "\n";
  std::vector<std::string> args = {binary ? binary : CEI_TEST_WORKER,
                                   "--host",
                                   "127.0.0.1",
                                   "--port",
                                   std::to_string(port_),
                                   "--token-file",
                                   token_file_};
#ifdef CEI_TEST_WORKER_EXECUTOR
  args.insert(args.end(), {"--executor", CEI_TEST_WORKER_EXECUTOR});
#endif
  args.insert(args.end(), extra.begin(), extra.end());
  pid_ = fork();
  if (pid_ == 0) {
    // The node dies with the test, even when the test is killed or aborts (a sanitizer report):
    // no orphan node keeps a port and a core.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  cei::remote::ClientOptions quick;
  quick.timeout = std::chrono::milliseconds(500);
  cei::remote::NodeClient probe(url_, token_, quick);
  for (int i = 0; i < 200; ++i) {
    if (probe.health()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  stop();
  throw std::runtime_error("the worker at " + url_ + " did not come up");
}

void WorkerProcess::kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void WorkerProcess::freeze() {
  if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void WorkerProcess::thaw() {
  if (pid_ > 0) ::kill(pid_, SIGCONT);
}

void WorkerProcess::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGCONT);  // a frozen one too
  ::kill(pid_, SIGTERM);
  int status = 0;
  for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (waitpid(pid_, &status, WNOHANG) == 0) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
}

int WorkerProcess::terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  bool exited = false;
  for (int i = 0; i < 200 && !(exited = waitpid(pid_, &status, WNOHANG) == pid_); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!exited) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  return exited && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

WorkerProcess::~WorkerProcess() {
  stop();
  std::remove(token_file_.c_str());
}

}  // namespace remote_test
