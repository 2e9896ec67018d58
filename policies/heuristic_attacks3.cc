// The heuristic's forced attacks and destructions at the next end step of a
// chosen creature (docs/rules.md T-5.7, T-7.5; docs/policies.md): a body
// that arms a next-time trigger on a phase's beginning that destroys the
// object carried to it (T-7.5b: `target = N` bound at a time point) or a
// set of the active player's creatures that didn't attack (Siren's Call).
//
// Nettling Imp ("that creature attacks this turn if able; destroy it at the
// next end step if it didn't attack"): only at an opposing creature that
// can't attack now (tapped), which the end step then destroys, the most
// valuable first. Siren's Call: only when the active player (the opponent)
// has a tapped non-Wall creature it has had since the turn began, worth
// the card. Stone Giant (flying until end of turn, then destroyed): only
// in my main phase before my attack, for a creature of mine able to attack
// whose power is the opponent's life, when the opponent has no untapped
// creature with flying or reach. Erg Raiders' end-step damage is not
// weighed (it attacks as any creature).

#include <algorithm>
#include <optional>

#include "engine/words.h"
#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::MinePermanent;
using heuristic_detail::WorthOf;

namespace {

// The destruction at a phase's beginning that a next_time step of the body
// arms: of the carried target (1), of a set by `affects` (2); 0: none.
int CarriedDoom(const CardDef& c, const AbilityBody& body) {
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kNextTime || st.next_time < 0 ||
        st.next_time >= static_cast<int>(c.next_times.size()) ||
        c.next_times[st.next_time].event != EventKind::kPhaseBegin)
      continue;
    for (const EffectStep& s2 : c.next_times[st.next_time].body.steps) {
      if (s2.op != Op::kDestroy) continue;
      if (s2.target.kind == Ref::kEventObject && st.target.kind == Ref::kTarget) return 1;
      // (A set: only a spell cast before attackers, T-5.7: Siren's Call.)
      if (s2.affects != kNoFilter && s2.target.kind == Ref::kNone && c.spell_before_attackers)
        return 2;
    }
  }
  return 0;
}

bool IsWall(const Characteristics& ch) {
  static const std::optional<Word> wall = ParseWord("Wall");
  return wall && ch.subtypes.test(*wall);
}

bool FliesOrReaches(const Characteristics& ch) {
  return Has(ch.keywords, kFlying) || Has(ch.keywords, kReach);
}

}  // namespace

bool HeuristicPolicy::EvaluateCarriedDoom(const PlayerView& v, const Context& cx, const Action& a,
                                          const CardDef& c, const AbilityBody& body, int mode,
                                          Plan& best) {
  const int kind = CarriedDoom(c, body);
  if (kind == 0) return false;
  Plan p = Plan::For(a, mode);
  if (kind == 2) {  // Siren's Call: the opponent's tapped creatures die
    if (cx.my_turn) return true;
    int worth = 0;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || MinePermanent(v, *ch) || !v.Tapped(o) || v.Sick(o)) continue;
      if (IsWall(*ch)) continue;
      worth += WorthOf(v, o);
    }
    if (worth < 150) return true;
    p.score = 40 + std::min(worth, 600) / 10;
    if (p.score > best.score) best = p;
    return true;
  }
  if (body.targets.empty()) return true;
  PlayerView::TargetsOf could_target(v, a, 0, mode);
  if (!cx.my_turn) {  // Nettling Imp: a creature that can't attack dies
    int best_worth = -1;
    ObjId pick = kNoObj;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || MinePermanent(v, *ch) || !v.Tapped(o)) continue;
      const int worth = WorthOf(v, o);
      if (worth <= best_worth || !could_target.Could(o)) continue;
      best_worth = worth;
      pick = o;
    }
    if (pick == kNoObj) return true;
    p.target = pick;
    p.score = 40 + std::min(best_worth, 300) / 5;
    if (p.score > best.score) best = p;
    return true;
  }
  // Stone Giant: a flier for the opponent's last life, before my attack.
  if (!cx.main || !cx.can_attack) return true;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (ch && ch->IsCreature() && !MinePermanent(v, *ch) && !v.Tapped(o) && FliesOrReaches(*ch))
      return true;  // a blocker for a flier
  }
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || v.Tapped(o) || v.Sick(o)) continue;
    if (o == a.object || ch->power < v.Life(cx.opp) || !could_target.Could(o)) continue;
    p.target = o;
    p.score = 500;
    if (p.score > best.score) best = p;
    return true;
  }
  return true;
}

}  // namespace strata
