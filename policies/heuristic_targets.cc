// The heuristic's readings of issue 37's targets and choices: a sweep read
// from a target player's side (docs/rules.md G-17: Hurkyl's Recall), a
// basic land type chosen as an Aura enters (T-8.4: Phantasmal Terrain).
// Spell Blast (T-8.3) needs none of its own: it is a counter like any
// (heuristic.cc's interrupt decisions), offered only at a spell whose mana
// value its caster can pay, and X is then that one value.
#include <array>

#include "engine/words.h"
#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {

// What a body whose `affects` steps read from target player p's side
// (`relative_to`) takes from the opponent, less what it takes from me: a
// bounce returns a permanent to its owner's hand, half its worth lost to
// its controller in tempo, and a permanent I own that the opponent
// controls comes back to me whole; a destruction or an exile, its worth.
int RelativeSweepGain(const PlayerView& v, const AbilityBody& body, ObjId source, Player p) {
  int gain = 0;
  for (const EffectStep& st : body.steps) {
    if (st.relative_to == 0 || st.affects == kNoFilter) continue;
    const bool bounce = st.op == Op::kBounce;
    if (!bounce && st.op != Op::kDestroy && st.op != Op::kExile) continue;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !v.Matches(st.affects, o, source, p)) continue;
      const int worth = WorthOf(v, o);
      if (MinePermanent(v, *ch))
        gain -= bounce ? worth / 2 : worth;
      else
        gain += bounce && p != v.me() ? worth / 2 : worth;
    }
  }
  return gain;
}

namespace {

// How many lands player p controls make each color, land `except` left out.
std::array<int, kColorCount> LandColorCounts(const PlayerView& v, Player p, ObjId except) {
  std::array<int, kColorCount> n{};
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (o == except || !ch || ch->controller != p || !Has(ch->types, kLand)) continue;
    const ColorMask m = LandColors(v, o);
    for (int col = 0; col < kColorCount; ++col) n[col] += Has(m, col);
  }
  return n;
}

// The colors the spells of my hand need.
ColorMask HandNeeds(const PlayerView& v) {
  ColorMask needed = 0;
  for (ObjId h : v.MyHand()) {
    const CardId c = v.CardOf(h);
    if (c == kNoCard) continue;
    for (int col = 0; col < kColorCount; ++col)
      if (v.db()[c].cost.colored[col] > 0) needed |= 1u << col;
  }
  return needed;
}

}  // namespace

bool ChoosesLandType(const CardDef& c) {
  return c.enters.choose == ChoiceKind::kBasicLandType && c.enchant != kNoFilter;
}

// On an opponent's land: what it takes from them, a color no other land of
// theirs makes (30) or one other makes (10), and the abilities a basic
// land type wipes from it (a quarter of its worth); the type chosen is the
// color fewest of their other lands make, one my creatures walk on the
// tie. On a land of mine: a color my hand needs and no land of mine makes
// (25), where the land gives up no color only it makes.
int TerrainValue(const PlayerView& v, ObjId land, int* color) {
  const Characteristics* ch = v.Chars(land);
  if (!ch || !Has(ch->types, kLand)) return -1;
  const ColorMask makes = LandColors(v, land);
  const auto others = LandColorCounts(v, ch->controller, land);
  if (MinePermanent(v, *ch)) {
    for (int col = 0; col < kColorCount; ++col)
      if (Has(makes, col) && others[col] == 0) return -1;  // its only source of col
    const ColorMask needed = HandNeeds(v);
    for (int col = 0; col < kColorCount; ++col)
      if (Has(needed, col) && others[col] == 0 && !Has(makes, col)) {
        *color = col;
        return 25;
      }
    return -1;
  }
  int value = 0;
  for (int col = 0; col < kColorCount; ++col)
    if (Has(makes, col)) value += others[col] == 0 ? 30 : others[col] == 1 ? 10 : 0;
  if (ch->abilities != 0) value += WorthOf(v, land) / 4;
  KeywordMask walks = 0;
  for (ObjId o : v.Battlefield())
    if (const Characteristics* c = v.Chars(o); c && MinePermanent(v, *c) && c->IsCreature())
      walks |= c->keywords;
  int best = -1, best_score = INT32_MIN;
  for (int col = 0; col < kColorCount; ++col) {
    const int score = -100 * others[col] - (Has(makes, col) ? 1000 : 0) +
                      (Has(walks, kPlainswalk + col) ? 10 : 0);
    if (score > best_score) best_score = score, best = col;
  }
  *color = best;
  return value > 0 ? value : -1;
}

int ChooseLandType(const PlayerView& v, const Decision& d) {
  // The Aura of mine entering: attached to a land with no basic land type
  // yet (its type is the choice, not made).
  for (ObjId a : v.Battlefield()) {
    const Characteristics* ach = v.Chars(a);
    if (!ach || ach->card == kNoCard || !MinePermanent(v, *ach) ||
        !ChoosesLandType(v.db()[ach->card]))
      continue;
    const ObjId land = v.AttachedTo(a);
    const Characteristics* lch = land != kNoObj ? v.Chars(land) : nullptr;
    if (!lch) continue;
    bool typed = false;
    for (int col = 0; col < kColorCount; ++col) typed |= lch->HasSubtype(BasicLandSubtype(col));
    if (typed) continue;
    int color = -1;
    TerrainValue(v, land, &color);
    if (color < 0) return -1;
    for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
      if (d.actions[i].kind == ActionKind::kWord && d.actions[i].value == BasicLandSubtype(color))
        return i;
  }
  return -1;
}

}  // namespace strata::heuristic_detail
