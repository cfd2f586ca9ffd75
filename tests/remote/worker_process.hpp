// Starts a real worker process on 127.0.0.1 (a free port) for a test, and stops it.
#pragma once

#include <string>
#include <vector>

namespace remote_test {

class WorkerProcess {
 public:
  // Extra command-line arguments follow --host/--port/--token-file.
  explicit WorkerProcess(std::vector<std::string> extra = {}, std::string token = "test-token");
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  const std::string& url() const { return url_; }
  const std::string& token() const { return token_; }
  int port() const { return port_; }
  void kill9();  // SIGKILL, as a crash
  void stop();   // SIGTERM and wait

 private:
  std::string token_, url_, token_file_;
  int port_ = 0;
  int pid_ = -1;
};

int free_port();

}  // namespace remote_test
