#include "image_io.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

cei::Matrix<int> read_gray(const std::string& path) {
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &channels, 1);
  if (!pixels) throw std::runtime_error("cannot read " + path + ": " + stbi_failure_reason());
  cei::Matrix<int> image(h, w);
  std::copy(pixels, pixels + static_cast<std::size_t>(w) * h, image.data());
  stbi_image_free(pixels);
  return image;
}

void write_gray_png(const std::string& path, const cei::Matrix<int>& image) {
  const int h = static_cast<int>(image.extent(0)), w = static_cast<int>(image.extent(1));
  std::vector<std::uint8_t> bytes(image.size());
  std::transform(image.begin(), image.end(), bytes.begin(),
                 [](int v) { return static_cast<std::uint8_t>(std::clamp(v, 0, 255)); });
  if (!stbi_write_png(path.c_str(), w, h, 1, bytes.data(), w))
    throw std::runtime_error("cannot write " + path);
}
