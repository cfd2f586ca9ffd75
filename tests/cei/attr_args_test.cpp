// The attribute-argument parser: `key = "value", key = 3`, offsets for error columns.
#include <gtest/gtest.h>

#include "attr_args.hpp"

namespace {

using cei::frontend::AttrArg;
using cei::frontend::AttrArgsError;
using cei::frontend::parse_attr_args;

std::size_t error_offset(const std::string& text, const std::string& message) {
  try {
    parse_attr_args(text);
  } catch (const AttrArgsError& e) {
    EXPECT_EQ(std::string(e.what()), message) << text;
    return e.offset;
  }
  ADD_FAILURE() << "no error for " << text;
  return 0;
}

TEST(AttrArgs, StringsAndIntegers) {
  const auto args = parse_attr_args(R"( kernel = "k.cl",retries=-3 , timeout_ms = 250)");
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].key, "kernel");
  EXPECT_EQ(args[0].key_offset, 1u);
  EXPECT_EQ(args[0].kind, AttrArg::Kind::String);
  EXPECT_EQ(args[0].text, "k.cl");
  EXPECT_EQ(args[0].value_offset, 10u);
  EXPECT_EQ(args[0].char_offsets, (std::vector<std::size_t>{11, 12, 13, 14, 15}));
  EXPECT_EQ(args[1].kind, AttrArg::Kind::Integer);
  EXPECT_EQ(args[1].integer, -3);
  EXPECT_EQ(args[2].integer, 250);
}

TEST(AttrArgs, LeadingUnnamedStringAndBooleans) {
  const auto args = parse_attr_args(R"( "par0 / 2", droppable = true, b = false)");
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].key, "");
  EXPECT_EQ(args[0].kind, AttrArg::Kind::String);
  EXPECT_EQ(args[0].text, "par0 / 2");
  EXPECT_EQ(args[0].value_offset, 1u);
  EXPECT_EQ(args[1].kind, AttrArg::Kind::Bool);
  EXPECT_EQ(args[1].integer, 1);
  EXPECT_EQ(args[2].integer, 0);
  EXPECT_EQ(args[2].text, "false");
}

TEST(AttrArgs, EmptyAndMultiLine) {
  EXPECT_TRUE(parse_attr_args("").empty());
  EXPECT_TRUE(parse_attr_args("  \n ").empty());
  const auto args = parse_attr_args("a = \"x\",\n   b = \"y\"");
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[1].key_offset, 12u);
}

TEST(AttrArgs, EscapesKeepSourceOffsets) {
  const auto args = parse_attr_args(R"(p = "a\"b")");
  ASSERT_EQ(args.size(), 1u);
  EXPECT_EQ(args[0].text, "a\"b");
  EXPECT_EQ(args[0].char_offsets, (std::vector<std::size_t>{5, 6, 8, 9}));
}

TEST(AttrArgs, Errors) {
  EXPECT_EQ(error_offset(R"(kernel "k.cl")", "expected '=' after 'kernel'"), 7u);
  EXPECT_EQ(error_offset(R"(kernel = k.cl)",
                         "expected a string, integer, true or false for 'kernel', found 'k'"),
            9u);
  EXPECT_EQ(error_offset(R"(a = *)", "expected a string, integer, true or false for 'a'"), 4u);
  EXPECT_EQ(error_offset(R"(a = 1, "x")", "expected an argument name"), 7u);
  EXPECT_EQ(error_offset(R"(a = "x" b = "y")", "expected ',' between arguments"), 8u);
  EXPECT_EQ(error_offset(R"(a = "x)", "unterminated string"), 4u);
  EXPECT_EQ(error_offset(R"(a = 1, a = 2)", "argument 'a' given twice"), 7u);
  EXPECT_EQ(error_offset(R"(= 3)", "expected an argument name"), 0u);
  EXPECT_EQ(error_offset(R"(a = 12x)", "expected an integer for 'a'"), 4u);
  EXPECT_EQ(error_offset(R"(a = 99999999999999999999)", "integer too large"), 4u);
  EXPECT_EQ(error_offset(R"(a = "\q")", "unsupported escape '\\q'"), 5u);
  EXPECT_EQ(error_offset(R"(a = 1,)", "expected an argument name"), 6u);
}

}  // namespace

namespace {

// What a fuzzer would check first: any input either parses or fails with an offset inside it.
TEST(AttrArgs, RandomInputParsesOrFailsInside) {
  const std::string alphabet = "ab_=\", -1\\9 \n";
  std::uint32_t seed = 12345;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int len = static_cast<int>(seed % 24);
    for (int i = 0; i < len; ++i) {
      seed = seed * 1664525u + 1013904223u;
      text += alphabet[(seed >> 16) % alphabet.size()];
    }
    seed = seed * 1664525u + 1013904223u;
    try {
      for (const AttrArg& a : parse_attr_args(text)) {
        ASSERT_LT(a.value_offset, text.size()) << text;
        if (a.kind == AttrArg::Kind::String) {
          ASSERT_EQ(a.char_offsets.size(), a.text.size() + 1) << text;
          ASSERT_EQ(text[a.char_offsets.back()], '"') << text;
        }
      }
    } catch (const AttrArgsError& e) {
      ASSERT_LE(e.offset, text.size()) << text;
    }
  }
}

}  // namespace
