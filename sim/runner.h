// The parallel Monte Carlo runner (`strata sim`): matchups of decks played
// over many games under oneTBB. A game depends only on (run seed, game
// index), decks and policies, and statistics merge exactly, so the result of
// a run is the same whatever the number of threads.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "engine/card.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "sim/card_stats.h"

namespace strata {

class Policy;
struct MatchupStats;

// The processes that play one study together (the ranks of an MPI job,
// sim/mpi_team.h). Every rank runs RunStudy with the same options; in each
// round every rank plays its own wave of blocks, rank 0 merges them all in
// game order, deciding --ci and interruption at block boundaries as one
// process does, and sends every rank where the study stands.
class StudyTeam {
 public:
  virtual ~StudyTeam() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `mine`, in rank order, at rank 0 (none elsewhere).
  virtual std::vector<std::string> Gather(const std::string& mine) = 0;
  // Rank 0's `data` to every rank.
  virtual void Broadcast(std::string& data) = 0;
  // True on every rank when true on any.
  virtual bool Any(bool mine) = 0;
};

struct SimOptions {
  std::vector<Deck> decks;
  std::array<std::string, 2> policies{"heuristic", "heuristic"};
  Edition edition = Edition::kModern;
  // G-1. None here, as for any Game; `strata sim` defaults to paris.
  Mulligan mulligan = Mulligan::kNone;
  uint64_t seed = 1;
  int games = 1000;  // per matchup
  int threads = 0;   // 0: all cores
  bool pair = true;  // play each seed twice, seats swapped
  // --match N (odd): each unit of --games is a best-of-N match rather than
  // one game (PlayStudyMatch). 1: single games, as before.
  int match = 1;
  int gauntlet = -1;         // >= 0: this deck against each of the others only
  double ci_half_width = 0;  // > 0: stop a matchup once its 95% interval is this narrow
  // --shard: this process plays only the blocks b of each matchup with
  // b % shards == shard (0-based), so shards played anywhere add up to the
  // whole study exactly (strata merge). Not with --ci: a shard cannot see
  // the others' games to stop where one process would.
  int shard = 0, shards = 1;
  bool progress = false;
  // --checked: every rules invariant (engine/invariants.h) after every action
  // of every game; a violation is counted, not fatal. The games are the same.
  bool checked = false;
  // With several processes (MPI): this one's team; null, alone. Only rank
  // 0's games_out and after_blocks are used.
  StudyTeam* team = nullptr;
  // Set (by a signal handler) to stop cleanly: no new game starts, and the
  // result keeps every matchup's first whole blocks (RunStudy).
  const std::atomic<bool>* stop = nullptr;
  // Tests: stop as if interrupted once this many blocks are done (-1: never).
  int64_t stop_after_blocks = -1;
  // One JSON line per game (GameRecordJson), in matchup and game order.
  std::ostream* games_out = nullptr;
  // > 0: waves of blocks sized to take about this long (at least one chunk
  // per worker), so after_blocks comes about this often even with slow
  // games. 0: waves of two blocks per worker.
  double wave_seconds = 0;
  // Called on RunStudy's thread after each wave of blocks is merged and
  // games_out flushed, with every matchup as it stands (whole blocks): where
  // a study checkpoints. Returning false stops the study as if interrupted.
  std::function<bool(const std::vector<MatchupStats>&)> after_blocks;
};

// Games of a matchup are played in fixed blocks of this many, in order:
// stopping on precision (--ci) and interruption happen only between blocks,
// so both fall at the same game whatever the thread count.
inline constexpr int kBlockGames = 256;

// Results of one matchup, from the first deck's point of view. Every field
// is a count or a sum, so shards merge exactly.
struct MatchupStats {
  int deck_a = 0, deck_b = 0;
  int64_t games = 0, a_wins = 0, b_wins = 0, draws = 0;
  int64_t first_player_wins = 0;  // games won by the player who started
  int64_t turns = 0;
  std::array<int64_t, kEndReasonCount> end_reasons{};  // by EndReason
  std::array<int64_t, 41> turn_histogram{};            // turns, the last bucket is 40+
  // Games won by deck A ([0]) and deck B ([1]) by the winner's own turns
  // taken (its kill turn; the last bucket is 40+). A study resumed from a
  // strata before them counts only the games since (fewer than the wins).
  std::array<std::array<int64_t, 41>, 2> win_turns{};
  CardStats cards;  // per card of each deck
  // Health, by deck (0 deck A, 1 deck B): mana burn taken (estimated,
  // GameTrace) and the games with any; harmful effects aimed at the
  // player's own side, and those while the other side had a legal target.
  std::array<int64_t, 2> mana_burn{}, burn_games{}, own_harm{}, own_harm_avoidable{};
  int64_t first_cap_game = -1;  // the first game ended by the turn or action cap
  // Mulligans (G-1) by deck: taken in all, and the games with at least one;
  // and taken in all by seat (0 starts).
  std::array<int64_t, 2> mulligans{}, mulligan_games{}, seat_mulligans{};
  // --checked: the games played with the invariants on, those that broke
  // one, and the first of those (-1: none).
  int64_t checked_games = 0, violations = 0, first_violation_game = -1;
  // --match N > 1: the matches played, won by deck A and by deck B, and
  // drawn (the game counts above count every game of every match).
  int64_t matches = 0, a_match_wins = 0, b_match_wins = 0, match_draws = 0;
  void Merge(const MatchupStats& o);
};

// A 95% Wilson score interval for k successes in n trials.
struct Interval {
  double low = 0, high = 0;
};
Interval Wilson(double successes, double trials, double z = 1.959963984540054);

// The matchups of a study, in order: every pair (a < b), or the gauntlet
// deck (as deck A) against each of the others.
std::vector<std::pair<int, int>> Matchups(const SimOptions& options);
// Matchups(options)[matchup] without building the list ({-1, -1} if none).
std::pair<int, int> MatchupPair(const SimOptions& options, int matchup);

// Where a study stands: per matchup (in Matchups() order) the merged
// statistics of its first games, always a whole number of blocks unless the
// matchup is done. `complete` is false when it was stopped before the end.
struct SimResult {
  std::vector<MatchupStats> matchups;
  bool complete = true;
  int64_t blocks = 0;  // blocks played by this call
};

// Plays every matchup: a round robin of all pairs, or a gauntlet. With
// `resume` (the matchups of an incomplete SimResult of the same study), it
// goes on from there and ends with the same numbers as an uninterrupted run.
SimResult RunStudy(const CardDb& db, const SimOptions& options,
                   const std::vector<MatchupStats>* resume = nullptr);
// RunStudy(...).matchups.
std::vector<MatchupStats> RunSimulation(const CardDb& db, const SimOptions& options);

// What --games counts, played so far: matches with --match N > 1, else
// games. A study's blocks, shards and resumes are of these units.
inline int64_t Units(const SimOptions& o, const MatchupStats& m) {
  return o.match > 1 ? m.matches : m.games;
}

// True when a matchup needs no more games: all played (all of this
// shard's), or (--ci) its interval is narrow enough.
bool MatchupDone(const SimOptions& options, const MatchupStats& m);

// The blocks of a matchup (the last may be short), the games of them that
// options.shard plays, and the index in the matchup of its `position`-th
// game (the identity when unsharded).
int64_t BlocksPerMatchup(const SimOptions& options);
int64_t ShardGames(const SimOptions& options);
int64_t ShardGameIndex(const SimOptions& options, int64_t position);

// The seat order and seed of game `index` of a matchup.
struct GameSetup {
  uint64_t seed;
  bool swapped;  // deck B sits in seat 0 (and starts)
};
GameSetup SetupOf(uint64_t run_seed, int matchup, int64_t index, bool pair);

// One game of a study, as played.
struct GameRecord {
  int matchup = 0;
  int64_t index = 0;
  uint64_t seed = 0;
  bool swapped = false;  // deck B sat in seat 0 (and started)
  int winner = -1;       // seat 0 or 1, -1 for a draw
  int turns = 0;
  EndReason end = EndReason::kNone;
  int64_t decisions = 0;
  std::array<int, 2> mana_burn{}, own_harm{}, own_harm_avoidable{};  // by seat (GameTrace)
  std::array<int, 2> mulligans{};                                    // by seat (G-1)
  int match_game = -1;    // --match N > 1: the game's place in match `index`, from 0
  bool checked = false;   // played with every invariant on (--checked)
  bool violated = false;  // and broke one: StudyWorker::check says which
  // The deck (index into options.decks) in each seat, and the winner's.
  int SeatDeck(const SimOptions& o, int seat) const;
  int WinnerDeck(const SimOptions& o) const { return winner < 0 ? -1 : SeatDeck(o, winner); }
};

// What a worker reuses from game to game: one Game and the two players
// (deck A's and deck B's), each Reset for every game.
struct StudyWorker {
  StudyWorker(const CardDb& db, const SimOptions& options);
  ~StudyWorker();
  StudyWorker(StudyWorker&&) noexcept;
  Game game;
  std::array<std::unique_ptr<Policy>, 2> policies;
  GameTrace trace;         // of the last game played
  InvariantChecker check;  // of the last game played, with --checked
};

// Watches a game as it is played (the annotated logs of replay and play,
// sim/game_log.h): called before each chosen action is applied, and once
// when the game is over. It reads the game and changes nothing in it.
class GameObserver {
 public:
  virtual ~GameObserver() = default;
  virtual void Before(const Game& g, const Decision& d, int chosen) = 0;
  virtual void End(const Game& g) = 0;
};

// Plays game `index` of `matchup` with the worker's game and policies (each
// Reset first). With `log`, the game keeps its log (w.game.log()); the game
// is the same either way, with or without an observer. The finished game
// stays in w.game.
GameRecord PlayStudyGame(const SimOptions& options, int matchup, int64_t index, StudyWorker& w,
                         bool log = false, GameObserver* observer = nullptr);
// The same with the game's seed and seats given (a match's later games).
GameRecord PlayStudyGameWith(const SimOptions& options, int matchup, int64_t index, GameSetup setup,
                             StudyWorker& w, bool log = false, GameObserver* observer = nullptr);
// --match N: match `index` of `matchup`, best of N. Its first game is game
// `index` of a single-game study (seed and seats by SetupOf); each later
// game has its own seed (from the match's) and the loser of the game before
// plays first (strata's players always choose to play first); after a
// drawn game the same deck plays first again. A drawn game counts for
// neither deck; the match ends when a deck has won (N + 1) / 2 games, or
// after 2N - 1 games, when the deck with more game wins takes it (equal: a
// drawn match). Each game is passed to `on_game` as soon as it is over
// (w.game holds it), then the match's result is added to `m`.
void PlayStudyMatch(const SimOptions& options, int matchup, int64_t index, StudyWorker& w,
                    MatchupStats& m, const std::function<void(const GameRecord&)>& on_game);
// A game's statistics added to its matchup's.
void AddGame(const GameRecord& r, MatchupStats& m);
// One line of --games-out (no newline): {"matchup", "game", "seed",
// "seed_string" (the seed exactly, for JSON readers that round numbers),
// "seats", "policies", "mulligans" (by seat), "winner", "winner_seat",
// "turns", "end", "decisions"}; with --match N > 1 also "match" (the
// match's index) and "match_game" (the game's place in it, from 0), "game"
// being the match's index too.
std::string GameRecordJson(const SimOptions& options, const GameRecord& r);

}  // namespace strata
