#include "sim/card_stats.h"

#include <algorithm>
#include <cmath>

#include "policies/aim.h"

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
      c.own_harm += d.own_harm;
      c.own_harm_avoidable += d.own_harm_avoidable;
      for (int t = 0; t < kCastTurns; ++t) c.first_cast[t] += d.first_cast[t];
    }
}

std::vector<CardId> DistinctCards(const Deck& deck) {
  std::vector<CardId> out;
  for (CardId c : deck.main)
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

void GameTrace::Clear() {
  cast_turn.fill(kNever);
  mana_burn = own_harm = own_harm_avoidable = {};
  harm_count = 0;
  turn = -1;
  pool = life = {};
}

// Mana burn is not recorded by the engine: what was in a pool at the last
// decision of a phase is lost at its end, as life, unless spent after it
// (then no life is lost for it), so the estimate is the smaller of the two.
void GameTrace::Burn(const Game& g) {
  const GameState& s = g.state();
  if (turn >= 0 && (s.turn != turn || s.phase != phase || g.Over()))
    for (Player p = 0; p < 2; ++p)
      if (pool[p] > 0) mana_burn[p] += std::min(pool[p], std::max(0, life[p] - s.players[p].life));
  turn = s.turn;
  phase = s.phase;
  for (Player p = 0; p < 2; ++p) {
    pool[p] = 0;
    for (int m : s.players[p].pool) pool[p] += m;
    life[p] = s.players[p].life;
  }
}

void GameTrace::Observe(const Game& g, const Decision& d, int chosen) {
  Burn(g);
  const GameState& s = g.state();
  const Action& a = d.actions[chosen];
  // Mana a spell or ability adds lands in the pool after this decision,
  // maybe with no decision after it in the phase: count it as there.
  if (a.kind == ActionKind::kCast || a.kind == ActionKind::kActivate) {
    CardId card = a.kind == ActionKind::kCast ? s.obj.card[a.object] : g.Chars(a.object).card;
    if (card != kNoCard)
      if (const AbilityBody* body = ActionBody(g.db()[card], a))
        for (const EffectStep& st : body->steps)
          if (st.op == Op::kAddMana && st.amount.kind == Value::kConst)
            pool[d.player] += st.amount.constant;
  }
  if ((a.kind == ActionKind::kCast || a.kind == ActionKind::kPlayLand) && a.object < s.obj.count &&
      cast_turn[a.object] == kNever)
    cast_turn[a.object] = static_cast<uint8_t>(
        std::min(OwnTurn(s.turn, s.obj.owner[a.object]), static_cast<int>(kNever) - 1));
  bool avoidable = false;
  if (!OwnHarm(g, d, a, &avoidable)) return;
  const StackItem* item = g.Casting();
  ++own_harm[d.player];
  if (avoidable) ++own_harm_avoidable[d.player];
  if (harm_count < static_cast<int>(harms.size()))
    harms[harm_count++] = Harm{d.player, item->body_card, avoidable};
}

void GameTrace::Finish(const Game& g) {
  Burn(g);
}

double MedianCastTurn(const std::array<int32_t, kCastTurns>& h) {
  int64_t total = 0;
  for (int32_t n : h) total += n;
  if (total == 0) return std::nan("");
  int64_t seen = 0;
  for (int t = 0; t < kCastTurns; ++t) {
    seen += h[t];
    if (2 * seen >= total) return t;
  }
  return kCastTurns - 1;
}

void RecordCards(const Game& g, const Deck& a, const Deck& b, bool swapped, CardStats& out,
                 const GameTrace* trace) {
  const GameState& s = g.state();
  const int winner = g.Winner();
  for (Player p = 0; p < 2; ++p) {
    const int side = (p == 0) != swapped ? 0 : 1;
    const std::vector<CardId>& main = (side == 0 ? a : b).main;
    const int n = std::min<int>(static_cast<int>(main.size()), kMaxObjects);
    // What happened to any copy of each card, by the position of the card's
    // first copy in the deck list.
    std::array<uint8_t, kMaxObjects> by_pos{};
    std::array<uint8_t, kMaxObjects> first_cast;
    first_cast.fill(GameTrace::kNever);
    for (ObjId o = 0; o < s.obj.count; ++o) {
      if (s.obj.owner[o] != p) continue;
      auto it = std::find(main.begin(), main.begin() + n, s.obj.card[o]);
      if (it == main.begin() + n) continue;
      by_pos[it - main.begin()] |= g.seen(o);
      if (trace)
        first_cast[it - main.begin()] =
            std::min(first_cast[it - main.begin()], trace->cast_turn[o]);
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
      if (first_cast[i] != GameTrace::kNever)
        ++c.first_cast[std::min<int>(first_cast[i], kCastTurns - 1)];
      if (!trace) continue;
      for (int h = 0; h < trace->harm_count; ++h) {
        const GameTrace::Harm& harm = trace->harms[h];
        if (harm.seat != p || harm.card != main[i]) continue;
        ++c.own_harm;
        if (harm.avoidable) ++c.own_harm_avoidable;
      }
    }
  }
}

}  // namespace strata
