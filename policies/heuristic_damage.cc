// The heuristic player's damage prevention, redirection and mirroring with
// "a source of your choice" (docs/rules.md T-4.1: Reverse Damage, Eye for
// an Eye, Jade Monolith): played in a damage-prevention step, where the
// damage assigned is known (Game::PendingDamages), on the source whose
// damage it is worth most to stop, redirect or mirror.

#include "policies/heuristic_internal.h"

namespace strata {

namespace heuristic_detail {

// The next-time step of a body that waits on the source chosen (T-4.1),
// or nullptr.
const EffectStep* ChosenSourceStep(const CardDef& c, const AbilityBody& body) {
  for (const EffectStep& st : body.steps)
    if (st.op == Op::kNextTime && st.next_time >= 0 &&
        st.next_time < static_cast<int>(c.next_times.size()) &&
        c.next_times[st.next_time].chosen_source)
      return &st;
  return nullptr;
}

// Damage assigned and waiting for its prevention step from source s to
// player p (to_obj kNoObj) or to object to_obj.
static int PendingFrom(const PlayerView& v, ObjId s, Player p, ObjId to_obj) {
  int total = 0;
  for (const PendingDamage& d : v.PendingDamages()) {
    if (d.source != s) continue;
    if (to_obj == kNoObj ? (d.to.kind == Target::kPlayer && d.to.player == p)
                         : (d.to.kind == Target::kObject && d.to.obj.id == to_obj))
      total += d.amount;
  }
  return total;
}

// The source of the most damage waiting to be dealt to player p (to_obj
// kNoObj) or to object to_obj, and how much; kNoObj when none.
ObjId BiggestPendingSource(const PlayerView& v, Player p, ObjId to_obj, int* amount) {
  ObjId best = kNoObj;
  *amount = 0;
  for (const PendingDamage& d : v.PendingDamages()) {
    if (d.source == kNoObj) continue;
    const int n = PendingFrom(v, d.source, p, to_obj);
    if (n > *amount) *amount = n, best = d.source;
  }
  return best;
}

}  // namespace heuristic_detail

using namespace heuristic_detail;

// A body that waits on a chosen source's damage, in a prevention step:
// bound to a target creature (Jade Monolith: that damage comes to this
// player instead), when it saves a creature of ours worth more than the
// life it costs; else on damage to this player: mirrored back (Eye for an
// Eye: its damage is dealt to the opponent too) when it is 3 or more or
// finishes the opponent; prevented with life gained (Reverse Damage) when
// it is 3 or more or would kill.
void HeuristicPolicy::EvaluateSourceChoice(const PlayerView& v, const Context& cx, const Action& a,
                                           const CardDef& c, const AbilityBody& body,
                                           const EffectStep& st, int mode, Plan& p, Plan& best) {
  auto offer = [&](int score) {
    p.score = score;
    if (score > best.score) best = p;
  };
  const AbilityBody& delayed = c.next_times[st.next_time].body;
  bool mirrors = false, gains = false;
  for (const EffectStep& s : delayed.steps) {
    mirrors |= s.op == Op::kDamage;
    gains |= s.op == Op::kGainLife;
  }
  if (st.target.kind == Ref::kTarget) {
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || !could_target.Could(o)) continue;
      int amount = 0;
      const ObjId s = BiggestPendingSource(v, cx.me, o, &amount);
      if (s == kNoObj || Remembers(v, Did::kShielded, s)) continue;
      int total = 0;
      for (const PendingDamage& d : v.PendingDamages())
        if (d.to.kind == Target::kObject && d.to.obj.id == o) total += d.amount;
      // It must die without, live with, and the life must be spared.
      if (total < ToughnessLeft(v, o) || total - amount >= ToughnessLeft(v, o)) continue;
      if (amount + 5 >= v.Life(cx.me) || WorthOf(v, o) < amount * 10) continue;
      p.target = o;
      p.target_player = kNoPlayer;
      p.source_choice = s;
      offer(90 + WorthOf(v, o) / 10);
    }
    return;
  }
  int amount = 0;
  const ObjId s = BiggestPendingSource(v, cx.me, kNoObj, &amount);
  if (s == kNoObj || Remembers(v, Did::kShielded, s)) return;
  p.source_choice = s;
  if (mirrors) {
    if (amount >= v.Life(cx.opp))
      offer(220);
    else if (amount >= 3)
      offer(60 + amount * 5);
    return;
  }
  if (gains || !mirrors) {
    int total = 0;
    for (const PendingDamage& d : v.PendingDamages())
      if (d.to.kind == Target::kPlayer && d.to.player == cx.me) total += d.amount;
    if (total >= v.Life(cx.me) && total - amount < v.Life(cx.me))
      offer(200);
    else if (amount >= 3)
      offer(60 + amount * 5);
  }
  (void)body;
}

// A body whose steps read the damage dealt to this player this turn (T-4.1):
// life gained for it (Simulacrum, Reverse Polarity) once it is 4 or more,
// in the turn it was taken (the tally ends at cleanup), out of a fight
// (after the combat damage, or outside combat); a damage step on a target
// creature of its own (Simulacrum) goes to the one that survives it and is
// worth least, else the one worth least. True when the body reads the tally.
bool HeuristicPolicy::EvaluateTally(const PlayerView& v, const Context& cx, const Action& a,
                                    const CardDef& c, const AbilityBody& body, int mode, Plan& p,
                                    Plan& best) {
  int gain = -1;
  bool damages_target = false;
  for (const EffectStep& st : body.steps) {
    if (st.amount.kind != Value::kDamageThisTurn) continue;
    const TypeMask types =
        st.amount.filter != kNoFilter ? v.db().filter(st.amount.filter).types : TypeMask{0};
    const int n = st.amount.Scale(v.DamageTakenThisTurn(cx.me, types));
    if (st.op == Op::kGainLife) gain = std::max(gain, n);
    if (st.op == Op::kDamage && st.target.kind == Ref::kTarget) damages_target = true;
  }
  if (gain < 0 && !damages_target) return false;
  if (gain < 4 || cx.combat) return true;
  p.score = 40 + 3 * gain;
  if (damages_target) {
    const int dealt = gain;  // the same tally, unscaled for Simulacrum
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    ObjId pick = kNoObj;
    int pick_score = INT32_MIN;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || !could_target.Could(o)) continue;
      const int score = (ToughnessLeft(v, o) > dealt ? 100000 : 0) - WorthOf(v, o);
      if (score > pick_score) pick_score = score, pick = o;
    }
    if (pick == kNoObj) return true;
    // Losing a creature to it: only for life that matters.
    if (pick_score < 100000 && gain * 10 < WorthOf(v, pick) + 40) return true;
    p.target = pick;
    p.target_player = kNoPlayer;
  }
  (void)c;
  if (p.score > best.score) best = p;
  return true;
}

}  // namespace strata
