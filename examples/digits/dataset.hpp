// The UCI handwritten digits (1797 8x8 images, 17 gray levels) and the example's weights file.
//
//   digits::Dataset all = digits::load_dataset("data/digits.csv.gz");
//   digits::Dataset test = digits::split(all, digits::Part::HeldOut);
//   digits::Weights w = digits::load_weights("digits.weights");
#pragma once

#include <cei/array.hpp>

#include <string>
#include <vector>

namespace digits {

// The network's shape; digits.cei.hpp's CEs take these as parameters.
constexpr int kPixels = 64, kChannels1 = 8, kChannels2 = 16, kClasses = 10;
constexpr int kFeatures = kChannels2 * 4;  // after two 2x2 poolings of 8x8 maps: 16 x 2 x 2

struct Dataset {
  std::vector<float> images;  // n x 64, scaled to [0, 1]
  std::vector<int> labels;
  std::size_t size() const { return labels.size(); }
  // Images [first, first + count) as a (count, 1, 64) batch.
  cei::Array<float, 3> batch(std::size_t first, std::size_t count) const;
};

enum class Part { Train, HeldOut };  // every third sample (index % 3 == 0) is held out

Dataset load_dataset(const std::string& csv_gz_path);
Dataset split(const Dataset& all, Part part);

struct Weights {
  cei::Vector<float> conv1, conv2, dense;
};

Weights load_weights(const std::string& path);
void save_weights(const std::string& path, const Weights& w);

}  // namespace digits
