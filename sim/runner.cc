#include "sim/runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/rng.h"
#include "oneapi/tbb/blocked_range.h"
#include "oneapi/tbb/global_control.h"
#include "oneapi/tbb/parallel_reduce.h"
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
  cards.Merge(o.cards);
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

// One game: returns its statistics as a one-game MatchupStats.
MatchupStats PlayOne(const CardDb& db, const SimOptions& opt, int matchup, int a, int b,
                     int64_t index) {
  GameSetup setup = SetupOf(opt.seed, matchup, index, opt.pair);
  GameOptions go;
  go.edition = opt.edition;
  go.seed = setup.seed;
  Game g(db, go);
  const Deck& da = opt.decks[a];
  const Deck& dbk = opt.decks[b];
  // Seat 0 starts; swapped games put deck B there.
  if (setup.swapped)
    g.Deal(dbk, da, 0);
  else
    g.Deal(da, dbk, 0);
  std::unique_ptr<Policy> pol[2];
  for (int p = 0; p < 2; ++p) {
    // Policies follow the deck: policies[0] always plays deck A.
    int which = setup.swapped ? 1 - p : p;
    pol[p] = *MakePolicy(opt.policies[which], Rng::GameSeed(setup.seed, 17 + which));
  }
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    g.Apply(pol[d.player]->ChooseFor(g, d));
  }
  MatchupStats s;
  s.deck_a = a;
  s.deck_b = b;
  s.games = 1;
  int w = g.Winner();
  if (w < 0) {
    ++s.draws;
  } else {
    bool a_won = (w == 0) != setup.swapped;
    (a_won ? s.a_wins : s.b_wins) += 1;
    if (w == 0) ++s.first_player_wins;
  }
  int turns = g.state().turn;
  s.turns = turns;
  ++s.turn_histogram[std::min(turns, 40)];
  ++s.end_reasons[static_cast<int>(g.end_reason())];
  RecordCards(g, da, dbk, setup.swapped, s.cards);
  return s;
}

}  // namespace

std::vector<MatchupStats> RunSimulation(const CardDb& db, const SimOptions& opt) {
  std::unique_ptr<tbb::global_control> limit;
  if (opt.threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  opt.threads);
  std::vector<MatchupStats> out;
  // The matchups: every pair, or the gauntlet deck against every other.
  std::vector<std::pair<int, int>> pairs;
  const int n = static_cast<int>(opt.decks.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      if (opt.gauntlet < 0 || a == opt.gauntlet || b == opt.gauntlet)
        pairs.push_back(opt.gauntlet == b ? std::pair{b, a} : std::pair{a, b});
  const int64_t total_games = static_cast<int64_t>(pairs.size()) * opt.games;
  int64_t done = 0;
  auto start = std::chrono::steady_clock::now();
  for (int matchup = 0; matchup < static_cast<int>(pairs.size()); ++matchup) {
    auto [a, b] = pairs[matchup];
    MatchupStats total;
    // Games go in fixed blocks, in order, so stopping on precision (--ci)
    // happens at the same game whatever the thread count.
    const int64_t block = opt.ci_half_width > 0 ? 256 : opt.games;
    for (int64_t begin = 0; begin < opt.games; begin += block) {
      int64_t end = std::min<int64_t>(opt.games, begin + block);
      MatchupStats part = tbb::parallel_reduce(
          tbb::blocked_range<int64_t>(begin, end, 16), MatchupStats{},
          [&](const tbb::blocked_range<int64_t>& r, MatchupStats acc) {
            for (int64_t i = r.begin(); i != r.end(); ++i)
              acc.Merge(PlayOne(db, opt, matchup, a, b, i));
            return acc;
          },
          [](MatchupStats x, const MatchupStats& y) {
            x.Merge(y);
            return x;
          });
      total.Merge(part);
      done += end - begin;
      Interval ci = Wilson(total.a_wins + 0.5 * total.draws, static_cast<double>(total.games));
      if (opt.progress) {
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double rate = secs > 0 ? done / secs : 0;
        std::fprintf(
            stderr, "\r%s vs %s: %lld games, %.0f games/s, ETA %.0f s, win %.1f%% +/- %.1f%%   ",
            opt.decks[a].name.c_str(), opt.decks[b].name.c_str(),
            static_cast<long long>(total.games), rate, rate > 0 ? (total_games - done) / rate : 0.0,
            100.0 * (total.a_wins + 0.5 * total.draws) / total.games, 50.0 * (ci.high - ci.low));
      }
      if (opt.ci_half_width > 0 && (ci.high - ci.low) / 2 < opt.ci_half_width) {
        done += opt.games - end;  // skipped
        break;
      }
    }
    total.deck_a = a;
    total.deck_b = b;
    out.push_back(total);
  }
  if (opt.progress) std::fprintf(stderr, "\n");
  return out;
}

}  // namespace strata
