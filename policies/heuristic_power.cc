// The heuristic's old-school power (issue 38; docs/policies.md): a mana
// ability offered as an action (docs/rules.md T-10.2: Black Lotus,
// Apprentice Wizard, Celestial Prism) is activated only in its
// controller's main phase, with no batch, when its mana casts a card of the
// hand that the mana at hand does not (the rituals' test, EnabledBy), with
// the color that does it (ChooseChoice takes the plan's); one that costs
// the permanent itself (Black Lotus) only for a card of mana value 3 or
// more. An extra turn (T-1.6: Time Walk) is cast in the main phase, after
// the attack when a good one is still to come (the attackers untap in the
// extra turn), else at once: an extra turn is a draw, a land drop and an
// attack more.
// Mana Drain (T-1.7) is weighed as a counter is (EvaluateBody); its mana
// arrives in the pool at the main phase's beginning, and Available counts
// the pool, so the plays of that phase spend it first.

#include <bit>

#include "policies/aim.h"
#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::EnabledBy;
using heuristic_detail::Mana;

namespace {

// The mana the body adds, all of one kind: its amount, and its color (-1
// colorless, -2 one chosen as it is activated).
int ManaKind(const AbilityBody& body, int* color) {
  int n = 0;
  *color = -1;
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kAddMana) continue;
    n += st.amount.kind == Value::kConst ? st.amount.constant : 0;
    if (st.mana_chosen)
      *color = -2;
    else if (!st.mana_colorless && st.mana_colors)
      *color = std::countr_zero(static_cast<unsigned>(st.mana_colors));
  }
  return n;
}

}  // namespace

HeuristicPolicy::Plan HeuristicPolicy::EvaluateManualMana(const PlayerView& v, const Context& cx,
                                                          const Action& a, const CardDef& c) {
  Plan best;
  const ActivatedAbility& ab = c.activated[a.index];
  if (!cx.sorcery_time) return best;
  int color = -1;
  const int added = ManaKind(ab.body, &color);
  if (added <= 0) return best;
  // What is left once its cost is paid from the mana at hand.
  Mana left = cx.mana;
  left.total -= ab.cost.ManaValue();
  for (int col = 0; col < kColorCount; ++col) left.color[col] -= ab.cost.colored[col];
  if (left.total < 0) return best;
  const int least = ab.sacrifice_self ? 3 : 0;  // Black Lotus: for something big
  int best_enabled = -1, best_color = -1;
  for (int col = color == -2 ? 0 : color; col < (color == -2 ? kColorCount : color + 1); ++col) {
    Mana after = left;
    after.total += added;
    if (col >= 0) after.color[col] += added;
    const int enabled = EnabledBy(v, cx.mana, after, a.object);
    if (enabled > best_enabled) best_enabled = enabled, best_color = col;
    if (col < 0) break;
  }
  if (best_enabled < 0 || best_enabled < least) return best;
  best.kind = a.kind;
  best.object = a.object;
  best.index = a.index;
  best.mana_color = color == -2 ? best_color : -1;
  best.score = 51 + best_enabled;
  return best;
}

bool HeuristicPolicy::EvaluateExtraTurn(const Context& cx, const AbilityBody& body, Plan& p) {
  bool extra = false;
  for (const EffectStep& st : body.steps)
    extra |= st.op == Op::kExtraTurn && st.target.kind == Ref::kYou;
  if (!extra) return false;
  // After the attack, if a good one is still to come (an attack scores 45
  // when it is good, -1 otherwise); then at once.
  p.score = !cx.sorcery_time ? -1 : cx.can_attack ? 40 : 70;
  return true;
}

}  // namespace strata
