// The heuristic's bands and divided combat damage (docs/rules.md T-7.3,
// docs/policies.md).
//
// A band: two bands are joined when the defending player's strongest
// untapped creature would kill one of their creatures alone and another of
// them would survive its damage: the attacking player then puts a
// blocker's damage where it kills nothing (or the least). Otherwise done:
// a band is blocked as one, so one blocker would stop them all.
//
// A division (the player divides combat damage dealt to their own
// creatures): a point goes to a creature already dealt lethal damage if
// one is offered (nothing more is lost); else, when the points left can
// all be placed without killing any, to the creature with the most
// toughness left; else to the one worth least, which is given up.

#include <algorithm>
#include <climits>

#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::WorthOf;

namespace {

// Toughness left once the combat damage of this step so far is counted.
int Left(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  if (!ch) return 0;
  return ch->toughness - v.Damage(o) - v.CombatDamageAssignedTo(o);
}

}  // namespace

int HeuristicPolicy::ChooseBand(const PlayerView& v, const Decision& d) {
  const Player me = v.me();
  int strongest = -1;  // the defending player's strongest untapped creature's power
  for (ObjId o = 0; o < static_cast<ObjId>(v.ObjectCount()); ++o) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || v.ZoneOf(o) != Zone::kBattlefield || !ch->IsCreature() || ch->controller == me ||
        v.Tapped(o))
      continue;
    strongest = std::max(strongest, static_cast<int>(ch->power));
  }
  int done = 0;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    if (a.kind == ActionKind::kDone) done = i;
    if (a.kind != ActionKind::kBand || strongest <= 0) continue;
    bool dies = false, survives = false;
    const ObjId bands[2] = {v.BandOf(a.object), v.BandOf(static_cast<ObjId>(a.value))};
    for (ObjId o = 0; o < static_cast<ObjId>(v.ObjectCount()); ++o) {
      if (!v.game_attacking(o) || (v.BandOf(o) != bands[0] && v.BandOf(o) != bands[1])) continue;
      const Characteristics* ch = v.Chars(o);
      if (!ch) continue;
      const int left = ch->toughness - v.Damage(o);
      dies |= left <= strongest;
      survives |= left > strongest;
    }
    if (dies && survives) return i;
  }
  return done;
}

int HeuristicPolicy::ChooseDivide(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  int spare = 0;  // points the creatures offered take without dying
  for (int i = 0; i < n; ++i) {
    const int left = Left(v, d.actions[i].object);
    if (left <= 0) return i;  // already dealt lethal damage
    spare += left - 1;
  }
  int best = 0;
  if (v.DivisionLeft() <= spare) {
    for (int i = 1; i < n; ++i)
      if (Left(v, d.actions[i].object) > Left(v, d.actions[best].object)) best = i;
    return best;
  }
  int least = INT_MAX;
  for (int i = 0; i < n; ++i) {
    const int w = WorthOf(v, d.actions[i].object);
    if (w < least) least = w, best = i;
  }
  return best;
}

}  // namespace strata
