// Handles destroyed inside an OpenCL event callback: their release waits for a thread outside one
// (releasing there deadlocked NVIDIA's driver). PoCL, a real context and a user event.
#include "cl.hpp"

#include <gtest/gtest.h>

namespace cei::opencl {
namespace {

TEST(Handles, AReleaseInsideAnEventCallbackWaitsForTheNextReleaseOutsideOne) {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  ASSERT_EQ(clGetPlatformIDs(1, &platform, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  Context context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  Event event(clCreateUserEvent(context.get(), &err));
  ASSERT_EQ(err, CL_SUCCESS);
  auto references = [&] {
    cl_uint n = 0;
    clGetEventInfo(event.get(), CL_EVENT_REFERENCE_COUNT, sizeof n, &n, nullptr);
    return n;
  };
  auto drop_in_callback = [](Event e) {
    in_event_callback = true;
    e = Event();
    in_event_callback = false;
  };
  drop_in_callback(event);
  EXPECT_EQ(references(), 2u);                    // kept, not released inside the callback
  Event(clCreateUserEvent(context.get(), &err));  // a release outside a callback releases it too
  EXPECT_EQ(references(), 1u);

  drop_in_callback(event);
  EXPECT_EQ(references(), 2u);
  release_deferred();
  EXPECT_EQ(references(), 1u);
}

}  // namespace
}  // namespace cei::opencl
