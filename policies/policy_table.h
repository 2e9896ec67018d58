// The table of the policies a spec can name (MakePolicy): one row per policy
// with its name, a one-line description, its parameters and a factory. The
// spec's parsing, the range checks, the error messages and the --help text
// (PolicyHelp) are all made from the rows, so a new policy is one new row
// (docs/policies.md, "How to add a policy") and can't be built, checked and
// described three different ways.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "policies/policy.h"

namespace strata {

// One name=value parameter of a policy spec ("rollouts=8").
struct PolicyParam {
  enum class Kind : uint8_t {
    kInt,     // an integer from lo to hi
    kReal,    // a number from lo to hi
    kWord,    // one of `words`
    kPolicy,  // the spec of another policy than the one it belongs to (no mc inside mc)
  };
  absl::string_view name;
  // What the help writes for its value ("N" in rollouts=N); empty for a
  // word parameter, whose words are written instead (style=aggro|control).
  absl::string_view symbol;
  Kind kind = Kind::kInt;
  double lo = 0, hi = 0;                 // kInt, kReal
  std::vector<absl::string_view> words;  // kWord
  // As a spec would write it; empty: none (a flag such as keep=all).
  absl::string_view default_value;
  absl::string_view meaning;  // one line, for the help
};

struct PolicyEntry;

// A spec's parameters once checked against its row: each one given, or its
// default. The factory of a row reads them by name; it may only ask for a
// parameter its row declares, as the kind its row says.
class PolicyArgs {
 public:
  explicit PolicyArgs(const PolicyEntry& entry);
  // Sets parameter `name` from its text. An error only says what was
  // expected ("expected an integer from 1 to 100000, got '0'"); the caller
  // names the spec and the parameter.
  absl::Status Set(absl::string_view name, absl::string_view value);

  int Int(absl::string_view name) const;
  double Real(absl::string_view name) const;
  // A word or a policy spec; empty if neither given nor defaulted.
  const std::string& Text(absl::string_view name) const;

 private:
  struct Value {
    int64_t integer = 0;
    double real = 0;
    std::string text;
  };
  // The value of parameter `name`, which must be one of `kinds`.
  const Value& Get(absl::string_view name, std::initializer_list<PolicyParam::Kind> kinds) const;
  const PolicyEntry* entry_;
  std::vector<Value> values_;  // one per parameter of the row, in its order
};

// One policy: what a spec names, what --help says of it, how it is built.
struct PolicyEntry {
  absl::string_view name;
  absl::string_view summary;  // how it plays, in one line
  std::vector<PolicyParam> params;
  // Builds it from checked arguments. Only what the seed and the arguments
  // say may decide its play.
  std::unique_ptr<Policy> (*make)(const PolicyArgs& args, uint64_t seed) = nullptr;
};

// Every policy, in the order --help lists them.
const std::vector<PolicyEntry>& PolicyTable();

// How a parameter is written in a spec's synopsis: "rollouts=N",
// "style=aggro|control", "keep=all".
std::string ParamSynopsis(const PolicyParam& param);

}  // namespace strata
