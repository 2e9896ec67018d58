// `strata cards check|list|show`: validate and inspect the card database.
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"

namespace strata {

// Prints the pool as a table: name, cost, type line, P/T.
void PrintCardTable(const CardDb& db);
// Prints one card's compiled form; returns false if unknown.
bool PrintCard(const CardDb& db, const std::string& name);

}  // namespace strata
