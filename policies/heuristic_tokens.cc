// The heuristic's token makers (docs/rules.md G-12; docs/policies.md): a
// body that creates token creatures for its controller is worth what the
// tokens are (power twice, toughness once, a keyword or an ability two
// more, for each). A sorcery (Icatian Town) is cast in the main phase as a
// creature spell is (50 and up); an activated ability (The Hive, Serpent
// Generator) is a mana sink: at the end of the opponent's turn with the
// mana still open (its tokens attack in the next turn and nothing was held
// back for it), else in its controller's main phase when nothing better
// is offered (a low score: spells come first), so that its tokens can
// block in the opponent's turn. An ability that costs only counters
// (Thallid's three spores) is used as soon as it can be: the counters do
// nothing else. Tokens made for an opponent (no card of the pool) are not
// made. Sacrifice-a-Saproling abilities stay with the sacrifice rule of
// Evaluate (never, as every "sacrifice a <kind>" cost).

#include <algorithm>

#include "policies/heuristic_internal.h"

namespace strata {

namespace {

int TokenWorth(const CardDef& t) {
  int worth = 2 * std::max(t.power, 0) + std::max(t.toughness, 0);
  if (t.keywords) worth += 2;
  if (t.AbilityCount() > 0) worth += 2;
  return worth;
}

}  // namespace

bool HeuristicPolicy::EvaluateTokens(const PlayerView& v, const Context& cx, const Action& a,
                                     const CardDef& c, const AbilityBody& body, int mode,
                                     Plan& best) {
  int worth = 0;
  bool makes = false, for_opponent = false;
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kCreateToken || st.token == kNoCard) continue;
    makes = true;
    if (st.target.kind != Ref::kNone && st.target.kind != Ref::kYou) {
      for_opponent = true;
      continue;
    }
    const int n = st.amount.kind == Value::kConst ? st.amount.constant : 1;
    worth += n * TokenWorth(v.db()[st.token]);
  }
  if (!makes) return false;
  if (for_opponent || worth <= 0) return true;
  const bool spell = a.kind == ActionKind::kCast;
  Plan p = Plan::For(a, mode);
  if (spell) {
    if (cx.sorcery_time || Has(c.types, kInstant)) p.score = 50 + std::min(worth, 30) / 2;
  } else {
    const ActivatedAbility& ab = c.activated[a.index];
    const bool counters_only =
        ab.remove_counter_kind >= 0 && ab.cost.Empty() && !ab.tap && ab.life == 0;
    if (counters_only)
      p.score = 45 + std::min(worth, 20);
    else if (cx.end_of_their_turn)
      p.score = 40 + std::min(worth, 20);
    else if (cx.sorcery_time && cx.my_turn)
      p.score = 10 + std::min(worth, 20) / 2;
  }
  if (p.score > best.score) best = p;
  return true;
}

}  // namespace strata
