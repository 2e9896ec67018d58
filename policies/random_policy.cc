#include "policies/random_policy.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace strata {

int RandomPolicy::Choose(const PlayerView&, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  if (n <= 1) return 0;
  if (d.kind == DecisionKind::kMulligan) {
    // At random, but never to oblivion: a mulligan one time in four at
    // seven cards, half as often for each card fewer.
    int keep = 0, mulligan = 1;
    for (int i = 0; i < n; ++i) (d.actions[i].kind == ActionKind::kKeep ? keep : mulligan) = i;
    const int fewer = kOpeningHandSize - std::clamp(d.actions[keep].value, 0, kOpeningHandSize);
    return rng_.Unit() < 0.25 / static_cast<double>(1 << fewer) ? mulligan : keep;
  }
  if (d.actions[0].kind == ActionKind::kPass) {
    if (rng_.Unit() < pass_probability_) return 0;
    return 1 + static_cast<int>(rng_.Below(static_cast<uint32_t>(n - 1)));
  }
  return static_cast<int>(rng_.Below(static_cast<uint32_t>(n)));
}

std::string RandomPolicy::Name() const {
  return absl::StrCat("random:pass=", pass_probability_);
}

}  // namespace strata
