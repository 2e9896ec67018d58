// Study results: the readable table on stdout (PrintStudy) and the files
// in a directory (WriteStudy): summary.json (every number, the command,
// seed, rules, version, threads, speed), matchups.csv and cards.csv.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/card.h"
#include "sim/rating.h"
#include "sim/runner.h"

namespace strata {

struct StudyInfo {
  std::string command;
  std::string rules;
  int threads = 0;
  double seconds = 0;
  const CardDb* db = nullptr;       // card names (without it, cards are "card#ID")
  bool partial = false;             // stopped before the end: only the matchups started, so far
  int64_t run_games = -1;           // games played by this run (a resumed study), -1: all of them
  std::string cards_fingerprint{};  // of the card database (sim/fingerprint.h), if known
};

// One deck's score over all its matchups: a win counts 1, a draw 1/2.
struct DeckScore {
  double wins = 0, games = 0;
};
DeckScore ScoreOf(const std::vector<MatchupStats>& results, int deck);

// One distinct card of a deck over all the deck's matchups. Wins are the
// deck's score in those games (a draw counts 1/2).
struct CardRow {
  CardId card = kNoCard;
  std::string name;
  int copies = 0;
  int64_t drawn = 0, cast = 0, opening = 0, not_drawn = 0;
  double drawn_wins = 0, cast_wins = 0, opening_wins = 0, not_drawn_wins = 0;
};
struct DeckCards {
  int deck = 0;
  DeckScore score;
  std::vector<CardRow> cards;  // in deck-list order
};
std::vector<DeckCards> CardTables(const CardDb* db, const SimOptions& options,
                                  const std::vector<MatchupStats>& results);

// The matchup matrix (score of row deck against column deck; NaN where
// they did not play) and the Bradley-Terry ratings fitted to it. When no
// finite fit exists (a deck won or lost every game), half a win each way
// is added to every pair that played (`prior`).
struct StudyRatings {
  std::vector<std::vector<double>> win_rate;
  RatingFit fit;
  double prior = 0;
};
StudyRatings RateDecks(const SimOptions& options, const std::vector<MatchupStats>& results);

// The readable report: matchups, decks with ratings and the matrix (when
// there is more than one matchup), and each deck's best and worst cards.
void PrintStudy(FILE* out, const SimOptions& options, const std::vector<MatchupStats>& results,
                const StudyInfo& info);

absl::Status WriteStudy(const std::string& dir, const SimOptions& options,
                        const std::vector<MatchupStats>& results, const StudyInfo& info);

}  // namespace strata
