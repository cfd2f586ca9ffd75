// The application's own functions, plain C++: the sequential program calls them directly.
#pragma once
#include <cei/array.hpp>

namespace blas {
// y = a * x + y, element by element.
void saxpy(float a, const cei::Vector<float>& x, cei::Vector<float>& y);
// Every element squared.
cei::Vector<float> square(const cei::Vector<float>& x);
// The sum of the elements, in double.
double sum(const cei::Vector<float>& x);
}  // namespace blas
