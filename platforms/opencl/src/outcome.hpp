// What became of the command that writes device replicas (a task's kernel, an input's copy), as
// the program will see it. A task's outputs are published when its kernel is enqueued, before it
// runs: if it then fails, every read of those outputs (the host's, a successor's) must report the
// failure instead of a value. One Outcome is shared by all of a task's outputs, so that each of
// them and every successor report one and the same exception (the runtime matches reported
// errors by identity), named after the Core Element where the failure started.
//
//   auto what = std::make_shared<const std::string>("kernel inc on opencl0");  // one per kernel
//   auto outcome = std::make_shared<Outcome>(&ce, what, kernel_event, sources);
//   if (auto e = outcome->failure()) return done(e);   // a TaskError: "CE Iface::inc failed: ..."
#pragma once

#include "cl.hpp"

#include <cei/rt/ce.hpp>

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cei::opencl {

class Outcome {
 public:
  // ce: the task's Core Element (null for an input copy); what: the command, for the message
  // (shared, not copied: a kernel's is built once, not per task); sources: the outcomes of what
  // the command waited for, where a failure may have started.
  Outcome(const rt::CeInfo* ce, std::shared_ptr<const std::string> what, cl_event command,
          std::vector<std::weak_ptr<Outcome>> sources);

  // Null while the command has not failed; else the failure as an rt::TaskError naming the CE,
  // the one where it started when the command failed because a command it waited for did.
  std::exception_ptr failure();
  // The failure, now that the command ended with `status` < 0.
  std::exception_ptr failed(cl_int status);
  // Now that the command ended with a status >= 0: null when every command it waited for, and
  // theirs, succeeded; else that failure, now this command's too. A driver may run a command
  // although one it waited for failed (PoCL's in-order queues do), on inputs that are garbage.
  std::exception_ptr completed();
  // Now that the command ended, whatever its status: its own failure or completed()'s.
  std::exception_ptr ended();

 private:
  std::exception_ptr settle(std::exception_ptr e);  // the first failure settled wins

  const rt::CeInfo* ce_;
  std::shared_ptr<const std::string> what_;
  Event command_;
  std::vector<std::weak_ptr<Outcome>> sources_;
  std::mutex mu_;
  std::exception_ptr error_;
  // The command and everything upstream succeeded: checked once, so a chain's checks stop at
  // the commands completed before (no driver call, no walk up the whole chain).
  std::atomic<bool> ok_{false};
};

}  // namespace cei::opencl
