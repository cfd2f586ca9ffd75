// CEI attribute arguments (`kernel = "k.cl", retries = -1`): only AttrArgsError may come out, and
// what comes back must describe the text exactly: keys and offsets point at their source, every
// string character has its offset, every integer reads back as its digits.
#include "attr_args.hpp"

#include <charconv>
#include <cstdint>
#include <set>
#include <string_view>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<cei::frontend::AttrArg> args;
  try {
    args = cei::frontend::parse_attr_args(text);
  } catch (const cei::frontend::AttrArgsError& e) {
    FUZZ_CHECK(e.offset <= size, "error offset past the end");
    return 0;
  }
  std::set<std::string> keys;
  for (const auto& a : args) {
    FUZZ_CHECK(keys.insert(a.key).second, "a repeated key was accepted");
    FUZZ_CHECK(!a.key.empty() && a.key_offset + a.key.size() <= size, "key outside the text");
    FUZZ_CHECK(text.substr(a.key_offset, a.key.size()) == a.key, "key offset does not point at it");
    FUZZ_CHECK(a.value_offset < size, "value outside the text");
    if (a.kind == cei::frontend::AttrArg::Kind::String) {
      FUZZ_CHECK(text[a.value_offset] == '"', "string value offset not at its opening quote");
      FUZZ_CHECK(a.char_offsets.size() == a.text.size() + 1, "one offset per character + quote");
      std::size_t prev = a.value_offset;
      for (auto off : a.char_offsets) {
        FUZZ_CHECK(off > prev && off < size, "character offsets not increasing inside the text");
        prev = off;
      }
      FUZZ_CHECK(text[a.char_offsets.back()] == '"', "last offset not at the closing quote");
    } else {
      std::int64_t back = 0;
      auto [end, ec] = std::from_chars(a.text.data(), a.text.data() + a.text.size(), back);
      FUZZ_CHECK(ec == std::errc() && end == a.text.data() + a.text.size(),
                 "integer text is not a 64-bit integer");
      FUZZ_CHECK(back == a.integer, "integer value differs from its digits");
      FUZZ_CHECK(text.substr(a.value_offset, a.text.size()) == a.text, "integer offset wrong");
    }
  }
  return 0;
}
