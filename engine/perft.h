// Perft ("performance test", after chess engines): the number of decision
// sequences of a given length from a position. Every legal action at every
// decision is taken in turn, on a copy, down to `depth` decisions; a game
// that ends sooner counts once. The counts depend on nothing but the legal
// actions the engine offers and where each leads, so pinned counts
// (tests/perft_test.cc, `strata perft`) catch any change in move generation:
// an action offered or withheld, or a rule that sends play elsewhere.
#pragma once

#include <cstdint>

#include "engine/game.h"

namespace strata {

// Leaves `position` as it was: it is copied, never advanced.
uint64_t Perft(const Game& position, int depth);

}  // namespace strata
