// Starts a real worker process on 127.0.0.1 (a free port) for a test, and stops it.
#pragma once

#include <string>
#include <vector>

namespace remote_test {

class WorkerProcess {
 public:
  // Extra command-line arguments follow --host/--port/--token-file. `port` 0 takes a free one;
  // `binary` null runs the test application's worker (CEI_TEST_WORKER).
  explicit WorkerProcess(std::vector<std::string> extra = {}, std::string token = "test-token",
                         int port = 0, const char* binary = nullptr);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  const std::string& url() const { return url_; }
  const std::string& token() const { return token_; }
  int port() const { return port_; }
  int pid() const { return pid_; }
  void kill9();   // SIGKILL, as a crash
  void stop();    // SIGTERM and wait
  void freeze();  // SIGSTOP: the process and its connections stay, and nothing answers
  void thaw();    // SIGCONT: a frozen one answers again, as the same instance
  // SIGTERM and wait up to 10 s: the node's exit status, or -1 when it had to be killed.
  int terminate();

 private:
  std::string token_, url_, token_file_;
  int port_ = 0;
  int pid_ = -1;
};

int free_port();

// A self-signed certificate for 127.0.0.1 (as name and as IP) and its key, made by openssl in a
// fresh folder under the temporary directory (removed with it), for a node serving https.
// Throws when openssl fails.
class TestCertificate {
 public:
  TestCertificate();
  ~TestCertificate();
  TestCertificate(const TestCertificate&) = delete;
  TestCertificate& operator=(const TestCertificate&) = delete;

  const std::string& cert() const { return cert_; }
  const std::string& key() const { return key_; }

 private:
  std::string dir_, cert_, key_;
};

}  // namespace remote_test
