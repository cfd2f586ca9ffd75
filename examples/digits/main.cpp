// Recognises the held-out third of the UCI handwritten digits with a small CNN, BATCH images at a
// time. Each batch is a chain of eight tasks, every one over the whole batch (the paper's DR
// pattern): conv, relu, pool, conv, relu, pool, dense, classify. Prints the accuracy.
// Usage: digits [BATCH=256] [WEIGHTS=<build>/digits.weights] [DATA=<repo>/data/digits.csv.gz]
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "digits.hpp"
#include "example_main.hpp"

#ifndef DIGITS_DEFAULT_WEIGHTS
#define DIGITS_DEFAULT_WEIGHTS "digits.weights"
#endif
#ifndef DIGITS_DEFAULT_DATA
#define DIGITS_DEFAULT_DATA "data/digits.csv.gz"
#endif

int run(int argc, char** argv) {
  using digits::kChannels1, digits::kChannels2, digits::kClasses, digits::kFeatures;
  const int batch = examples::positive(argc, argv, 1, 256);
  const std::string weights_path = argc > 2 ? argv[2] : DIGITS_DEFAULT_WEIGHTS;
  const std::string data_path = argc > 3 ? argv[3] : DIGITS_DEFAULT_DATA;
  if (batch < 1) {
    std::fprintf(stderr, "usage: %s [BATCH] [WEIGHTS] [DATA]\n", argv[0]);
    return 2;
  }
  const digits::Dataset test =
      digits::split(digits::load_dataset(data_path), digits::Part::HeldOut);
  const digits::Weights w = digits::load_weights(weights_path);

  std::vector<cei::Array<float, 3>> images;
  for (std::size_t first = 0; first < test.size(); first += batch)
    images.push_back(test.batch(first, std::min<std::size_t>(batch, test.size() - first)));

  std::vector<cei::Vector<int>> labels(images.size());
  for (std::size_t k = 0; k < images.size(); ++k) {
    cei::Array<float, 3> a = digits::conv(images[k], w.conv1, 1, kChannels1);
    a = digits::relu(a);
    a = digits::pool(a);
    a = digits::conv(a, w.conv2, kChannels1, kChannels2);
    a = digits::relu(a);
    a = digits::pool(a);
    cei::Matrix<float> scores = digits::dense(a, w.dense, kFeatures, kClasses);
    labels[k] = digits::classify(scores, kClasses);
  }

  std::size_t correct = 0, i = 0;
  std::uint64_t hash = 14695981039346656037ull;
  for (const cei::Vector<int>& batch_labels : labels)
    for (int label : batch_labels) {
      correct += label == test.labels[i++];
      hash = (hash ^ static_cast<std::uint32_t>(label)) * 1099511628211ull;
    }
  std::printf("digits: %zu held-out images in %zu batches of up to %d, 8 tasks each\n", test.size(),
              images.size(), batch);
  std::printf("accuracy %.2f%% (%zu/%zu)\n", 100.0 * correct / test.size(), correct, test.size());
  std::printf("checksum %016llx\n", static_cast<unsigned long long>(hash));
  return 0;
}
