// Task isolation: every task runs in a child process forked for it, so that a CE that crashes,
// aborts, calls exit() or never returns ends that task only. The node stays one process that
// serves HTTP and supervises the children.
//
// Why fork per task, not a pool of pre-forked children fed over pipes: the child starts with the
// node's memory, so the inputs (stored host objects) are there without a copy or a transfer;
// only the outputs travel back, serialized into a memfd that the node maps and deserializes. A
// pre-forked child would need every input byte sent to it first. fork() copies page tables
// only, and of stored values only this task's inputs (fork_shield.hpp); docs/remote.md has the
// per-task cost measured against in-process execution.
//
// The child is a fork of a multithreaded process: it runs the CE's first native version, the
// serialization of its outputs and _exit, nothing of the node (no runtime, no OpenCL, whose
// threads do not exist there). A CE that needs a lock another node thread held at the fork
// would wait forever: the task's timeout ends it like any hung CE.
#include "executor.hpp"
#include "fork_shield.hpp"
#include "job_pool.hpp"

#include <cei/rt/native.hpp>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cei::worker {
namespace {

// What the child writes into the memfd: kOk and every output as <u64 size><serialized bytes>,
// or kThrew and the exception's message. A child that ends without either did not return.
constexpr char kOk = 'D', kThrew = 'E';

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool write_record(int fd, const std::string& bytes) {
  std::uint64_t n = bytes.size();
  return write_all(fd, reinterpret_cast<const char*>(&n), sizeof n) &&
         write_all(fd, bytes.data(), bytes.size());
}

// exit() from the CE: end at once with its status, before the node's static destructors run
// in a process where the node's threads do not exist. Registered last, so it runs first.
void on_ce_exit(int status, void*) {
  _exit(status);
}

[[noreturn]] void run_child(Job& job, int out_fd) {
  sigset_t none;
  sigemptyset(&none);
  pthread_sigmask(SIG_SETMASK, &none, nullptr);  // the node blocks SIGTERM for its sigwait
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // the node gone (even killed): its children go with it
  // Sockets, the listener and other tasks' memfds stay the node's: a hung child must not keep
  // a client's connection open.
  if (out_fd > 3) close_range(3, static_cast<unsigned>(out_fd) - 1, 0);
  close_range(static_cast<unsigned>(out_fd) + 1, ~0u, 0);
  on_exit(on_ce_exit, nullptr);
  const rt::CeInfo& ce = *job.ce;
  std::string error;
  try {
    rt::invoke_native(ce, 0, job.args);
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "exception without a message";
  } catch (...) {
    error = "unknown exception";
  }
  bool ok;
  if (!error.empty()) {
    ok = write_all(out_fd, &kThrew, 1) && write_all(out_fd, error.data(), error.size());
  } else {
    ok = write_all(out_fd, &kOk, 1);
    std::string bytes;
    for (std::size_t i = 0; ok && i <= ce.nparams; ++i) {
      bool is_result = i == ce.nparams;
      if (is_result ? !ce.result : ce.params[i].dir == rt::Dir::In) continue;
      const rt::TypeOps& t = is_result ? *ce.result : *ce.params[i].type;
      bytes.clear();
      t.serialize(job.args[i].get(), bytes);
      ok = write_record(out_fd, bytes);
    }
  }
  _exit(ok ? 0 : 125);
}

std::string ce_name(const rt::CeInfo& ce) {
  return std::string("CE ") + ce.interface_name + "::" + ce.name;
}

std::string describe_signal(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return "signal " + std::to_string(sig) + " (" + (abbrev ? "SIG" + std::string(abbrev) : "?") +
         ": " + strsignal(sig) + ")";
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

class ProcessExecutor : public Executor {
 public:
  ProcessExecutor(unsigned processes, long timeout_ms)
      : timeout_ms_(timeout_ms),
        pool_(processes ? processes : std::max(1u, std::thread::hardware_concurrency()),
              [this](Job& job) { execute(job); }) {}

  // Tasks still running are killed and queued ones fail: a node told to stop does not wait for
  // a CE that may never return.
  ~ProcessExecutor() override {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
      for (int pidfd : running_) syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
    }
  }

  void run(Job job) override { pool_.push(std::move(job)); }
  std::size_t workers() const override { return pool_.size(); }
  nlohmann::json platforms() const override {
    return nlohmann::json::array({{{"name", "cpu"}, {"kind", "cpu"}, {"workers", pool_.size()}}});
  }

 private:
  void execute(Job& job) {
    const rt::CeInfo& ce = *job.ce;
    if (ce.nversions == 0) throw std::runtime_error(ce_name(ce) + " has no native version");
    Fd out(memfd_create("cei-task", MFD_CLOEXEC));
    if (out.get() < 0) throw std::runtime_error(std::string("memfd_create: ") + strerror(errno));
    long timeout = ce.failure.timeout_ms > 0 ? ce.failure.timeout_ms : timeout_ms_;
    std::vector<std::pair<const void*, std::size_t>> inputs;
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      const rt::TypeOps& t = *ce.params[i].type;
      if (ce.params[i].dir == rt::Dir::Out || t.kind == rt::TypeKind::Object) continue;
      inputs.emplace_back(t.data(job.args[i].get()), t.bytes(job.args[i].get()));
    }
    int status = 0;
    bool timed_out = false;
    {
      std::unique_lock lock(mu_);
      if (stopping_) throw std::runtime_error("the node is stopping");
      pid_t pid = fork_shield::fork_with(inputs);
      if (pid < 0) throw std::runtime_error(std::string("fork: ") + strerror(errno));
      if (pid == 0) run_child(job, out.get());
      Fd pidfd(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
      if (pidfd.get() < 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        throw std::runtime_error(std::string("pidfd_open: ") + strerror(errno));
      }
      running_.insert(pidfd.get());
      lock.unlock();
      pollfd p{pidfd.get(), POLLIN, 0};
      int n;
      do {
        n = ::poll(&p, 1, timeout > 0 ? static_cast<int>(timeout) : -1);
      } while (n < 0 && errno == EINTR);
      lock.lock();
      if (n == 0) {
        timed_out = true;
        syscall(SYS_pidfd_send_signal, pidfd.get(), SIGKILL, nullptr, 0);
      }
      running_.erase(pidfd.get());
      lock.unlock();
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    if (timed_out) {
      throw std::runtime_error(ce_name(ce) + " exceeded its timeout of " + std::to_string(timeout) +
                               " ms and was killed");
    }
    if (WIFSIGNALED(status)) {
      bool stopped = false;
      {
        std::lock_guard lock(mu_);
        stopped = stopping_;
      }
      if (stopped) throw std::runtime_error("the node stopped while " + ce_name(ce) + " ran");
      throw CeCrashed(ce_name(ce) + " was killed by " + describe_signal(WTERMSIG(status)));
    }
    read_outputs(job, out.get(), WEXITSTATUS(status));
  }

  static void read_outputs(Job& job, int fd, int exit_status) {
    const rt::CeInfo& ce = *job.ce;
    struct stat st {};
    if (fstat(fd, &st) != 0) throw std::runtime_error(std::string("fstat: ") + strerror(errno));
    auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0 || exit_status != 0) {
      throw CeCrashed(ce_name(ce) + " exited with status " + std::to_string(exit_status) +
                      " instead of returning (the CE called exit or its process failed)");
    }
    void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) throw std::runtime_error(std::string("mmap: ") + strerror(errno));
    struct Unmap {
      void* p;
      std::size_t n;
      ~Unmap() { munmap(p, n); }
    } unmap{map, size};
    std::string_view in(static_cast<const char*>(map), size);
    if (in[0] == kThrew) throw std::runtime_error(std::string(in.substr(1)));
    in.remove_prefix(1);
    for (std::size_t i = 0; i <= ce.nparams; ++i) {
      bool is_result = i == ce.nparams;
      if (is_result ? !ce.result : ce.params[i].dir == rt::Dir::In) continue;
      std::uint64_t n = 0;
      if (in.size() < sizeof n) throw std::runtime_error(ce_name(ce) + ": truncated outputs");
      std::memcpy(&n, in.data(), sizeof n);
      in.remove_prefix(sizeof n);
      if (in.size() < n) throw std::runtime_error(ce_name(ce) + ": truncated outputs");
      const rt::TypeOps& t = is_result ? *ce.result : *ce.params[i].type;
      t.deserialize(job.args[i].get(), in.substr(0, n));
      in.remove_prefix(n);
    }
  }

  long timeout_ms_;
  std::mutex mu_;  // fork under it: a stop between fork and `running_` would miss the child
  bool stopping_ = false;
  std::set<int> running_;  // pidfds of the children running
  JobPool pool_;           // last: its threads use the members above
};

}  // namespace

std::unique_ptr<Executor> make_process_executor(unsigned processes, long timeout_ms) {
  return std::make_unique<ProcessExecutor>(processes, timeout_ms);
}

}  // namespace cei::worker
