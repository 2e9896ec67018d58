// Per-card statistics of a study: for each deck of a matchup and each
// distinct card in it, the games where the card was drawn (in hand at any
// time, the opening hand included), in the opening hand, and cast (or
// played, for a land), with the deck's score in those games; and for the
// health report, the turn of its first cast and the harmful effects of it
// its player aimed at its own side. Counts only,
// in fixed arrays indexed by the card's position in the deck's list of
// distinct cards (order of first appearance), so shards merge exactly and
// nothing is allocated per game.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/deck.h"
#include "engine/game.h"

namespace strata {

// The deck loader refuses decks of more than kMaxDeckCards cards, so no deck
// has more distinct cards than this (longer lists are cut, never overrun).
inline constexpr int kMaxDistinctCards = kMaxDeckCards;

// The first cast of a card, by its player's own turn (1 = its first turn;
// 0 before it), in buckets; the last is that turn or later.
inline constexpr int kCastTurns = 31;

// Scores are in half points: a win counts 2, a draw 1, a loss 0.
struct CardCounts {
  int64_t drawn = 0, opening = 0, cast = 0;
  int64_t drawn_score = 0, opening_score = 0, cast_score = 0;
  // Harmful effects of the card its player aimed at its own side, and
  // those of them while a target on the other side was legal.
  int64_t own_harm = 0, own_harm_avoidable = 0;
  std::array<int32_t, kCastTurns> first_cast{};  // games, by the turn of the first cast
};

struct CardStats {
  // [0] deck A, [1] deck B of the matchup; by distinct-card position.
  std::array<std::array<CardCounts, kMaxDistinctCards>, 2> side{};
  void Merge(const CardStats& o);
};

// The distinct cards of a deck's main part, in order of first appearance.
std::vector<CardId> DistinctCards(const Deck& deck);

// What a game's decisions showed, for the health report, gathered by
// watching each decision and the action chosen (nothing in the engine
// records it): the turn each object was first cast or played, harmful
// effects aimed at their player's own side, and mana burn. Fixed arrays,
// so a reused trace allocates nothing.
struct GameTrace {
  std::array<uint8_t, kMaxObjects> cast_turn;  // kNever, or the owner's own turn
  static constexpr uint8_t kNever = 0xFF;
  std::array<int, 2> mana_burn{}, own_harm{}, own_harm_avoidable{};  // by seat
  struct Harm {
    Player seat;
    CardId card;
    bool avoidable;
  };
  std::array<Harm, 32> harms{};  // the first ones, by card
  int harm_count = 0;
  // The last decision: its turn, phase, pools and lives (mana burn).
  int turn = -1;
  Phase phase = Phase::kUntap;
  std::array<int, 2> pool{}, life{};
  void Clear();
  // Before `chosen` of `d` is applied.
  void Observe(const Game& g, const Decision& d, int chosen);
  // Once the game is over.
  void Finish(const Game& g);

 private:
  void Burn(const Game& g);
};

// A player's own turn at game turn `turn` (seat 0 starts).
inline int OwnTurn(int turn, Player seat) {
  return seat == 0 ? (turn + 1) / 2 : turn / 2;
}

// Adds one finished game: seat 0 played deck A unless `swapped`. With a
// trace, also the first casts and harmful targets of its cards.
void RecordCards(const Game& g, const Deck& a, const Deck& b, bool swapped, CardStats& out,
                 const GameTrace* trace = nullptr);

// The turn by which half the games of a first-cast histogram had their
// first cast (NaN when none).
double MedianCastTurn(const std::array<int32_t, kCastTurns>& h);

}  // namespace strata
