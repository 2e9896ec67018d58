// What `strata compare ... --out DIR [--report]` and `strata ablate ...
// --out DIR [--report]` keep: the figures the terminal shows, as
// summary.json and CSV files a script reads, and report.html, one
// self-contained page in the style of sim's report (inline SVG, nothing
// fetched): per opponent the change with its paired interval, the deck
// diff, the decks' lists, the per-card changes (compare) or each card's
// worth (ablate). Beside them DIR/study.toml (sim/paired_state.h) keeps
// the run's options and progress, so an interrupted run resumes.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/card.h"
#include "engine/deck.h"
#include "sim/compare.h"

namespace strata {

// A version's change against the first version, against one opponent or
// overall (every opponent's games, each a stratum).
struct ChangeRow {
  std::string opponent;  // "overall" for the overall row
  int64_t games = 0;     // each version's
  double old_rate = 0, new_rate = 0;
  PairedDiff change;
};

// A card of either version: copies and the drawn / not-drawn gap in each
// (NaN below the sample).
struct CardChange {
  std::string name;
  int old_copies = 0, new_copies = 0;
  double old_gap = 0, new_gap = 0;
};

// The run's options and where it ran, for the files' headers.
struct PairedRunInfo {
  std::string command, rules;
  const SimOptions* base = nullptr;  // decks[1..]: the opponents
  double seconds = 0;
  int64_t games = 0;   // all versions' games
  std::string replay;  // the `strata replay ...` of a game, without --matchup and --game
  // Stopped before every opponent was done: the figures so far, and the
  // command that goes on (`strata compare --resume DIR`).
  bool partial = false;
  std::string resume;
};

struct CompareOutput {
  PairedRunInfo run;
  Deck old_deck, new_deck;
  std::string old_path, new_path, changes;  // changes: "+2 Shock, -2 Terror"
  std::vector<ChangeRow> rows;              // per opponent, then "overall"
  std::vector<CardChange> cards;            // changed cards first
};

struct AblateRow {
  std::string card;
  int copies = 0;
  PairedDiff worth;    // as it is minus without
  double without = 0;  // the variant's overall win rate
};

struct AblateOutput {
  PairedRunInfo run;
  Deck deck;
  std::string path, with;       // the card that replaces each in turn
  double rate = 0;              // the deck as it is, overall
  int64_t games = 0;            // the deck as it is, overall
  std::vector<AblateRow> rows;  // ranked by worth
};

// A swap of `strata swap` (sim/swap_command.h) as the race left it.
struct SwapRow {
  std::string swap, out, in;  // "-4 Shock +4 Incinerate", "Shock", "Incinerate"
  int copies = 0;
  double change = 0, low = 0, high = 0;  // the corrected interval (NaN: too few games)
  int64_t games = 0;                     // in its last round
  int dropped_in = 0;                    // the round it was dropped in, from 1; 0: kept
  double bar = 0;                        // then: the best's lower bound it lay below
  std::string mark;                      // "better than the deck", "worse than the deck" or ""
};

struct SwapOutput {
  PairedRunInfo run;  // base->games: the last round's games per opponent
  Deck deck;
  std::string path;
  std::vector<std::string> candidates;
  double alpha = 0, z = 0;
  std::vector<int64_t> rounds;  // games per opponent of each round
  double rate = 0;              // the deck as it is, in the last round played
  int64_t games = 0;
  std::vector<SwapRow> rows;  // the best swaps, then the dropped ones, each by change
};

// "NEW (burn) is better than OLD by ..." or the like: the verdict line,
// without its "verdict: ".
std::string CompareVerdict(const PairedDiff& all, const std::string& new_name);

// Refuses a DIR holding an earlier run's files (summary.json, the CSVs,
// report.html, study.toml), unless `force`, which deletes only those.
absl::Status ClaimPairedOut(const std::string& dir, bool force);

// DIR/summary.json, DIR/opponents.csv, DIR/cards.csv, and with `report`
// DIR/report.html; each file whole or not at all.
absl::Status WriteCompareOut(const std::string& dir, const CardDb& db, const CompareOutput& c,
                             bool report);
// strata swap --out DIR: DIR/summary.json, DIR/swaps.csv, and with
// `report` DIR/report.html (the swaps' changes on a points axis with their
// corrected intervals, kept and dropped apart, and the deck's list).
absl::Status WriteSwapOut(const std::string& dir, const CardDb& db, const SwapOutput& s,
                          bool report);
// DIR/summary.json, DIR/cards.csv, and with `report` DIR/report.html.
absl::Status WriteAblateOut(const std::string& dir, const CardDb& db, const AblateOutput& a,
                            bool report);

}  // namespace strata
