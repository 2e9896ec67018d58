// Per-card statistics: what the engine records per object, the opening-hand
// frequency against the hypergeometric value, consistent counts, and the
// same numbers for one and two threads.
#include "sim/card_stats.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "policies/policy.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "tests/bundled.h"

namespace strata {
namespace {

class CardStatsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = &BundledPool(); }
  static const CardDb* db_;
};
const CardDb* CardStatsTest::db_ = nullptr;

TEST_F(CardStatsTest, DistinctCardsInOrderOfFirstAppearance) {
  auto d = ParseDeck("2 Lightning Bolt\n30 Mountain\n2 Lightning Bolt\n8 Raging Goblin\n", "t.txt",
                     *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<CardId> distinct = DistinctCards(*d);
  ASSERT_EQ(distinct.size(), 3u);
  EXPECT_EQ((*db_)[distinct[0]].name, "Lightning Bolt");
  EXPECT_EQ((*db_)[distinct[1]].name, "Mountain");
  EXPECT_EQ((*db_)[distinct[2]].name, "Raging Goblin");
}

// The engine marks the opening hand, every card that reached a hand, and
// every card cast or played: a cast card was drawn first.
TEST_F(CardStatsTest, EngineMarksHandOpeningAndCast) {
  Deck a = BundledDeck("red_burn"), b = BundledDeck("green_stompy");
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    GameOptions go;
    go.seed = seed;
    Game g(*db_, go);
    g.Deal(a, b, 0);
    auto pa = *MakePolicy("heuristic", seed), pb = *MakePolicy("heuristic", seed + 100);
    for (;;) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      g.Apply((d.player == 0 ? pa : pb)->ChooseFor(g, d));
    }
    const GameState& s = g.state();
    int opening[2] = {0, 0}, cast[2] = {0, 0};
    for (ObjId o = 0; o < s.obj.count; ++o) {
      uint8_t seen = g.seen(o);
      if (seen & Game::kSeenOpening) ++opening[s.obj.owner[o]];
      if (seen & Game::kSeenCast) ++cast[s.obj.owner[o]];
      if (seen & (Game::kSeenOpening | Game::kSeenCast)) {
        EXPECT_TRUE(seen & Game::kSeenInHand);
      }
      if (s.obj.zone[o] == Zone::kHand) {
        EXPECT_TRUE(seen & Game::kSeenInHand);
      }
    }
    EXPECT_EQ(opening[0], 7);
    EXPECT_EQ(opening[1], 7);
    EXPECT_GT(cast[0] + cast[1], 0);
  }
}

// 4 copies in a 60-card deck: in the opening hand with probability
// 1 - C(56,7)/C(60,7) = 0.39950.
TEST_F(CardStatsTest, OpeningHandFrequencyIsHypergeometric) {
  auto d = ParseDeck("4 Lightning Bolt\n56 Mountain\n", "t.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  const int n = 20000;
  CardStats stats;
  for (int i = 0; i < n; ++i) {
    GameOptions go;
    go.seed = 1000 + i;
    Game g(*db_, go);
    g.Deal(*d, *d, i % 2);
    RecordCards(g, *d, *d, i % 3 == 0, stats);
  }
  const double expected = 1.0 - (53.0 * 52 * 51 * 50) / (60.0 * 59 * 58 * 57);
  EXPECT_NEAR(expected, 0.39950, 1e-5);
  for (int side = 0; side < 2; ++side) {
    const CardCounts& bolt = stats.side[side][0];
    const CardCounts& mountain = stats.side[side][1];
    // 4 standard deviations: about 0.014.
    EXPECT_NEAR(static_cast<double>(bolt.opening) / n, expected, 0.014);
    EXPECT_EQ(bolt.drawn, bolt.opening);  // no game was played: only the opening hand
    EXPECT_EQ(bolt.cast, 0);
    EXPECT_EQ(mountain.opening, n);
    EXPECT_EQ(bolt.drawn_score, bolt.drawn);  // an unplayed game counts as a draw
    EXPECT_EQ(stats.side[side][2].drawn, 0);  // nothing beyond the deck's two cards
  }
}

TEST_F(CardStatsTest, CountsAreConsistentAndTheSameForOneAndTwoThreads) {
  SimOptions opt;
  for (const char* name : {"red_burn", "green_stompy", "white_weenie"})
    opt.decks.push_back(BundledDeck(name));
  opt.games = 100;
  opt.seed = 5;
  opt.threads = 1;
  auto one = RunSimulation(*db_, opt);
  opt.threads = 2;
  auto two = RunSimulation(*db_, opt);
  auto t1 = CardTables(db_, opt, one), t2 = CardTables(db_, opt, two);
  ASSERT_EQ(t1.size(), 3u);
  for (size_t d = 0; d < t1.size(); ++d) {
    EXPECT_EQ(t1[d].score.games, 200);
    ASSERT_EQ(t1[d].cards.size(), t2[d].cards.size());
    ASSERT_EQ(t1[d].cards.size(), DistinctCards(opt.decks[d]).size());
    int copies = 0;
    for (size_t i = 0; i < t1[d].cards.size(); ++i) {
      const CardRow &c = t1[d].cards[i], &c2 = t2[d].cards[i];
      SCOPED_TRACE(opt.decks[d].name + ": " + c.name);
      copies += c.copies;
      EXPECT_EQ(c.drawn, c2.drawn);
      EXPECT_EQ(c.cast, c2.cast);
      EXPECT_EQ(c.opening, c2.opening);
      EXPECT_EQ(c.drawn_wins, c2.drawn_wins);
      EXPECT_EQ(c.cast_wins, c2.cast_wins);
      EXPECT_EQ(c.opening_wins, c2.opening_wins);
      EXPECT_LE(c.opening, c.drawn);
      EXPECT_LE(c.cast, c.drawn);
      EXPECT_LE(c.drawn, 200);
      EXPECT_EQ(c.drawn + c.not_drawn, 200);
      EXPECT_LE(c.drawn_wins, c.drawn);
      EXPECT_LE(c.cast_wins, c.cast);
      EXPECT_LE(c.opening_wins, c.opening);
      EXPECT_GE(c.not_drawn_wins, 0);
      EXPECT_LE(c.not_drawn_wins, c.not_drawn);
      EXPECT_GT(c.drawn, 0);  // 40-card decks, long enough games
    }
    EXPECT_EQ(copies, static_cast<int>(opt.decks[d].main.size()));
    // Of 12+ basic lands in 40 cards, one is nearly always in the opening hand.
    EXPECT_GT(t1[d].cards[0].opening, 150);
  }
}

}  // namespace
}  // namespace strata
