#include "sim/runner.h"

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
  return s;
}

}  // namespace

std::vector<MatchupStats> RunSimulation(const CardDb& db, const SimOptions& opt) {
  std::unique_ptr<tbb::global_control> limit;
  if (opt.threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  opt.threads);
  std::vector<MatchupStats> out;
  int matchup = 0;
  const int n = static_cast<int>(opt.decks.size());
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b, ++matchup) {
      MatchupStats total = tbb::parallel_reduce(
          tbb::blocked_range<int64_t>(0, opt.games, 16), MatchupStats{},
          [&](const tbb::blocked_range<int64_t>& r, MatchupStats acc) {
            for (int64_t i = r.begin(); i != r.end(); ++i)
              acc.Merge(PlayOne(db, opt, matchup, a, b, i));
            return acc;
          },
          [](MatchupStats x, const MatchupStats& y) {
            x.Merge(y);
            return x;
          });
      total.deck_a = a;
      total.deck_b = b;
      out.push_back(total);
      if (opt.progress) std::fprintf(stderr, "\r%d/%d matchups", matchup + 1, n * (n - 1) / 2);
    }
  }
  if (opt.progress) std::fprintf(stderr, "\n");
  return out;
}

}  // namespace strata
