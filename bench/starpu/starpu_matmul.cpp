// examples/matmul's task graph on StarPU 1.3, for a side-by-side with CEI on the same machine:
// the same tiles, the same OpenCL kernels (examples/matmul/matmul.cl, embedded at build time),
// the same native loops, the same dependencies (C_ij = A_i0 B_0j, then C_ij += A_ik B_kj for
// k = 1..nb-1, each product a task of its own) and the same checksum.
//   cei-starpu-matmul [N=512] [BLOCK=128]     STARPU_SCHED=dmda (default here), STARPU_NCPU, ...
// Prints the makespan from the first submission until C is back in host memory, as CEI's run
// summary counts it (first submission to last task or transfer), and StarPU's start-up apart.
#include "tiles.hpp"

#include <starpu.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

const char* const kKernels =
#include "matmul_cl.inc"
    ;

starpu_opencl_program program_;  // matmul.cl, built for every OpenCL worker

std::uint32_t side(void* m) {
  return STARPU_MATRIX_GET_NX(m);
}
int* elements(void* m) {
  return reinterpret_cast<int*>(STARPU_MATRIX_GET_PTR(m));
}

// Mirrors matmul::multiply (i-k-j order) on StarPU's buffers: P = A B.
void multiply_cpu(void** buffers, void*) {
  const std::uint32_t n = side(buffers[0]);
  const int *a = elements(buffers[0]), *b = elements(buffers[1]);
  int* c = elements(buffers[2]);
  std::fill(c, c + std::size_t{n} * n, 0);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t p = 0; p < n; ++p) {
      const int v = a[i * n + p];
      for (std::uint32_t j = 0; j < n; ++j) c[i * n + j] += v * b[p * n + j];
    }
}

// C += P, element-wise.
void add_cpu(void** buffers, void*) {
  const std::uint32_t n = side(buffers[0]);
  int* c = elements(buffers[0]);
  const int* p = elements(buffers[1]);
  for (std::size_t k = 0; k < std::size_t{n} * n; ++k) c[k] += p[k];
}

// Runs `kernel` with global size n x n on the buffers in `order` (the kernels' last parameter is
// the one written).
void launch(const char* kernel_name, void** buffers, std::initializer_list<int> order) {
  const std::uint32_t n = side(buffers[0]);
  const int dev = starpu_worker_get_devid(starpu_worker_get_id());
  cl_kernel kernel;
  cl_command_queue queue;
  if (starpu_opencl_load_kernel(&kernel, &queue, &program_, kernel_name, dev) != CL_SUCCESS)
    STARPU_OPENCL_REPORT_ERROR(CL_INVALID_KERNEL);
  cl_uint arg = 0;
  for (int b : order) {
    cl_mem mem = reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[b]));
    clSetKernelArg(kernel, arg++, sizeof mem, &mem);
  }
  const size_t global[2] = {n, n};
  // STARPU_OPENCL_ASYNC: StarPU waits for the queue itself, so the kernel is only enqueued here.
  const cl_int err =
      clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(err);
  starpu_opencl_release_kernel(kernel);
}

void multiply_cl(void** buffers, void*) {
  launch("multiply", buffers, {0, 1, 2});
}
// The kernel writes its third argument: C = C + P with C passed twice.
void add_cl(void** buffers, void*) {
  launch("add", buffers, {0, 1, 0});
}

starpu_perfmodel multiply_model = [] {
  starpu_perfmodel m{};
  m.type = STARPU_HISTORY_BASED;
  m.symbol = "cei_matmul_multiply";
  return m;
}();
starpu_perfmodel add_model = [] {
  starpu_perfmodel m{};
  m.type = STARPU_HISTORY_BASED;
  m.symbol = "cei_matmul_add";
  return m;
}();

starpu_codelet codelet(starpu_cpu_func_t cpu, starpu_opencl_func_t cl, starpu_perfmodel* model,
                       std::initializer_list<starpu_data_access_mode> modes) {
  starpu_codelet c{};
  c.cpu_funcs[0] = cpu;
  c.opencl_funcs[0] = cl;
  c.opencl_flags[0] = STARPU_OPENCL_ASYNC;
  c.nbuffers = static_cast<int>(modes.size());
  int i = 0;
  for (auto m : modes) c.modes[i++] = m;
  c.model = model;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 512;
  const std::size_t block = argc > 2 ? std::stoul(argv[2]) : 128;
  if (block == 0 || n % block != 0) {
    std::fprintf(stderr, "usage: %s [N] [BLOCK]  (N must be a multiple of BLOCK)\n", argv[0]);
    return 2;
  }
  setenv("STARPU_SCHED", "dmda", 0);
  const std::size_t nb = n / block;
  const std::vector<cei::Matrix<int>> A = matmul::random_tiles(n, block, 1);
  const std::vector<cei::Matrix<int>> B = matmul::random_tiles(n, block, 2);
  std::vector<cei::Matrix<int>> C(nb * nb, cei::Matrix<int>(block, block));

  const auto t0 = std::chrono::steady_clock::now();
  if (starpu_init(nullptr) != 0) {
    std::fprintf(stderr, "cei-starpu-matmul: starpu_init failed\n");
    return 1;
  }
  if (starpu_opencl_load_opencl_from_string(kKernels, &program_, nullptr) != 0) {
    std::fprintf(stderr, "cei-starpu-matmul: cannot build matmul.cl\n");
    return 1;
  }
  starpu_codelet multiply_cl_ =
      codelet(multiply_cpu, multiply_cl, &multiply_model, {STARPU_R, STARPU_R, STARPU_W});
  starpu_codelet add_cl_ = codelet(add_cpu, add_cl, &add_model, {STARPU_RW, STARPU_R});

  auto reg = [block](const cei::Matrix<int>& m) {
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM,
                                reinterpret_cast<uintptr_t>(const_cast<int*>(m.data())), block,
                                block, block, sizeof(int));
    return h;
  };
  std::vector<starpu_data_handle_t> ha, hb, hc;
  for (std::size_t i = 0; i < nb * nb; ++i) {
    ha.push_back(reg(A[i]));
    hb.push_back(reg(B[i]));
    hc.push_back(reg(C[i]));
  }
  const auto t1 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < nb; ++i)
    for (std::size_t j = 0; j < nb; ++j) {
      starpu_data_handle_t c = hc[i * nb + j];
      starpu_task_insert(&multiply_cl_, STARPU_R, ha[i * nb], STARPU_R, hb[j], STARPU_W, c, 0);
      for (std::size_t k = 1; k < nb; ++k) {
        starpu_data_handle_t p;  // the block product, a temporary with no home in host memory
        starpu_matrix_data_register(&p, -1, 0, block, block, block, sizeof(int));
        starpu_task_insert(&multiply_cl_, STARPU_R, ha[i * nb + k], STARPU_R, hb[k * nb + j],
                           STARPU_W, p, 0);
        starpu_task_insert(&add_cl_, STARPU_RW, c, STARPU_R, p, 0);
        starpu_data_unregister_submit(p);
      }
    }
  starpu_task_wait_for_all();
  for (auto h : hc) starpu_data_unregister(h);  // brings every C tile back to host memory
  const auto t2 = std::chrono::steady_clock::now();
  for (auto h : ha) starpu_data_unregister(h);
  for (auto h : hb) starpu_data_unregister(h);
  starpu_opencl_unload_opencl(&program_);
  starpu_shutdown();

  std::printf("matmul: n=%zu block=%zu tasks=%zu\n", n, block, nb * nb * (2 * nb - 1));
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(matmul::checksum(C, n, block)));
  std::printf("starpu %s: makespan %.4f s, start-up %.4f s\n", std::getenv("STARPU_SCHED"),
              std::chrono::duration<double>(t2 - t1).count(),
              std::chrono::duration<double>(t1 - t0).count());
  return 0;
}
