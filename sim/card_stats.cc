#include "sim/card_stats.h"

#include <algorithm>

namespace strata {

void CardStats::Merge(const CardStats& o) {
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < kMaxDistinctCards; ++i) {
      CardCounts& c = side[s][i];
      const CardCounts& d = o.side[s][i];
      c.drawn += d.drawn;
      c.opening += d.opening;
      c.cast += d.cast;
      c.drawn_score += d.drawn_score;
      c.opening_score += d.opening_score;
      c.cast_score += d.cast_score;
    }
}

std::vector<CardId> DistinctCards(const Deck& deck) {
  std::vector<CardId> out;
  for (CardId c : deck.main)
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

void RecordCards(const Game& g, const Deck& a, const Deck& b, bool swapped, CardStats& out) {
  const GameState& s = g.state();
  const int winner = g.Winner();
  for (Player p = 0; p < 2; ++p) {
    const int side = (p == 0) != swapped ? 0 : 1;
    const std::vector<CardId>& main = (side == 0 ? a : b).main;
    const int n = std::min<int>(static_cast<int>(main.size()), kMaxObjects);
    // What happened to any copy of each card, by the position of the card's
    // first copy in the deck list.
    std::array<uint8_t, kMaxObjects> by_pos{};
    for (ObjId o = 0; o < s.obj.count; ++o) {
      if (s.obj.owner[o] != p) continue;
      auto it = std::find(main.begin(), main.begin() + n, s.obj.card[o]);
      if (it != main.begin() + n) by_pos[it - main.begin()] |= g.seen(o);
    }
    const int64_t score = winner < 0 ? 1 : winner == p ? 2 : 0;
    int distinct = 0;
    for (int i = 0; i < n && distinct < kMaxDistinctCards; ++i) {
      if (std::find(main.begin(), main.begin() + i, main[i]) != main.begin() + i) continue;
      CardCounts& c = out.side[side][distinct++];
      uint8_t seen = by_pos[i];
      if (seen & Game::kSeenInHand) ++c.drawn, c.drawn_score += score;
      if (seen & Game::kSeenOpening) ++c.opening, c.opening_score += score;
      if (seen & Game::kSeenCast) ++c.cast, c.cast_score += score;
    }
  }
}

}  // namespace strata
