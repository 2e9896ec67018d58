// The heuristic's counters read as a number and abilities any player may
// activate (docs/rules.md G-8.3, G-8.4; docs/policies.md). An ability that
// only removes counters from its own source, with none of it on its way
// elsewhere (Armageddon Clock's "{4}: remove a doom counter", any player's
// to activate), is played while the source has such counters and the
// player's life is no greater than the opponent's, or no greater than the
// counters (the next draw step's damage would kill): the one the clock
// hurts more pays. Another player's ability that is no such removal is
// never played (nothing of the other player's is judged as the player's
// own). "Put a +1/+1 counter on it" activated only in its controller's
// upkeep (Rock Hydra's {R}{R}{R}) is played there whenever it is
// affordable. Everything else is EvaluateBody's (Rock Hydra's prevention
// shield, played in a damage-prevention step as any).

#include "policies/heuristic_internal.h"

namespace strata {

bool HeuristicPolicy::EvaluateCounters3(const PlayerView& v, const Context& cx, const Action& a,
                                        const CardDef& c, const AbilityBody& body, int mode,
                                        Plan& best) {
  const ActivatedAbility& ab = c.activated[a.index];
  const Characteristics* ch = v.Chars(a.object);
  if (!ch) return true;
  const bool removal = body.targets.empty() && body.steps.size() == 1 &&
                       body.steps[0].op == Op::kRemoveCounters &&
                       body.steps[0].target.kind == Ref::kSelf;
  if (!removal) {
    if (ch->controller != cx.me) return true;  // another player's: not judged
    const bool grows = body.targets.empty() && body.steps.size() == 1 &&
                       body.steps[0].op == Op::kAddCounters &&
                       body.steps[0].target.kind == Ref::kSelf && body.steps[0].counter_kind == 0;
    if (!grows || !ab.only_your_turn || ab.only_phase != static_cast<int8_t>(Phase::kUpkeep))
      return false;
    Plan p = Plan::For(a, mode);
    p.score = 40;
    if (p.score > best.score) best = p;
    return true;
  }
  const int there = v.Counters(a.object, body.steps[0].counter_kind);
  const int mine = v.Life(cx.me), theirs = v.Life(cx.opp);
  if (there <= 0 || (mine > theirs && mine > there)) return true;
  Plan p = Plan::For(a, mode);
  p.score = 45;
  if (p.score > best.score) best = p;
  return true;
}

}  // namespace strata
