// `strata sim` and `strata replay`: a balance study from the command line
// (new, or resumed from its --out directory after an interruption) and the
// replay of one of its games with the full log.
#pragma once

#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/card.h"
#include "sim/study_file.h"

namespace strata {

// The command line of `strata sim` or `strata replay`, as parsed.
struct StudyArgs {
  std::vector<std::string> card_paths;  // --cards, on top of the bundled pool (sim/card_pool.h)
  bool no_default_cards = false;        // --no-default-cards: only the --cards
  bool override_cards = false;          // --override: a later card replaces an earlier one
  std::vector<std::string> decks;       // --decks (empty: the bundled playable decks)
  std::string policies = "heuristic";   // P1,P2 or one for both (ParsePolicyPair)
  std::string rules = "modern";
  std::string mulligan = "paris";  // G-1: paris, london or none
  uint64_t seed = 1;
  int games = 0;  // 0: the default
  int threads = 0;
  bool no_pair = false;
  int match = 1;  // --match N: best-of-N matches (odd; 1: single games)
  std::string gauntlet;
  double ci = 0;
  std::string shard;  // --shard i/K ("": the whole study)
  std::string out;
  std::string resume;          // sim --resume DIR
  bool games_out = false;      // --games-out given
  std::string games_out_file;  // its value ("": DIR/games.jsonl)
  int64_t stop_after_blocks = -1;
  bool force = false;             // replace an old study in --out; resume with other cards
  double checkpoint_seconds = 5;  // of games between checkpoints (0: after every wave)
  std::string from;               // replay --from DIR
  int64_t game = 0;               // replay --game
  int matchup = 0;                // replay --matchup
  bool quiet = false;
  bool checked = false;         // --checked: every rules invariant after every action
  bool report = false;          // --report: DIR/report.html with --out
  std::string format = "none";  // --format: deck legality checked first (sim/format.h)
  std::set<std::string> given;  // the options given, by long name ("--games")
  std::string command;          // the whole command line
};

// The bundled playable decks (data/decks/*.txt but the layers_ stress
// decks), sorted: the default study's decks.
std::vector<std::string> BundledDeckPaths();

// Both return the process exit status and print their own errors.
int RunSimCommand(const StudyArgs& args);
int RunReplayCommand(const StudyArgs& args);

// Shared with `strata merge` (sim/merge_command.h):
// The card database of a saved study: the pool given on the command line
// (`pool_given`: --cards or --override), or the one the study was made with.
absl::Status LoadStudyCardDb(const std::vector<std::string>& card_paths, bool no_default_cards,
                             bool override_cards, bool pool_given, const Study& saved, CardDb& db);
// What differs between the strata and cards a study was made with and
// these ("" if nothing).
std::string StudyChanges(const Study& saved, const CardDb& db);
// Ctrl-C, SIGTERM and SIGHUP (a closed terminal) set StopFlag(): a long
// run (sim, compare, ablate) stops starting games and writes where it
// stands; StopSignal() is the signal (0: none). The handlers reset at the
// first signal, so a second one ends the program at once.
void InstallStopHandlers();
const std::atomic<bool>* StopFlag();
int StopSignal();
// A new study's --out: an old study there is refused, or with `force`
// removed (its files only), so no file of it survives beside the new one.
absl::Status ClaimStudyOut(const std::string& out, bool force);
// A path as a command to paste in this directory gives it: relative when
// it is under this directory, else absolute.
std::string ShortPath(const std::string& path);
// How to replay one of a study's games: from its directory, or with its
// own flags when it has none.
std::string StudyReplayCommand(const Study& s, const std::string& out);

}  // namespace strata
