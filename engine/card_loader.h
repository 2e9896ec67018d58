// Reads TOML card files into a CardDb (docs/cards.md). Every mistake is
// reported as "file:line: card 'NAME': key 'KEY': what was expected".
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/card.h"

namespace strata {

// Adds the cards of one TOML document to `db`. `file` names it in errors.
// Returns every error found, one per line.
absl::Status LoadCardsFromString(std::string_view toml, const std::string& file, CardDb& db);
absl::Status LoadCardFile(const std::string& path, CardDb& db);
// Loads every *.toml under a directory (sorted), or a single file.
absl::Status LoadCards(const std::vector<std::string>& paths, CardDb& db);

absl::StatusOr<ManaCost> ParseManaCost(std::string_view s);

}  // namespace strata
