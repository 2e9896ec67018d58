// Occurrences (engine/occurrences.cc) that no scenario can reach: the
// bundled pool has no "before" response, so a test card supplies one.
#include <string>

#include "engine/card_loader.h"
#include "engine/game.h"
#include "gtest/gtest.h"
#include "tests/bundled.h"

namespace strata {
namespace {

// Before its controller draws, it gains 1 life (E-1 "before"). Only games
// with a card that responds before an occurrence record it (Game::Before),
// so this is the one path that still records and collects them.
constexpr const char* kForewarner = R"([[card]]
name = "Test Forewarner"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "before"
on = { event = "draw", player = "you" }
effects = [{ do = "gain_life", amount = 1, player = "you" }]
)";

// The draw step of A's turn 2 with `watcher` on A's side: A's life after it.
int LifeAfterDrawStep(const CardDb& db, const std::string& watcher) {
  GameOptions opt;
  opt.checked_layers = true;
  opt.check_invariants = true;
  Game g(db, opt);
  if (!watcher.empty()) g.AddObject(db.Find(watcher), 0, Zone::kBattlefield);
  for (int i = 0; i < 3; ++i) g.AddObject(db.Find("Grizzly Bears"), 0, Zone::kLibrary);
  g.StartAt(Phase::kDraw, 0, 2);
  for (int guard = 0; guard < 100 && g.state().phase == Phase::kDraw; ++guard) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    g.Apply(0);
  }
  EXPECT_EQ(g.state().players[0].hand.size(), 1u);
  EXPECT_EQ(g.invariant_failure(), "");
  return g.state().players[0].life;
}

TEST(Occurrences, ABeforeResponseTriggersInAGameThatListensForIt) {
  CardDb db;
  ASSERT_TRUE(LoadCards({BundledCardsDir()}, db).ok());
  ASSERT_TRUE(LoadCardsFromString(kForewarner, "forewarner.toml", db).ok());
  EXPECT_EQ(LifeAfterDrawStep(db, "Test Forewarner"), 21);
  EXPECT_EQ(LifeAfterDrawStep(db, ""), 20);
}

}  // namespace
}  // namespace strata
