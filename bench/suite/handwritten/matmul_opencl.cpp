// matmul's Core Elements as hand-written synchronous OpenCL (see cl_host.hpp), linked with the
// example's unchanged main.cpp in place of matmul.cpp.
#include "cl_host.hpp"
#include "matmul.hpp"

namespace matmul {

cei::Matrix<int> multiply(const cei::Matrix<int>& A, const cei::Matrix<int>& B) {
  cei::Matrix<int> C(A.extent(0), B.extent(1));
  cl_host::run("multiply", {cl_host::in(A), cl_host::in(B)}, {A.extent(0), B.extent(1)}, {}, C);
  return C;
}

cei::Matrix<int> add(const cei::Matrix<int>& A, const cei::Matrix<int>& B) {
  cei::Matrix<int> C(A.extent(0), A.extent(1));
  cl_host::run("add", {cl_host::in(A), cl_host::in(B)}, {A.extent(0), A.extent(1)}, {}, C);
  return C;
}

}  // namespace matmul
