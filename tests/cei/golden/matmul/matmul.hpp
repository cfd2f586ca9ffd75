#pragma once
#include <cei/array.hpp>

namespace matmul {
cei::Matrix<int> multiply(const cei::Matrix<int>& A, const cei::Matrix<int>& B);
}
