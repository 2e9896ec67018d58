// A study on disk (DIR/study.toml, beside summary.json): the options that
// make it (so `strata sim --resume DIR` continues it and `strata replay
// --from DIR` replays any of its games) and where it stands, per matchup,
// as exact counts. TOML, so toml++ reads it back.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/fingerprint.h"
#include "sim/runner.h"

namespace strata {

struct Study {
  SimOptions options;  // decks, policies, edition, mulligan, seed, games, pair, gauntlet, ci
  std::string rules;   // the --rules word
  std::string command;
  // The whole pool, absolute, in load order: the bundled cards (unless
  // --no-default-cards) then each --cards; a study.toml from before
  // --cards added to the pool holds the one path that replaced it, which
  // loads the same.
  std::vector<std::string> card_paths;
  bool override_cards = false;          // --override
  std::vector<std::string> deck_paths;  // absolute
  std::string games_out;                // absolute, or empty
  int64_t games_out_bytes = 0;          // what games_out held at the last save
  std::string games_out_digest;         // of those bytes (sim/durable.h ContentDigest)
  double checkpoint_seconds = 5;        // --checkpoint-seconds, which a resume keeps
  std::vector<MatchupStats> progress;   // per matchup (Matchups() order)
  bool complete = false;
  // The strata and the cards that made it (empty: a study.toml written
  // before they were recorded).
  std::string version;
  std::string cards_fingerprint;
  CardFingerprints card_fingerprints;
};

inline constexpr const char* kStudyFile = "study.toml";
// The most games per matchup (the --games limit).
inline constexpr int64_t kMaxGames = 100000000;
// The most shards a study is split into (--shard i/K).
inline constexpr int kMaxShards = 100000;
// The most games a --match may be the best of.
inline constexpr int kMaxMatch = 99;

// Writes DIR/study.toml atomically (sim/durable.h), with a digest of each
// option and of the counts, so LoadStudy can tell a file edited by hand.
absl::Status SaveStudy(const std::string& dir, const Study& study, const CardDb& db);
// Reads it back and checks everything: types, ranges, policies, decks
// (rebuilt from the card names it lists, so they are the study's even if
// the deck files changed since), counts consistent with each other, and
// the digests; the first problem is the error, naming the file and key.
absl::StatusOr<Study> LoadStudy(const std::string& dir, const CardDb& db);
// The card paths and fingerprints a study was made with (to load the
// CardDb LoadStudy needs, and compare it with the study's).
absl::StatusOr<Study> LoadStudyCards(const std::string& dir);

// A seed as written on the command line or in study.toml: decimal digits
// only, 0 to 2^64-1 (no sign, exponent or wrap-around).
bool ParseSeed(std::string_view text, uint64_t* seed);
// --shard i/K: 1 <= i <= K <= kMaxShards, decimal digits only. Sets the
// 0-based shard and the count.
bool ParseShard(std::string_view text, int* shard, int* shards);

}  // namespace strata
