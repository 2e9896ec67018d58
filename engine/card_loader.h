// Reads TOML card files into a CardDb (docs/cards.md). Every mistake is
// reported as "file:line: card 'NAME': key 'KEY': what was expected".
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/card.h"

namespace strata {

// What loading does with a card whose name a card of an earlier file
// already has: by default an error naming both places; with
// `replace_existing` (the command line's --override) the later card takes
// the earlier one's place (and CardId), and `replaced`, if given, gets a
// line "NAME: FILE:LINE replaces FILE:LINE". A name twice in one file is
// always an error.
struct CardLoadOptions {
  bool replace_existing = false;
  std::vector<std::string>* replaced = nullptr;
};

// Adds the cards of one TOML document to `db`. `file` names it in errors.
// Returns every error found, one per line.
absl::Status LoadCardsFromString(std::string_view toml, const std::string& file, CardDb& db,
                                 const CardLoadOptions& options = {});
absl::Status LoadCardFile(const std::string& path, CardDb& db, const CardLoadOptions& options = {});
// Loads every *.toml under a directory (sorted), or a single file, path
// after path; a file reached twice (`data/cards` and a file in it) is read
// once.
absl::Status LoadCards(const std::vector<std::string>& paths, CardDb& db,
                       const CardLoadOptions& options = {});

absl::StatusOr<ManaCost> ParseManaCost(std::string_view s);

}  // namespace strata
