// A policy's view hides the opponent's hand and every library's order.
#include "policies/view.h"

#include <map>
#include <vector>

#include "engine/deck.h"
#include "gtest/gtest.h"
#include "policies/policy.h"
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

// The view's walks over the battlefield and the stack read the state's bit
// sets: they must visit what a walk over every object finds, in the same
// order, at every decision of played games (casts, fights, deaths, bounces).
TEST(PlayerView, ZoneWalksFindWhatAWalkOverEveryObjectFinds) {
  const CardDb& db = BundledPool();
  std::vector<Deck> decks;
  for (const std::string& name : BundledDeckNames(false)) decks.push_back(BundledDeck(name));
  int decisions = 0, with_stack = 0;
  for (int game = 0; game < 24; ++game) {
    GameOptions go;
    go.seed = 900 + game;
    go.edition = static_cast<Edition>(game % 3);
    Game g(db, go);
    g.Deal(decks[game % decks.size()], decks[(game * 5 + 2) % decks.size()], 0);
    auto a = *MakePolicy(game % 2 ? "heuristic" : "random", game);
    auto b = *MakePolicy("random", game + 70);
    for (int step = 0; step < 3000; ++step) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      const GameState& s = g.state();
      PlayerView v(g, d.player);
      std::vector<ObjId> walked[2], viewed[2];
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] == Zone::kBattlefield) walked[0].push_back(o);
        if (s.obj.zone[o] == Zone::kStack) walked[1].push_back(o);
      }
      for (ObjId o : v.Battlefield()) viewed[0].push_back(o);
      for (ObjId o : v.Stack()) viewed[1].push_back(o);
      ASSERT_EQ(viewed[0], walked[0]) << "game " << game << ", decision " << decisions;
      ASSERT_EQ(viewed[1], walked[1]) << "game " << game << ", decision " << decisions;
      ++decisions;
      with_stack += !walked[1].empty();
      g.Apply((d.player == 0 ? a : b)->ChooseFor(g, d));
    }
  }
  EXPECT_GT(decisions, 24 * 50);
  EXPECT_GT(with_stack, 100);  // the stack walk was tested on spells
}

// What a policy counts as a player's mana reads: the permanents, their
// characteristics, tapped and sick flags, and the pool.
std::vector<int64_t> ManaFacts(const Game& g, Player p) {
  const GameState& s = g.state();
  std::vector<int64_t> facts(s.players[p].pool.begin(), s.players[p].pool.end());
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] != Zone::kBattlefield) continue;
    const Characteristics& ch = g.Chars(o);
    for (int64_t f : {int64_t{o}, int64_t{ch.card}, int64_t{ch.controller}, int64_t{ch.land_mana},
                      int64_t{ch.abilities}, int64_t{ch.types}, int64_t{ch.blank},
                      static_cast<int64_t>(ch.keywords), int64_t{s.obj.tapped[o]},
                      int64_t{s.obj.sick[o]}, int64_t{s.obj.face_down[o]}})
      facts.push_back(f);
  }
  return facts;
}

// Plays `games` games of the bundled decks, heuristic against random, from
// seed `seed` on, and calls at(game, decision, game index, step) at every
// decision before it is answered; stops at a fatal failure.
template <typename F>
void AtEveryDecision(int games, uint64_t seed, F&& at) {
  const CardDb& db = BundledPool();
  std::vector<Deck> decks;
  for (const std::string& name : BundledDeckNames(false)) decks.push_back(BundledDeck(name));
  for (int game = 0; game < games; ++game) {
    GameOptions go;
    go.seed = seed + game;
    Game g(db, go);
    g.Deal(decks[game % decks.size()], decks[(game * 3 + 1) % decks.size()], 0);
    auto a = *MakePolicy("heuristic", game);
    auto b = *MakePolicy("random", game + 40);
    for (int step = 0; step < 3000; ++step) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      at(g, d, game, step);
      if (::testing::Test::HasFatalFailure()) return;
      g.Apply((d.player == 0 ? a : b)->ChooseFor(g, d));
    }
  }
}

// A policy keeps what it works out from a player's mana under the stamp:
// at every decision of played games, a stamp seen before (in any game: no
// stamp is given out twice) names the same mana facts, a copy keeps its
// original's stamp, and two games that part never share one.
TEST(PlayerView, ManaStampNamesTheManaItCounted) {
  int repeats = 0, stamps = 0;
  std::map<uint64_t, std::vector<int64_t>> seen;
  AtEveryDecision(12, 300, [&](const Game& g, const Decision& d, int game, int step) {
    for (Player p = 0; p < 2; ++p) {
      const uint64_t stamp = PlayerView(g, d.player).ManaStamp(p);
      auto [at, added] = seen.try_emplace(stamp, ManaFacts(g, p));
      if (added) {
        ++stamps;
      } else {
        ++repeats;
        ASSERT_EQ(at->second, ManaFacts(g, p)) << "game " << game << ", step " << step;
      }
    }
  });
  EXPECT_GT(stamps, 12 * 20);
  EXPECT_GT(repeats, 12 * 20);

  const CardDb& db = BundledPool();
  Game g(db, GameOptions{});
  g.Deal(BundledDeck("red_burn"), BundledDeck("green_stompy"), 0);
  g.AddObject(db.Find("Mountain"), 0, Zone::kBattlefield);
  const uint64_t before = g.ManaStamp(0);
  EXPECT_EQ(g.ManaStamp(0), before);
  EXPECT_NE(g.ManaStamp(1), before);
  Game copy = g;
  EXPECT_EQ(copy.ManaStamp(0), before);
  copy.MutableState().players[0].pool[0] = 1;
  g.MutableState().players[0].pool[0] = 1;
  EXPECT_NE(copy.ManaStamp(0), before);
  EXPECT_NE(g.ManaStamp(0), before);
  EXPECT_NE(g.ManaStamp(0), copy.ManaStamp(0));
}

// TargetsOf answers as CouldTarget does, for every cast and activation
// offered at every decision of played games, every object, two slots and
// every mode (the policies weigh their candidates with it).
TEST(PlayerView, TargetsOfAnswersAsCouldTarget) {
  int64_t asked = 0, could = 0;
  AtEveryDecision(12, 500, [&](const Game& g, const Decision& d, int game, int step) {
    PlayerView v(g, d.player);
    for (const Action& act : d.actions) {
      if (act.kind != ActionKind::kCast && act.kind != ActionKind::kActivate) continue;
      for (int slot = 0; slot < 2; ++slot)
        for (int mode = -1; mode < 3; ++mode) {
          PlayerView::TargetsOf targets(v, act, slot, mode);
          for (ObjId o = 0; o < g.state().obj.count; ++o) {
            const bool want = v.CouldTarget(act, slot, o, mode);
            ASSERT_EQ(targets.Could(o), want)
                << "game " << game << ", step " << step << ", object " << o << ", slot " << slot;
            ++asked;
            could += want;
          }
        }
    }
  });
  EXPECT_GT(asked, 100000);
  EXPECT_GT(could, 1000);
}

}  // namespace
}  // namespace strata
