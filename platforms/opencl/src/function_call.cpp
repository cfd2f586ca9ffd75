// OpenCL implementations that are host functions ([[cei::opencl(function = "ns::f")]]): the
// sibling of the kernel launch in launch.cpp, which marshals the arguments and publishes the
// outputs alike. The function gets an in-order queue whose commands follow a barrier on the
// task's inputs, so a library that takes no wait list (CLBlast) needs none.
#include "impl.hpp"

#include <cei/opencl_function.hpp>

#include <chrono>

namespace cei::opencl {

namespace {
std::array<std::size_t, 3> device_extents(const std::array<std::int64_t, 3>& e) {
  std::array<std::size_t, 3> out{};
  for (std::size_t d = 0; d < 3; ++d) out[d] = e[d] > 0 ? static_cast<std::size_t>(e[d]) : 1;
  return out;
}
}  // namespace

bool OpenCLPlatform::Impl::buildable(const rt::CeInfo& ce) {
  for (const rt::OpenCLImpl* cl : {ce.opencl, ce.opencl_approximate})
    if (cl && !cl->function && !programs.kernel_for(ce, *cl).kernel) return false;
  return true;
}

cl_event OpenCLPlatform::Impl::call_function(Running& r, const rt::OpenCLImpl& cl,
                                             cl_command_queue kq, const std::vector<cl_event>& wait,
                                             const std::vector<Bound>& args) {
  cl_command_queue q = function_queue(kq);
  if (!wait.empty()) flush_marked(q);
  cl_event begin = nullptr;
  check(clEnqueueBarrierWithWaitList(q, static_cast<cl_uint>(wait.size()),
                                     wait.empty() ? nullptr : wait.data(), &begin),
        "clEnqueueBarrierWithWaitList");
  r.begin = Event(begin);
  enqueued(q);

  std::vector<::cei::detail::DeviceBuffer> buffers(args.size());
  std::vector<void*> pointers(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].mem) {
      pointers[i] = const_cast<void*>(args[i].value);  // the adapter reads it as const T*
      continue;
    }
    buffers[i] = {args[i].mem, device_extents(args[i].extents)};
    pointers[i] = &buffers[i];
  }
  const ::cei::OpenCLCall call{q, context.get(), device.id, {&begin, 1}};
  const auto start = std::chrono::steady_clock::now();
  cl_event done = nullptr;
  try {
    done = static_cast<cl_event>(cl.function(&call, pointers.data()));
  } catch (const std::exception& e) {
    throw std::runtime_error("function " + std::string(cl.kernel_name) + " on " + name + ": " +
                             e.what());
  }
  r.host_call_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  enqueued(q);
  // No event: everything it enqueued is on q, which the marker follows.
  if (!done)
    check(clEnqueueMarkerWithWaitList(q, 0, nullptr, &done), "clEnqueueMarkerWithWaitList");
  return done;
}

}  // namespace cei::opencl
