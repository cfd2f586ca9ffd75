#include "client_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

namespace remote_test {

ClientProcess::ClientProcess(const std::vector<std::string>& argv,
                             const std::vector<std::string>& env, std::chrono::milliseconds grace)
    : grace_(grace) {
  int in[2], out[2], err[2];
  if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) throw std::runtime_error("pipe");
  pid_ = fork();
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with the test, even one that aborts
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  in_ = in[1];
  fds_[0] = out[0];
  fds_[1] = err[0];
}

ClientProcess::~ClientProcess() {
  if (in_ >= 0) close(in_);
  for (int fd : fds_)
    if (fd >= 0) close(fd);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

bool ClientProcess::ready() {
  pump([&] { return out_.find("ready\n") != std::string::npos; });
  return out_.find("ready\n") != std::string::npos;
}

void ClientProcess::go() {
  if (write(in_, "go\n", 3) != 3) ADD_FAILURE() << "the client's stdin is closed";
  close(in_);
  in_ = -1;
}

int ClientProcess::status() {
  if (!pump([&] { return fds_[0] < 0 && fds_[1] < 0; })) return -1;
  int status = 0;
  rusage usage{};
  wait4(pid_, &status, 0, &usage);
  max_rss_kib_ = usage.ru_maxrss;
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool ClientProcess::pump(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + grace_;
  while (!done()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0 || (fds_[0] < 0 && fds_[1] < 0)) return done();
    pollfd p[2] = {{fds_[0], POLLIN, 0}, {fds_[1], POLLIN, 0}};
    if (poll(p, 2, static_cast<int>(left)) <= 0) continue;
    std::string* into[2] = {&out_, &err_};
    for (int i = 0; i < 2; ++i) {
      if (fds_[i] < 0 || p[i].revents == 0) continue;
      char buf[4096];
      ssize_t n = read(fds_[i], buf, sizeof buf);
      if (n > 0) {
        into[i]->append(buf, static_cast<std::size_t>(n));
      } else {
        close(fds_[i]);
        fds_[i] = -1;
      }
    }
  }
  return true;
}

}  // namespace remote_test
