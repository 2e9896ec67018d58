// `strata cards check|list|show`: validate and inspect the card database.
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"

namespace strata {

// `cards list` filters; empty: any. A card is listed when it matches all
// of them.
struct CardFilter {
  std::string name;    // a part of the name, any case
  std::string type;    // a word of the type line (type, supertype or subtype), any case
  std::string colors;  // any of these colour letters (WUBRG, C for colourless), any case
};
// "" if the filter is valid, else what is wrong with it; colour names
// ("red,green") become their letters.
std::string CheckCardFilter(CardFilter& filter);

// Prints the pool as a table: name, cost, type line, P/T; only the cards
// the filter matches, then how many of the pool's.
void PrintCardTable(const CardDb& db, const CardFilter& filter = {});
// Prints one card's compiled form; returns false if unknown.
bool PrintCard(const CardDb& db, const std::string& name);

// The three subcommands over the pool at `pool_paths` (sim/card_pool.h):
// each returns the exit status and prints its own errors. `check` loads it
// and counts its cards; `list` checks the filter before loading anything.
int RunCardsCheck(const std::vector<std::string>& pool_paths, bool override_cards);
int RunCardsList(CardFilter filter, const std::vector<std::string>& pool_paths,
                 bool override_cards);
// `show` prints each named card, or with `all` every card of the pool in
// its order; an unknown name fails the whole command before any output.
int RunCardsShow(const std::vector<std::string>& names, bool all,
                 const std::vector<std::string>& pool_paths, bool override_cards);

}  // namespace strata
