// `strata compare OLD NEW` and `strata ablate DECK`: versions of one deck
// against the same opponents on the same games (sim/compare.h), with the
// win-rate change of each version and its paired 95% interval.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/card.h"
#include "engine/deck.h"
#include "sim/runner.h"

namespace strata {

// The command line of `strata compare` or `strata ablate`, as parsed.
struct CompareArgs {
  std::vector<std::string> card_paths;  // --cards (sim/card_pool.h)
  bool no_default_cards = false;
  bool override_cards = false;
  std::vector<std::string> decks;    // compare: OLD, NEW; ablate: DECK
  std::vector<std::string> against;  // --against (empty: the bundled playable decks)
  bool gauntlet = false;             // --gauntlet: the bundled playable decks, said outright
  std::string with;                  // ablate --with CARD (default: a basic land)
  int64_t games = 0;                 // 0: the default
  double ci = 0;
  std::string policies = "heuristic";
  std::string rules = "modern";
  std::string mulligan = "paris";
  uint64_t seed = 1;
  int threads = 0;
  bool no_pair = false;
  std::string out;      // --out DIR: summary.json, CSVs (sim/paired_report.h)
  bool force = false;   // --force: replace an earlier run's files in DIR
  bool report = false;  // --report: DIR/report.html too
  std::string resume;   // --resume DIR: go on with the run kept there (sim/paired_state.h)
  double checkpoint_seconds = 5;  // --checkpoint-seconds: study.toml saved this often
  int64_t stop_after_waves = -1;  // tests: stop as if interrupted after N waves
  std::set<std::string> given;    // the options given, by long name ("--games")
  std::string command;            // the whole command line, for summary.json and the report
  std::string candidates;         // swap --candidates: names, or a file
  double alpha = 0.05;            // swap --alpha: the race's error rate
  std::string format = "none";    // --format: deck legality checked first (sim/format.h)
};

// The options and opponents a paired run of `decks[0]` plays, for other
// paired commands (strata swap, sim/swap_command.h): base.decks[0] is the
// tested deck's place, base.decks[1..] the opponents.
struct PairedSetupResult {
  SimOptions base;
  std::vector<Deck> tested;
  std::string tested_path;
  std::vector<std::string> opponent_paths;
  std::string rules;
  // --format's check of every deck (sim/format.h): 0, or the exit status,
  // its problems printed.
  int format_exit = 0;
};
absl::Status PairedSetup(const CompareArgs& args, const CardDb& db, PairedSetupResult& out);
// `strata replay ...` (without --matchup and --game) of the tested deck's
// games: a gauntlet study of it against the opponents plays the same games.
std::string PairedReplayCommand(const CompareArgs& args, const PairedSetupResult& s, int64_t games);

// Both return the process exit status and print their own errors.
int RunCompareCommand(const CompareArgs& args);
int RunAblateCommand(const CompareArgs& args);

}  // namespace strata
