// The heuristic's counters wound up to a most (docs/rules.md G-8.2;
// docs/policies.md): a Clockwork creature's "{X}, {T}: put up to X +1/+0
// counters on it, no more than N" is played in its controller's upkeep
// (the only time it may be) once at most half its counters are left, with
// X the counters missing, or as many as the mana pays for when that is two
// or more; a winding that would put none, or one, is not worth the tap
// (the creature then can't attack this turn). The +1/+0 and -0/-2
// counters themselves need nothing: the view's power and toughness count
// them, and an Aura that puts -0/-2 counters aims at an opponent's
// creature as any harm does (policies/aim.cc).

#include "policies/heuristic_internal.h"

namespace strata {

bool HeuristicPolicy::EvaluateWinding(const PlayerView& v, const Context& cx, const Action& a,
                                      const CardDef& c, const AbilityBody& body, int mode,
                                      Plan& best) {
  const EffectStep& st = body.steps[0];
  const ActivatedAbility& ab = c.activated[a.index];
  const int there = v.Counters(a.object, st.counter_kind);
  const int missing = st.up_to_total - there;
  if (!cx.my_turn || missing <= 0 || there * 2 > st.up_to_total) return true;
  const int extra = ab.cost.ManaValue();  // its cost beyond X
  const int x = std::min(missing, cx.mana.total - extra);
  if (x < 2) return true;
  Plan p = Plan::For(a, mode);
  p.x = x;
  p.score = 40 + x;
  if (p.score > best.score) best = p;
  return true;
}

}  // namespace strata
