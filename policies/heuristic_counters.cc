// The heuristic's counters as a resource (docs/rules.md G-8;
// docs/policies.md): an ability that only stores named counters on its
// own source (a Mana Battery's charge) stores them with the mana the end
// of the opponent's turn would leave unspent; one that turns counters into
// mana (the Battery's other) removes the fewest that cast a card of the
// hand it can't cast now; a creature whose +1/+1 counters pay for damage
// (Triskelion) spends them all once it is dying in a fight, on what one
// damage kills or else the opponent's face. Everything else about such an
// ability is EvaluateBody's (Triskelion killing an X/1, Osai Vultures'
// pump in a fight).

#include "policies/aim.h"
#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::Affords;
using heuristic_detail::IncomingInFight;
using heuristic_detail::Mana;
using heuristic_detail::MinePermanent;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::WorthOf;

namespace {

// Only puts counters of a named kind (not +1/+1 or -1/-1) on its source.
bool StoresCounters(const AbilityBody& body) {
  if (body.steps.empty() || !body.targets.empty() || !body.modes.empty()) return false;
  for (const EffectStep& st : body.steps)
    if (st.op != Op::kAddCounters || st.target.kind != Ref::kSelf || st.counter_kind != 2)
      return false;
  return true;
}

}  // namespace

bool HeuristicPolicy::EvaluateCounters(const PlayerView& v, const Context& cx, DecisionKind window,
                                       const Action& a, const CardDef& c, const AbilityBody& body,
                                       int mode, Plan& best) {
  const ActivatedAbility& ab = c.activated[a.index];
  if (!body.steps.empty() && body.steps[0].up_to_total) [[unlikely]]
    return EvaluateWinding(v, cx, a, c, body, mode, best);  // G-8.2
  const ObjId source = a.object;
  Plan p = Plan::For(a, mode);
  auto offer = [&](int score) {
    p.score = score;
    if (score > best.score) best = p;
  };
  if (ab.remove_counter_kind < 0) {
    if (!StoresCounters(body)) return false;
    // Stored with the mana a turn would leave unspent: the opponent's, or
    // its own once its main phase is over, when no fast card of its hand
    // could use that mana in the opponent's turn.
    bool fast_in_hand = false;
    for (ObjId h : v.MyHand()) {
      const CardId hc = v.CardOf(h);
      fast_in_hand |= hc != kNoCard && heuristic_detail::IsFast(v.db()[hc]);
    }
    const bool own_end = cx.my_turn && v.phase() == Phase::kDiscard && !fast_in_hand;
    if ((cx.end_of_their_turn || own_end) && Affords(ab.cost, cx.mana)) offer(20);
    return true;
  }
  const int there = v.Counters(source, ab.remove_counter_kind);
  if (OnlyAddsMana(body) && ab.remove_counters_x) {
    // As a ritual: only for a card it then casts and can't now, with the
    // fewest counters that do (the rest stay stored; more would burn).
    if (!cx.sorcery_time) return true;
    const EffectStep& st = body.steps[0];
    int best_k = -1, enabled = -1;
    for (ObjId h : v.MyHand()) {
      const CardId hc = v.CardOf(h);
      if (hc == kNoCard) continue;
      const CardDef& card = v.db()[hc];
      if (Has(card.types, kLand) || Affords(card.cost, cx.mana)) continue;
      for (int k = 0; k <= there; ++k) {
        Mana after = cx.mana;
        const int added = st.amount.Scale(k);
        after.total += added;
        for (int col = 0; col < kColorCount; ++col)
          if (st.mana_any || Has(st.mana_colors, col)) after.color[col] += added;
        if (!Affords(card.cost, after)) continue;
        if (card.cost.ManaValue() > enabled) enabled = card.cost.ManaValue(), best_k = k;
        break;
      }
    }
    if (best_k >= 0) {
      p.x = best_k;
      offer(51 + enabled);
    }
    return true;
  }
  // +1/+1 counters that pay for damage: all of them once the creature is
  // dying in a fight (a creature that dies keeps none).
  const Characteristics* ch = v.Chars(source);
  if (ab.remove_counter_kind != 0 || !ch || !ch->IsCreature() || body.targets.empty() ||
      body.steps.empty() || body.steps[0].op != Op::kDamage)
    return false;
  ObjId foe = kNoObj;
  if (IncomingInFight(v, source, &foe) < ToughnessLeft(v, source)) {
    // Not dying: EvaluateBody's, but only to start a batch: its own shot
    // waiting in the batch is not in the view, and a second at the same
    // X/1 would waste a counter.
    return window != DecisionKind::kNeutral;
  }
  const int dmg = body.steps[0].amount.kind == Value::kConst ? body.steps[0].amount.constant : 0;
  int best_worth = -1;
  PlayerView::TargetsOf could_target(v, a, 0, mode);
  for (ObjId o : v.Battlefield()) {
    if (window == DecisionKind::kRespond) break;  // its own shot may be waiting for it: the face
    const Characteristics* och = v.Chars(o);
    if (!och || !och->IsCreature() || MinePermanent(v, *och) || ToughnessLeft(v, o) > dmg ||
        !could_target.Could(o))
      continue;
    if (const int w = WorthOf(v, o); w > best_worth) best_worth = w, p.target = o;
  }
  if (best_worth < 0) {
    if (!v.CouldTargetPlayer(a, 0, cx.opp, mode)) return true;
    p.target_player = cx.opp;
  }
  offer(150);
  return true;
}

}  // namespace strata
