// Paired studies (strata compare, strata ablate): the paired interval
// against hand-computed values, version 0 playing exactly the games of a
// gauntlet study, identical versions differing by nothing, the same numbers
// for one or two threads, --ci stopping on the paired interval, and a run
// stopped between waves, saved (sim/paired_state.h) and resumed ending as
// one run does.
#include "sim/compare.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "sim/paired_state.h"
#include "tests/bundled.h"

namespace strata {
namespace {

PairedStats Units(const std::vector<double>& diffs, int games_per_unit) {
  PairedStats p;
  for (double d : diffs) {
    p.units += 1;
    p.games += games_per_unit;
    p.sum += d;
    p.sum2 += d * d;
  }
  return p;
}

TEST(PairedDiff, KnownValues) {
  // Four seeds of two games: differences 1, 0, -1/2, 1/2 in score.
  const PairedStats p = Units({1, 0, -0.5, 0.5}, 2);
  EXPECT_DOUBLE_EQ(p.Variance(), (1.5 - 1.0 / 4) / 3);
  const PairedDiff d = DiffOf(p);
  EXPECT_EQ(d.games, 8);
  EXPECT_DOUBLE_EQ(d.diff, 0.125);
  const double half = 1.959963984540054 * std::sqrt(4 * p.Variance()) / 8;
  EXPECT_NEAR(d.low, 0.125 - half, 1e-12);
  EXPECT_NEAR(d.high, 0.125 + half, 1e-12);
  EXPECT_NEAR(half, 0.3163, 1e-4);
  // Two such strata: the same change, the interval narrower by sqrt(2).
  const PairedDiff two = DiffOf(std::vector<PairedStats>{p, p});
  EXPECT_EQ(two.games, 16);
  EXPECT_DOUBLE_EQ(two.diff, 0.125);
  EXPECT_NEAR(two.high - two.diff, half / std::sqrt(2.0), 1e-12);
  // Strata of different means: the spread between them is no noise.
  const PairedDiff mixed =
      DiffOf(std::vector<PairedStats>{Units({1, 1, 1}, 2), Units({0, 0, 0}, 2)});
  EXPECT_DOUBLE_EQ(mixed.diff, 0.25);
  EXPECT_DOUBLE_EQ(mixed.low, 0.25);
  EXPECT_DOUBLE_EQ(mixed.high, 0.25);
}

TEST(PairedDiff, OneUnitHasNoInterval) {
  const PairedDiff d = DiffOf(Units({0.5}, 2));
  EXPECT_DOUBLE_EQ(d.diff, 0.25);
  EXPECT_TRUE(std::isnan(d.low));
  EXPECT_TRUE(std::isnan(d.high));
  EXPECT_TRUE(std::isnan(DiffOf(PairedStats{}).diff));
}

// The tested deck (red_burn) against two opponents; version 1 has its last
// distinct card replaced, every copy, by its first (a land).
PairedOptions TwoVersions(const CardDb& db, int games) {
  std::vector<Deck> decks = BundledDecks(db, {"red_burn", "green_stompy", "white_weenie"});
  SimOptions o;
  o.decks = decks;
  o.gauntlet = 0;
  o.mulligan = Mulligan::kParis;
  o.games = games;
  o.seed = 5;
  Deck changed = decks[0];
  const std::vector<CardId> distinct = DistinctCards(changed);
  std::replace(changed.main.begin(), changed.main.end(), distinct.back(), distinct.front());
  PairedOptions po;
  po.versions = {o, o};
  po.versions[1].decks[0] = changed;
  return po;
}

TEST(RunPaired, VersionZeroPlaysTheGauntletStudysGames) {
  const CardDb& db = BundledPool();
  PairedOptions po = TwoVersions(db, 64);
  po.threads = 2;
  const PairedResult r = RunPaired(db, po, {0});
  const std::vector<MatchupStats> study = RunSimulation(db, po.versions[0]);
  ASSERT_EQ(study.size(), 2u);
  ASSERT_EQ(r.stats[0].size(), 2u);
  for (size_t m = 0; m < 2; ++m) {
    const MatchupStats &a = r.stats[0][m], &b = study[m];
    EXPECT_EQ(a.games, 64);
    EXPECT_EQ(a.a_wins, b.a_wins);
    EXPECT_EQ(a.b_wins, b.b_wins);
    EXPECT_EQ(a.draws, b.draws);
    EXPECT_EQ(a.turns, b.turns);
    EXPECT_EQ(a.first_player_wins, b.first_player_wins);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(a.cards.side[0][c].drawn, b.cards.side[0][c].drawn);
    // The changed version played other games: its results differ somewhere.
    EXPECT_EQ(r.paired[1][m].units, 32);
    EXPECT_EQ(r.paired[1][m].games, 64);
    // Its paired sum is the score difference.
    const double old_score = a.a_wins + 0.5 * a.draws;
    const double new_score = r.score[1][m].wins + 0.5 * r.score[1][m].draws;
    // The counts kept for every version are the full statistics'.
    EXPECT_EQ(r.score[0][m].games, a.games);
    EXPECT_EQ(r.score[0][m].wins, a.a_wins);
    EXPECT_EQ(r.score[0][m].losses, a.b_wins);
    EXPECT_EQ(r.score[0][m].turns, a.turns);
    EXPECT_EQ(r.score[0][m].first_player_wins, a.first_player_wins);
    EXPECT_DOUBLE_EQ(r.paired[1][m].sum, new_score - old_score);
  }
  EXPECT_GT(r.paired[1][0].sum2 + r.paired[1][1].sum2, 0);
}

TEST(RunPaired, IdenticalVersionsDifferByNothing) {
  const CardDb& db = BundledPool();
  PairedOptions po = TwoVersions(db, 32);
  po.versions[1] = po.versions[0];
  po.threads = 2;
  const PairedResult r = RunPaired(db, po, {});
  EXPECT_TRUE(r.stats[0].empty() && r.stats[1].empty());  // no card statistics asked for
  for (size_t m = 0; m < 2; ++m) {
    EXPECT_EQ(r.score[1][m].wins, r.score[0][m].wins);
    EXPECT_EQ(r.score[1][m].turns, r.score[0][m].turns);
    EXPECT_EQ(r.paired[1][m].sum, 0);
    EXPECT_EQ(r.paired[1][m].sum2, 0);
  }
  // With --ci, identical versions are known to differ by 0 after one block.
  po.versions[0].games = po.versions[1].games = 100000;
  po.ci_half_width = 0.01;
  const PairedResult ci = RunPaired(db, po, {});
  for (size_t m = 0; m < 2; ++m) EXPECT_EQ(ci.score[0][m].games, kBlockGames);
}

TEST(RunPaired, SameNumbersWithOneOrTwoThreadsAndCiStopsOnThePairedInterval) {
  const CardDb& db = BundledPool();
  PairedOptions po = TwoVersions(db, 2048);
  po.ci_half_width = 0.03;
  po.threads = 1;
  const PairedResult one = RunPaired(db, po, {0, 1});
  po.threads = 2;
  const PairedResult two = RunPaired(db, po, {0, 1});
  for (size_t m = 0; m < 2; ++m) {
    for (int v = 0; v < 2; ++v) {
      EXPECT_EQ(one.score[v][m].games, two.score[v][m].games);
      EXPECT_EQ(one.score[v][m].wins, two.score[v][m].wins);
      EXPECT_EQ(one.score[v][m].draws, two.score[v][m].draws);
      EXPECT_EQ(one.score[v][m].turns, two.score[v][m].turns);
      EXPECT_EQ(one.stats[v][m].a_wins, two.stats[v][m].a_wins);
      for (int c = 0; c < 4; ++c)
        EXPECT_EQ(one.stats[v][m].cards.side[0][c].drawn_score,
                  two.stats[v][m].cards.side[0][c].drawn_score);
    }
    EXPECT_EQ(one.paired[1][m].sum, two.paired[1][m].sum);
    EXPECT_EQ(one.paired[1][m].sum2, two.paired[1][m].sum2);
    // Stopped at a block's end, once the interval was narrow enough, and
    // not a block later.
    const int64_t games = one.score[0][m].games;
    EXPECT_EQ(games % kBlockGames, 0);
    EXPECT_LT(games, 2048);
    const PairedDiff d = DiffOf(one.paired[1][m]);
    EXPECT_LT((d.high - d.low) / 2, 0.03);
    EXPECT_TRUE(PairedDone(po, one, static_cast<int>(m)));
  }
  // A block before, the interval was not narrow enough yet.
  const int64_t first = std::max(one.score[0][0].games, one.score[0][1].games);
  ASSERT_GT(first, kBlockGames) << "the test wants a change needing more than one block";
  PairedOptions before = po;
  before.ci_half_width = 0;
  for (auto& v : before.versions) v.games = static_cast<int>(first - kBlockGames);
  const PairedResult b = RunPaired(db, before, {});
  const int m = one.score[0][0].games == first ? 0 : 1;
  const PairedDiff d = DiffOf(b.paired[1][m]);
  EXPECT_GE((d.high - d.low) / 2, 0.03);
}

// Every count of two results, the per-card ones of the versions kept.
void ExpectSameResult(const PairedResult& x, const PairedResult& y) {
  ASSERT_EQ(x.score.size(), y.score.size());
  for (size_t v = 0; v < x.score.size(); ++v) {
    ASSERT_EQ(x.score[v].size(), y.score[v].size());
    ASSERT_EQ(x.stats[v].size(), y.stats[v].size());
    for (size_t m = 0; m < x.score[v].size(); ++m) {
      const VersionScore &a = x.score[v][m], &b = y.score[v][m];
      EXPECT_EQ(a.games, b.games);
      EXPECT_EQ(a.wins, b.wins);
      EXPECT_EQ(a.losses, b.losses);
      EXPECT_EQ(a.draws, b.draws);
      EXPECT_EQ(a.turns, b.turns);
      EXPECT_EQ(a.first_player_wins, b.first_player_wins);
      const PairedStats &p = x.paired[v][m], &q = y.paired[v][m];
      EXPECT_EQ(p.units, q.units);
      EXPECT_EQ(p.games, q.games);
      EXPECT_EQ(p.sum, q.sum);
      EXPECT_EQ(p.sum2, q.sum2);
      if (m >= x.stats[v].size()) continue;
      const MatchupStats &s = x.stats[v][m], &t = y.stats[v][m];
      EXPECT_EQ(s.games, t.games);
      EXPECT_EQ(s.a_wins, t.a_wins);
      EXPECT_EQ(s.turn_histogram, t.turn_histogram);
      EXPECT_EQ(s.win_turns, t.win_turns);
      EXPECT_EQ(s.end_reasons, t.end_reasons);
      EXPECT_EQ(s.mulligans, t.mulligans);
      EXPECT_EQ(s.mana_burn, t.mana_burn);
      for (int side = 0; side < 2; ++side)
        for (int c = 0; c < 40; ++c) {
          const CardCounts &k = s.cards.side[side][c], &l = t.cards.side[side][c];
          EXPECT_EQ(k.drawn, l.drawn);
          EXPECT_EQ(k.cast, l.cast);
          EXPECT_EQ(k.drawn_score, l.drawn_score);
          EXPECT_EQ(k.own_harm, l.own_harm);
          EXPECT_EQ(k.first_cast, l.first_cast);
        }
    }
  }
}

// What compare --out keeps of a stopped run (sim/paired_state.h), saved
// and read back.
PairedResult SavedAndLoaded(const PairedResult& r, const std::string& dir) {
  PairedStudy s;
  s.what = "compare";
  s.args.decks = {"/old.txt", "/new.txt"};
  s.args.against = {"/x.txt", "/y.txt"};
  s.args.games = 600;
  s.deck_digests = {"1", "2", "3", "4"};
  s.progress = r;
  EXPECT_TRUE(SavePairedStudy(dir, s).ok());
  auto loaded = LoadPairedStudy(dir);
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok()) return {};
  EXPECT_EQ(loaded->args.decks, s.args.decks);
  EXPECT_EQ(loaded->args.against, s.args.against);
  EXPECT_EQ(loaded->deck_digests, s.deck_digests);
  EXPECT_FALSE(loaded->complete);
  return loaded->progress;
}

TEST(RunPaired, StoppedAfterAWaveSavedAndResumedEqualsOneRun) {
  const CardDb& db = BundledPool();
  // 600 games: blocks of 256, 256 and 88.
  PairedOptions po = TwoVersions(db, 600);
  po.threads = 2;
  const PairedResult full = RunPaired(db, po, {0, 1});
  EXPECT_TRUE(full.complete);
  PairedOptions part = po;
  part.threads = 1;
  part.stop_after_waves = 1;
  const PairedResult first = RunPaired(db, part, {0, 1});
  EXPECT_FALSE(first.complete);
  for (int v = 0; v < 2; ++v)
    for (int m = 0; m < 2; ++m) EXPECT_EQ(first.score[v][m].games, kBlockGames);
  const std::string dir = testing::TempDir() + "/paired_resume_unit";
  const PairedResult loaded = SavedAndLoaded(first, dir);
  ExpectSameResult(first, loaded);
  // Goes on on two threads, with a checkpoint after every wave.
  int waves = 0;
  po.after_wave = [&](const PairedResult&) { return ++waves > 0; };
  const PairedResult resumed = RunPaired(db, po, {0, 1}, &loaded);
  EXPECT_TRUE(resumed.complete);
  EXPECT_EQ(waves, 2);
  ExpectSameResult(full, resumed);
}

TEST(RunPaired, CiStopsAtTheSameBlockWhenResumed) {
  const CardDb& db = BundledPool();
  PairedOptions po = TwoVersions(db, 100000);
  po.ci_half_width = 0.03;
  po.threads = 2;
  const PairedResult full = RunPaired(db, po, {});
  PairedOptions part = po;
  part.stop_after_waves = 1;
  const PairedResult first = RunPaired(db, part, {});
  ASSERT_FALSE(first.complete) << "the test wants a change needing more than one block";
  po.threads = 1;
  const PairedResult resumed = RunPaired(db, po, {}, &first);
  ExpectSameResult(full, resumed);
}

TEST(RunPaired, AStopDropsTheWaveUnderWay) {
  const CardDb& db = BundledPool();
  PairedOptions po = TwoVersions(db, 512);
  std::atomic<bool> stop{false};
  po.stop = &stop;
  // Stop as the first wave ends: the second is never started.
  po.after_wave = [&](const PairedResult&) {
    stop.store(true);
    return true;
  };
  const PairedResult r = RunPaired(db, po, {0});
  EXPECT_FALSE(r.complete);
  for (int m = 0; m < 2; ++m) EXPECT_EQ(r.score[0][m].games, kBlockGames);
  // A stop before any wave: nothing played.
  po.after_wave = nullptr;
  const PairedResult none = RunPaired(db, po, {0});
  EXPECT_FALSE(none.complete);
  for (int m = 0; m < 2; ++m) EXPECT_EQ(none.score[0][m].games, 0);
}

}  // namespace
}  // namespace strata
