// `strata swap DECK --candidates CARDS_OR_FILE`: what to cut, and for
// what. Every (card out, candidate in) swap of DECK is played against the
// same opponents on the same games as the deck itself (common random
// numbers, sim/compare.h), and a race spends the games where they decide
// the ranking: rounds of doubling games per opponent, each ending by
// dropping the swaps whose interval lies wholly below the best swap's.
// The intervals are Bonferroni-corrected over every swap and every round,
// so with probability at least 1 - alpha no interval of the whole race
// misses its true change, and then the best swap is never dropped and
// every dropped swap is truly worse than it (docs/compare.md).
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"
#include "sim/compare_command.h"

namespace strata {

// The candidates as given: names separated by commas, or a file with a
// name a line (`4 Name` and decklist lines work too: counts are ignored;
// `#` and `//` lines are comments). Unknown names are errors naming the
// closest known ones.
absl::StatusOr<std::vector<CardId>> ParseCandidates(const std::string& arg, const CardDb& db);

// z of a two-sided normal interval of level 1 - p (p in (0, 1)).
double TwoSidedZ(double p);

int RunSwapCommand(const CompareArgs& args);

}  // namespace strata
