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

// A rate over few games shows its count: 0/1 is no measured 0.0%.
TEST_F(CardStatsTest, RatesCarryTheirCounts) {
  EXPECT_EQ(CountRate(0, 1), "0/1 (0.0%)");
  EXPECT_EQ(CountRate(3, 40), "3/40 (7.5%)");
  EXPECT_EQ(CountRate(3, 40, 0), "3/40 (8%)");
  EXPECT_EQ(CountRate(0, 0), "-");
}

// A deck's shape: lands, the spells' curve, colour symbols and sources.
TEST_F(CardStatsTest, DeckShapeCountsLandsCurveAndColours) {
  const DeckShape s = ShapeOf(*db_, BundledDeck("red_burn"));
  EXPECT_EQ(s.cards, 40);
  EXPECT_EQ(s.lands, 17);
  EXPECT_EQ(s.sources[kRed], 12);
  EXPECT_EQ(s.sources[kBlack], 5);
  EXPECT_EQ(s.pips[kBlack], 2);  // 2 Terror
  int spells = 0;
  for (int v : s.curve) spells += v;
  EXPECT_EQ(spells, 23);
  EXPECT_EQ(s.curve[1], 4 + 4 + 4 + 2 + 1);  // Raging Goblin, Mons's, Bolt, Shock, Fireball (X: 0)
}

// The likely reason a card was seldom cast, from the card and its deck.
TEST_F(CardStatsTest, LikelyCastReasons) {
  auto deck = ParseDeck("30 Mountain\n2 Forest\n4 Giant Growth\n4 Craw Wurm\n", "d.txt", *db_);
  ASSERT_TRUE(deck.ok()) << deck.status();
  const std::string growth = LikelyCastReason(*db_, *deck, db_->Find("Giant Growth"));
  EXPECT_NE(growth.find("colour: 2 of the deck's 32 lands make G"), std::string::npos) << growth;
  EXPECT_NE(growth.find("no legal target"), std::string::npos) << growth;
  EXPECT_NE(growth.find("held back: an instant"), std::string::npos) << growth;
  const std::string wurm = LikelyCastReason(*db_, *deck, db_->Find("Craw Wurm"));
  EXPECT_NE(wurm.find("mana: it costs 6"), std::string::npos) << wurm;
  EXPECT_EQ(wurm.find("held back"), std::string::npos) << wurm;
  auto mono = ParseDeck("20 Forest\n20 Grizzly Bears\n", "m.txt", *db_);
  ASSERT_TRUE(mono.ok());
  EXPECT_EQ(LikelyCastReason(*db_, *mono, db_->Find("Grizzly Bears")),
            "held back: the player chose not to cast it");
}

// The metagame's resampled spread: a deck that beats every other by far is
// the whole mix in every resample; a three-deck cycle keeps each deck in.
TEST_F(CardStatsTest, MetagameResamplingBracketsTheShare) {
  SimOptions o;
  o.decks.resize(3);
  auto matchup = [](int a, int b, int64_t games, int64_t a_wins) {
    MatchupStats m;
    m.deck_a = a, m.deck_b = b, m.games = games, m.a_wins = a_wins, m.b_wins = games - a_wins;
    return m;
  };
  std::vector<MatchupStats> dominant = {matchup(0, 1, 800, 760), matchup(0, 2, 800, 770),
                                        matchup(1, 2, 800, 400)};
  MetagameSpread d = ResampleMetagame(o, dominant, 100);
  ASSERT_EQ(d.samples, 100);
  EXPECT_EQ(d.in_mix[0], 1.0);
  EXPECT_EQ(d.low[0], 1.0);
  EXPECT_EQ(d.in_mix[1], 0.0);
  std::vector<MatchupStats> cycle = {matchup(0, 1, 800, 560), matchup(1, 2, 800, 560),
                                     matchup(0, 2, 800, 240)};
  MetagameSpread c = ResampleMetagame(o, cycle, 100);
  for (int k = 0; k < 3; ++k) {
    EXPECT_GT(c.in_mix[k], 0.95) << k;
    EXPECT_LT(c.low[k], 1.0 / 3 + 1e-9) << k;
    EXPECT_GT(c.high[k], 1.0 / 3 - 1e-9) << k;
  }
  // The same figures every time (a fixed seed).
  EXPECT_EQ(ResampleMetagame(o, cycle, 100).low, c.low);
  // Not a round robin: no spread.
  EXPECT_EQ(ResampleMetagame(o, {matchup(0, 1, 800, 400)}, 100).samples, 0);
}

}  // namespace
}  // namespace strata
