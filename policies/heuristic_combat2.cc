// The heuristic and state triggers (docs/rules.md G-16; docs/policies.md):
// a permanent whose state trigger would trigger at once as it entered
// ("when you control no Islands, sacrifice it": Sea Serpent, Pirate Ship,
// Dandân, Island Fish Jasconius cast without an Island) is not cast: it
// would go at once, its card and mana spent for nothing. Asked beside the
// legend rule's test (LostToUniqueRules), only of a card with one
// (CardDef::state_triggered).

#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {

bool LostToStateTrigger(const PlayerView& v, const CardDef& c, ObjId card) {
  for (const TriggeredAbility& tr : c.triggers) {
    if (tr.event != EventKind::kState || tr.unless_any == kNoFilter) continue;
    bool any = false;
    for (ObjId o : v.Battlefield())
      if (!any && v.Chars(o)) any = v.Matches(tr.unless_any, o, card, v.me());
    if (any == tr.if_any) return true;
  }
  return false;
}

}  // namespace strata::heuristic_detail
