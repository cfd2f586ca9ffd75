// A client program of the remote tests in a process of its own, with its stdin, stdout and stderr
// on pipes, for tests that act on its node while it runs and then judge how it ended.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace remote_test {

class ClientProcess {
 public:
  // Runs argv[0] with argv and these extra environment variables ("NAME=value"). Every wait
  // below ends `grace` after it began at the latest.
  ClientProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                std::chrono::milliseconds grace);
  ~ClientProcess();  // kills it if still running
  ClientProcess(const ClientProcess&) = delete;
  ClientProcess& operator=(const ClientProcess&) = delete;

  // Whether it printed "ready" before the deadline.
  bool ready();
  // Lets it go on (a line on its stdin).
  void go();
  // Its exit status once it closed its output; -1 if it did not within the grace time (then it
  // is killed), or ended by a signal.
  int status();
  // Its peak resident memory, once status() has seen it end.
  long max_rss_kib() const { return max_rss_kib_; }
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  // Reads stdout and stderr until done() or the grace time from now; false at the deadline.
  bool pump(const std::function<bool()>& done);

  std::chrono::milliseconds grace_;
  pid_t pid_ = -1;
  int in_ = -1;
  int fds_[2] = {-1, -1};  // its stdout, its stderr
  std::string out_, err_;
  long max_rss_kib_ = 0;
};

}  // namespace remote_test
