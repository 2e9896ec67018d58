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

#include <algorithm>

#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::MinePermanent;
using heuristic_detail::Regenerates;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::WorthOf;

namespace {

// Does the body arm a next-time trigger on a phase's beginning that destroys
// the ability's own source (not Sandals of Abdallah's, on a death)? Its damage to the first target,
// if any, in `damage`.
bool DoomsItsSource(const CardDef& c, const AbilityBody& body, int& damage) {
  bool doomed = false;
  damage = 0;
  for (const EffectStep& st : body.steps) {
    if (st.op == Op::kNextTime && st.next_time >= 0 &&
        st.next_time < static_cast<int>(c.next_times.size()) &&
        c.next_times[st.next_time].event == EventKind::kPhaseBegin)
      for (const EffectStep& s2 : c.next_times[st.next_time].body.steps)
        doomed |= s2.op == Op::kDestroy && s2.target.kind == Ref::kSelf;
    if (st.op == Op::kDamage && st.target.kind == Ref::kTarget && st.target.index == 1 &&
        st.amount.kind == Value::kConst)
      damage += st.amount.constant;
  }
  return doomed;
}

}  // namespace

bool HeuristicPolicy::EvaluateSelfDoomed(const PlayerView& v, const Context& cx, const Action& a,
                                         const CardDef& c, const AbilityBody& body, int mode,
                                         Plan& best) {
  int dmg = 0;
  if (!DoomsItsSource(c, body, dmg)) return false;
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
