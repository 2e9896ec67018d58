// The runner: the same numbers whatever the thread count, seats swapped in
// pairs, and Wilson intervals against known values.
#include "sim/runner.h"

#include "gtest/gtest.h"
#include "tests/bundled.h"

namespace strata {
namespace {

TEST(Wilson, KnownValues) {
  Interval a = Wilson(50, 100);
  EXPECT_NEAR(a.low, 0.4038, 1e-4);
  EXPECT_NEAR(a.high, 0.5962, 1e-4);
  Interval b = Wilson(0, 10);
  EXPECT_NEAR(b.low, 0.0, 1e-9);
  EXPECT_NEAR(b.high, 0.2775, 1e-4);
  Interval c = Wilson(10, 10);
  EXPECT_NEAR(c.low, 0.7225, 1e-4);
  EXPECT_NEAR(c.high, 1.0, 1e-9);
  Interval d = Wilson(81, 263);
  EXPECT_NEAR(d.low, 0.2553, 1e-3);
  EXPECT_NEAR(d.high, 0.3662, 1e-3);
}

TEST(SetupOf, PairsShareASeedWithSeatsSwapped) {
  GameSetup g0 = SetupOf(7, 0, 0, true), g1 = SetupOf(7, 0, 1, true), g2 = SetupOf(7, 0, 2, true);
  EXPECT_EQ(g0.seed, g1.seed);
  EXPECT_NE(g0.seed, g2.seed);
  EXPECT_FALSE(g0.swapped);
  EXPECT_TRUE(g1.swapped);
  EXPECT_NE(SetupOf(7, 0, 0, false).seed, SetupOf(7, 0, 1, false).seed);
  EXPECT_NE(SetupOf(7, 0, 0, true).seed, SetupOf(7, 1, 0, true).seed);
}

// --shard i/K: every game of a matchup is played by exactly one shard, each
// shard's in game order, whole blocks but for the matchup's last.
TEST(ShardGames, EveryGameInExactlyOneShardInOrder) {
  for (int games : {1, 255, 256, 257, 600, 1000, 16384, 16385}) {
    SimOptions opt;
    opt.games = games;
    for (int k : {1, 2, 3, 7, 64}) {
      if (k > BlocksPerMatchup(opt)) continue;
      opt.shards = k;
      std::vector<int> seen(games, 0);
      for (int s = 0; s < k; ++s) {
        opt.shard = s;
        int64_t last = -1;
        for (int64_t p = 0; p < ShardGames(opt); ++p) {
          const int64_t g = ShardGameIndex(opt, p);
          ASSERT_GE(g, 0);
          ASSERT_LT(g, games) << "games " << games << ", shard " << s + 1 << "/" << k;
          EXPECT_GT(g, last);
          EXPECT_EQ(g / kBlockGames % k, s);
          last = g;
          ++seen[g];
        }
      }
      for (int g = 0; g < games; ++g)
        ASSERT_EQ(seen[g], 1) << "game " << g << " of " << games << " with " << k << " shards";
    }
  }
}

TEST(RunSimulation, SameResultsWithOneOrTwoThreads) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "white_weenie"});
  opt.games = 60;
  opt.seed = 11;
  opt.threads = 1;
  auto one = RunSimulation(db, opt);
  opt.threads = 2;
  auto two = RunSimulation(db, opt);
  ASSERT_EQ(one.size(), 3u);
  ASSERT_EQ(two.size(), 3u);
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].games, 60);
    EXPECT_EQ(one[i].a_wins + one[i].b_wins + one[i].draws, 60);
    EXPECT_EQ(one[i].a_wins, two[i].a_wins);
    EXPECT_EQ(one[i].b_wins, two[i].b_wins);
    EXPECT_EQ(one[i].draws, two[i].draws);
    EXPECT_EQ(one[i].first_player_wins, two[i].first_player_wins);
    EXPECT_EQ(one[i].turns, two[i].turns);
    EXPECT_EQ(one[i].turn_histogram, two[i].turn_histogram);
    EXPECT_EQ(one[i].end_reasons, two[i].end_reasons);
  }
  // A different run seed gives different games.
  opt.seed = 12;
  auto other = RunSimulation(db, opt);
  bool differs = false;
  for (size_t i = 0; i < one.size(); ++i) differs |= other[i].turns != one[i].turns;
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace strata

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/report.h"

namespace strata {
namespace {

std::string ReadWithoutRun(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("\"run\"") == std::string::npos) out += line + "\n";
  return out;
}

// --checked plays the same games, each with every invariant after every
// action, and counts them on any thread count.
TEST(RunSimulation, CheckedPlaysTheSameGamesAndCountsThem) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "white_weenie"});
  opt.games = 40;
  opt.seed = 5;
  opt.mulligan = Mulligan::kLondon;
  opt.threads = 1;
  auto plain = RunSimulation(db, opt);
  opt.checked = true;
  auto checked = RunSimulation(db, opt);
  opt.threads = 2;
  auto checked2 = RunSimulation(db, opt);
  ASSERT_EQ(plain.size(), 1u);
  for (const auto* m : {&checked[0], &checked2[0]}) {
    EXPECT_EQ(m->a_wins, plain[0].a_wins);
    EXPECT_EQ(m->turns, plain[0].turns);
    EXPECT_EQ(m->mulligans, plain[0].mulligans);
    EXPECT_EQ(m->checked_games, 40);
    EXPECT_EQ(m->violations, 0);
    EXPECT_EQ(m->first_violation_game, -1);
  }
  EXPECT_EQ(plain[0].checked_games, 0);
}

// A game that broke an invariant is counted, and the first such game kept,
// through merges in any order.
TEST(MatchupStats, CountsViolationsAndKeepsTheFirst) {
  MatchupStats a, b;
  GameRecord r;
  r.checked = true;
  r.index = 9;
  r.violated = true;
  AddGame(r, a);
  r.index = 3;
  AddGame(r, b);
  r.index = 4;
  r.violated = false;
  AddGame(r, b);
  a.Merge(b);
  EXPECT_EQ(a.checked_games, 3);
  EXPECT_EQ(a.violations, 2);
  EXPECT_EQ(a.first_violation_game, 3);
}

TEST(WriteStudy, SummaryIsTheSameForOneAndTwoThreads) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy"});
  opt.games = 40;
  auto dir = std::filesystem::temp_directory_path() / "strata_write_study";
  std::string outs[2];
  for (int t = 1; t <= 2; ++t) {
    opt.threads = t;
    auto results = RunSimulation(db, opt);
    StudyInfo info{"strata sim", "modern", t, 1.0, &db};
    std::string d = (dir / std::to_string(t)).string();
    ASSERT_TRUE(WriteStudy(d, opt, results, info).ok());
    outs[t - 1] = ReadWithoutRun(d + "/summary.json") + ReadWithoutRun(d + "/matchups.csv") +
                  ReadWithoutRun(d + "/cards.csv");
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_NE(outs[0].find("\"a_wins\""), std::string::npos);
  EXPECT_NE(outs[0].find("red_burn,green_stompy,40,"), std::string::npos);
  EXPECT_NE(outs[0].find("\"ratings\""), std::string::npos);
  EXPECT_NE(outs[0].find("red_burn,Lightning Bolt,4,40,"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(RunSimulation, StopsOnPrecisionAtTheSameGameForAnyThreadCount) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "white_weenie"});
  opt.games = 100000;
  opt.ci_half_width = 0.06;
  opt.gauntlet = 2;  // white_weenie against the other two
  opt.threads = 1;
  auto one = RunSimulation(db, opt);
  opt.threads = 2;
  auto two = RunSimulation(db, opt);
  ASSERT_EQ(one.size(), 2u);
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].deck_a, 2);  // the gauntlet deck is deck A
    EXPECT_LT(one[i].games, 1000);
    EXPECT_EQ(one[i].games % 256, 0);
    EXPECT_EQ(one[i].games, two[i].games);
    EXPECT_EQ(one[i].a_wins, two[i].a_wins);
    Interval ci = Wilson(one[i].a_wins + 0.5 * one[i].draws, static_cast<double>(one[i].games));
    EXPECT_LT((ci.high - ci.low) / 2, 0.06);
  }
}

}  // namespace
}  // namespace strata

#include "policies/policy.h"

namespace strata {
namespace {

struct Played {
  int winner, turns;
  EndReason end;
  uint64_t actions;
  std::vector<std::string> log;
};

Played PlayIn(Game& g, const Deck& a, const Deck& b, uint64_t seed, const std::string& policy) {
  g.Deal(a, b, static_cast<Player>(seed % 2));
  std::unique_ptr<Policy> pol[2] = {*MakePolicy(policy, seed * 3), *MakePolicy(policy, seed * 5)};
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    g.Apply(pol[d.player]->ChooseFor(g, d));
  }
  return {g.Winner(), g.state().turn, g.end_reason(), g.actions_taken(), g.log()};
}

TEST(GameReset, AReusedGamePlaysExactlyLikeAFreshOne) {
  const CardDb& db = BundledPool();
  auto decks =
      BundledDecks(db, {"red_burn", "green_stompy", "white_weenie", "blue_control", "layers_moon"});
  ASSERT_EQ(decks.size(), 5u);
  Game reused(db, GameOptions{});
  int decided = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    GameOptions go;
    go.seed = seed;
    go.log = seed % 3 != 0;  // also reuse a logging game for a silent one and back
    go.edition = static_cast<Edition>(seed % 3);
    const Deck& a = decks[seed % decks.size()];
    const Deck& b = decks[(seed / 5) % decks.size()];
    std::string policy = seed % 10 == 0 ? "heuristic" : "random";
    Game fresh(db, go);
    Played f = PlayIn(fresh, a, b, seed, policy);
    reused.Reset(go);
    Played r = PlayIn(reused, a, b, seed, policy);
    ASSERT_EQ(f.winner, r.winner) << "seed " << seed;
    ASSERT_EQ(f.turns, r.turns) << "seed " << seed;
    ASSERT_EQ(f.end, r.end) << "seed " << seed;
    ASSERT_EQ(f.actions, r.actions) << "seed " << seed;
    ASSERT_EQ(f.log, r.log) << "seed " << seed;
    decided += f.winner >= 0;
  }
  EXPECT_GT(decided, 100);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

void ExpectSameStats(const std::vector<MatchupStats>& x, const std::vector<MatchupStats>& y) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].deck_a, y[i].deck_a);
    EXPECT_EQ(x[i].deck_b, y[i].deck_b);
    EXPECT_EQ(x[i].games, y[i].games);
    EXPECT_EQ(x[i].a_wins, y[i].a_wins);
    EXPECT_EQ(x[i].b_wins, y[i].b_wins);
    EXPECT_EQ(x[i].draws, y[i].draws);
    EXPECT_EQ(x[i].first_player_wins, y[i].first_player_wins);
    EXPECT_EQ(x[i].turns, y[i].turns);
    EXPECT_EQ(x[i].end_reasons, y[i].end_reasons);
    EXPECT_EQ(x[i].turn_histogram, y[i].turn_histogram);
  }
}

TEST(RunStudy, InterruptedAndResumedEqualsUninterrupted) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "white_weenie"});
  opt.policies = {"heuristic", "random:pass=0.1"};
  opt.games = 300;  // blocks of 256 and 44
  opt.seed = 5;
  opt.threads = 2;
  std::ostringstream full_games;
  opt.games_out = &full_games;
  SimResult full = RunStudy(db, opt);
  EXPECT_TRUE(full.complete);
  EXPECT_EQ(full.blocks, 6);
  EXPECT_EQ(Lines(full_games.str()).size(), 900u);
  for (int64_t k : {1, 3}) {
    std::ostringstream part_games;
    opt.games_out = &part_games;
    opt.threads = 2;
    opt.stop_after_blocks = k;
    SimResult part = RunStudy(db, opt);
    EXPECT_FALSE(part.complete);
    EXPECT_EQ(part.blocks, k);
    int64_t games = 0;
    for (auto& m : part.matchups) {
      EXPECT_TRUE(m.games % kBlockGames == 0 || m.games == opt.games);
      games += m.games;
    }
    EXPECT_EQ(static_cast<int64_t>(Lines(part_games.str()).size()), games);
    // Resume (with another thread count), possibly interrupted once more.
    opt.threads = 1;
    opt.stop_after_blocks = 1;
    SimResult again = RunStudy(db, opt, &part.matchups);
    EXPECT_FALSE(again.complete);
    opt.stop_after_blocks = -1;
    SimResult rest = RunStudy(db, opt, &again.matchups);
    EXPECT_TRUE(rest.complete);
    EXPECT_EQ(part.blocks + again.blocks + rest.blocks, 6);
    ExpectSameStats(rest.matchups, full.matchups);
    EXPECT_EQ(part_games.str(), full_games.str().substr(0, part_games.str().size()));
  }
  // An external stop flag already set: nothing is played, nothing is lost.
  std::atomic<bool> stop{true};
  opt.stop = &stop;
  opt.games_out = nullptr;
  SimResult none = RunStudy(db, opt);
  EXPECT_FALSE(none.complete);
  EXPECT_EQ(none.blocks, 0);
  stop = false;
  SimResult all = RunStudy(db, opt, &none.matchups);
  ExpectSameStats(all.matchups, full.matchups);
}

TEST(RunStudy, InterruptedAndResumedEqualsUninterruptedWithCi) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "white_weenie"});
  opt.policies = {"heuristic", "heuristic"};
  opt.games = 100000;
  opt.ci_half_width = 0.06;
  opt.gauntlet = 0;
  SimResult full = RunStudy(db, opt);
  ASSERT_TRUE(full.complete);
  ASSERT_GE(full.blocks, 2);
  opt.stop_after_blocks = full.blocks / 2;
  SimResult part = RunStudy(db, opt);
  ASSERT_FALSE(part.complete);
  opt.stop_after_blocks = -1;
  SimResult rest = RunStudy(db, opt, &part.matchups);
  EXPECT_EQ(part.blocks + rest.blocks, full.blocks);
  ExpectSameStats(rest.matchups, full.matchups);
}

TEST(PlayStudyGame, AReplayedGameMatchesTheStudysRecord) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "white_weenie"});
  opt.policies = {"heuristic", "random"};
  opt.games = 40;
  opt.gauntlet = 1;
  std::ostringstream out;
  opt.games_out = &out;
  RunStudy(db, opt);
  auto lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 80u);
  StudyWorker w(db, opt);
  const Game& g = w.game;
  for (int matchup = 0; matchup < 2; ++matchup)
    for (int64_t i : {0, 1, 17, 39}) {
      GameRecord r = PlayStudyGame(opt, matchup, i, w, /*log=*/true);
      EXPECT_FALSE(g.log().empty());
      EXPECT_EQ(GameRecordJson(opt, r), lines[matchup * 40 + i]);
    }
  EXPECT_NE(lines[0].find("\"seats\": [\"green_stompy\", \"red_burn\"]"), std::string::npos)
      << lines[0];
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(StudyWorker, AReusedWorkerPlaysLikeAFreshOne) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "wu_control"});
  for (auto policies : {std::array<std::string, 2>{"heuristic", "random"},
                        std::array<std::string, 2>{"heuristic:style=control", "random:pass=0.1"},
                        std::array<std::string, 2>{"mc:rollouts=2;depth=30", "heuristic"}}) {
    opt.policies = policies;
    StudyWorker reused(db, opt);
    const int games = policies[0][0] == 'm' ? 4 : 30;
    for (int matchup = 0; matchup < 3; ++matchup)
      for (int64_t i = 0; i < games; ++i) {
        StudyWorker fresh(db, opt);
        GameRecord f = PlayStudyGame(opt, matchup, i, fresh, /*log=*/true);
        GameRecord r = PlayStudyGame(opt, matchup, i, reused, /*log=*/true);
        ASSERT_EQ(GameRecordJson(opt, f), GameRecordJson(opt, r)) << policies[0];
        ASSERT_EQ(fresh.game.log(), reused.game.log()) << policies[0];
      }
  }
}

}  // namespace
}  // namespace strata
