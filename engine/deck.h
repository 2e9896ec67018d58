// Decks: the decklist formats deck designers already have, recognised by
// their content, never by the file's extension (docs/decks.md):
//  - strata's own: `COUNT NAME` lines, `#` comments, blank lines ignored,
//    an optional `Sideboard` line before the sideboard;
//  - Forge .dck: `[metadata]` with `Name=`, `[Main]`, `[Sideboard]`, lines
//    `4 Lightning Bolt|LEA` or `4 Lightning Bolt|LEA|1`; its other sections
//    (`[Commander]`, `[Planes]`, `[Avatar]`, ...) skipped with a note;
//  - MTGA exports: `Deck`, `4 Lightning Bolt (M10) 146`, then a blank line
//    or a `Sideboard` line before the sideboard (`Companion` cards are
//    sideboard cards; `Commander` cards are skipped with a note);
//  - .dec / MWS: `4x Name` or `4 Name`, `SB: 2 Name`, `// comments`,
//    `4 [LEA] Name`.
// Set codes and collector numbers are ignored. Names are matched in any
// spelling FoldCardName folds alike. The sideboard is read and kept, and
// no game uses it: an unknown card there is left out with a note.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/card.h"

namespace strata {

enum class DeckFormat { kStrata, kForge, kArena, kDec };
// "strata", "Forge .dck", "MTGA export", ".dec/MWS".
std::string_view DeckFormatName(DeckFormat f);

// One deck as read from its file. `name` is its label in every report: the
// name the file gives itself (Forge `Name=`, an MTGA `About`/`Name` pair,
// MWS `// NAME :`), else the file name without its extension; see
// MakeDeckLabelsUnique for two decks with the same one.
struct Deck {
  std::string name;
  std::vector<CardId> main;
  std::vector<CardId> sideboard;  // kept and reported; no game uses it
  DeckFormat format = DeckFormat::kStrata;
  // What was read and left out, one line each, for stderr: the sections
  // no game plays (with their card counts), unknown sideboard cards.
  std::vector<std::string> notes;
};

// Parses a deck; unknown names are errors with the line and closest names.
absl::StatusOr<Deck> ParseDeck(std::string_view text, const std::string& file, const CardDb& db);
absl::StatusOr<Deck> LoadDeckFile(const std::string& path, const CardDb& db);

// Gives decks sharing a label distinct ones, so every report tells them
// apart: if their files are in directories of different names, each gets
// its directory's name in front (`v1/burn`, `v2/burn`); otherwise the first
// keeps the label and the later ones get ` (2)`, ` (3)`, ... (`burn`,
// `burn (2)`: the same file twice, or two files naming themselves alike).
// `paths[i]` is decks[i]'s file.
void MakeDeckLabelsUnique(std::vector<Deck>& decks, const std::vector<std::string>& paths);

// "LABEL: sideboard: N cards, not used (...)", or "" without a sideboard.
std::string SideboardNote(const Deck& deck);

// The lines a command prints on stderr for a deck it read: the sideboard
// note, then `deck.notes` (which name the file).
std::vector<std::string> DeckNotes(const Deck& deck);

}  // namespace strata
