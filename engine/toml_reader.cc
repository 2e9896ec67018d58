#include "engine/toml_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "engine/strings.h"

namespace strata {

absl::StatusOr<std::string> ReadInputFile(const std::string& path, std::string_view what,
                                          size_t limit) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory; expected a ", S(what), " file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open ", S(what), " file"));
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > limit)
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": larger than ", limit >> 20, " MiB, the most a ", S(what), " file may hold"));
  }
  if (in.bad())
    return absl::InvalidArgumentError(absl::StrCat(path, ": cannot read ", S(what), " file"));
  return text;
}

absl::StatusOr<toml::table> ParseToml(std::string_view text, const std::string& file) {
  try {
    return toml::parse(text, std::string_view(file));
  } catch (const toml::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat(file, ":", e.source().begin.line,
                                                   ": TOML syntax error: ", S(e.description())));
  }
}

std::string TomlReader::Message(const toml::node& at, std::string_view key,
                                std::string_view expected) const {
  auto line = at.source().begin.line;
  if (!line) line = fallback_line_;
  return absl::StrCat(file_, line ? absl::StrCat(":", line) : "", ": ", context_, "key '", S(key),
                      "': expected ", S(expected));
}

void TomlReader::Fail(const toml::node& at, std::string_view key, std::string_view expected) const {
  throw TomlError{Message(at, key, expected)};
}

void TomlReader::CheckKeys(const toml::table& t, std::string_view what,
                           std::initializer_list<std::string_view> allowed) const {
  CheckKeys(t, what, std::vector<std::string_view>(allowed));
}

void TomlReader::CheckKeys(const toml::table& t, std::string_view what,
                           const std::vector<std::string_view>& allowed) const {
  for (auto& [k, v] : t)
    if (std::find(allowed.begin(), allowed.end(), k.str()) == allowed.end())
      Fail(v, k.str(),
           absl::StrCat("one of the keys of ", S(what), " (", JoinKeys(allowed),
                        "); this key is unknown"));
}

std::string TomlReader::String(const toml::node& n, std::string_view key) const {
  if (auto s = n.value_exact<std::string>()) return *s;
  Fail(n, key, "a string");
}

bool TomlReader::Bool(const toml::node& n, std::string_view key) const {
  if (auto v = n.value_exact<bool>()) return *v;
  Fail(n, key, "true or false");
}

int64_t TomlReader::Int64(const toml::node& n, std::string_view key, int64_t lo, int64_t hi) const {
  auto v = n.value_exact<int64_t>();
  if (!v) Fail(n, key, "an integer");
  if (*v < lo || *v > hi)
    Fail(n, key, absl::StrCat("an integer between ", lo, " and ", hi, ", got ", *v));
  return *v;
}

int TomlReader::Int(const toml::node& n, std::string_view key, int lo, int hi) const {
  return static_cast<int>(Int64(n, key, lo, hi));
}

double TomlReader::Number(const toml::node& n, std::string_view key) const {
  // value<double>() takes an integer too, when a double holds it exactly.
  auto v = n.value<double>();
  if (!v || !std::isfinite(*v)) Fail(n, key, "a finite number");
  return *v;
}

const toml::table& TomlReader::Table(const toml::node& n, std::string_view key) const {
  if (auto* t = n.as_table()) return *t;
  Fail(n, key, "a table");
}

const toml::array& TomlReader::Array(const toml::node& n, std::string_view key,
                                     std::string_view expected) const {
  if (auto* a = n.as_array()) return *a;
  Fail(n, key, expected);
}

std::vector<std::string> TomlReader::Strings(const toml::node& n, std::string_view key) const {
  std::vector<std::string> out;
  for (auto& e : Array(n, key, "a list of strings")) out.push_back(String(e, key));
  return out;
}

std::vector<const toml::table*> TomlReader::Tables(const toml::node& n, std::string_view key,
                                                   std::string_view expected) const {
  std::vector<const toml::table*> out;
  for (auto& e : Array(n, key, expected)) out.push_back(&Table(e, key));
  return out;
}

const toml::node& TomlReader::Required(const toml::table& t, std::string_view key,
                                       std::string_view what) const {
  if (auto* n = t.get(key)) return *n;
  Fail(t, key, absl::StrCat("this required key (", S(what), ")"));
}

std::string TomlReader::RequiredString(const toml::table& t, std::string_view key) const {
  return String(Required(t, key, "a string"), key);
}

bool TomlReader::RequiredBool(const toml::table& t, std::string_view key) const {
  return Bool(Required(t, key, "true or false"), key);
}

int64_t TomlReader::RequiredInt64(const toml::table& t, std::string_view key, int64_t lo,
                                  int64_t hi) const {
  return Int64(Required(t, key, "an integer"), key, lo, hi);
}

double TomlReader::RequiredNumber(const toml::table& t, std::string_view key) const {
  return Number(Required(t, key, "a finite number"), key);
}

std::vector<std::string> TomlReader::RequiredStrings(const toml::table& t,
                                                     std::string_view key) const {
  return Strings(Required(t, key, "a list of strings"), key);
}

std::string TomlReader::OptionalString(const toml::table& t, std::string_view key) const {
  auto* n = t.get(key);
  return n ? String(*n, key) : "";
}

std::vector<std::string> TomlReader::OptionalStrings(const toml::table& t,
                                                     std::string_view key) const {
  auto* n = t.get(key);
  return n ? Strings(*n, key) : std::vector<std::string>{};
}

}  // namespace strata
