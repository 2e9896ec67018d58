// The heuristic player's untap-step decisions (docs/rules.md T-1.8,
// T-13.1): which permanent to untap where a limit lets only one of its kind
// untap (Winter Orb, Smoke, Damping Field), and whether to pay a phase cost
// for what it does ("you may pay {4} during your upkeep to untap it":
// Mana Vault, Brass Man, Paralyze). docs/policies.md has the table's line.

#include <algorithm>

#include "policies/heuristic_internal.h"

namespace strata {

namespace {

using heuristic_detail::Available;
using heuristic_detail::LandColors;
using heuristic_detail::WorthOf;

// Does the card of characteristics ch keep itself tapped in its untap
// phase ("doesn't untap during your untap step": Mana Vault, Basalt
// Monolith)? Untapping it under a limit would waste the one untap.
bool KeepsItselfTapped(const PlayerView& v, const Characteristics& ch) {
  if (ch.card == kNoCard) return false;
  for (const TriggeredAbility& tr : v.db()[ch.card].triggers)
    if (tr.timing == Timing::kInstead && tr.event == EventKind::kUntap && tr.body.steps.empty() &&
        tr.filter != kNoFilter && v.db().filter(tr.filter).self)
      return true;
  return false;
}

// The most mana a spell of my hand that this mana could cast now asks: what
// I mean to spend this turn.
int BiggestCastable(const PlayerView& v, const heuristic_detail::Mana& mana) {
  int biggest = 0;
  for (ObjId h : v.MyHand()) {
    const CardId c = v.CardOf(h);
    if (c == kNoCard || Has(v.db()[c].types, kLand)) continue;
    const ManaCost& cost = v.db()[c].cost;
    if (heuristic_detail::Affords(cost, mana)) biggest = std::max(biggest, cost.ManaValue());
  }
  return biggest;
}

}  // namespace

// T-1.8: of the permanents offered, the one worth most to untap. A land:
// the one whose colours the spells in my hand ask for most that my other
// untapped lands lack. Anything else: the one worth most (WorthOf), a
// creature before a non-creature. Never one that keeps itself tapped
// (its untap would be replaced: the limit's one untap wasted).
int ChooseUntap(const PlayerView& v, const Decision& d) {
  std::array<int, kColorCount> asked{};
  for (ObjId h : v.MyHand()) {
    const CardId c = v.CardOf(h);
    if (c == kNoCard) continue;
    for (int col = 0; col < kColorCount; ++col) asked[col] += v.db()[c].cost.colored[col];
  }
  std::array<int, kColorCount> have{};
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || ch->controller != v.me() || v.Tapped(o) || !Has(ch->types, kLand)) continue;
    const ColorMask m = LandColors(v, o);
    for (int col = 0; col < kColorCount; ++col)
      if (Has(m, col)) ++have[col];
  }
  int best = 0, best_score = INT32_MIN;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const ObjId o = d.actions[i].object;
    const Characteristics* ch = v.Chars(o);
    if (!ch) continue;
    int score = 0;
    if (KeepsItselfTapped(v, *ch)) {
      score = -1000;
    } else if (Has(ch->types, kLand)) {
      const ColorMask m = LandColors(v, o);
      for (int col = 0; col < kColorCount; ++col)
        if (Has(m, col)) score += 10 * std::max(asked[col] - have[col], 0) + 1;
    } else {
      score = WorthOf(v, o) + (Has(ch->types, kCreature) ? 1000 : 0);
    }
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

// T-13.1: is paying this phase cost for its untap worth it? The decision
// offers yes (index `yes`) and no; its object has the phase cost. What it
// untaps: itself, or the creature it enchants (Paralyze). Pay when that is
// tapped, and the mana left after paying (with a mana source untapped, its
// mana counted) still casts the biggest spell of my hand I could cast
// without paying: a tapped creature worth little, or mana I mean to spend,
// is kept. Returns whether to pay; false also when the cost is no T-13.1
// untap (the caller decides those).
bool PayForUntap(const PlayerView& v, const Decision& d, int yes, bool* is_reward) {
  *is_reward = false;
  const ObjId o = d.actions[yes].object;
  const Characteristics* ch = v.Chars(o);
  if (!ch || ch->card == kNoCard) return false;
  const CardDef& card = v.db()[ch->card];
  const PhaseAbility* reward = nullptr;
  for (const PhaseAbility& ph : card.phase)
    if (ph.reward && ph.phase == static_cast<int>(v.phase())) reward = &ph;
  if (!reward) return false;
  *is_reward = true;
  ObjId untaps = kNoObj;
  for (const EffectStep& st : reward->body.steps)
    if (st.op == Op::kUntap) untaps = st.target.kind == Ref::kEnchanted ? v.AttachedTo(o) : o;
  if (untaps == kNoObj || !v.Tapped(untaps)) return false;
  const Characteristics* what = v.Chars(untaps);
  if (!what) return false;
  const heuristic_detail::Mana mana = Available(v, v.me());
  int left = mana.total - reward->cost.ManaValue();
  ManaSource made;
  const bool source = v.ManaOf(*what, made);
  if (source) left += made.amount;
  if (left < BiggestCastable(v, mana)) return false;
  // A creature: worth the mana only if it fights (a 0-power wall too).
  if (Has(what->types, kCreature)) return what->power >= 1 || what->toughness >= 3;
  return source;
}

}  // namespace strata
