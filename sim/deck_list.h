// The deck files a command's list of decks names: `--decks` of sim, replay,
// play and fuzz, `--against` of compare, ablate and swap. Each entry is a
// deck file, or a folder that stands for its deck files. Every command
// expands its list here, so a folder means the same everywhere and a study
// records the files, never the folder (--resume and replay --from play the
// files it played).
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace strata {

// How a list may repeat a file.
enum class DeckRepeats {
  kRefused,     // never: each deck once (--against)
  kMirrorPair,  // two entries, both the same file, make a deck against
                // itself (`--decks A,A`); any other repeat is refused
};

// The deck files `entries` (as given, in order) name: a folder is replaced
// by its files ending in `.txt`, sorted by name, not recursive (its
// subfolders and other files are left out). Refused with one message that
// names `flag` and the path: a folder that cannot be read or holds no
// `.txt` file, and a file reached twice (named twice, or named and in a
// folder given, or through two spellings of one path) unless `repeats`
// allows it. A missing file is left to the deck loader, which names it.
// Paths come back as given (a folder's files as FOLDER/NAME.txt).
absl::StatusOr<std::vector<std::string>> ExpandDeckPaths(const std::vector<std::string>& entries,
                                                         absl::string_view flag,
                                                         DeckRepeats repeats);

// Whether two paths name the same file (symbolic links and `..` resolved
// where the file exists).
bool SameDeckFile(const std::string& a, const std::string& b);

}  // namespace strata
