// Every attribute form the golden headers use, seen by the real compilers.
#include "bezier.cei.hpp"
#include "canny.cei.hpp"
#include "sim.cei.hpp"
#include "sort.cei.hpp"

int use_cei() {
  cei::Matrix<int> m(2, 3);
  m(1, 2) = 4;
  cei::wait_on(m);
  cei::barrier();
  return m(1, 2) + static_cast<int>(m.extent(1));
}
