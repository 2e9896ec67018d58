// Debian's Abseil is built with its own string_view, not std::string_view,
// so absl::StrCat and StrJoin don't take a std::string_view: these helpers
// spell one out as a std::string.
#pragma once

#include <string>
#include <string_view>

namespace strata {

inline std::string S(std::string_view v) {
  return std::string(v);
}

// "a, b, c" from any range of string-like values.
template <typename Range>
std::string JoinKeys(const Range& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

// `s` as a JSON string literal, quotes included.
inline std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace strata
