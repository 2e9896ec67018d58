// The policy table (policies/policy_table.h) and what is made from it:
// MakePolicy, which checks a spec against its row and calls its factory, and
// PolicyHelp. A new policy needs its row here and no other code (docs/policies.md).
#include "policies/policy.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "policies/heuristic.h"
#include "policies/mc.h"
#include "policies/passive.h"
#include "policies/policy_table.h"
#include "policies/random_policy.h"

namespace strata {

using Kind = PolicyParam::Kind;

// The entries name only the fields they set; the rest keep their defaults,
// which g++ (unlike clang) reports for designated initializers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const std::vector<PolicyEntry>& PolicyTable() {
  static const std::vector<PolicyEntry> table = {
      {.name = "random",
       .summary = "uniform over legal actions",
       .params = {{.name = "pass",
                   .symbol = "P",
                   .kind = Kind::kReal,
                   .lo = 0,
                   .hi = 1,
                   .default_value = "0.3",
                   .meaning = "the chance it passes when passing is legal"}},
       .make = [](const PolicyArgs& a, uint64_t seed) -> std::unique_ptr<Policy> {
         return std::make_unique<RandomPolicy>(seed, a.Real("pass"));
       }},
      {.name = "heuristic",
       .summary = "plays lands and spells on curve, attacks when the race favours it, blocks to "
                  "survive or trade, aims harmful spells at the opponent",
       .params = {{.name = "style",
                   .kind = Kind::kWord,
                   .words = {"aggro", "control"},
                   .default_value = "aggro",
                   .meaning = "control holds back and saves burn for creatures"},
                  {.name = "keep",
                   .kind = Kind::kWord,
                   .words = {"all"},
                   .meaning = "keeps every opening hand; without it, it mulligans a hand of too "
                              "few or too many lands"}},
       .make = [](const PolicyArgs& a, uint64_t seed) -> std::unique_ptr<Policy> {
         const auto style = a.Text("style") == "control" ? HeuristicPolicy::Style::kControl
                                                         : HeuristicPolicy::Style::kAggro;
         return std::make_unique<HeuristicPolicy>(seed, style, a.Text("keep") == "all");
       }},
      {.name = "passive",
       .summary = "passes whenever it may; never attacks or blocks",
       .make = [](const PolicyArgs&, uint64_t) -> std::unique_ptr<Policy> {
         return std::make_unique<PassivePolicy>();
       }},
      {.name = "mc",
       .summary = "looks ahead: plays each legal action forward in determinized copies (the "
                  "opponent's hand and the libraries dealt again), scores where they end, and "
                  "keeps P's own choice unless another action scores better by more than M",
       .params = {{.name = "rollouts",
                   .symbol = "N",
                   .kind = Kind::kInt,
                   .lo = 1,
                   .hi = 100000,
                   .default_value = "8",
                   .meaning = "rollouts per legal action"},
                  {.name = "depth",
                   .symbol = "D",
                   .kind = Kind::kInt,
                   .lo = 1,
                   .hi = 100000,
                   .default_value = "40",
                   .meaning = "decisions per rollout before the position is scored (a deck with "
                              "counterspells: to the end of the next turn, at most 4D)"},
                  {.name = "rollout",
                   .symbol = "P",
                   .kind = Kind::kPolicy,
                   .default_value = "heuristic",
                   .meaning = "the policy that plays the rollouts, and whose choice is the "
                              "default"},
                  {.name = "margin",
                   .symbol = "M",
                   .kind = Kind::kReal,
                   .lo = 0,
                   .hi = 1,
                   .default_value = "0.02",
                   .meaning = "how much better than P's choice an action must score"},
                  {.name = "decide",
                   .symbol = "W",
                   .kind = Kind::kWord,
                   .words = {"combat", "tactical", "all"},
                   .default_value = "tactical",
                   .meaning = "the decisions the rollouts weigh: attacks and blocks (combat), also "
                              "targets, X, prevention and reactions, and for a deck with "
                              "counterspells interrupts and batch responses (tactical), or "
                              "every one (all); otherwise only whether to announce an attack"}},
       .make = [](const PolicyArgs& a, uint64_t seed) -> std::unique_ptr<Policy> {
         McPolicy::Params mc;
         mc.rollouts = a.Int("rollouts");
         mc.depth = a.Int("depth");
         mc.rollout = a.Text("rollout");
         mc.margin = a.Real("margin");
         const std::string& decide = a.Text("decide");
         mc.decide = decide == "combat" ? McPolicy::Params::Decide::kCombat
                     : decide == "all"  ? McPolicy::Params::Decide::kAll
                                        : McPolicy::Params::Decide::kTactical;
         return std::make_unique<McPolicy>(seed, std::move(mc));
       }},
  };
  return table;
}
#pragma GCC diagnostic pop

namespace {

const PolicyEntry* FindPolicy(absl::string_view name) {
  for (const PolicyEntry& e : PolicyTable())
    if (e.name == name) return &e;
  return nullptr;
}

// "a, b or c"
std::string JoinOr(const std::vector<std::string>& items) {
  if (items.size() <= 1) return absl::StrJoin(items, "");
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return absl::StrCat(absl::StrJoin(head, ", "), " or ", items.back());
}

std::string Number(const PolicyParam& p, double v) {
  return p.kind == Kind::kInt ? absl::StrCat(static_cast<int64_t>(v)) : absl::StrCat(v);
}

// What the help says a parameter takes: "1 to 100000, default 8".
std::string ParamValues(const PolicyParam& p, absl::string_view owner) {
  std::string values;
  switch (p.kind) {
    case Kind::kInt:
    case Kind::kReal:
      values = absl::StrCat(Number(p, p.lo), " to ", Number(p, p.hi));
      break;
    case Kind::kWord:
      // Without a symbol the synopsis already lists the words.
      if (!p.symbol.empty())
        values = JoinOr(std::vector<std::string>(p.words.begin(), p.words.end()));
      break;
    case Kind::kPolicy:
      values = absl::StrCat("any policy but ", owner);
      break;
  }
  if (!p.default_value.empty())
    absl::StrAppend(&values,
                    values.empty()          ? ""
                    : p.kind == Kind::kWord ? "; "
                                            : ", ",
                    "default ", p.default_value);
  return values;
}

// A spec checked against its row.
struct CheckedSpec {
  const PolicyEntry* entry;
  PolicyArgs args;
};

absl::StatusOr<CheckedSpec> CheckSpec(absl::string_view spec) {
  std::vector<absl::string_view> head = absl::StrSplit(spec, absl::MaxSplits(':', 1));
  const PolicyEntry* entry = FindPolicy(head[0]);
  if (entry == nullptr)
    return absl::InvalidArgumentError(
        absl::StrCat("unknown policy '", head[0], "'; known policies:\n", PolicyHelp()));
  PolicyArgs args(*entry);
  for (const PolicyParam& p : entry->params)
    if (!p.default_value.empty())
      if (absl::Status st = args.Set(p.name, p.default_value); !st.ok())
        return absl::InternalError(absl::StrCat("policy table: ", entry->name, "'s default ",
                                                p.name, "=", p.default_value, ": ", st.message()));
  if (head.size() > 1 && !head[1].empty()) {
    if (entry->params.empty())
      return absl::InvalidArgumentError(
          absl::StrCat("policy '", spec, "': ", entry->name, " takes no parameters"));
    // name=value pairs; a value may be a policy spec with its own ':' and
    // '=' (rollout=heuristic:style=control).
    std::vector<std::string> seen;  // a parameter given twice: which one counts? Refused.
    for (absl::string_view kv : absl::StrSplit(head[1], absl::ByAnyChar(",;"))) {
      std::vector<absl::string_view> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
      if (p.size() != 2)
        return absl::InvalidArgumentError(
            absl::StrCat("policy '", spec, "': parameter '", kv, "': expected name=value"));
      if (std::find(seen.begin(), seen.end(), std::string(p[0])) != seen.end())
        return absl::InvalidArgumentError(absl::StrCat("policy '", spec, "': parameter '", p[0],
                                                       "': given twice; expected it once"));
      seen.emplace_back(p[0]);
      if (absl::Status st = args.Set(p[0], p[1]); !st.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("policy '", spec, "': parameter '", p[0], "': ", st.message()));
    }
  }
  return CheckedSpec{entry, std::move(args)};
}

}  // namespace

std::string ParamSynopsis(const PolicyParam& p) {
  return absl::StrCat(p.name, "=", p.symbol.empty() ? absl::StrJoin(p.words, "|") : p.symbol);
}

PolicyArgs::PolicyArgs(const PolicyEntry& entry) : entry_(&entry), values_(entry.params.size()) {}

absl::Status PolicyArgs::Set(absl::string_view name, absl::string_view value) {
  const std::vector<PolicyParam>& params = entry_->params;
  auto it = std::find_if(params.begin(), params.end(),
                         [&](const PolicyParam& p) { return p.name == name; });
  if (it == params.end()) {
    std::vector<std::string> known;
    for (const PolicyParam& p : params) known.push_back(ParamSynopsis(p));
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", known.size() > 1 ? "one of " : "", absl::StrJoin(known, ", ")));
  }
  const PolicyParam& p = *it;
  Value& v = values_[it - params.begin()];
  const std::string got = absl::StrCat(", got '", value, "'");
  switch (p.kind) {
    case Kind::kInt:
      // The comparisons also refuse what does not fit.
      if (!absl::SimpleAtoi(value, &v.integer) || !(v.integer >= p.lo && v.integer <= p.hi))
        return absl::InvalidArgumentError(absl::StrCat("expected an integer from ", Number(p, p.lo),
                                                       " to ", Number(p, p.hi), got));
      break;
    case Kind::kReal:
      if (!absl::SimpleAtod(value, &v.real) || !(v.real >= p.lo && v.real <= p.hi))  // NaN too
        return absl::InvalidArgumentError(
            absl::StrCat("expected a number from ", Number(p, p.lo), " to ", Number(p, p.hi), got));
      break;
    case Kind::kWord: {
      if (std::find(p.words.begin(), p.words.end(), value) != p.words.end()) break;
      std::vector<std::string> forms;
      for (absl::string_view w : p.words) forms.push_back(absl::StrCat(p.name, "=", w));
      return absl::InvalidArgumentError(absl::StrCat("expected ", JoinOr(forms), got));
    }
    case Kind::kPolicy: {
      const absl::string_view inner = value.substr(0, value.find(':'));
      if (inner == entry_->name)
        return absl::InvalidArgumentError(
            absl::StrCat("expected a policy other than ", entry_->name, got));
      if (auto checked = CheckSpec(value); !checked.ok()) return checked.status();
      break;
    }
  }
  v.text = std::string(value);
  return absl::OkStatus();
}

const PolicyArgs::Value& PolicyArgs::Get(absl::string_view name,
                                         std::initializer_list<Kind> kinds) const {
  for (size_t i = 0; i < entry_->params.size(); ++i) {
    const PolicyParam& p = entry_->params[i];
    if (p.name == name && std::find(kinds.begin(), kinds.end(), p.kind) != kinds.end())
      return values_[i];
  }
  // A factory asked for what its row does not declare: a bug in the table.
  std::fprintf(stderr, "policy table: %s reads parameter '%.*s', which its row lacks\n",
               std::string(entry_->name).c_str(), static_cast<int>(name.size()), name.data());
  std::abort();
}

int PolicyArgs::Int(absl::string_view name) const {
  return static_cast<int>(Get(name, {Kind::kInt}).integer);
}
double PolicyArgs::Real(absl::string_view name) const {
  return Get(name, {Kind::kReal}).real;
}
const std::string& PolicyArgs::Text(absl::string_view name) const {
  return Get(name, {Kind::kWord, Kind::kPolicy}).text;
}

absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(const std::string& spec, uint64_t seed) {
  auto checked = CheckSpec(spec);
  if (!checked.ok()) return checked.status();
  return checked->entry->make(checked->args, seed);
}

absl::StatusOr<std::vector<std::string>> ParsePolicyList(const std::string& text) {
  std::vector<std::string> specs;
  for (absl::string_view token : absl::StrSplit(text, ',')) {
    // "name=value" before any ':' continues the previous spec's parameters.
    absl::string_view head = token.substr(0, token.find(':'));
    if (!specs.empty() && head.find('=') != absl::string_view::npos)
      absl::StrAppend(&specs.back(), ",", token);
    else
      specs.emplace_back(token);
  }
  for (const std::string& s : specs)
    if (auto p = MakePolicy(s, 1); !p.ok()) return p.status();
  return specs;
}

absl::StatusOr<std::array<std::string, 2>> ParsePolicyPair(const std::string& text) {
  auto specs = ParsePolicyList(text);
  if (!specs.ok()) return specs.status();
  if (specs->size() == 1) specs->push_back((*specs)[0]);
  if (specs->size() != 2)
    return absl::InvalidArgumentError("'" + text + "': expected one policy or two, P1,P2 (got " +
                                      std::to_string(specs->size()) + ")");
  return std::array<std::string, 2>{(*specs)[0], (*specs)[1]};
}

std::string PolicyHelp() {
  std::string out;
  for (const PolicyEntry& e : PolicyTable()) {
    std::vector<std::string> synopses;
    size_t width = 0;
    for (const PolicyParam& p : e.params) {
      synopses.push_back(ParamSynopsis(p));
      width = std::max(width, synopses.back().size());
    }
    absl::StrAppend(&out, "  ", e.name,
                    synopses.empty() ? "" : absl::StrCat("[:", absl::StrJoin(synopses, ","), "]"),
                    "   ", e.summary, "\n");
    for (size_t i = 0; i < e.params.size(); ++i) {
      const std::string values = ParamValues(e.params[i], e.name);
      absl::StrAppend(&out, "      ", synopses[i], std::string(width - synopses[i].size() + 3, ' '),
                      e.params[i].meaning, values.empty() ? "" : absl::StrCat(" (", values, ")"),
                      "\n");
    }
  }
  return out;
}

}  // namespace strata
