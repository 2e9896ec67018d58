#include "policies/policy.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "policies/heuristic.h"
#include "policies/mc.h"
#include "policies/random_policy.h"

namespace strata {

absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(const std::string& spec, uint64_t seed) {
  std::vector<std::string> head = absl::StrSplit(spec, absl::MaxSplits(':', 1));
  const std::string& name = head[0];
  std::vector<std::pair<std::string, std::string>> params;
  if (head.size() > 1 && !head[1].empty()) {
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
      if (k != "pass" || !absl::SimpleAtod(v, &pass) || pass < 0 || pass > 1)
        return absl::InvalidArgumentError("policy '" + spec + "': parameter '" + k +
                                          "': expected pass=P with 0 <= P <= 1");
    }
    return std::unique_ptr<Policy>(new RandomPolicy(seed, pass));
  }
  if (name == "heuristic") {
    HeuristicPolicy::Style style = HeuristicPolicy::Style::kAggro;
    for (auto& [k, v] : params) {
      if (k == "style" && v == "aggro")
        style = HeuristicPolicy::Style::kAggro;
      else if (k == "style" && v == "control")
        style = HeuristicPolicy::Style::kControl;
      else
        return absl::InvalidArgumentError("policy '" + spec + "': parameter '" + k +
                                          "': expected style=aggro or style=control");
    }
    return std::unique_ptr<Policy>(new HeuristicPolicy(seed, style));
  }
  if (name == "mc") {
    // Parameters are separated by ';' (',' separates the players' policies).
    int rollouts = 8, depth = 400;
    std::string rollout = "heuristic";
    for (auto& [k, v] : params) {
      bool ok = true;
      if (k == "rollouts")
        ok = absl::SimpleAtoi(v, &rollouts) && rollouts >= 1 && rollouts <= 100000;
      else if (k == "depth")
        ok = absl::SimpleAtoi(v, &depth) && depth >= 1 && depth <= 100000;
      else if (k == "rollout")
        ok = v == "random" || v.rfind("heuristic", 0) == 0;
      else
        ok = false;
      if (!ok)
        return absl::InvalidArgumentError(
            "policy '" + spec + "': parameter '" + k +
            "': expected rollouts=N (1..100000), depth=N (1..100000) or rollout=random|heuristic");
    }
    return std::unique_ptr<Policy>(new McPolicy(seed, rollouts, rollout, depth));
  }
  return absl::InvalidArgumentError("unknown policy '" + name + "'; known policies:\n" +
                                    PolicyHelp());
}

std::string PolicyHelp() {
  return "  random[:pass=P]   uniform over legal actions; passes with probability P "
         "(default 0.3) when passing is legal\n"
         "  heuristic[:style=aggro|control]   plays lands and spells on curve, attacks when the "
         "race favours it, blocks to survive or trade, aims harmful spells at the opponent "
         "(default style aggro)\n"
         "  mc[:rollouts=N;rollout=P;depth=D]   for each legal action, N rollouts (default 8) from "
         "determinized copies (the opponent's hand and the libraries reshuffled) played by P "
         "(default heuristic) for up to D decisions (default 400); picks the best average\n";
}

}  // namespace strata
