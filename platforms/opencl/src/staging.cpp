#include "staging.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cei::opencl {

Staging::Staging(cl_context context, cl_device_id device) : context_(context) {
  cl_int err = CL_SUCCESS;
  queue_ = Queue(clCreateCommandQueue(context, device, 0, &err));
  check(err, "clCreateCommandQueue");
}

Staging::~Staging() {
  for (auto& [bytes, chunk] : pool_) drop(chunk);
  clFinish(queue_.get());
}

Staging::Chunk Staging::take(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  {
    std::lock_guard lock(mu_);
    if (auto it = pool_.lower_bound(bytes); it != pool_.end() && it->first <= 2 * bytes) {
      Chunk c = std::move(it->second);
      pooled_ -= it->first;
      pool_.erase(it);
      return c;
    }
  }
  Chunk c;
  cl_int err = CL_SUCCESS;
  cl_mem m =
      clCreateBuffer(context_, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (err != CL_SUCCESS) return c;
  c.mem = Mem(m);
  void* host = clEnqueueMapBuffer(queue_.get(), m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                  nullptr, nullptr, &err);
  if (err != CL_SUCCESS) return Chunk{};
  c.host = host;
  c.bytes = bytes;
  return c;
}

void Staging::fill(const Chunk& c, const void* from, std::size_t bytes) {
  auto* to = static_cast<unsigned char*>(c.host);
  const auto* src = static_cast<const unsigned char*>(from);
  std::size_t done = 0;
#if defined(__SSE2__)
  // Up to a 16-byte boundary of the destination (a map is page-aligned; this is for a chunk that
  // is not), then 64 bytes a round.
  done = std::min(bytes, (16 - reinterpret_cast<std::uintptr_t>(to) % 16) % 16);
  std::memcpy(to, src, done);
  for (; done + 64 <= bytes; done += 64)
    for (std::size_t k = 0; k < 64; k += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(to + done + k),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + done + k)));
  _mm_sfence();  // the streamed lines reach memory before the driver is told to copy them
#endif
  std::memcpy(to + done, src + done, bytes - done);
}

void Staging::give(Chunk chunk) {
  if (!chunk) return;
  std::vector<Chunk> dropped;
  {
    std::lock_guard lock(mu_);
    pooled_ += chunk.bytes;
    pool_.emplace(chunk.bytes, std::move(chunk));
    // Past the limit, the largest go first: they pin the most memory.
    while (pooled_ > kPooledMax) {
      auto last = std::prev(pool_.end());
      pooled_ -= last->first;
      dropped.push_back(std::move(last->second));
      pool_.erase(last);
    }
  }
  for (auto& c : dropped) drop(c);
}

std::size_t Staging::pooled_bytes() const {
  std::lock_guard lock(mu_);
  return pooled_;
}

void Staging::drop(Chunk& chunk) {
  clEnqueueUnmapMemObject(queue_.get(), chunk.mem.get(), chunk.host, 0, nullptr, nullptr);
  clFlush(queue_.get());
  chunk = Chunk{};  // the driver frees the buffer once the unmap is done
}

}  // namespace cei::opencl
