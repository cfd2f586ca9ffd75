// Text edits on one source buffer that nest: an edit may replace a range whose inner parts were
// already rewritten (the argument of a CE call that is itself a CE call, a synced variable inside
// an argument). Edits are built innermost first: `render` gives a range's text with the edits
// inside it applied, and `replace` absorbs them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cei::instrument {

class EditSet {
 public:
  struct Edit {
    unsigned begin, end;  // offsets in the original buffer, end exclusive; begin == end inserts
    std::string text;
  };

  explicit EditSet(std::string_view buffer) : buffer_(buffer) {}

  std::string render(unsigned begin, unsigned end) const;
  void replace(unsigned begin, unsigned end, std::string text);
  void insert(unsigned at, std::string text);
  // The outermost edits, sorted by position: what is applied to the original buffer.
  std::vector<Edit> outermost() const;

 private:
  std::string_view buffer_;
  std::vector<Edit> edits_;  // never partially overlapping
};

}  // namespace cei::instrument
