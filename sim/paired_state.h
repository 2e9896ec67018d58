// A paired run on disk (`strata compare` or `strata ablate` with --out):
// DIR/study.toml holds the options that make the run and where it stands,
// as exact counts, so `--resume DIR` goes on from its last checkpoint to the
// same figures as an uninterrupted run. TOML, as sim's study.toml, but with
// `what = "compare"` (or "ablate") so that neither is taken for the other;
// its first line is a digest of the rest, so a file edited by hand is
// refused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/compare.h"
#include "sim/compare_command.h"

namespace strata {

struct PairedStudy {
  std::string what;  // "compare" or "ablate"
  // The options as a resume replays them: every path absolute, the
  // opponents listed (`against`, never --gauntlet), --games resolved.
  CompareArgs args;
  std::string command;  // the first run's command line
  // A digest of each deck of the run as loaded (label and main cards): the
  // tested files', then the opponents'. A deck file changed since is
  // refused by a resume.
  std::vector<std::string> deck_digests;
  std::string version, cards_fingerprint;  // the strata and cards that made it
  double seconds = 0;                      // spent playing, over every run so far
  double checkpoint_seconds = 5;
  PairedResult progress;  // [version][matchup]; stats only for the card versions
  bool complete = false;
};

// Writes DIR/study.toml atomically (sim/durable.h).
absl::Status SavePairedStudy(const std::string& dir, const PairedStudy& study);
// Reads it back: "" for `what` when DIR/study.toml is a `strata sim` study
// (LoadPairedStudy then fails naming it). Every problem names the file and
// the key.
absl::StatusOr<PairedStudy> LoadPairedStudy(const std::string& dir);

// A digest of a deck as loaded (its label and main cards, by name).
std::string DeckDigest(const CardDb& db, const Deck& deck);

}  // namespace strata
