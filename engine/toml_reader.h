// Reading TOML that a person wrote (card files, scenarios) or strata wrote
// and a person may have edited (a study's study.toml): one reader, so every
// loader checks types and ranges the same way and every mistake reads the
// same, "FILE:LINE: key 'KEY': expected WHAT" (with a context such as
// "card 'NAME': " before the key where one helps).
//
// A reader throws TomlError at the first mistake; each loader catches it at
// its edge and hands on a Status, so nothing but loading sees the exception.
// A value must have its type: 7 is no `true`, 2.0 no integer, and a number
// is checked against its range before anything narrows it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "toml++/toml.h"

namespace strata {

// The message of a reader's first mistake, complete with file and line.
struct TomlError {
  std::string message;
};

// Parses a whole file's text; a syntax error is "FILE:LINE: TOML syntax
// error: WHAT".
absl::StatusOr<toml::table> ParseToml(std::string_view text, const std::string& file);

// The most an input file (cards, deck, scenario, study.toml, failure file)
// may hold: far above any real one, and a bound on what a link to
// /dev/zero or a stray huge file can make strata read (issue 40).
inline constexpr size_t kMaxInputFileBytes = size_t{64} << 20;

// The whole text of the `what` file at `path` ("card", "deck"), read
// through that bound: "PATH: cannot open WHAT file", "PATH: is a
// directory; expected a WHAT file", or "PATH: larger than 64 MiB, the most
// a WHAT file may hold".
absl::StatusOr<std::string> ReadInputFile(const std::string& path, std::string_view what,
                                          size_t limit = kMaxInputFileBytes);

class TomlReader {
 public:
  explicit TomlReader(std::string file) : file_(std::move(file)) {}

  // Words between "FILE:LINE: " and "key ..." in every message, e.g.
  // "card 'Bear': " while a card is read.
  void SetContext(std::string context) { context_ = std::move(context); }

  // "FILE:LINE: CONTEXTkey 'KEY': expected WHAT", at the line where `at`
  // begins; a node made in code has none, and gets the fallback line.
  std::string Message(const toml::node& at, std::string_view key, std::string_view expected) const;

  // The line to name for nodes made in code from a table of the file (a
  // copy of its keys has no place of its own): that table's. 0: none.
  // Set for the time such nodes are read (FallbackLine, card_loader.cc).
  void SetFallbackLine(uint32_t line) const { fallback_line_ = line; }
  [[noreturn]] void Fail(const toml::node& at, std::string_view key,
                         std::string_view expected) const;

  // Fails at the first key of `t` not in `allowed`, listing them:
  // "expected one of the keys of WHAT (a, b, c); this key is unknown".
  void CheckKeys(const toml::table& t, std::string_view what,
                 std::initializer_list<std::string_view> allowed) const;
  void CheckKeys(const toml::table& t, std::string_view what,
                 const std::vector<std::string_view>& allowed) const;

  // A node of the given type, or a failure at it naming the type.
  std::string String(const toml::node& n, std::string_view key) const;
  bool Bool(const toml::node& n, std::string_view key) const;
  int64_t Int64(const toml::node& n, std::string_view key,
                int64_t lo = std::numeric_limits<int64_t>::min(),
                int64_t hi = std::numeric_limits<int64_t>::max()) const;
  // An integer in [lo, hi]: "an integer between LO and HI, got V".
  int Int(const toml::node& n, std::string_view key, int lo, int hi) const;
  // Any finite number, integers included.
  double Number(const toml::node& n, std::string_view key) const;
  const toml::table& Table(const toml::node& n, std::string_view key) const;
  // `expected` says what the array holds ("[[step]] tables").
  const toml::array& Array(const toml::node& n, std::string_view key,
                           std::string_view expected) const;
  std::vector<std::string> Strings(const toml::node& n, std::string_view key) const;
  // Each element a table (failing at the element), e.g. [[object]] tables.
  std::vector<const toml::table*> Tables(const toml::node& n, std::string_view key,
                                         std::string_view expected) const;

  // The node under `key`, or a failure at `t`: "expected this required key
  // (WHAT)".
  const toml::node& Required(const toml::table& t, std::string_view key,
                             std::string_view what) const;
  // Required keys of `t` of one type.
  std::string RequiredString(const toml::table& t, std::string_view key) const;
  bool RequiredBool(const toml::table& t, std::string_view key) const;
  int64_t RequiredInt64(const toml::table& t, std::string_view key,
                        int64_t lo = std::numeric_limits<int64_t>::min(),
                        int64_t hi = std::numeric_limits<int64_t>::max()) const;
  double RequiredNumber(const toml::table& t, std::string_view key) const;
  std::vector<std::string> RequiredStrings(const toml::table& t, std::string_view key) const;
  // Keys that may be left out: "" and {} when absent.
  std::string OptionalString(const toml::table& t, std::string_view key) const;
  std::vector<std::string> OptionalStrings(const toml::table& t, std::string_view key) const;

  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string context_;
  mutable uint32_t fallback_line_ = 0;
};

}  // namespace strata
