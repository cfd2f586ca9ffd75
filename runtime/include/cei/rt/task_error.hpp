// What the program sees when a Core Element threw: rethrown at the next sync on the task's
// outputs (or on anything computed from them), naming the CE. The original exception is nested.
//
//   try { cei::rt::sync(C); } catch (const cei::rt::TaskError& e) {
//     std::cerr << e.what();            // "CE MatmulCEI::multiply failed: bad size"
//     std::rethrow_if_nested(e);        // the CE's own exception
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
