// The heuristic and phase costs paid by a sacrifice (docs/rules.md T-13.3;
// docs/policies.md): a permanent whose upkeep sacrifice would find nothing
// of its controller's to take ("sacrifice a creature other than Lord of the
// Pit; if you can't, it deals 7 damage to you") is not cast: its penalty
// would come each upkeep. Asked only of a card with one
// (CardDef::phase_sacrifice). Which permanent goes is the sacrifice
// decision's (the one worth least, heuristic.cc).

#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {

bool PhaseSacrificeUnfed(const PlayerView& v, const CardDef& c, ObjId card) {
  for (const PhaseAbility& ph : c.phase) {
    if (ph.sacrifice == kNoFilter) continue;
    bool any = false;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!any && ch && ch->controller == v.me()) any = v.Matches(ph.sacrifice, o, card, v.me());
    }
    if (!any) return true;
  }
  return false;
}

}  // namespace strata::heuristic_detail
