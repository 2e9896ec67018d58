// Debian's Abseil is built with its own string_view, not std::string_view,
// so absl::StrCat and StrJoin don't take a std::string_view: these helpers
// spell one out as a std::string.
#pragma once

#include <algorithm>
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

// The length of the well-formed UTF-8 sequence at s[i] (1 to 4), or 0 when
// the bytes there are no such sequence (a stray continuation byte, an
// overlong form, a surrogate, a sequence cut short).
inline int Utf8SequenceLength(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (int k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
  if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // a surrogate
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
  if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // beyond U+10FFFF
  return n;
}

// `s` with each byte that is no well-formed UTF-8 replaced by U+FFFD: a
// name taken from a file name or a file's bytes, before it reaches any
// output (every output is UTF-8 text, and all must say the same name).
inline std::string ValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (const int n = Utf8SequenceLength(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

// `s` as a string literal that JSON and a TOML basic string both read back
// as `s`, quotes included: a quote and a backslash escaped, every control
// character (U+0000 to U+001F and DEL) as \u00XX, and each byte that is no
// well-formed UTF-8 as U+FFFD (the one change: JSON and TOML text is
// UTF-8). Every file strata writes quotes names with it, whatever a deck
// label or a card name holds (issue 40).
inline std::string JsonQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
    } else if (const int n = Utf8SequenceLength(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  return out + "\"";
}

// `s` as a message shows it: control characters escaped (JsonQuote's
// escapes, so no terminal sequence or line break gets through) and cut
// after `max` bytes, with the length said, so a 1 MB name is not echoed in
// full.
inline std::string Shown(std::string_view s, size_t max = 80) {
  std::string out = JsonQuote(s.substr(0, std::min(s.size(), max)));
  out = out.substr(1, out.size() - 2);
  if (s.size() > max) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace strata
