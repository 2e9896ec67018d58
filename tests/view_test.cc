// A policy's view hides the opponent's hand and every library's order.
#include "policies/view.h"

#include "engine/deck.h"
#include "gtest/gtest.h"
#include "tests/bundled.h"

namespace strata {
namespace {

TEST(PlayerView, HidesOpponentHandAndLibraries) {
  const CardDb& db = BundledPool();
  Game g(db, GameOptions{});
  g.Deal(BundledDeck("red_burn"), BundledDeck("green_stompy"), 0);
  ObjId on_battlefield = g.AddObject(db.Find("Grizzly Bears"), 1, Zone::kBattlefield);
  PlayerView a(g, 0), oracle(g, 0, true);
  const GameState& s = g.state();
  for (ObjId o : s.players[0].hand) {
    EXPECT_TRUE(a.Visible(o));
    EXPECT_EQ(a.CardOf(o), s.obj.card[o]);
  }
  for (ObjId o : s.players[1].hand) {
    EXPECT_FALSE(a.Visible(o));
    EXPECT_EQ(a.CardOf(o), kNoCard);
    EXPECT_EQ(a.Chars(o), nullptr);
    EXPECT_EQ(a.ZoneOf(o), Zone::kNone);
    EXPECT_TRUE(oracle.Visible(o));
  }
  for (Player p = 0; p < 2; ++p)
    for (ObjId o : s.players[p].library) EXPECT_FALSE(a.Visible(o));
  EXPECT_TRUE(a.Visible(on_battlefield));
  EXPECT_EQ(a.HandSize(1), 7);
  EXPECT_EQ(a.LibrarySize(1), 33);
  EXPECT_EQ(a.whole_game(), nullptr);
  EXPECT_EQ(oracle.whole_game(), &g);
}

// Target legality and filters through the view: public objects only.
TEST(PlayerView, TargetsAndFiltersOnlyWhatItSees) {
  const CardDb& db = BundledPool();
  Game g(db, GameOptions{});
  ObjId bolt = g.AddObject(db.Find("Lightning Bolt"), 0, Zone::kHand);
  ObjId bears = g.AddObject(db.Find("Grizzly Bears"), 1, Zone::kBattlefield);
  ObjId hidden = g.AddObject(db.Find("Grizzly Bears"), 1, Zone::kHand);
  g.StartAt(Phase::kMain, 0, 1);
  PlayerView a(g, 0);
  const Action cast{ActionKind::kCast, bolt};
  EXPECT_TRUE(a.CouldTarget(cast, 0, bears));
  EXPECT_FALSE(a.CouldTarget(cast, 0, hidden));
  EXPECT_TRUE(a.CouldTargetPlayer(cast, 0, 1));
  const FilterId terror = db[db.Find("Terror")].spell.targets[0].filter;
  EXPECT_TRUE(a.Matches(terror, bears, bolt, 0));  // a green creature: Terror may hit it
  EXPECT_FALSE(a.Matches(terror, hidden, bolt, 0));
  EXPECT_EQ(a.CastingItem(), nullptr);
  EXPECT_EQ(a.Pool(0), 0);
}

}  // namespace
}  // namespace strata
