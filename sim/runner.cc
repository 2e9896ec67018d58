#include "sim/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/rng.h"
#include "engine/strings.h"
#include "oneapi/tbb/blocked_range.h"
#include "oneapi/tbb/enumerable_thread_specific.h"
#include "oneapi/tbb/global_control.h"
#include "oneapi/tbb/parallel_for.h"
#include "oneapi/tbb/task_arena.h"
#include "policies/policy.h"

namespace strata {

void MatchupStats::Merge(const MatchupStats& o) {
  games += o.games;
  a_wins += o.a_wins;
  b_wins += o.b_wins;
  draws += o.draws;
  first_player_wins += o.first_player_wins;
  turns += o.turns;
  for (size_t i = 0; i < end_reasons.size(); ++i) end_reasons[i] += o.end_reasons[i];
  for (size_t i = 0; i < turn_histogram.size(); ++i) turn_histogram[i] += o.turn_histogram[i];
  for (int d = 0; d < 2; ++d)
    for (size_t i = 0; i < win_turns[d].size(); ++i) win_turns[d][i] += o.win_turns[d][i];
  cards.Merge(o.cards);
  for (int d = 0; d < 2; ++d) {
    mana_burn[d] += o.mana_burn[d];
    burn_games[d] += o.burn_games[d];
    own_harm[d] += o.own_harm[d];
    own_harm_avoidable[d] += o.own_harm_avoidable[d];
    mulligans[d] += o.mulligans[d];
    mulligan_games[d] += o.mulligan_games[d];
    seat_mulligans[d] += o.seat_mulligans[d];
  }
  if (o.first_cap_game >= 0 && (first_cap_game < 0 || o.first_cap_game < first_cap_game))
    first_cap_game = o.first_cap_game;
  checked_games += o.checked_games;
  violations += o.violations;
  matches += o.matches;
  a_match_wins += o.a_match_wins;
  b_match_wins += o.b_match_wins;
  match_draws += o.match_draws;
  if (o.first_violation_game >= 0 &&
      (first_violation_game < 0 || o.first_violation_game < first_violation_game))
    first_violation_game = o.first_violation_game;
}

Interval Wilson(double k, double n, double z) {
  if (n <= 0) return {0, 1};
  double p = k / n, z2 = z * z;
  double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {center - half, center + half};
}

GameSetup SetupOf(uint64_t run_seed, int matchup, int64_t index, bool pair) {
  uint64_t base = Rng::GameSeed(run_seed, static_cast<uint64_t>(matchup));
  if (!pair) return {Rng::GameSeed(base, static_cast<uint64_t>(index)), index % 2 == 1};
  // Games 2k and 2k+1 share a seed, with the seats swapped.
  return {Rng::GameSeed(base, static_cast<uint64_t>(index / 2)), index % 2 == 1};
}

namespace {

// Calls f(a, b) for each matchup in order until it returns true.
template <typename F>
void ForEachMatchup(const SimOptions& opt, F&& f) {
  const int n = static_cast<int>(opt.decks.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      if (opt.gauntlet < 0 || a == opt.gauntlet || b == opt.gauntlet) {
        if (opt.gauntlet == b ? f(b, a) : f(a, b)) return;
      }
}

}  // namespace

std::vector<std::pair<int, int>> Matchups(const SimOptions& opt) {
  std::vector<std::pair<int, int>> pairs;
  ForEachMatchup(opt, [&](int a, int b) {
    pairs.emplace_back(a, b);
    return false;
  });
  return pairs;
}

std::pair<int, int> MatchupPair(const SimOptions& opt, int matchup) {
  std::pair<int, int> out{-1, -1};
  int i = 0;
  ForEachMatchup(opt, [&](int a, int b) {
    if (i++ != matchup) return false;
    out = {a, b};
    return true;
  });
  return out;
}

StudyWorker::StudyWorker(const CardDb& db, const SimOptions& opt) : game(db, GameOptions{}) {
  for (int d = 0; d < 2; ++d) policies[d] = *MakePolicy(opt.policies[d], 1);
}
StudyWorker::~StudyWorker() = default;
StudyWorker::StudyWorker(StudyWorker&&) noexcept = default;

GameRecord PlayStudyGame(const SimOptions& opt, int matchup, int64_t index, StudyWorker& w,
                         bool log, GameObserver* observer) {
  return PlayStudyGameWith(opt, matchup, index, SetupOf(opt.seed, matchup, index, opt.pair), w, log,
                           observer);
}

void PlayStudyMatch(const SimOptions& opt, int matchup, int64_t index, StudyWorker& w,
                    MatchupStats& m, const std::function<void(const GameRecord&)>& on_game) {
  const GameSetup first = SetupOf(opt.seed, matchup, index, opt.pair);
  const int need = (opt.match + 1) / 2, most = 2 * opt.match - 1;
  std::array<int, 2> wins{};  // deck A's, deck B's
  GameSetup setup = first;
  for (int g = 0; g < most && wins[0] < need && wins[1] < need; ++g) {
    if (g > 0) setup.seed = Rng::GameSeed(first.seed, static_cast<uint64_t>(g));
    GameRecord r = PlayStudyGameWith(opt, matchup, index, setup, w);
    r.match_game = g;
    on_game(r);
    if (r.winner >= 0) {
      const bool a_won = (r.winner == 0) != r.swapped;
      ++wins[a_won ? 0 : 1];
      // The loser plays first next: deck A lost, so deck A sits in seat 0.
      setup.swapped = a_won;
    }
  }
  ++m.matches;
  if (wins[0] > wins[1])
    ++m.a_match_wins;
  else if (wins[1] > wins[0])
    ++m.b_match_wins;
  else
    ++m.match_draws;
}

GameRecord PlayStudyGameWith(const SimOptions& opt, int matchup, int64_t index, GameSetup setup,
                             StudyWorker& w, bool log, GameObserver* observer) {
  auto [a, b] = MatchupPair(opt, matchup);
  GameOptions go;
  go.edition = opt.edition;
  go.seed = setup.seed;
  go.mulligan = opt.mulligan;
  go.log = log;
  go.check_invariants = opt.checked;
  Game& g = w.game;
  g.Reset(go);
  const Deck& da = opt.decks[a];
  const Deck& dbk = opt.decks[b];
  // Seat 0 starts; swapped games put deck B there.
  if (setup.swapped)
    g.Deal(dbk, da, 0);
  else
    g.Deal(da, dbk, 0);
  Policy* pol[2];
  for (int p = 0; p < 2; ++p) {
    // Policies follow the deck: policies[0] always plays deck A.
    int which = setup.swapped ? 1 - p : p;
    pol[p] = w.policies[which].get();
    pol[p]->Reset(Rng::GameSeed(setup.seed, 17 + which));
  }
  GameRecord r;
  r.matchup = matchup;
  r.index = index;
  r.seed = setup.seed;
  r.swapped = setup.swapped;
  w.trace.Clear();
  if (opt.checked) w.check.Begin(g);
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    int chosen = pol[d.player]->ChooseFor(g, d);
    w.trace.Observe(g, d, chosen);
    if (observer) observer->Before(g, d, chosen);
    if (opt.checked)
      w.check.Apply(g, d, chosen);
    else
      g.Apply(chosen);
    ++r.decisions;
  }
  w.trace.Finish(g);
  if (observer) observer->End(g);
  if (opt.checked) {
    auto passive = [](const std::string& spec) { return spec.rfind("passive", 0) == 0; };
    w.check.End(g, passive(opt.policies[0]) && passive(opt.policies[1]));
    r.checked = true;
    r.violated = !w.check.ok();
  }
  r.mana_burn = w.trace.mana_burn;
  r.own_harm = w.trace.own_harm;
  r.own_harm_avoidable = w.trace.own_harm_avoidable;
  for (Player p = 0; p < 2; ++p) r.mulligans[p] = g.mulligans(p);
  r.winner = g.Winner();
  r.turns = g.state().turn;
  r.end = g.end_reason();
  return r;
}

void AddGame(const GameRecord& r, MatchupStats& s) {
  ++s.games;
  if (r.winner < 0) {
    ++s.draws;
  } else {
    bool a_won = (r.winner == 0) != r.swapped;
    (a_won ? s.a_wins : s.b_wins) += 1;
    if (r.winner == 0) ++s.first_player_wins;
  }
  s.turns += r.turns;
  ++s.turn_histogram[std::min(r.turns, 40)];
  if (r.winner >= 0) {
    const int side = (r.winner == 0) != r.swapped ? 0 : 1;
    ++s.win_turns[side][std::min(OwnTurn(r.turns, static_cast<Player>(r.winner)), 40)];
  }
  ++s.end_reasons[static_cast<int>(r.end)];
  for (int seat = 0; seat < 2; ++seat) {
    const int side = (seat == 0) != r.swapped ? 0 : 1;
    s.mana_burn[side] += r.mana_burn[seat];
    s.burn_games[side] += r.mana_burn[seat] > 0;
    s.own_harm[side] += r.own_harm[seat];
    s.own_harm_avoidable[side] += r.own_harm_avoidable[seat];
    s.mulligans[side] += r.mulligans[seat];
    s.mulligan_games[side] += r.mulligans[seat] > 0;
    s.seat_mulligans[seat] += r.mulligans[seat];
  }
  s.checked_games += r.checked;
  s.violations += r.violated;
  if (r.violated && (s.first_violation_game < 0 || r.index < s.first_violation_game))
    s.first_violation_game = r.index;
  if ((r.end == EndReason::kTurnCap || r.end == EndReason::kActionCap) &&
      (s.first_cap_game < 0 || r.index < s.first_cap_game))
    s.first_cap_game = r.index;
}

std::string GameRecordJson(const SimOptions& opt, const GameRecord& r) {
  int s0 = r.SeatDeck(opt, 0), s1 = r.SeatDeck(opt, 1);
  // Policies follow the deck: policies[0] plays deck A.
  const std::string& p0 = opt.policies[r.swapped ? 1 : 0];
  const std::string& p1 = opt.policies[r.swapped ? 0 : 1];
  int w = r.WinnerDeck(opt);
  return absl::StrCat(
      "{\"matchup\": ", r.matchup, ", \"game\": ", r.index, ", \"seed\": ", r.seed,
      ", \"seed_string\": \"", r.seed, "\", \"seats\": [", JsonQuote(opt.decks[s0].name), ", ",
      JsonQuote(opt.decks[s1].name), "], \"policies\": [", JsonQuote(p0), ", ", JsonQuote(p1),
      "], \"mulligans\": [", r.mulligans[0], ", ", r.mulligans[1],
      "], \"winner\": ", w < 0 ? std::string("null") : JsonQuote(opt.decks[w].name),
      ", \"winner_seat\": ", r.winner, ", \"turns\": ", r.turns, ", \"end\": \"",
      S(EndReasonName(r.end)), "\", \"decisions\": ", r.decisions,
      r.match_game >= 0 ? absl::StrCat(", \"match\": ", r.index, ", \"match_game\": ", r.match_game)
                        : std::string(),
      "}");
}

int64_t BlocksPerMatchup(const SimOptions& opt) {
  return (int64_t{opt.games} + kBlockGames - 1) / kBlockGames;
}

int64_t ShardGames(const SimOptions& opt) {
  if (opt.shards <= 1) return opt.games;
  const int64_t blocks = BlocksPerMatchup(opt);
  if (opt.shard >= blocks) return 0;
  const int64_t mine = (blocks - opt.shard + opt.shards - 1) / opt.shards;
  int64_t games = mine * kBlockGames;
  // The last block is short when --games is not a multiple of a block.
  if ((blocks - 1) % opt.shards == opt.shard) games -= blocks * kBlockGames - opt.games;
  return games;
}

int64_t ShardGameIndex(const SimOptions& opt, int64_t position) {
  if (opt.shards <= 1) return position;
  const int64_t block = opt.shard + position / kBlockGames * opt.shards;
  return block * kBlockGames + position % kBlockGames;
}

bool MatchupDone(const SimOptions& opt, const MatchupStats& m) {
  if (Units(opt, m) >= ShardGames(opt)) return true;
  if (opt.ci_half_width <= 0 || m.games == 0) return false;
  Interval ci = Wilson(m.a_wins + 0.5 * m.draws, static_cast<double>(m.games));
  return (ci.high - ci.low) / 2 < opt.ci_half_width;
}

namespace {

// A slice of a block, played as one task.
constexpr int kChunkGames = 16;
constexpr int kChunksPerBlock = kBlockGames / kChunkGames;
struct Chunk {
  MatchupStats stats;
  std::string lines;  // --games-out
  bool done = false;
};

// A block as played: its statistics, its --games-out lines, and whether
// every game of it was (an interruption cuts blocks short).
struct Block {
  MatchupStats stats;
  std::string lines;
  bool whole = true;
};

static_assert(std::is_trivially_copyable_v<MatchupStats>, "sent between ranks as bytes");

template <typename T>
void Put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
template <typename T>
T Take(const std::string& in, size_t& at) {
  T v;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

// A team's round: every rank's blocks, in rank order (so in game order), at
// rank 0; the other ranks get none.
std::vector<Block> GatherBlocks(StudyTeam& team, const std::vector<Block>& mine) {
  std::string bytes;
  for (const Block& b : mine) {
    Put(bytes, b.whole);
    Put(bytes, b.stats);
    Put(bytes, static_cast<uint64_t>(b.lines.size()));
    bytes += b.lines;
  }
  std::vector<Block> all;
  for (const std::string& rank : team.Gather(bytes))
    for (size_t at = 0; at < rank.size();) {
      Block& b = all.emplace_back();
      b.whole = Take<bool>(rank, at);
      b.stats = Take<MatchupStats>(rank, at);
      const auto n = Take<uint64_t>(rank, at);
      b.lines = rank.substr(at, n);
      at += n;
    }
  return all;
}

// Rank 0's `value` on every rank.
template <typename T>
void FromRankZero(StudyTeam& team, T& value) {
  std::string bytes;
  if (team.rank() == 0) Put(bytes, value);
  team.Broadcast(bytes);
  size_t at = 0;
  value = Take<T>(bytes, at);
}

// What rank 0 decided after a round, for every rank: the matchup as it
// stands, the blocks kept, the next wave's size and whether to go on.
struct RoundState {
  MatchupStats total;
  int64_t blocks;
  int wave_blocks;
  bool complete;
};

void ShareRound(StudyTeam& team, MatchupStats& total, SimResult& result, int& wave_blocks) {
  RoundState state{total, result.blocks, wave_blocks, result.complete};
  FromRankZero(team, state);
  total = state.total;
  result.blocks = state.blocks;
  wave_blocks = state.wave_blocks;
  result.complete = state.complete;
}

}  // namespace

SimResult RunStudy(const CardDb& db, const SimOptions& opt,
                   const std::vector<MatchupStats>* resume) {
  std::unique_ptr<tbb::global_control> limit;
  if (opt.threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  opt.threads);
  const int workers = opt.threads > 0 ? opt.threads : tbb::this_task_arena::max_concurrency();
  // With a team (MPI), each round every rank plays a wave of blocks, the
  // lower ranks' first; rank 0 merges them all in game order and tells the
  // others where the study stands, so every rank holds the same result.
  StudyTeam* const team = opt.team;
  const int rank = team ? team->rank() : 0;
  const auto pairs = Matchups(opt);
  SimResult result;
  result.matchups.resize(pairs.size());
  for (size_t m = 0; m < pairs.size(); ++m) {
    if (resume && m < resume->size()) result.matchups[m] = (*resume)[m];
    result.matchups[m].deck_a = pairs[m].first;
    result.matchups[m].deck_b = pairs[m].second;
  }
  // Each worker reuses one Game and its policies: no allocation per game once warm.
  tbb::enumerable_thread_specific<StudyWorker> workers_state([&] { return StudyWorker(db, opt); });
  // A wave is a few blocks played in parallel, then merged in order. With
  // --ci, one block: the check after each block decides whether the next
  // is played.
  const int max_wave = opt.ci_half_width > 0 ? 1 : std::max(1, 2 * workers);
  std::vector<Chunk> chunks(static_cast<size_t>(max_wave) * kChunksPerBlock);
  // With wave_seconds, slow games (mc) get shorter waves, down to enough
  // chunks for every worker, so checkpoints come about that often. Only
  // when games are played changes, never which.
  const int min_wave = std::min(max_wave, (workers + kChunksPerBlock - 1) / kChunksPerBlock);
  int wave_blocks = opt.wave_seconds > 0 ? min_wave : max_wave;  // then measured
  auto stopping = [&] { return opt.stop && opt.stop->load(std::memory_order_relaxed); };
  // Rank 0 writes games_out, from every rank's lines.
  const bool lines = team ? team->Any(opt.games_out != nullptr) : opt.games_out != nullptr;
  if (team) FromRankZero(*team, wave_blocks);

  int64_t total_games = 0, done = 0;
  for (auto& m : result.matchups) {
    total_games += ShardGames(opt);
    done += Units(opt, m);
  }
  const int64_t done_before = done;
  auto start = std::chrono::steady_clock::now();
  for (int matchup = 0; matchup < static_cast<int>(pairs.size()) && result.complete; ++matchup) {
    MatchupStats& total = result.matchups[matchup];
    while (!MatchupDone(opt, total)) {
      int blocks = wave_blocks;
      if (opt.stop_after_blocks >= 0) {
        // Tests: a team's round is team->size() waves; rank 0 keeps no
        // block past the limit.
        const int64_t left = opt.stop_after_blocks - result.blocks;
        const int ranks = team ? team->size() : 1;
        blocks = static_cast<int>(std::min<int64_t>(blocks, (left + ranks - 1) / ranks));
      }
      const bool stop = team ? team->Any(stopping()) : stopping();
      if (blocks <= 0 || stop) {
        result.complete = false;
        break;
      }
      const auto wave_start = std::chrono::steady_clock::now();
      // Positions in this shard's games of the matchup (ShardGameIndex):
      // this rank's wave comes after the lower ranks' waves.
      const int64_t target = ShardGames(opt);
      const int64_t begin =
          std::min<int64_t>(target, Units(opt, total) + int64_t{rank} * blocks * kBlockGames);
      const int64_t end = std::min<int64_t>(target, begin + int64_t{blocks} * kBlockGames);
      const int n_chunks = static_cast<int>((end - begin + kChunkGames - 1) / kChunkGames);
      if (chunks.size() < static_cast<size_t>(n_chunks)) chunks.resize(n_chunks);
      tbb::parallel_for(
          tbb::blocked_range<int>(0, n_chunks, 1), [&](const tbb::blocked_range<int>& r) {
            for (int c = r.begin(); c != r.end(); ++c) {
              Chunk& ch = chunks[c];
              ch.stats = MatchupStats{};
              ch.lines.clear();
              ch.done = false;
              if (stopping()) continue;
              StudyWorker& w = workers_state.local();
              int64_t first = begin + int64_t{c} * kChunkGames;
              int64_t last = std::min<int64_t>(end, first + kChunkGames);
              auto add = [&](const GameRecord& rec) {
                AddGame(rec, ch.stats);
                RecordCards(w.game, opt.decks[pairs[matchup].first],
                            opt.decks[pairs[matchup].second], rec.swapped, ch.stats.cards,
                            &w.trace);
                if (lines) {
                  ch.lines += GameRecordJson(opt, rec);
                  ch.lines += '\n';
                }
              };
              for (int64_t i = first; i < last; ++i) {
                if (opt.match > 1)
                  PlayStudyMatch(opt, matchup, ShardGameIndex(opt, i), w, ch.stats, add);
                else
                  add(PlayStudyGame(opt, matchup, ShardGameIndex(opt, i), w));
              }
              ch.done = true;
            }
          });
      std::vector<Block> wave;
      for (int c0 = 0; c0 < n_chunks; c0 += kChunksPerBlock) {
        Block& b = wave.emplace_back();
        for (int c = c0; c < std::min(n_chunks, c0 + kChunksPerBlock); ++c) {
          b.whole &= chunks[c].done;
          b.stats.Merge(chunks[c].stats);
          b.lines += chunks[c].lines;
        }
      }
      if (team) wave = GatherBlocks(*team, wave);
      // Merge whole blocks in order; stop at the first one cut short.
      for (const Block& b : wave) {
        if (opt.stop_after_blocks >= 0 && result.blocks >= opt.stop_after_blocks) break;
        if (!b.whole) {
          result.complete = false;
          break;
        }
        total.Merge(b.stats);
        if (opt.games_out) *opt.games_out << b.lines;
        done += Units(opt, b.stats);
        ++result.blocks;
        if (MatchupDone(opt, total)) break;  // --ci: the blocks after this one are not kept
      }
      if (opt.wave_seconds > 0 && end - begin == int64_t{blocks} * kBlockGames) {
        double per_block =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wave_start).count() /
            blocks;
        wave_blocks = per_block > 0 ? static_cast<int>(std::clamp(opt.wave_seconds / per_block,
                                                                  static_cast<double>(min_wave),
                                                                  static_cast<double>(max_wave)))
                                    : max_wave;
      }
      if (rank == 0) {
        if (opt.games_out) opt.games_out->flush();
        if (opt.after_blocks && !opt.after_blocks(result.matchups)) result.complete = false;
      }
      if (team) ShareRound(*team, total, result, wave_blocks);
      if (opt.progress && total.games > 0) {
        Interval ci = Wilson(total.a_wins + 0.5 * total.draws, static_cast<double>(total.games));
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double rate = secs > 0 ? (done - done_before) / secs : 0;
        // With --ci a matchup's games are not known in advance (--games is
        // only a cap): the matchups done, and no ETA.
        const std::string when =
            opt.ci_half_width > 0
                ? absl::StrCat("matchup ", matchup + 1, " of ", pairs.size())
                : absl::StrFormat("ETA %.0f s", rate > 0 ? (total_games - done) / rate : 0.0);
        std::fprintf(stderr, "\r%s vs %s: %lld games, %.0f games/s, %s, win %.1f%% +/- %.1f%%   ",
                     opt.decks[pairs[matchup].first].name.c_str(),
                     opt.decks[pairs[matchup].second].name.c_str(),
                     static_cast<long long>(total.games), rate, when.c_str(),
                     100.0 * (total.a_wins + 0.5 * total.draws) / total.games,
                     50.0 * (ci.high - ci.low));
      }
      if (!result.complete) break;
    }
  }
  if (opt.progress) std::fprintf(stderr, "\n");
  return result;
}

std::vector<MatchupStats> RunSimulation(const CardDb& db, const SimOptions& opt) {
  return RunStudy(db, opt).matchups;
}

int GameRecord::SeatDeck(const SimOptions& o, int seat) const {
  auto [a, b] = MatchupPair(o, matchup);
  return (seat == 0) != swapped ? a : b;
}

}  // namespace strata
