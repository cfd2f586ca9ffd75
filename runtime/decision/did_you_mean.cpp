#include <cei/rt/decision/did_you_mean.hpp>

#include <algorithm>
#include <cctype>
#include <vector>

namespace cei::rt {

namespace {

// Levenshtein distance, case-insensitive: "Multiply" and "multiply" are one name to a person.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

std::string_view last_part(std::string_view s) {
  const auto dot = s.rfind('.');
  return dot == std::string_view::npos ? s : s.substr(dot + 1);
}

}  // namespace

std::string did_you_mean(std::string_view name, std::string_view what,
                         std::span<const std::string> valid, std::string_view tail) {
  const std::size_t allowed = std::max<std::size_t>(2, name.size() / 3);
  const std::string* best = nullptr;
  std::size_t best_d = allowed + 1;
  std::string out = "(" + std::string(what) + ":";
  for (const std::string& v : valid) {
    out += (&v == valid.data() ? " " : ", ") + v;
    const std::size_t d = std::min(distance(name, v), distance(last_part(name), last_part(v)));
    if (d < best_d) {
      best_d = d;
      best = &v;
    }
  }
  out += tail;
  if (best) out += "; did you mean '" + *best + "'?";
  return out + ")";
}

}  // namespace cei::rt
