// The heuristic's cards in graveyards (docs/rules.md G-9; docs/policies.md):
// a spell or ability that returns a card of its controller's graveyard to
// the hand (Raise Dead, Regrowth, Reconstruction, Argivian Archaeologist) or
// to the battlefield (Resurrection) takes the card worth most there, and an
// Aura that returns a creature card from any graveyard under its caster's
// control (Animate Dead) the creature worth most of both graveyards; each
// is played at sorcery time (an ability also at the end of the opponent's
// turn), and only when a card worth having is there. An ability that exiles
// its own source to shuffle its graveyard in (Feldon's Cane) is kept for a
// library about to run out.

#include <algorithm>

#include "policies/aim.h"
#include "policies/heuristic_internal.h"

namespace strata {

namespace {

// What a card in a graveyard is worth back: a creature by its size (its
// printed power and toughness, `power_change` added: Animate Dead's -1/-0),
// evasion counted; any other spell by its mana value, above a small
// creature's worth; a land little.
int GraveyardWorth(const CardDef& d, int power_change) {
  if (Has(d.types, kCreature)) {
    const int power = std::max(0, d.power + power_change);
    int w = 3 * power + 2 * d.toughness;
    if (Has(d.keywords, kFlying)) w += 2 * power;
    return w;
  }
  if (Has(d.types, kLand)) return 1;
  return 6 + 2 * d.cost.ManaValue();
}

}  // namespace

bool HeuristicPolicy::EvaluateGraveyard(const PlayerView& v, const Context& cx, const Action& a,
                                        const CardDef& c, const AbilityBody* body, int mode,
                                        Plan& best) {
  const bool aura = body == nullptr;
  const bool spell = a.kind == ActionKind::kCast;
  if (!aura && !spell && c.activated[a.index].exile_self) {
    // An ability that exiles its own source (T-8.1: Feldon's Cane, its
    // graveyard shuffled into its library): only against running out of
    // cards, its library down to 5 and at least 5 cards in its graveyard.
    bool refills = false;
    for (const EffectStep& st : body->steps) refills |= st.op == Op::kShuffleIn;
    if (refills && v.LibrarySize(cx.me) <= 5 && v.Graveyard(cx.me).size() >= 5 &&
        (cx.sorcery_time || cx.end_of_their_turn)) {
      Plan p = Plan::For(a, mode);
      p.score = 45;
      if (p.score > best.score) best = p;
    }
    return true;
  }
  if (aura ? c.enchant_returned == kNoFilter
           : body->targets.empty() || body->targets[0].what != TargetWhat::kCard)
    return false;
  // Sorceries and Auras wait for the main phase; an ability comes at the
  // end of the opponent's turn too (its mana spare then).
  if (!cx.sorcery_time && !(!spell && cx.end_of_their_turn)) return true;
  int power_change = 0;
  if (aura) {
    // The Aura's own size change on what it returns (Animate Dead: -1/-0).
    for (const EffectTemplate& t : c.statics)
      for (const Part& p : t.parts)
        if (p.layer == PartLayer::kPtModify && p.has_power && p.power.kind == Value::kConst)
          power_change += p.power.constant;
  }
  PlayerView::TargetsOf could_target(v, a, 0, mode);
  int best_value = -1;
  ObjId best_obj = kNoObj;
  for (Player p : {cx.me, cx.opp}) {
    for (ObjId o : v.Graveyard(p)) {
      const CardId id = v.CardOf(o);
      if (id == kNoCard || !could_target.Could(o)) continue;
      const int value = GraveyardWorth(v.db()[id], power_change);
      if (value > best_value) best_value = value, best_obj = o;
    }
  }
  // A creature returned must be worth a card: a 1/1 is not.
  if (best_obj == kNoObj || best_value < 6) return true;
  Plan p = Plan::For(a, mode);
  p.target = best_obj;
  p.score = 40 + std::min(best_value, 60) / 3;
  if (p.score > best.score) best = p;
  return true;
}

}  // namespace strata
