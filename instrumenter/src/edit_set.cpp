#include "edit_set.hpp"

#include <algorithm>

namespace cei::instrument {

std::string EditSet::render(unsigned begin, unsigned end) const {
  std::vector<const Edit*> inside;
  for (const auto& e : edits_)
    if (e.begin >= begin && e.end <= end && (e.begin < e.end || e.begin < end))
      inside.push_back(&e);
  std::stable_sort(inside.begin(), inside.end(),
                   [](const Edit* a, const Edit* b) { return a->begin < b->begin; });
  std::string out;
  unsigned at = begin;
  for (const Edit* e : inside) {
    out.append(buffer_.substr(at, e->begin - at));
    out += e->text;
    at = e->end;
  }
  out.append(buffer_.substr(at, end - at));
  return out;
}

void EditSet::replace(unsigned begin, unsigned end, std::string text) {
  std::erase_if(edits_, [&](const Edit& e) {
    return e.begin >= begin && e.end <= end && (e.begin < e.end || e.begin < end);
  });
  edits_.push_back({begin, end, std::move(text)});
}

void EditSet::insert(unsigned at, std::string text) {
  for (auto& e : edits_)
    if (e.begin == at && e.end == at) {
      e.text += text;
      return;
    }
  edits_.push_back({at, at, std::move(text)});
}

std::vector<EditSet::Edit> EditSet::outermost() const {
  std::vector<Edit> out = edits_;
  std::stable_sort(out.begin(), out.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  return out;
}

}  // namespace cei::instrument
