// Per-card statistics of a study: for each deck of a matchup and each
// distinct card in it, the games where the card was drawn (in hand at any
// time, the opening hand included), in the opening hand, and cast (or
// played, for a land), with the deck's score in those games. Counts only,
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

// Scores are in half points: a win counts 2, a draw 1, a loss 0.
struct CardCounts {
  int64_t drawn = 0, opening = 0, cast = 0;
  int64_t drawn_score = 0, opening_score = 0, cast_score = 0;
};

struct CardStats {
  // [0] deck A, [1] deck B of the matchup; by distinct-card position.
  std::array<std::array<CardCounts, kMaxDistinctCards>, 2> side{};
  void Merge(const CardStats& o);
};

// The distinct cards of a deck's main part, in order of first appearance.
std::vector<CardId> DistinctCards(const Deck& deck);

// Adds one finished game: seat 0 played deck A unless `swapped`.
void RecordCards(const Game& g, const Deck& a, const Deck& b, bool swapped, CardStats& out);

}  // namespace strata
