#include "policies/policy.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "policies/heuristic.h"
#include "policies/mc.h"
#include "policies/passive.h"
#include "policies/random_policy.h"

namespace strata {

absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(const std::string& spec, uint64_t seed) {
  std::vector<std::string> head = absl::StrSplit(spec, absl::MaxSplits(':', 1));
  const std::string& name = head[0];
  std::vector<std::pair<std::string, std::string>> params;
  if (head.size() > 1 && !head[1].empty()) {
    // name=value pairs; a value may be a policy spec with its own ':' and
    // '=' (rollout=heuristic:style=control).
    for (auto kv : absl::StrSplit(head[1], absl::ByAnyChar(",;"))) {
      std::vector<std::string> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
      if (p.size() != 2)
        return absl::InvalidArgumentError("policy '" + spec + "': parameter '" + std::string(kv) +
                                          "': expected name=value");
      params.emplace_back(p[0], p[1]);
    }
  }
  if (name == "random") {
    double pass = 0.3;
    for (auto& [k, v] : params) {
      if (k != "pass" || !absl::SimpleAtod(v, &pass) || !(pass >= 0 && pass <= 1))  // NaN too
        return absl::InvalidArgumentError("policy '" + spec + "': parameter '" + k +
                                          "': expected pass=P with 0 <= P <= 1");
    }
    return std::unique_ptr<Policy>(new RandomPolicy(seed, pass));
  }
  if (name == "heuristic") {
    HeuristicPolicy::Style style = HeuristicPolicy::Style::kAggro;
    bool keep_all = false;
    for (auto& [k, v] : params) {
      if (k == "style" && v == "aggro")
        style = HeuristicPolicy::Style::kAggro;
      else if (k == "style" && v == "control")
        style = HeuristicPolicy::Style::kControl;
      else if (k == "keep" && v == "all")
        keep_all = true;
      else
        return absl::InvalidArgumentError("policy '" + spec + "': parameter '" + k +
                                          "': expected style=aggro or style=control, or keep=all");
    }
    return std::unique_ptr<Policy>(new HeuristicPolicy(seed, style, keep_all));
  }
  if (name == "passive") {
    if (!params.empty())
      return absl::InvalidArgumentError("policy '" + spec + "': passive takes no parameters");
    return std::unique_ptr<Policy>(new PassivePolicy());
  }
  if (name == "mc") {
    McPolicy::Params mc;
    for (auto& [k, v] : params) {
      bool ok = true;
      if (k == "rollouts")
        ok = absl::SimpleAtoi(v, &mc.rollouts) && mc.rollouts >= 1 && mc.rollouts <= 100000;
      else if (k == "depth")
        ok = absl::SimpleAtoi(v, &mc.depth) && mc.depth >= 1 && mc.depth <= 100000;
      else if (k == "margin")
        ok = absl::SimpleAtod(v, &mc.margin) && mc.margin >= 0 && mc.margin <= 1;
      else if (k == "decide") {
        ok = v == "combat" || v == "tactical" || v == "all";
        mc.decide = v == "combat"  ? McPolicy::Params::Decide::kCombat
                    : v == "all"   ? McPolicy::Params::Decide::kAll
                                   : McPolicy::Params::Decide::kTactical;
      } else if (k == "rollout") {
        ok = v.rfind("mc", 0) != 0 && MakePolicy(v, seed).ok();
        mc.rollout = v;
      } else
        ok = false;
      if (!ok)
        return absl::InvalidArgumentError(
            "policy '" + spec + "': parameter '" + k +
            "': expected rollouts=N (1..100000), depth=N (1..100000), margin=M (0..1), "
            "decide=combat|tactical|all or rollout=P (a policy other than mc)");
    }
    return std::unique_ptr<Policy>(new McPolicy(seed, mc));
  }
  return absl::InvalidArgumentError("unknown policy '" + name + "'; known policies:\n" +
                                    PolicyHelp());
}

absl::StatusOr<std::array<std::string, 2>> ParsePolicyPair(const std::string& text) {
  std::vector<std::string> specs;
  for (absl::string_view token : absl::StrSplit(text, ',')) {
    // "name=value" before any ':' continues the previous spec's parameters.
    absl::string_view head = token.substr(0, token.find(':'));
    if (!specs.empty() && head.find('=') != absl::string_view::npos)
      absl::StrAppend(&specs.back(), ",", token);
    else
      specs.emplace_back(token);
  }
  if (specs.size() == 1) specs.push_back(specs[0]);
  if (specs.size() != 2)
    return absl::InvalidArgumentError("'" + text + "': expected one policy or two, P1,P2 (got " +
                                      std::to_string(specs.size()) + ")");
  for (const std::string& s : specs)
    if (auto p = MakePolicy(s, 1); !p.ok()) return p.status();
  return std::array<std::string, 2>{specs[0], specs[1]};
}

std::string PolicyHelp() {
  return "  random[:pass=P]   uniform over legal actions; passes with probability P "
         "(default 0.3) when passing is legal\n"
         "  heuristic[:style=aggro|control,keep=all]   plays lands and spells on curve, attacks "
         "when the race favours it, blocks to survive or trade, aims harmful spells at the "
         "opponent (default style aggro); mulligans a hand of too few or too many lands unless "
         "keep=all\n"
         "  passive   passes whenever it may; never attacks or blocks\n"
         "  mc[:rollouts=N,depth=D,rollout=P,margin=M,decide=W]   for each legal action, N "
         "rollouts (default 8) from determinized copies (the opponent's hand and the libraries "
         "dealt again) played by P (default heuristic) for up to D decisions (default 40), then "
         "the position scored; keeps P's own choice unless another action scores better by "
         "more than M (default 0.02); weighs attacks and blocks (W=combat), also targets, X, "
         "prevention and reactions (W=tactical, the default) or every decision (W=all), and "
         "otherwise only whether to announce an attack\n";
}

}  // namespace strata
