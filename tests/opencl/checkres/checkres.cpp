// CEI_OPENCL_CHECK_RESULTS: with argument "half", a kernel that writes half of its result (its
// elements past 512 print as whatever the buffer held); otherwise only the right one.
#include <cstdio>
#include <string>

#include "halves.hpp"

int main(int argc, char** argv) {
  cei::Vector<float> a(1024);
  for (std::size_t i = 0; i < a.size(); ++i) a(i) = static_cast<float>(i);
  const bool wrong = argc > 1 && std::string(argv[1]) == "half";
  cei::Vector<float> r = wrong ? halves::half(a) : halves::full(a);
  std::printf("r[0]=%g\n", static_cast<double>(r(0)));
  return 0;
}
