// The coverage run (`strata cover`): random games over random decks from the
// whole pool, steered towards cards and abilities not used enough yet, until
// every card has been cast or played and every activated, triggered and
// phase ability used at least K times. It proves the pool is playable
// through the engine, and lists what never got there.
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/game.h"

namespace strata {

struct CoverOptions {
  int k = 10;
  int max_games = 20000;
  uint64_t seed = 1;
  Edition edition = Edition::kModern;
  bool progress = false;  // a progress line on stderr
};

struct CoverResult {
  int games = 0;
  UsageStats usage;
  int cards = 0, cards_done = 0, abilities = 0, abilities_done = 0;
  std::vector<std::string> missing;  // "Card (cast 3/10)", "Card: activated 1 (0/10)"
};

CoverResult RunCoverage(const CardDb& db, const CoverOptions& options);

}  // namespace strata
