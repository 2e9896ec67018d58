// Policies: built from specs, only ever choose legal actions, depend only on
// their seed, and the heuristic player beats the random one.
#include "policies/policy.h"

#include "engine/card_loader.h"
#include "engine/deck.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

class PolicyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new CardDb;
    ASSERT_TRUE(LoadCards({STRATA_SOURCE_DIR "/data/cards"}, *db_).ok());
    for (const char* name : {"green_stompy", "red_burn", "blue_control", "white_weenie"}) {
      auto d = LoadDeckFile(std::string(STRATA_SOURCE_DIR "/data/decks/") + name + ".txt", *db_);
      ASSERT_TRUE(d.ok()) << d.status();
      decks_.push_back(*d);
    }
  }
  static void TearDownTestSuite() { delete db_; }

  // Plays one game; returns the winner; checks every choice is legal.
  static int Play(const std::string& a, const std::string& b, uint64_t seed, int da, int db,
                  std::vector<std::string>* log = nullptr, int* decisions = nullptr) {
    GameOptions opt;
    opt.seed = seed;
    opt.log = log != nullptr;
    Game g(*db_, opt);
    g.Deal(decks_[da], decks_[db], static_cast<Player>(seed % 2));
    auto pa = MakePolicy(a, seed * 2), pb = MakePolicy(b, seed * 2 + 1);
    EXPECT_TRUE(pa.ok() && pb.ok());
    int n = 0;
    for (;;) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      int i = (d.player == 0 ? **pa : **pb).ChooseFor(g, d);
      EXPECT_GE(i, 0);
      EXPECT_LT(i, static_cast<int>(d.actions.size())) << DecisionKindName(d.kind);
      if (i < 0 || i >= static_cast<int>(d.actions.size())) break;
      g.Apply(i);
      ++n;
    }
    EXPECT_TRUE(g.Over());
    if (log) *log = g.log();
    if (decisions) *decisions = n;
    return g.Winner();
  }

  static CardDb* db_;
  static std::vector<Deck> decks_;
};
CardDb* PolicyTest::db_ = nullptr;
std::vector<Deck> PolicyTest::decks_;

TEST_F(PolicyTest, SpecsAndErrors) {
  EXPECT_TRUE(MakePolicy("random", 1).ok());
  EXPECT_TRUE(MakePolicy("random:pass=0.1", 1).ok());
  EXPECT_TRUE(MakePolicy("heuristic:style=control", 1).ok());
  EXPECT_EQ((*MakePolicy("heuristic", 1))->Name(), "heuristic:style=aggro");
  auto bad = MakePolicy("heuristic:style=sleepy", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("expected style=aggro or style=control"));
  auto unknown = MakePolicy("genius", 1);
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("unknown policy 'genius'"));
  EXPECT_THAT(std::string(unknown.status().message()),
              HasSubstr("heuristic[:style=aggro|control]"));
}

TEST_F(PolicyTest, OnlyLegalActionsOverManyDecisions) {
  int total = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    int n = 0;
    Play("heuristic", "heuristic:style=control", seed, seed % 4, (seed + 1) % 4, nullptr, &n);
    total += n;
    Play("random", "heuristic", seed, (seed + 2) % 4, seed % 4, nullptr, &n);
    total += n;
  }
  EXPECT_GT(total, 1000);  // enough decisions were checked
}

TEST_F(PolicyTest, SameSeedSameGame) {
  std::vector<std::string> a, b;
  Play("heuristic", "random", 9, 0, 1, &a);
  Play("heuristic", "random", 9, 0, 1, &b);
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());
}

TEST_F(PolicyTest, HeuristicBeatsRandom) {
  int wins = 0, games = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    // The heuristic player sits in both seats, with both decks.
    int w1 = Play("heuristic", "random", seed, 0, 1);
    int w2 = Play("random", "heuristic", seed, 0, 1);
    wins += (w1 == 0) + (w2 == 1);
    games += 2;
  }
  EXPECT_GE(wins, games * 8 / 10) << wins << " of " << games;
}

}  // namespace
}  // namespace strata
