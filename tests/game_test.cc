// Whole games through the decision API: random players play to a result,
// a copied game continues exactly like the original, and a game depends
// only on its seed.
#include "engine/game.h"

#include "absl/strings/str_join.h"
#include "engine/card_loader.h"
#include "engine/deck.h"
#include "gtest/gtest.h"
#include "policies/random_policy.h"

namespace strata {
namespace {

class GameTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new CardDb;
    ASSERT_TRUE(LoadCards({STRATA_SOURCE_DIR "/data/cards"}, *db_).ok());
    auto a = LoadDeckFile(STRATA_SOURCE_DIR "/data/decks/red_burn.txt", *db_);
    auto b = LoadDeckFile(STRATA_SOURCE_DIR "/data/decks/green_stompy.txt", *db_);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    red_ = new Deck(*a);
    green_ = new Deck(*b);
  }
  static void TearDownTestSuite() {
    delete db_;
    delete red_;
    delete green_;
  }

  static Game NewGame(uint64_t seed, bool log = false) {
    GameOptions opt;
    opt.seed = seed;
    opt.log = log;
    Game g(*db_, opt);
    g.Deal(*red_, *green_, static_cast<Player>(seed % 2));
    return g;
  }

  // Plays until the end; returns the number of decisions taken.
  static int Play(Game& g, RandomPolicy& a, RandomPolicy& b, int limit = 1000000) {
    int n = 0;
    while (n < limit) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      int i = (d.player == 0 ? a : b).ChooseFor(g, d);
      EXPECT_GE(i, 0);
      EXPECT_LT(i, static_cast<int>(d.actions.size()));
      g.Apply(i);
      ++n;
    }
    return n;
  }

  static CardDb* db_;
  static Deck* red_;
  static Deck* green_;
};
CardDb* GameTest::db_ = nullptr;
Deck* GameTest::red_ = nullptr;
Deck* GameTest::green_ = nullptr;

TEST_F(GameTest, DealGivesSevenCardHandsAndShuffledLibraries) {
  Game g = NewGame(7);
  EXPECT_EQ(g.state().players[0].hand.size(), 7u);
  EXPECT_EQ(g.state().players[1].hand.size(), 7u);
  EXPECT_EQ(g.state().players[0].library.size(), 33u);
  Game h = NewGame(8);
  std::vector<CardId> a, b;
  for (ObjId o : g.state().players[0].library) a.push_back(g.state().obj.card[o]);
  for (ObjId o : h.state().players[0].library) b.push_back(h.state().obj.card[o]);
  EXPECT_NE(a, b) << "two seeds shuffled the same way";
}

TEST_F(GameTest, RandomGamesEndWithAResult) {
  int wins[3] = {0, 0, 0};
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Game g = NewGame(seed);
    RandomPolicy a(seed * 2, 0.3), b(seed * 2 + 1, 0.3);
    Play(g, a, b);
    ASSERT_TRUE(g.Over()) << "seed " << seed;
    EXPECT_NE(g.end_reason(), EndReason::kNone);
    EXPECT_GT(g.state().turn, 2);
    ++wins[g.Winner() + 1];
    EXPECT_TRUE(g.layer_mismatch().empty());
  }
  // Both decks win some games: the engine does not favour one seat blindly.
  EXPECT_GT(wins[1], 0);
  EXPECT_GT(wins[2], 0);
}

TEST_F(GameTest, AGameDependsOnlyOnItsSeed) {
  for (uint64_t seed : {3u, 11u, 29u}) {
    Game g1 = NewGame(seed, true), g2 = NewGame(seed, true);
    RandomPolicy a1(seed, 0.3), b1(seed + 100, 0.3), a2(seed, 0.3), b2(seed + 100, 0.3);
    int n1 = Play(g1, a1, b1), n2 = Play(g2, a2, b2);
    EXPECT_EQ(n1, n2);
    EXPECT_EQ(g1.log(), g2.log());
    EXPECT_EQ(g1.Winner(), g2.Winner());
  }
}

// OpenSpiel-style clone check: copy the game at random decisions; both
// copies continue with the same choices and end identical.
TEST_F(GameTest, ACopyContinuesExactlyLikeTheOriginal) {
  Rng pick(12345);
  int copies = 0;
  for (uint64_t seed = 100; seed < 130; ++seed) {
    Game g = NewGame(seed, true);
    RandomPolicy a(seed, 0.3), b(seed + 7, 0.3);
    int when = 1 + static_cast<int>(pick.Below(200));
    Play(g, a, b, when);
    if (g.Over()) continue;
    Game copy = g;
    RandomPolicy ca = a, cb = b;
    Play(g, a, b);
    Play(copy, ca, cb);
    ++copies;
    ASSERT_TRUE(g.Over());
    EXPECT_EQ(g.log(), copy.log()) << "seed " << seed;
    EXPECT_EQ(g.Winner(), copy.Winner());
    EXPECT_EQ(g.state().turn, copy.state().turn);
    EXPECT_EQ(g.state().players[0].life, copy.state().players[0].life);
    EXPECT_EQ(g.state().players[1].life, copy.state().players[1].life);
    EXPECT_EQ(g.state().players[0].hand, copy.state().players[0].hand);
    EXPECT_EQ(g.state().players[1].graveyard, copy.state().players[1].graveyard);
    EXPECT_EQ(g.state().version, copy.state().version);
  }
  EXPECT_GT(copies, 20);
}

TEST_F(GameTest, TheLogReadsLikeAGame) {
  Game g = NewGame(5, true);
  RandomPolicy a(1, 0.2), b(2, 0.2);
  Play(g, a, b);
  std::string log = absl::StrJoin(g.log(), "\n");
  EXPECT_NE(log.find("begin untap of"), std::string::npos);
  EXPECT_NE(log.find(" plays "), std::string::npos);
  EXPECT_NE(log.find(" draws "), std::string::npos);
  EXPECT_NE(log.find("game over"), std::string::npos);
}

}  // namespace
}  // namespace strata
