// What the program sees when a task fails without an exception of its CE's own: a kernel that
// fails to build or run, a lost node, a timeout, a remote node's CE exception (which arrives as
// text). Rethrown at the next sync on the task's outputs (or on anything computed from them),
// naming the CE; the cause is nested. (An exception the CE's native implementation throws here
// reaches the program as itself, as in the sequential program.)
//
//   try { cei::rt::sync(C); } catch (const cei::rt::TaskError& e) {
//     std::cerr << e.what();            // "CE MatmulCEI::multiply failed: <the kernel's error>"
//     std::rethrow_if_nested(e);        // the cause
//   }
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace cei::rt {

class TaskError : public std::runtime_error, public std::nested_exception {
 public:
  TaskError(const std::string& ce, const std::string& message)
      : std::runtime_error("CE " + ce + " failed: " + message), ce_(ce) {}
  const std::string& ce() const { return ce_; }

 private:
  std::string ce_;
};

}  // namespace cei::rt
