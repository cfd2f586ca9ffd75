// The CEI vocabulary: include this from a Core Element Interface header.
//
//   struct [[cei::interface]] MatmulCEI {
//     [[cei::method(declaring_class = "matmul")]]
//     [[cei::opencl(kernel = "matmul.cl", global_work_size = "par0.x, par1.y",
//                   result_size = "par0.x, par1.y")]]
//     static cei::Matrix<int> multiply([[cei::in]] const cei::Matrix<int>& A,
//                                      [[cei::in]] const cei::Matrix<int>& B);
//   };
//
// The attributes are read by `ceic` (the compiler itself ignores them; the CMake target
// CEI::cei carries -Wno-attributes=cei:: for g++ and -Wno-unknown-attributes for clang):
//   [[cei::interface]]                       on a struct: its members are Core Elements
//   [[cei::method(declaring_class = "S")]]   a native version S::name (repeatable)
//   [[cei::opencl(kernel = "f.cl", global_work_size = "...", local_work_size = "...",
//                 offset = "...", result_size = "...", name = "...")]]
//   [[cei::opencl(function = "ns::f", result_size = "...")]]   a host function that enqueues the
//                                            work (CLBlast, ...): <cei/opencl_function.hpp>
//   [[cei::approximate(declaring_class = "S")]]   a cheaper, less accurate native version S::name
//   [[cei::opencl(..., approximate = true)]]      a cheaper, less accurate kernel
//   [[cei::significance("expr", droppable = true)]]  0..100, over the parameters as work sizes
//   [[cei::requires("par0.y == par1.x")]]   a condition every call's arguments meet (repeatable):
//                                            work-size terms, == != < <= > >=, && || !
//   [[cei::in]] [[cei::out]] [[cei::inout]]  parameter directions (in is the default)
//   [[cei::on_failure(policy = "retry|cancel_successors|ignore|fail", retries = N,
//                     timeout_ms = N)]]      what the runtime does when a task fails
//
// wait_on and barrier are for what the instrumenter cannot see (aliases through raw pointers):
//   int* p = A.data(); ...; cei::wait_on(A); use(p[0]);
// In the sequential twin (NAME-seq) they do nothing.
//
// cei::EnergyBudget and cei::AccuracyRatio (cei/budget.hpp) make the tasks of a scope a group
// planned under an energy budget or a share of accurate tasks.
#pragma once

#include <cei/array.hpp>
#include <cei/budget.hpp>

namespace cei {

namespace detail {
// Set by the runtime when it starts; null in programs built without it (the -seq twin).
inline void (*wait_hook)(const void* address) = nullptr;
inline void (*barrier_hook)() = nullptr;
}  // namespace detail

// Blocks until every pending task that writes `x` has finished and x holds the latest value.
template <typename T>
void wait_on(const T& x) {
  if (detail::wait_hook) detail::wait_hook(static_cast<const void*>(&x));
}

// Blocks until every task submitted so far has finished and all host data is up to date.
inline void barrier() {
  if (detail::barrier_hook) detail::barrier_hook();
}

}  // namespace cei
