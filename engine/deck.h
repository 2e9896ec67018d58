// Decks: plain-text lists in the convention every deck site exports, one
// `COUNT NAME` per line, `#` comments, blank lines ignored, and an optional
// `Sideboard` section that games ignore.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/card.h"

namespace strata {

struct Deck {
  std::string name;
  std::vector<CardId> main;
  std::vector<CardId> sideboard;
};

// Parses a deck; unknown names are errors with the line and closest names.
absl::StatusOr<Deck> ParseDeck(std::string_view text, const std::string& file, const CardDb& db);
absl::StatusOr<Deck> LoadDeckFile(const std::string& path, const CardDb& db);

}  // namespace strata
