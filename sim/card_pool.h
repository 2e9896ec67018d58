// The card pool of every command: the bundled cards (data/cards) with the
// designer's own on top (--cards, repeatable, files or directories, in
// order), or only the --cards given (--no-default-cards). A card named
// like an earlier one is an error naming both places, unless --override
// says the later one replaces it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/card.h"

namespace strata {

// The bundled cards: ./data/cards if there is one (a source checkout),
// else those of the source tree strata was built from.
std::string DefaultCardsPath();

// The paths to load: the default first (unless `no_default`), then
// `cards` in order, each once (as the first spelling of it given).
std::vector<std::string> PoolPaths(const std::vector<std::string>& cards, bool no_default);

// The file of old spellings of a directory's cards, beside the directory
// (data/card_aliases.toml for data/cards; docs/decks.md): an [aliases]
// table of "OLD NAME" = "CARD NAME".
inline constexpr char kCardAliasesFile[] = "card_aliases.toml";

// Reads an aliases file into `db.aliases`, after the cards: every card it
// names must be in `db`, and no old name may be a card's.
absl::Status LoadCardAliases(const std::string& path, CardDb& db);

// Loads `paths` into `db`, with the aliases file beside each directory
// among them; with `override_cards`, a card replaces an
// earlier one of its name, and the cards replaced are listed once on
// stderr.
absl::Status LoadPool(const std::vector<std::string>& paths, bool override_cards, CardDb& db);
// LoadPool for a command: false, with the error printed on stderr, if the
// pool does not load.
bool LoadPoolOrPrintError(const std::vector<std::string>& paths, bool override_cards, CardDb& db);

}  // namespace strata
