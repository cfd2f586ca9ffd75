// PNG output for the bezier example (stb_image_write).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Writes a width x height 8-bit grayscale PNG; throws std::runtime_error on failure.
void write_gray_png(const std::string& path, int width, int height,
                    const std::vector<std::uint8_t>& pixels);
