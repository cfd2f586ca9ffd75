// The argument list of a CEI attribute, `kernel = "matmul.cl", retries = 3`, parsed from its raw
// source text. Offsets are 0-based into that text so callers can map them to file columns.
//
//   auto args = cei::frontend::parse_attr_args(R"(kernel = "k.cl", retries = -1)");
//   args[0].key == "kernel"; args[0].text == "k.cl"; args[1].integer == -1;
//   parse_attr_args(R"("par0 / 2", droppable = true)");  // key "" then a Bool
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cei::frontend {

struct AttrArg {
  enum class Kind { String, Integer, Bool };
  std::string key;  // "" for a leading unnamed string (`significance("50")`)
  std::size_t key_offset = 0;
  Kind kind = Kind::String;
  std::string text;          // the string's characters (escapes resolved) or the integer's digits
  std::int64_t integer = 0;  // Integer; Bool: 1 for true, 0 for false
  std::size_t value_offset = 0;  // the value's first character (a string's opening quote)
  // String only: source offset of each character of `text`, plus one for its closing quote.
  std::vector<std::size_t> char_offsets;
};

struct AttrArgsError : std::runtime_error {
  AttrArgsError(const std::string& msg, std::size_t offset)
      : std::runtime_error(msg), offset(offset) {}
  std::size_t offset;
};

// Throws AttrArgsError on malformed input or a repeated key.
std::vector<AttrArg> parse_attr_args(std::string_view text);

}  // namespace cei::frontend
