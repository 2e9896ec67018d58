// The heuristic's cards of issue 38's Old School list (docs/policies.md):
// - a discard of X of its own cards that returns as many from its
//   graveyard (docs/rules.md G-9: Recall) is cast in its main phase with X
//   the lands of its hand it can spare (five or more lands in play: the
//   discard throws those first, ChooseDiscard) and no more than the spells
//   of its graveyard worth having back (mana value 2 or more, creatures);
//   the cards returned are ChooseSearch's picks, the discarded ones among
//   them;
// - a spell limited to an opponent's turn that untaps its lands (T-5.2:
//   Reset) is cast there when two of its lands are tapped and a fast card
//   of its hand costs more than its untapped mana and no more than all its
//   lands: the mana untapped pays for it;
// - a spell with exactly N targets (T-8.2: Dust to Dust, Ashes to Ashes)
//   that harms them is cast only while N of the opponent's permanents are
//   there to take (the later targets are ChooseTarget's: harm to the other
//   side), and one that damages its caster too (Ashes to Ashes' 5) only
//   with that life and 4 more to spare.

#include <algorithm>

#include "policies/aim.h"
#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::IsFast;
using heuristic_detail::MaxX;
using heuristic_detail::MinePermanent;

namespace {

bool IsLandCard(const CardDef& d) {
  return Has(d.types, kLand);
}

// Recall's shape: a discard of X of its controller's cards, then a return
// counted by the discards.
bool DiscardsToReturn(const AbilityBody& body) {
  bool discard = false;
  for (const EffectStep& st : body.steps) {
    if (st.op == Op::kDiscard && st.amount.kind == Value::kX &&
        (st.target.kind == Ref::kYou || st.target.kind == Ref::kNone))
      discard = true;
    if (discard && st.op == Op::kReturnFromGraveyard && st.amount.kind == Value::kDiscarded)
      return true;
  }
  return false;
}

// Reset's shape: only during an opponent's turn, untapping its lands.
bool UntapsOwnLands(const CardDef& c, const AbilityBody& body) {
  if (c.spell_turn != 1) return false;
  for (const EffectStep& st : body.steps)
    if (st.op == Op::kUntap && st.affects != kNoFilter) return true;
  return false;
}

}  // namespace

bool HeuristicPolicy::EvaluateOslist(const PlayerView& v, const Context& cx, const Action& a,
                                     const CardDef& c, const AbilityBody& body, int mode,
                                     Plan& best) {
  if (c.cost.x_count > 0 &&
      heuristic_detail::EvaluateXTargets(v, cx.me, cx.can_attack, cx.mana, a, c, body, mode, best))
    return true;
  Plan p = Plan::For(a, mode);
  if (c.cost.x_count > 0 && DiscardsToReturn(body)) {
    if (!cx.sorcery_time) return true;
    int lands = 0;
    for (ObjId o : v.Battlefield())
      if (v.Chars(o) && MinePermanent(v, *v.Chars(o)) && Has(v.Chars(o)->types, kLand)) ++lands;
    int spare = 0;
    if (lands >= 5)
      for (ObjId o : v.MyHand())
        if (o != a.object && v.CardOf(o) != kNoCard && IsLandCard(v.db()[v.CardOf(o)])) ++spare;
    int worth_back = 0;
    for (ObjId o : v.Graveyard(cx.me)) {
      const CardId id = v.CardOf(o);
      if (id == kNoCard) continue;
      const CardDef& d = v.db()[id];
      if (!IsLandCard(d) && (d.cost.ManaValue() >= 2 || Has(d.types, kCreature))) ++worth_back;
    }
    const int x = std::min({MaxX(c.cost, cx.mana), spare, worth_back});
    if (x <= 0) return true;
    p.x = x;
    p.score = 30 + 10 * x;
    if (p.score > best.score) best = p;
    return true;
  }
  if (UntapsOwnLands(c, body)) {
    if (cx.my_turn) return true;
    int tapped = 0, all = 0;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !MinePermanent(v, *ch) || !Has(ch->types, kLand)) continue;
      ++all;
      tapped += v.Tapped(o);
    }
    if (tapped < 2) return true;
    // The mana left once it is paid for, and what the untapped lands cast.
    const int left = cx.mana.total - c.cost.ManaValue();
    bool pays = false;
    for (ObjId h : v.MyHand()) {
      const CardId id = v.CardOf(h);
      if (h == a.object || id == kNoCard) continue;
      const CardDef& d = v.db()[id];
      if (!IsFast(d) || IsLandCard(d) || d.spell_turn == 1) continue;
      const int mv = d.cost.ManaValue();
      if (mv > left && mv <= all) pays = true;
    }
    if (!pays) return true;
    p.score = 30;
    if (p.score > best.score) best = p;
    return true;
  }
  if (!body.targets.empty() && body.targets[0].min > 1 && SlotAim(c, body, 0) == Aim::kHarm) {
    // Exactly N targets: N of the opponent's, or not at all.
    int theirs = 0;
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (ch && !MinePermanent(v, *ch) && could_target.Could(o)) ++theirs;
    }
    if (theirs < body.targets[0].min) return true;
    int self_damage = 0;
    for (const EffectStep& st : body.steps)
      if (st.op == Op::kDamage && st.target.kind == Ref::kYou && st.amount.kind == Value::kConst)
        self_damage += st.amount.constant;
    if (self_damage > 0 && v.Life(cx.me) <= self_damage + 4) return true;
    return false;  // EvaluateBody weighs its first target
  }
  return false;
}

}  // namespace strata
