#pragma once
#include <vector>

namespace sorting {
namespace radix {
void sort(std::vector<int>& v);
}
namespace merge {
void sort(std::vector<int>& v);
}
}  // namespace sorting
