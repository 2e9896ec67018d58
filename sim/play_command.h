// `strata play`: one game between two decks, printed as its log (or only its
// result), with every rules invariant checked after every action if asked.
// The quickest way to watch a deck or a policy play.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// The command line of `strata play`, as parsed.
struct PlayArgs {
  std::vector<std::string> decks;   // two deck files, A first
  std::string policies = "random";  // P1,P2 or one for both (ParsePolicyPair)
  uint64_t seed = 1;                // the game's seed; odd: B starts
  std::string rules = "modern";
  std::string mulligan = "paris";  // G-1: paris, london or none
  bool quiet = false;              // only the result
  bool checked = false;            // every rules invariant after every action
  std::string format = "none";     // --format: deck legality checked first (sim/format.h)
};

// Plays the game over the pool at `pool_paths` (sim/card_pool.h); returns
// the exit status and prints its own errors.
int RunPlayCommand(const PlayArgs& args, const std::vector<std::string>& pool_paths,
                   bool override_cards);

}  // namespace strata
