#include "image_io.hpp"

#include <stdexcept>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

void write_gray_png(const std::string& path, int width, int height,
                    const std::vector<std::uint8_t>& pixels) {
  if (!stbi_write_png(path.c_str(), width, height, 1, pixels.data(), width))
    throw std::runtime_error("cannot write " + path);
}
