// The runner: the same numbers whatever the thread count, seats swapped in
// pairs, and Wilson intervals against known values.
#include "sim/runner.h"

#include "engine/card_loader.h"
#include "gtest/gtest.h"

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

TEST(RunSimulation, SameResultsWithOneOrTwoThreads) {
  CardDb db;
  ASSERT_TRUE(LoadCards({STRATA_SOURCE_DIR "/data/cards"}, db).ok());
  SimOptions opt;
  for (const char* name : {"red_burn", "green_stompy", "white_weenie"}) {
    auto d = LoadDeckFile(std::string(STRATA_SOURCE_DIR "/data/decks/") + name + ".txt", db);
    ASSERT_TRUE(d.ok());
    opt.decks.push_back(*d);
  }
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

TEST(WriteStudy, SummaryIsTheSameForOneAndTwoThreads) {
  CardDb db;
  ASSERT_TRUE(LoadCards({STRATA_SOURCE_DIR "/data/cards"}, db).ok());
  SimOptions opt;
  for (const char* name : {"red_burn", "green_stompy"}) {
    auto d = LoadDeckFile(std::string(STRATA_SOURCE_DIR "/data/decks/") + name + ".txt", db);
    ASSERT_TRUE(d.ok());
    opt.decks.push_back(*d);
  }
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
  CardDb db;
  ASSERT_TRUE(LoadCards({STRATA_SOURCE_DIR "/data/cards"}, db).ok());
  SimOptions opt;
  for (const char* name : {"red_burn", "green_stompy", "white_weenie"}) {
    auto d = LoadDeckFile(std::string(STRATA_SOURCE_DIR "/data/decks/") + name + ".txt", db);
    ASSERT_TRUE(d.ok());
    opt.decks.push_back(*d);
  }
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
