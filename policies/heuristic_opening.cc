// The heuristic's opening hand (RULES.md G-1, ChooseOpeningHand in
// heuristic.h; mc keeps its hands by it too): a mulligan keeps a hand
// whose kept cards can hold a playable count of lands, and a london bottom
// puts away the lands beyond about three in seven, then the spells the
// hand's lands can't make the colours of, then the dearest.

#include <algorithm>
#include <array>
#include <utility>

#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::IsLand;
using heuristic_detail::LandColors;

namespace {

// The lands a kept hand of `cards` cards may hold: 2 to 5 of seven, 2 to 4
// of six, at least one of five; a hand of four or fewer is kept anyway
// (one card fewer again costs more than a poor hand).
std::pair<int, int> KeepableLands(int cards) {
  if (cards >= 7) return {2, 5};
  if (cards == 6) return {2, 4};
  if (cards == 5) return {1, 5};
  return {0, cards};
}

// The lands a kept hand of `cards` cards is best with: about three in
// seven (a forty-card deck of seventeen lands), at least one.
int IdealLands(int cards) {
  return std::max(1, (3 * cards + 3) / 7);
}

// My hand's cards: lands, and per colour the lands that make it and the
// coloured symbols its spells need.
struct HandMana {
  int lands = 0, spells = 0;
  std::array<int, kColorCount> sources{}, needs{};
};

HandMana ReadHand(const PlayerView& v) {
  HandMana h;
  for (ObjId o : v.MyHand()) {
    if (IsLand(v, o)) {
      ++h.lands;
      const ColorMask colors = LandColors(v, o);
      for (int c = 0; c < kColorCount; ++c) h.sources[c] += Has(colors, c);
    } else if (CardId id = v.CardOf(o); id != kNoCard) {
      ++h.spells;
      for (int c = 0; c < kColorCount; ++c) h.needs[c] += v.db()[id].cost.colored[c];
    }
  }
  return h;
}

int IndexOf(const Decision& d, ActionKind k) {
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == k) return i;
  return -1;
}

}  // namespace

int ChooseOpeningHand(const PlayerView& v, const Decision& d) {
  const HandMana h = ReadHand(v);
  const int hand = h.lands + h.spells;
  if (d.kind == DecisionKind::kMulligan) {
    const int keep = IndexOf(d, ActionKind::kKeep), mulligan = IndexOf(d, ActionKind::kMulligan);
    if (keep < 0 || mulligan < 0) return std::max(keep, 0);
    // The kept cards (a london hand puts the rest on the bottom) can hold
    // from `least` to `most` of the hand's lands.
    const int kept = d.actions[keep].value, away = std::max(hand - kept, 0);
    const int least = h.lands - std::min(h.lands, away);
    const int most = h.lands - std::max(0, away - h.spells);
    const auto [lo, hi] = KeepableLands(kept);
    return most >= lo && least <= hi ? keep : mulligan;
  }
  if (d.kind != DecisionKind::kBottom) return 0;
  // A london bottom: lands beyond the ideal for the hand kept first, else
  // the worst spell.
  const int kept = std::max(kOpeningHandSize - v.Mulligans(v.me()), 0);
  const bool land_away = h.spells == 0 || h.lands > IdealLands(kept);
  int best = 0;
  double best_score = -1e9;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const ObjId o = d.actions[i].object;
    const CardId id = v.CardOf(o);
    if (id == kNoCard || IsLand(v, o) != land_away) continue;
    double score = 0;
    if (land_away) {
      // The land the hand's spells need least: its colours, weighed by
      // the symbols that need them, shared with the other lands making them.
      const ColorMask colors = LandColors(v, o);
      double worth = 1;
      for (int c = 0; c < kColorCount; ++c)
        if (Has(colors, c)) worth += static_cast<double>(h.needs[c]) / h.sources[c];
      score = -worth;
    } else {
      // The spell the hand's lands can't make the colours of, then the dearest.
      const ManaCost& cost = v.db()[id].cost;
      for (int c = 0; c < kColorCount; ++c)
        if (cost.colored[c] > 0 && h.sources[c] == 0) score += 3;
      score += cost.ManaValue();
    }
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

}  // namespace strata
