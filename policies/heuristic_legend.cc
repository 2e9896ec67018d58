// The heuristic and the legend and world rules (docs/rules.md G-13, G-14;
// docs/policies.md): a legendary permanent is not cast or played while a
// legend of its name is in play on either side (the era's rule is global:
// the new one would go to the graveyard at once, the card and its mana
// spent for nothing), and a World enchantment is not cast while its player
// controls a World permanent (it would put its own into the graveyard); one
// of the opponent's it replaces, which is cast as any enchantment. An
// entering copy (Clone) does not choose a legend in play to copy: the copy
// would be a second legend of that name, and go.

#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {

bool LostToUniqueRules(const PlayerView& v, const CardDef& c) {
  const bool legend = Has(c.supertypes, kLegendary), world = Has(c.supertypes, kWorld);
  if (!legend && !world) return false;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch) continue;
    if (legend && Has(ch->supertypes, kLegendary) && !ch->blank && ch->card != kNoCard &&
        &v.db()[ch->card] == &c)
      return true;
    if (world && Has(ch->supertypes, kWorld) && MinePermanent(v, *ch)) return true;
  }
  return false;
}

bool CopyLostToLegendRule(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  return ch && Has(ch->supertypes, kLegendary) && !ch->blank;
}

}  // namespace strata::heuristic_detail
