// Whole games through the decision API: random players play to a result,
// a copied game continues exactly like the original, and a game depends
// only on its seed.
#include "engine/game.h"

#include "absl/strings/str_join.h"
#include "engine/deck.h"
#include "gtest/gtest.h"
#include "policies/random_policy.h"
#include "tests/bundled.h"

namespace strata {
namespace {

class GameTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = &BundledPool();
    red_ = new Deck(BundledDeck("red_burn"));
    green_ = new Deck(BundledDeck("green_stompy"));
  }
  static void TearDownTestSuite() {
    delete red_;
    delete green_;
  }

  static Game NewGame(uint64_t seed, bool log = false) {
    GameOptions opt;
    opt.seed = seed;
    opt.log = log;
    Game g(*db_, opt);
    // Odd seeds swap the decks' seats; the first player alternates too.
    if (seed % 2)
      g.Deal(*green_, *red_, static_cast<Player>(seed / 2 % 2));
    else
      g.Deal(*red_, *green_, static_cast<Player>(seed / 2 % 2));
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

  static const CardDb* db_;
  static Deck* red_;
  static Deck* green_;
};
const CardDb* GameTest::db_ = nullptr;
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
  // Both seats win some games: the engine does not favour one seat blindly.
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
  EXPECT_GE(copies, 15);  // games that ended before the copy point are skipped
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

namespace strata {
namespace {

// Every pair of bundled decks plays random games with the layer cache
// checked against a fresh computation on every query (L-9).
TEST(BundledDecks, RandomGamesWithCheckedLayers) {
  const CardDb& db = BundledPool();
  const std::vector<Deck> decks = BundledDecks(BundledDeckNames());
  ASSERT_GE(decks.size(), 10u);
  int games = 0;
  for (size_t i = 0; i < decks.size(); ++i) {
    for (size_t j = i + 1; j < decks.size(); ++j) {
      GameOptions opt;
      opt.seed = 1000 + i * 31 + j;
      opt.checked_layers = true;
      opt.turn_cap = 10;  // checked mode recomputes on every query: keep games short
      opt.edition = static_cast<Edition>((i + j) % 3);
      Game g(db, opt);
      g.Deal(decks[i], decks[j], static_cast<Player>(j % 2));
      RandomPolicy a(opt.seed, 0.3), b(opt.seed + 1, 0.3);
      for (int n = 0; n < 100000; ++n) {
        const Decision& d = g.Advance();
        if (d.kind == DecisionKind::kNone) break;
        g.Apply((d.player == 0 ? a : b).ChooseFor(g, d));
      }
      EXPECT_TRUE(g.Over()) << decks[i].name << " vs " << decks[j].name;
      EXPECT_EQ(g.layer_mismatch(), "") << decks[i].name << " vs " << decks[j].name;
      EXPECT_GT(g.layer_checks(), 0u);
      ++games;
    }
  }
  EXPECT_EQ(games, static_cast<int>(decks.size() * (decks.size() - 1) / 2));
}

}  // namespace
}  // namespace strata
