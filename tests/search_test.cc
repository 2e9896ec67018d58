// Library search (docs/rules.md G-3) through the decision API: what a
// search offers (one action per distinct matching card; "done" only for a
// search of a stated kind), who sees the library while searching, and the
// shuffle that ends it. Scenarios (tests/scenarios/g3_*) show the moves.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "gtest/gtest.h"
#include "policies/view.h"
#include "tests/bundled.h"

namespace strata {
namespace {

// A's main phase, `spell` in A's hand, `library` (top first) in A's library
// and two Islands in B's, free mana; A casts the spell and both pass until
// the search decision, which is returned pending.
const Decision* CastUntilSearch(Game& g, const std::string& spell) {
  const CardDb& db = g.db();
  const ObjId card = g.AddObject(db.Find(spell), 0, Zone::kHand);
  bool cast = false;
  for (int guard = 0; guard < 200; ++guard) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) return nullptr;
    if (d.kind == DecisionKind::kSearch) return &d;
    int pick = 0;
    for (size_t i = 0; i < d.actions.size(); ++i) {
      const Action& a = d.actions[i];
      if (!cast && a.kind == ActionKind::kCast && a.object == card) pick = static_cast<int>(i);
      if (cast && (a.kind == ActionKind::kPass || a.kind == ActionKind::kDone))
        pick = static_cast<int>(i);
    }
    cast |= d.actions[pick].kind == ActionKind::kCast && d.actions[pick].object == card;
    g.Apply(pick);
  }
  return nullptr;
}

Game NewGame(const std::vector<std::string>& library) {
  GameOptions opt;
  opt.free_mana = true;
  opt.check_invariants = true;
  Game g(BundledPool(), opt);
  for (const std::string& name : library) g.AddObject(g.db().Find(name), 0, Zone::kLibrary);
  for (int i = 0; i < 2; ++i) g.AddObject(g.db().Find("Island"), 1, Zone::kLibrary);
  g.StartAt(Phase::kMain, 0, 2);
  return g;
}

ObjId InLibrary(const Game& g, Player p, const std::string& name) {
  for (ObjId o : g.state().players[p].library)
    if (g.state().obj.card[o] == g.db().Find(name)) return o;
  return kNoObj;
}

std::multiset<std::string> Offered(const Game& g, const Decision& d, bool* done) {
  std::multiset<std::string> names;
  *done = false;
  for (const Action& a : d.actions) {
    if (a.kind == ActionKind::kDone) *done = true;
    if (a.kind == ActionKind::kObject) names.insert(g.db()[g.state().obj.card[a.object]].name);
  }
  return names;
}

TEST(Search, ABasicLandSearchOffersEachBasicLandOnceAndMayFindNothing) {
  Game g = NewGame({"Forest", "Grizzly Bears", "Forest", "Volcanic Island", "Mountain"});
  const Decision* d = CastUntilSearch(g, "Untamed Wilds");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->player, 0);
  bool done = false;
  EXPECT_EQ(Offered(g, *d, &done), (std::multiset<std::string>{"Forest", "Mountain"}));
  EXPECT_TRUE(done) << "a search for a basic land may find none";
}

TEST(Search, ASearchForACardOffersEveryDistinctCardAndMustFindOne) {
  Game g = NewGame({"Forest", "Grizzly Bears", "Forest", "Lightning Bolt"});
  const Decision* d = CastUntilSearch(g, "Demonic Tutor");
  ASSERT_NE(d, nullptr);
  bool done = true;
  EXPECT_EQ(Offered(g, *d, &done),
            (std::multiset<std::string>{"Forest", "Grizzly Bears", "Lightning Bolt"}));
  EXPECT_FALSE(done) << "\"search for a card\" names no kind: one is found";
}

TEST(Search, OnlyTheSearcherSeesTheLibraryAndOnlyWhileSearching) {
  Game g = NewGame({"Forest", "Lightning Bolt"});
  const ObjId bolt = InLibrary(g, 0, "Lightning Bolt");
  EXPECT_EQ(PlayerView(g, 0).CardOf(bolt), kNoCard);
  const Decision* d = CastUntilSearch(g, "Demonic Tutor");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(PlayerView(g, 0).CardOf(bolt), g.db().Find("Lightning Bolt"));
  EXPECT_EQ(PlayerView(g, 1).CardOf(bolt), kNoCard);
  const ObjId b_card = g.state().players[1].library[0];
  EXPECT_EQ(PlayerView(g, 0).CardOf(b_card), kNoCard) << "only one's own library";
}

TEST(Search, TheFoundCardMovesAndTheLibraryIsShuffled) {
  std::vector<std::string> lib = {"Lightning Bolt"};
  for (int i = 0; i < 20; ++i) lib.push_back(i % 2 ? "Forest" : "Grizzly Bears");
  Game g = NewGame(lib);
  const std::vector<ObjId> before = g.state().players[0].library;
  const ObjId bolt = InLibrary(g, 0, "Lightning Bolt");
  const Decision* d = CastUntilSearch(g, "Demonic Tutor");
  ASSERT_NE(d, nullptr);
  int pick = -1;
  for (size_t i = 0; i < d->actions.size(); ++i)
    if (d->actions[i].object == bolt) pick = static_cast<int>(i);
  ASSERT_GE(pick, 0);
  ASSERT_TRUE(g.Apply(pick));
  g.Advance();
  EXPECT_EQ(g.state().obj.zone[bolt], Zone::kHand);
  std::vector<ObjId> rest;
  for (ObjId o : before)
    if (o != bolt) rest.push_back(o);
  const std::vector<ObjId>& after = g.state().players[0].library;
  ASSERT_EQ(after.size(), rest.size());
  EXPECT_TRUE(std::is_permutation(after.begin(), after.end(), rest.begin()));
  EXPECT_NE(after, rest) << "20 cards shuffled: the same order once in 20! games";
  EXPECT_EQ(g.invariant_failure(), "");
}

}  // namespace
}  // namespace strata
