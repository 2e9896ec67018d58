// The heuristic's abilities that cost their own permanent later (docs/rules.md
// T-5.4, E-6; docs/policies.md): an activated ability whose body arms
// "destroy <this> at the beginning of the next end step" (Rocket Launcher's
// {2}: 1 damage to any target) spends the permanent. It is used only for the
// opponent's last life, or for an opposing creature its damage kills that
// is worth at least as much as the permanent (WorthOf), the most valuable
// first; never at the face otherwise, nor at its own side. The activation
// limits of T-5.3 and T-5.4 (Vampire Bats' two pumps, the Launcher's "since
// your turn began") need nothing here: the engine does not offer an
// activation beyond them, and the heuristic weighs what it is offered.
//
// T-5.5 (Dragon Whelp: "{R}: +1/+0 until end of turn; if this ability has
// been activated four or more times this turn, sacrifice it at the next end
// step"): the activations before the fourth are plain pumps, weighed as any
// (heuristic_eval.cc); the fourth and later only for the opponent's last
// life (unblocked, its pump closes lethal combat damage) or to trade up (its
// pump kills the creature it fights, worth more than the Whelp, or the Whelp
// dies in that fight anyway); never otherwise.
//
// T-5.6 (Instill Energy: "{0}: untap enchanted creature; only during your
// turn and only once each turn"): the Aura goes on a creature with a {T}
// ability first (the untap uses it twice), else the most valuable; the
// untap is activated whenever that creature is tapped in my turn.

#include <algorithm>

#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::CombatDamageTo;
using heuristic_detail::IncomingInFight;
using heuristic_detail::MinePermanent;
using heuristic_detail::Regenerates;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::Unblocked;
using heuristic_detail::WorthOf;

namespace {

// Does the body arm a next-time trigger on a phase's beginning that destroys
// the ability's own source (not Sandals of Abdallah's, on a death)? Its damage to the first target,
// if any, in `damage`; in `from`, the activation count from which it does
// (T-5.5: Dragon Whelp's sacrifice from the fourth; 0: always).
bool DoomsItsSource(const CardDef& c, const AbilityBody& body, int& damage, int& from) {
  bool doomed = false;
  damage = 0;
  from = 0;
  for (const EffectStep& st : body.steps) {
    if (st.op == Op::kNextTime && st.next_time >= 0 &&
        st.next_time < static_cast<int>(c.next_times.size()) &&
        c.next_times[st.next_time].event == EventKind::kPhaseBegin)
      for (const EffectStep& s2 : c.next_times[st.next_time].body.steps) {
        const bool self = s2.target.kind == Ref::kSelf;
        if (st.if_activated > 0) {  // T-5.5
          if (self && (s2.op == Op::kDestroy || s2.op == Op::kSacrifice))
            doomed = true, from = st.if_activated;
        } else {
          doomed |= s2.op == Op::kDestroy && self;
        }
      }
    if (st.op == Op::kDamage && st.target.kind == Ref::kTarget && st.target.index == 1 &&
        st.amount.kind == Value::kConst)
      damage += st.amount.constant;
  }
  return doomed;
}

// The power a body's "gets +N/+M until end of turn" on its source adds.
int SelfPumpPower(const CardDef& c, const AbilityBody& body) {
  int power = 0;
  for (const EffectStep& st : body.steps)
    if (st.op == Op::kContinuous && st.target.kind == Ref::kSelf && st.continuous >= 0 &&
        st.continuous < static_cast<int>(c.continuous.size()))
      for (const Part& part : c.continuous[st.continuous].parts)
        if (part.layer == PartLayer::kPtModify && part.has_power &&
            part.power.kind == Value::kConst)
          power += part.power.constant;
  return power;
}

// T-5.5: what the pump that dooms its creature (Dragon Whelp's fourth) is
// worth: only lethal or a trade up; -1 otherwise.
int DoomedPumpScore(const PlayerView& v, ObjId src, const CardDef& c, const AbilityBody& body) {
  const Characteristics* ch = v.Chars(src);
  const int p = SelfPumpPower(c, body);
  if (!ch || !ch->IsCreature() || p <= 0) return -1;
  if (Unblocked(v, src)) {
    const Player opp = Opponent(v.me());
    const int dmg = CombatDamageTo(v, opp);
    return dmg < v.Life(opp) && dmg + p >= v.Life(opp) ? 500 : -1;
  }
  ObjId foe = kNoObj;
  const int incoming = IncomingInFight(v, src, &foe);
  if (foe == kNoObj) return -1;
  const int foe_left = ToughnessLeft(v, foe);
  if (ch->power >= foe_left || ch->power + p < foe_left) return -1;  // kills it already, or not
  const bool dies_anyway = incoming >= ToughnessLeft(v, src);
  if (!dies_anyway && WorthOf(v, foe) <= WorthOf(v, src)) return -1;  // no trade up
  return 60;
}

}  // namespace

namespace heuristic_detail {

bool UntapsEnchanted(const CardDef& c) {
  for (const ActivatedAbility& ab : c.activated)
    for (const EffectStep& st : ab.body.steps)
      if (st.op == Op::kUntap && st.target.kind == Ref::kEnchanted) return true;
  return false;
}

int UntapEnchantedWorth(const PlayerView& v, ObjId aura) {
  const ObjId o = v.AttachedTo(aura);
  if (o == kNoObj || v.active() != v.me() || !v.Tapped(o)) return 0;
  const Characteristics* ch = v.Chars(o);
  return ch && ch->IsCreature() && MinePermanent(v, *ch) ? 50 : 0;
}

int UntapperFit(const PlayerView& v, const Characteristics& ch) {
  if (ch.card == kNoCard) return 0;
  for (const ActivatedAbility& ab : v.db()[ch.card].activated)
    if (ab.tap) return 100;
  return 0;
}

}  // namespace heuristic_detail

bool HeuristicPolicy::EvaluateSelfDoomed(const PlayerView& v, const Context& cx, const Action& a,
                                         const CardDef& c, const AbilityBody& body, int mode,
                                         Plan& best) {
  int dmg = 0, from = 0;
  if (!DoomsItsSource(c, body, dmg, from)) return false;
  if (from > 0) {
    // T-5.5: before the count that dooms it, a plain pump (weighed as any).
    if (v.ActivationsThisTurn(a.object, a.index) + 1 < from) return false;
    Plan p = Plan::For(a, mode);
    p.score = DoomedPumpScore(v, a.object, c, body);
    if (p.score > best.score) best = p;
    return true;
  }
  if (dmg <= 0 || body.targets.empty()) return true;  // nothing it weighs: left alone
  Plan p = Plan::For(a, mode);
  if (v.CouldTargetPlayer(a, 0, cx.opp, mode) && dmg >= v.Life(cx.opp)) {
    p.target_player = cx.opp;
    p.score = 500;
    if (p.score > best.score) best = p;
    return true;
  }
  const int own = WorthOf(v, a.object);
  PlayerView::TargetsOf could_target(v, a, 0, mode);
  int best_worth = -1;
  ObjId pick = kNoObj;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || MinePermanent(v, *ch)) continue;
    if (ToughnessLeft(v, o) > dmg || Regenerates(v, o)) continue;
    const int worth = WorthOf(v, o);
    if (worth < own || worth <= best_worth || !could_target.Could(o)) continue;
    best_worth = worth;
    pick = o;
  }
  if (pick == kNoObj) return true;
  p.target = pick;
  p.score = 40 + std::min(best_worth, 300) / 5;
  if (p.score > best.score) best = p;
  return true;
}

}  // namespace strata
