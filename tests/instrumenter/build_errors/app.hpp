#pragma once
#include <cei/array.hpp>

namespace app {
void scale(cei::Vector<float>& x, float alpha);
}  // namespace app
