// A study on disk (DIR/study.toml, beside summary.json): the options that
// make it (so `strata sim --resume DIR` continues it and `strata replay
// --from DIR` replays any of its games) and where it stands, per matchup,
// as exact counts. TOML, so toml++ reads it back.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/runner.h"

namespace strata {

struct Study {
  SimOptions options;  // decks, policies, edition, seed, games, pair, gauntlet, ci
  std::string rules;   // the --rules word
  std::string command;
  std::vector<std::string> card_paths;  // --cards, absolute
  std::vector<std::string> deck_paths;  // absolute
  std::string games_out;                // absolute, or empty
  int64_t games_out_bytes = 0;          // what games_out held at the last save
  std::vector<MatchupStats> progress;   // per matchup (Matchups() order)
  bool complete = false;
};

inline constexpr const char* kStudyFile = "study.toml";

// Writes DIR/study.toml (through a temporary file and a rename).
absl::Status SaveStudy(const std::string& dir, const Study& study, const CardDb& db);
// Reads it back; decks are rebuilt from the card names it lists, so they
// are the study's even if the deck files changed since.
absl::StatusOr<Study> LoadStudy(const std::string& dir, const CardDb& db);
// The card paths a study was made with (to load the CardDb LoadStudy needs).
absl::StatusOr<std::vector<std::string>> StudyCardPaths(const std::string& dir);

}  // namespace strata
