// An application with approximate versions: blur is exact, blur_fast skips every other pixel.
#pragma once
#include <cei/array.hpp>

namespace blur {
void smooth(cei::Vector<float>& image, int passes);
void sharpen(cei::Vector<float>& image, int passes);
}  // namespace blur
namespace blur_fast {
void smooth(cei::Vector<float>& image, int passes);
}  // namespace blur_fast
