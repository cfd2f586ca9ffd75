#include "attr_args.hpp"

#include <cctype>
#include <limits>

namespace cei::frontend {
namespace {

class ArgParser {
 public:
  explicit ArgParser(std::string_view s) : s_(s) {}

  std::vector<AttrArg> all() {
    std::vector<AttrArg> out;
    skip_space();
    if (at_end()) return out;
    for (;;) {
      AttrArg a = out.empty() && s_[pos_] == '"' ? positional() : one();
      for (const auto& prev : out)
        if (prev.key == a.key)
          throw AttrArgsError("argument '" + a.key + "' given twice", a.key_offset);
      out.push_back(std::move(a));
      skip_space();
      if (at_end()) return out;
      if (s_[pos_] != ',') fail("expected ',' between arguments");
      ++pos_;
      skip_space();
    }
  }

 private:
  // `[[cei::significance("expr")]]`: a leading string without a name, whose key is left empty
  // for the attribute's spec to name.
  AttrArg positional() {
    AttrArg a;
    a.key_offset = a.value_offset = pos_;
    string_value(a);
    return a;
  }

  AttrArg one() {
    AttrArg a;
    a.key_offset = pos_;
    while (!at_end() && (std::isalnum(uc()) || s_[pos_] == '_')) ++pos_;
    a.key = std::string(s_.substr(a.key_offset, pos_ - a.key_offset));
    if (a.key.empty() || std::isdigit(static_cast<unsigned char>(a.key[0])))
      fail("expected an argument name", a.key_offset);
    skip_space();
    if (at_end() || s_[pos_] != '=') fail("expected '=' after '" + a.key + "'");
    ++pos_;
    skip_space();
    a.value_offset = pos_;
    if (!at_end() && s_[pos_] == '"') {
      string_value(a);
    } else if (!at_end() && (std::isdigit(uc()) || s_[pos_] == '-')) {
      integer_value(a);
    } else if (!at_end() && std::isalpha(uc())) {
      bool_value(a);
    } else {
      fail("expected a string, integer, true or false for '" + a.key + "'");
    }
    return a;
  }

  void string_value(AttrArg& a) {
    ++pos_;
    for (;;) {
      if (at_end() || s_[pos_] == '\n') fail("unterminated string", a.value_offset);
      const char c = s_[pos_];
      if (c == '"') break;
      a.char_offsets.push_back(pos_);
      if (c == '\\') {
        if (pos_ + 1 >= s_.size()) fail("unterminated string", a.value_offset);
        const char e = s_[++pos_];
        switch (e) {
          case 'n':
            a.text += '\n';
            break;
          case 't':
            a.text += '\t';
            break;
          case '"':
          case '\\':
          case '\'':
            a.text += e;
            break;
          default:
            fail(std::string("unsupported escape '\\") + e + "'", pos_ - 1);
        }
      } else {
        a.text += c;
      }
      ++pos_;
    }
    a.char_offsets.push_back(pos_);
    ++pos_;
    a.kind = AttrArg::Kind::String;
  }

  void integer_value(AttrArg& a) {
    const bool negative = s_[pos_] == '-';
    if (negative) ++pos_;
    const std::size_t digits = pos_;
    std::uint64_t v = 0;
    while (!at_end() && std::isdigit(uc())) {
      // Checked before multiplying: v * 10 could wrap around 2^64 back into range.
      constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      const auto digit = static_cast<std::uint64_t>(s_[pos_] - '0');
      if (v > (max - digit) / 10) fail("integer too large", a.value_offset);
      v = v * 10 + digit;
      ++pos_;
    }
    if (pos_ == digits) fail("expected digits", a.value_offset);
    if (!at_end() && (std::isalnum(uc()) || s_[pos_] == '.'))
      fail("expected an integer for '" + a.key + "'", a.value_offset);
    a.kind = AttrArg::Kind::Integer;
    a.integer = negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    a.text = std::string(s_.substr(a.value_offset, pos_ - a.value_offset));
  }

  void bool_value(AttrArg& a) {
    while (!at_end() && (std::isalnum(uc()) || s_[pos_] == '_')) ++pos_;
    a.text = std::string(s_.substr(a.value_offset, pos_ - a.value_offset));
    if (a.text != "true" && a.text != "false")
      fail("expected a string, integer, true or false for '" + a.key + "', found '" + a.text + "'",
           a.value_offset);
    a.kind = AttrArg::Kind::Bool;
    a.integer = a.text == "true" ? 1 : 0;
  }

  [[noreturn]] void fail(const std::string& msg) { fail(msg, pos_); }
  [[noreturn]] void fail(const std::string& msg, std::size_t at) { throw AttrArgsError(msg, at); }

  void skip_space() {
    while (!at_end() && std::isspace(uc())) ++pos_;
  }
  bool at_end() const { return pos_ >= s_.size(); }
  unsigned char uc() const { return static_cast<unsigned char>(s_[pos_]); }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<AttrArg> parse_attr_args(std::string_view text) {
  return ArgParser(text).all();
}

}  // namespace cei::frontend
