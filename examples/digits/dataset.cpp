#include "dataset.hpp"

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace digits {

cei::Array<float, 3> Dataset::batch(std::size_t first, std::size_t count) const {
  cei::Array<float, 3> b(count, std::size_t{1}, std::size_t{kPixels});
  std::copy(images.begin() + first * kPixels, images.begin() + (first + count) * kPixels, b.data());
  return b;
}

Dataset load_dataset(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path + " (run scripts/data.sh)");
  Dataset d;
  char line[1024];
  while (gzgets(f, line, sizeof line)) {
    std::istringstream in(line);
    std::string field;
    std::vector<int> values;
    while (std::getline(in, field, ',')) values.push_back(std::stoi(field));
    if (values.size() != kPixels + 1) continue;
    for (int k = 0; k < kPixels; ++k) d.images.push_back(static_cast<float>(values[k]) / 16.f);
    d.labels.push_back(values[kPixels]);
  }
  gzclose(f);
  if (d.size() == 0) throw std::runtime_error("no samples in " + path);
  return d;
}

Dataset split(const Dataset& all, Part part) {
  Dataset d;
  for (std::size_t i = 0; i < all.size(); ++i)
    if ((i % 3 == 0) == (part == Part::HeldOut)) {
      d.images.insert(d.images.end(), all.images.begin() + i * kPixels,
                      all.images.begin() + (i + 1) * kPixels);
      d.labels.push_back(all.labels[i]);
    }
  return d;
}

namespace {
const char* const kMagic = "cei-digits-weights-v1";

void write_vector(std::ostream& out, const cei::Vector<float>& v) {
  out << v.size() << '\n';
  char buf[32];
  for (float x : v) {
    std::snprintf(buf, sizeof buf, "%.9g\n", x);  // 9 digits: a float round-trips exactly
    out << buf;
  }
}

cei::Vector<float> read_vector(std::istream& in, std::size_t expected) {
  std::size_t n = 0;
  if (!(in >> n) || n != expected) throw std::runtime_error("weights file: unexpected shape");
  cei::Vector<float> v(n);
  for (float& x : v)
    if (!(in >> x)) throw std::runtime_error("weights file: truncated");
  return v;
}
}  // namespace

Weights load_weights(const std::string& path) {
  std::ifstream in(path);
  std::string magic;
  if (!(in >> magic) || magic != kMagic)
    throw std::runtime_error("cannot read weights " + path + " (build target digits-weights)");
  Weights w;
  w.conv1 = read_vector(in, kChannels1 * (1 * 9 + 1));
  w.conv2 = read_vector(in, kChannels2 * (kChannels1 * 9 + 1));
  w.dense = read_vector(in, kClasses * (kFeatures + 1));
  return w;
}

void save_weights(const std::string& path, const Weights& w) {
  std::ofstream out(path);
  out << kMagic << '\n';
  write_vector(out, w.conv1);
  write_vector(out, w.conv2);
  write_vector(out, w.dense);
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace digits
