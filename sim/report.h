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

// One field of a CSV file, quoted per RFC 4180 when it holds a comma, a
// quote, a line feed or a carriage return. Every CSV strata writes goes
// through it.
std::string CsvField(const std::string& s);

struct StudyInfo {
  std::string command;
  std::string rules;
  int threads = 0;
  double seconds = 0;
  const CardDb* db = nullptr;       // card names (without it, cards are "card#ID")
  bool partial = false;             // stopped before the end: only the matchups started, so far
  int64_t run_games = -1;           // games played by this run (a resumed study), -1: all of them
  std::string cards_fingerprint{};  // of the card database (sim/fingerprint.h), if known
  // How to replay a game of this study, without --matchup and --game
  // ("strata replay --from DIR", or the study's flags).
  std::string replay = "strata replay";
  bool report = false;  // --report: WriteStudy also writes report.html (sim/html_report.h)
  // > 0: `strata merge` of this many shards (the run record says so, and
  // the merge's time, not a speed: the shards' games were played elsewhere).
  int merged_shards = 0;
  int processes = 1;  // the ranks of an MPI job that played it (threads is each one's)
};

// The sample a per-card figure of the report needs: the card drawn, and
// not drawn, in at least this many games.
inline constexpr int kMinCardSample = 30;
// The draws a card needs before the health report judges how often it was
// cast (fewer say nothing either way).
inline constexpr int kMinHealthDrawn = 10;

// "3/40 (7.5%)": a rate with its count, so a rate over one game never
// reads as a measured 0.0%; "-" for 0/0.
std::string CountRate(int64_t k, int64_t n, int decimals = 1);

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
  // Health: can the deck's mana ever cast it, the games by the turn of its
  // first cast, and harmful effects its player aimed at its own side.
  bool castable = true;
  std::array<int64_t, kCastTurns> first_cast{};
  int64_t own_harm = 0, own_harm_avoidable = 0;
  double CastRate() const;         // cast / drawn (NaN when never drawn)
  double MedianFirstCast() const;  // own turn (NaN when never cast)
};
struct DeckCards {
  int deck = 0;
  DeckScore score;
  std::vector<CardRow> cards;  // in deck-list order
  int64_t mana_burn = 0, burn_games = 0, own_harm = 0, own_harm_avoidable = 0;
  int64_t mulligans = 0, mulligan_games = 0;  // G-1: taken, and games with any
  ColorMask colors = 0;                       // the colours its mana can make
};

// The colours a deck's mana can make: its lands, then the mana creatures
// and artifacts those colours can cast, until nothing is added.
ColorMask DeckColors(const CardDb& db, const Deck& deck);
// Can mana of these colours pay the card's coloured symbols?
bool CastableWith(const CardDef& card, ColorMask colors);
std::vector<DeckCards> CardTables(const CardDb* db, const SimOptions& options,
                                  const std::vector<MatchupStats>& results);

// Why a card drawn was likely not cast, from the card and its deck (the
// games do not record it): `colour` (few of the deck's lands make a colour
// it needs), `mana` (it costs 4 or more), `no legal target` (it needs a
// target, which may not be there), `held back` (an instant or interrupt
// the player keeps for a moment, or a card the player chose not to cast).
std::string LikelyCastReason(const CardDb& db, const Deck& deck, CardId card);

// A deck's shape for the report: its land count, its spells by mana value
// (the last bin 7 and more), and per colour the coloured symbols its
// spells' costs hold and the lands that make it.
struct DeckShape {
  int cards = 0, lands = 0;
  std::array<int, 8> curve{};
  std::array<int, kColorCount> pips{}, sources{};
};
DeckShape ShapeOf(const CardDb& db, const Deck& deck);

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

// The equilibrium metagame's sampling error, from resampling the matchups:
// each matchup's score drawn again from a binomial with its games and its
// measured rate (a parametric bootstrap; draws count as half a win, as in
// the matrix), the metagame solved again each time. Per deck, the 5th and
// 95th percentiles of its share and the fraction of the resamples whose
// mix holds it. Seeded, so a study's figures are the same every time.
struct MetagameSpread {
  int samples = 0;
  std::vector<double> low, high, in_mix;
};
MetagameSpread ResampleMetagame(const SimOptions& options, const std::vector<MatchupStats>& results,
                                int samples = 400);

// The readable report: matchups, decks with ratings and the matrix (when
// there is more than one matchup), and each deck's best and worst cards.
// Returns the number of health warnings it printed.
int PrintStudy(FILE* out, const SimOptions& options, const std::vector<MatchupStats>& results,
               const StudyInfo& info);

// The health report's warnings, one line each: a non-land card drawn in at
// least kMinHealthDrawn games and cast in fewer than half of them, with its
// likely reason (LikelyCastReason), a card its deck can never cast, games
// ended by a cap (with a replay command), harmful effects aimed at a
// player's own side while the other side had a legal target.
std::vector<std::string> HealthWarnings(const SimOptions& options,
                                        const std::vector<MatchupStats>& results,
                                        const StudyInfo& info);

// The non-land cards the health report could not judge: drawn in fewer
// than kMinHealthDrawn games (none in a study of enough games). "No
// warnings" says nothing of them.
int UnjudgedCards(const SimOptions& options, const std::vector<MatchupStats>& results,
                  const StudyInfo& info);
// The line that ends the health report when there is no warning: "no
// warnings", and the cards too rarely drawn to judge, if any.
std::string NoWarningsLine(int unjudged);

absl::Status WriteStudy(const std::string& dir, const SimOptions& options,
                        const std::vector<MatchupStats>& results, const StudyInfo& info);

}  // namespace strata
