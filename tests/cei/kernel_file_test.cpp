// Kernel names found in OpenCL C sources (for "kernel name not found in the .cl file").
#include <gtest/gtest.h>

#include "kernel_file.hpp"

namespace {

using cei::frontend::kernel_names;
using V = std::vector<std::string>;

TEST(KernelFile, FindsKernelsInEveryForm) {
  EXPECT_EQ(kernel_names("__kernel void a(int x) {}\n"
                         "kernel void b() {}\n"
                         "__kernel __attribute__((reqd_work_group_size(4, 4, 1))) void c() {}\n"
                         "void helper(int y) {}\n"),
            (V{"a", "b", "c"}));
}

TEST(KernelFile, IgnoresCommentsAndStrings) {
  EXPECT_EQ(kernel_names("// __kernel void gone() {}\n"
                         "/* kernel void also_gone() */\n"
                         "constant char* s = \"kernel void nope(\";\n"
                         "__kernel void real(global float* p) { p[0] = 1; }\n"),
            (V{"real"}));
  EXPECT_TRUE(kernel_names("").empty());
}

}  // namespace
