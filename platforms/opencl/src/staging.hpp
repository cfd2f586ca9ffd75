// Pinned host memory for the copies between the host and a GPU.
//
// A copy from or to pageable memory goes, in NVIDIA's driver, through staging buffers of the
// driver's own, filled and drained by its worker threads. Runs of matmul 4096/512 on an H100 that
// sent every block to the GPU at once hung with one of those workers in a timed wait, holding the
// driver's lock, and every other thread that called the driver (its callback thread, ours
// releasing buffers) waiting for that lock. From pinned memory a copy is a plain DMA, which no
// driver thread stages. So a GPU's copies go through chunks of pinned memory
// (CL_MEM_ALLOC_HOST_PTR, mapped once): an upload copies the value into a chunk on the launching
// thread, a read lands in a chunk and is copied out when it completes. A chunk goes back to the
// pool once the copy that used it has completed; the pool keeps at most kPooledMax bytes.
//
// Usage:
//   Staging staging(context, device);
//   Staging::Chunk c = staging.take(bytes);       // empty when pinned memory cannot be had
//   Staging::fill(c, value, bytes);
//   clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, c.host, 0, nullptr, &ev);
//   ... once ev has completed: staging.give(std::move(c));
//
// Thread-safety: take() and give() may be called from any thread at once.
#pragma once

#include "cl.hpp"

#include <cstddef>
#include <map>
#include <mutex>

namespace cei::opencl {

class Staging {
 public:
  struct Chunk {
    Mem mem;
    void* host = nullptr;  // mapped for reading and writing as long as the chunk lives
    std::size_t bytes = 0;
    explicit operator bool() const { return host != nullptr; }
  };
  static constexpr std::size_t kPooledMax = std::size_t{256} << 20;

  Staging(cl_context context, cl_device_id device);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // A chunk of at least `bytes` (at most twice that, from the pool), or an empty one when the
  // driver has no pinned memory to give: the caller then copies from its own memory.
  Chunk take(std::size_t bytes);
  // Copies `bytes` (at most c.bytes) from `from` into c for an upload, with non-temporal stores
  // where the CPU has them: the lines go to memory, not the copying core's cache. An upload of
  // 0.9 MB right after a plain memcpy into its chunk took 40 us on an H100 (the copy engine's
  // reads of lines modified in a core's cache), 19 us after this copy or from lines long written.
  // Any thread.
  static void fill(const Chunk& c, const void* from, std::size_t bytes);
  // Back to the pool; the copy that used it has completed.
  void give(Chunk chunk);
  // Bytes of the chunks idle in the pool.
  std::size_t pooled_bytes() const;

 private:
  void drop(Chunk& chunk);  // unmaps and releases

  cl_context context_;
  Queue queue_;  // for the maps alone: a map on a copy queue would wait for every copy before it
  mutable std::mutex mu_;
  std::multimap<std::size_t, Chunk> pool_;  // under mu_
  std::size_t pooled_ = 0;                  // under mu_
};

}  // namespace cei::opencl
