// The heuristic's reading of exactly X targets (docs/rules.md T-8.5: Word
// of Binding, Winter Blast, Volcanic Eruption): when to cast such a spell
// (EvaluateXTargets, asked by EvaluateOslist for a spell with an X) and
// which targets to take one by one (ChooseXTarget, asked by ChooseTarget
// when "done" is offered). A tap spell goes before my attack, at the
// biggest creatures that could block it; Volcanic Eruption only at the
// opponent's Mountains, when what its damage kills favours me.
#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {

namespace {

bool XSpec(const AbilityBody& b) {
  return b.targets.size() == 1 && b.targets[0].x;
}

bool Taps(const AbilityBody& b) {
  for (const EffectStep& st : b.steps)
    if (st.op == Op::kTap) return true;
  return false;
}

// The damage a step deals to the targets that have flying (Winter Blast).
int FlierDamage(const AbilityBody& b) {
  for (const EffectStep& st : b.steps)
    if (st.op == Op::kDamage && st.target.kind == Ref::kTarget && st.amount.kind == Value::kConst)
      return st.amount.constant;
  return 0;
}

// What taking o as a target is worth to me: a creature of the opponent's
// tapped before my attack (its worth, and a flier the damage kills), a
// Mountain of theirs destroyed; negative for anything of mine.
int TargetWorth(const PlayerView& v, const AbilityBody& b, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  if (!ch || MinePermanent(v, *ch)) return -1;
  if (!Taps(b)) return WorthOf(v, o);  // a Mountain destroyed
  int worth = v.Tapped(o) ? 0 : WorthOf(v, o);
  const int dmg = FlierDamage(b);
  if (dmg > 0 && Has(ch->keywords, kFlying))
    worth += ToughnessLeft(v, o) <= dmg ? WorthOf(v, o) : dmg * 5;
  return worth > 0 ? worth : -1;
}

}  // namespace

bool EvaluateXTargets(const PlayerView& v, Player me, bool can_attack, const Mana& mana,
                      const Action& a, const CardDef& c, const AbilityBody& body, int mode,
                      HeuristicPolicy::Plan& best) {
  if (!XSpec(body)) return false;
  HeuristicPolicy::Plan p = HeuristicPolicy::Plan::For(a, mode);
  const int x = MaxX(c.cost, mana);
  if (x <= 0) return true;
  // The targets I would take, best first, as many as X pays for.
  std::vector<int> worths;
  PlayerView::TargetsOf could(v, a, 0, mode);
  for (ObjId o : v.Battlefield())
    if (could.Could(o))
      if (const int w = TargetWorth(v, body, o); w > 0) worths.push_back(w);
  std::sort(worths.rbegin(), worths.rend());
  if (worths.size() > static_cast<size_t>(x)) worths.resize(x);
  const int n = static_cast<int>(worths.size());
  if (n == 0) return true;
  int gain = 0;
  for (int w : worths) gain += w;
  if (Taps(body)) {
    // Before my attack alone, with an attacker the blockers would stop.
    int attackers = 0;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      attackers += ch && MinePermanent(v, *ch) && ch->IsCreature() && !v.Tapped(o) && !v.Sick(o) &&
                   ch->power > 0 && !Has(ch->keywords, kDefender);
    }
    if (!can_attack || (attackers == 0 && FlierDamage(body) == 0)) return true;
    p.x = n;
    p.score = 30 + gain / 10;
  } else {
    // Volcanic Eruption: n damage to each creature and each player.
    const Player opp = 1 - me;
    if (v.Life(me) <= n && v.Life(opp) > n) return true;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || ToughnessLeft(v, o) > n) continue;
      gain += MinePermanent(v, *ch) ? -WorthOf(v, o) : WorthOf(v, o);
    }
    if (v.Life(opp) <= n && v.Life(me) > n) gain += 1000;
    if (gain <= 0) return true;
    p.x = n;
    p.score = 30 + gain / 10;
  }
  if (p.score > best.score) best = p;
  return true;
}

int ChooseXTarget(const PlayerView& v, const Decision& d) {
  const StackItem* item = v.CastingItem();
  if (!item || item->body_card == kNoCard) return -1;
  const AbilityBody* b = ItemModeBody(v.db(), *item);
  if (!b || !XSpec(*b)) return -1;
  int best = -1, best_worth = 0, done = 0;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    if (a.kind == ActionKind::kDone) done = i;
    if (a.kind != ActionKind::kTargetObject) continue;
    if (const int w = TargetWorth(v, *b, a.object); w > best_worth) best_worth = w, best = i;
  }
  return best >= 0 ? best : done;
}

}  // namespace strata::heuristic_detail
