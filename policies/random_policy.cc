#include "policies/random_policy.h"

#include "absl/strings/str_cat.h"

namespace strata {

int RandomPolicy::Choose(const PlayerView&, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  if (n <= 1) return 0;
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
