// `--format NAME`: deck legality in a constructed format, checked on every
// command that takes decks before any game (docs/formats.md). A format is
// data, never C++: data/formats/NAME.toml names its sets (the card lists of
// data/sets), its restricted and banned cards with the date of that list,
// and its deck sizes. `none`, the default, checks nothing: strata plays any
// deck its loader reads.
//
// A deck gets one message per problem, each naming the file, the line of
// the card where it can be found and the rule broken, all of them before
// the command exits kExitIllegalDeck.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "engine/card.h"
#include "engine/deck.h"
#include "sim/exit_codes.h"

namespace strata {

// The exit status of a command refused for its --format: a deck not legal
// in it, or a format that does not load: bad input (sim/exit_codes.h).
inline constexpr int kExitIllegalDeck = kExitBadInput;

// The `--format` help text every command shares.
extern const char* const kFormatHelp;

struct FormatRules {
  std::string name;               // "oldschool", as messages name it
  std::string title;              // "Old School 93/94 (Eternal Central rules)"
  std::string list_date;          // the restricted and banned lists' date, YYYY-MM-DD
  std::string file;               // where it was read
  std::vector<std::string> sets;  // set codes, as given
  int main_deck_min = 0;
  int sideboard_max = -1;  // -1: any size
  int copies_max = 0;      // of a card but a basic land, main and sideboard together; 0: any
  // Names folded by FoldCardName (so `Juzam Djinn` is `Juzám Djinn`): every
  // card printed in `sets` or listed in also_legal, and the two lists.
  absl::flat_hash_set<std::string> legal, restricted, banned;
};

// Reads a format file; set codes name the card lists `sets_dir/CODE.txt`.
// A mistake is "FILE:LINE: key 'KEY': expected WHAT", as the card loader
// says it; a restricted or banned name must be spelled exactly as a set
// list (or also_legal) writes it, so a list cannot name a card the check
// never meets.
absl::StatusOr<FormatRules> ParseFormat(std::string_view text, const std::string& file,
                                        const std::string& sets_dir);

// `--format`'s value: "none" is no format (nullopt); a value with a `/` or
// ending in `.toml` is a format file; another is a bundled format,
// data/formats/NAME.toml (an unknown one is refused, listing them). Set
// lists come from the bundled data/sets.
absl::StatusOr<std::optional<FormatRules>> LoadFormat(std::string_view value);

// The bundled formats' names, sorted ("oldschool").
std::vector<std::string> BundledFormatNames();

// Why `card` may not be in a deck of `format` at all (banned, or printed in
// no allowed set), or "" if it may.
std::string CardNotAllowed(const FormatRules& format, const CardDb& db, CardId card);

// Every problem of `deck` (read from `path`; "": a deck of no file, a
// command's variant of one, named by its label) in `format`, one message
// each, in this order: the main deck's size, the sideboard's, then each
// card's (banned; printed in no allowed set; more copies than restricted
// or than copies_max) in the order of the file. Empty: legal. The deck
// does not keep its lines, so each card's line is found again in the file
// (LocateCardLines); a message without one names the file alone.
std::vector<std::string> DeckProblems(const FormatRules& format, const CardDb& db, const Deck& deck,
                                      const std::string& path);

// The lines of the deck file's text that hold `card`, 1-based, found by
// reading each line as the deck formats write a card (`4 Name`, `4x Name`,
// `SB: 2 Name`, `4 [LEA] Name`, `4 Name|LEA`, `4 Name (M10) 146`, a `#`
// comment after it) and looking the name up in `db` as the loader does
// (aliases too). Only for messages: what counts is the parsed deck.
std::vector<int> LocateCardLines(std::string_view text, const CardDb& db, CardId card);

// For a command: with `format` "none", 0. Otherwise the format is loaded
// and each deck checked (`paths[i]` is decks[i]'s file; missing or "": no
// file, as DeckProblems); every problem of
// every deck is printed on stderr, then one line of the count, and the
// result is kExitIllegalDeck (also for a format that does not load). 0 when
// all are legal.
int CheckDecksForFormat(std::string_view format, const CardDb& db,
                        const std::vector<const Deck*>& decks,
                        const std::vector<std::string>& paths);

}  // namespace strata
