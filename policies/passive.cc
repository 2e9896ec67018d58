#include "policies/passive.h"

namespace strata {

int PassivePolicy::Choose(const PlayerView&, const Decision& d) {
  for (size_t i = 0; i < d.actions.size(); ++i)
    if (d.actions[i].kind == ActionKind::kKeep) return static_cast<int>(i);  // any hand (G-1)
  for (size_t i = 0; i < d.actions.size(); ++i)
    if (d.actions[i].kind == ActionKind::kPass) return static_cast<int>(i);
  return 0;
}

}  // namespace strata
