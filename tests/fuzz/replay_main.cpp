// The driver of the fuzz targets in the ordinary (g++) build: feeds every file of the given files
// and folders to LLVMFuzzerTestOneInput once, so ctest replays the committed corpora without
// clang's fuzzer runtime. The fuzz build (CEI_FUZZ=ON) links libFuzzer's own main() instead.
//
//   cei_fuzz_expr tests/fuzz/corpus/expr        # exit 0: every input ran without a broken
//   invariant
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputs(const std::filesystem::path& p) {
  std::vector<std::filesystem::path> out;
  if (std::filesystem::is_directory(p)) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(p))
      if (e.is_regular_file()) out.push_back(e.path());
  } else {
    out.push_back(p);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::filesystem::exists(argv[i])) {
      std::fprintf(stderr, "no such corpus: %s\n", argv[i]);
      return 2;
    }
    for (const auto& file : inputs(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      // A copy of exactly `size` bytes, so reading past the end is as visible as under libFuzzer.
      std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
      LLVMFuzzerTestOneInput(data.data(), data.size());
      ++runs;
    }
  }
  std::printf("replayed %zu inputs\n", runs);
  // An empty corpus would make the test pass while testing nothing.
  return runs > 0 ? 0 : 1;
}
