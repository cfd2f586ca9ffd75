// Pinned chunks for host copies (staging.hpp), on PoCL: reuse by size, and the bound on what the
// pool keeps idle.
#include "staging.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace cei::opencl {
namespace {

struct Pocl {
  Pocl() {
    cl_platform_id platform = nullptr;
    check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
    cl_int err = CL_SUCCESS;
    context = Context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
    check(err, "clCreateContext");
  }
  cl_device_id device = nullptr;
  Context context;
};

TEST(Staging, AChunkGivenBackServesTheNextCopyOfUpToItsSize) {
  Pocl cl;
  Staging staging(cl.context.get(), cl.device);
  Staging::Chunk a = staging.take(1000);
  ASSERT_TRUE(a);
  std::memset(a.host, 7, 1000);  // mapped for writing
  void* where = a.host;
  staging.give(std::move(a));
  Staging::Chunk small = staging.take(400);  // more than twice its size: not that chunk
  EXPECT_NE(small.host, where);
  Staging::Chunk b = staging.take(600);
  EXPECT_EQ(b.host, where);
  EXPECT_EQ(static_cast<unsigned char*>(b.host)[999], 7);
  staging.give(std::move(b));
  staging.give(std::move(small));
}

TEST(Staging, FillCopiesEveryByteWhateverTheAlignmentAndSize) {
  Pocl cl;
  Staging staging(cl.context.get(), cl.device);
  std::vector<unsigned char> src(5000);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 1);
  Staging::Chunk c = staging.take(src.size() + 64);
  ASSERT_TRUE(c);
  for (std::size_t offset : {0, 1, 15, 17})
    for (std::size_t bytes : {0, 1, 15, 16, 63, 64, 65, 1000, 4999 - 17}) {
      std::memset(c.host, 0, c.bytes);
      Staging::Chunk at{Mem(), static_cast<unsigned char*>(c.host) + offset, c.bytes - offset};
      Staging::fill(at, src.data() + offset, bytes);
      const auto* got = static_cast<const unsigned char*>(c.host);
      EXPECT_EQ(std::memcmp(got + offset, src.data() + offset, bytes), 0)
          << "offset " << offset << ", " << bytes << " bytes";
      EXPECT_EQ(got[offset + bytes], 0) << "past the end: offset " << offset << ", " << bytes;
    }
  staging.give(std::move(c));
}

TEST(Staging, ThePoolKeepsAtMostItsLimitIdleDroppingTheLargest) {
  Pocl cl;
  Staging staging(cl.context.get(), cl.device);
  const std::size_t big = Staging::kPooledMax / 2 + 1;
  Staging::Chunk a = staging.take(big), b = staging.take(big), c = staging.take(64);
  ASSERT_TRUE(a && b && c);
  void* kept = a.host;
  void* small = c.host;
  staging.give(std::move(c));
  staging.give(std::move(a));
  staging.give(std::move(b));  // past the limit: one of the two large ones goes
  EXPECT_EQ(staging.pooled_bytes(), big + 64);
  Staging::Chunk again = staging.take(64);
  EXPECT_EQ(again.host, small);
  Staging::Chunk one = staging.take(big);
  EXPECT_EQ(one.host, kept);
  EXPECT_EQ(staging.pooled_bytes(), 0u);
}

}  // namespace
}  // namespace cei::opencl
