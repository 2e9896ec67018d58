// Property test of the layer cache (RULES.md L-9): on random boards from the
// whole card pool, in every edition, and after every random mutation, the
// cached characteristics (Game::Chars) equal a fresh ComputeLayers into a
// separate LayerCache, field by field; every mutation moves the state
// version (a tap only where the layers read it); and a query without a
// mutation does not recompute.
#include <cstdio>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/card_loader.h"
#include "engine/game.h"
#include "engine/layers.h"
#include "gtest/gtest.h"
#include "policies/policy.h"
#include "tests/bundled.h"
#include "tests/support/random_board.h"

namespace strata {

// gtest names the edition parameter in test lists and failures.
void PrintTo(Edition e, std::ostream* os) {
  *os << EditionName(e);
}

namespace {

// The fields that differ, as "power: 3 vs 2".
std::string Diff(const Characteristics& a, const Characteristics& b) {
  std::vector<std::string> d;
  auto field = [&](const char* name, auto x, auto y) {
    if (x != y) d.push_back(absl::StrCat(name, ": ", x, " vs ", y));
  };
  field("card", a.card, b.card);
  field("mode", a.mode, b.mode);
  field("blank", a.blank, b.blank);
  field("mana_value", a.mana_value, b.mana_value);
  field("colors", a.colors, b.colors);
  field("types", a.types, b.types);
  field("supertypes", a.supertypes, b.supertypes);
  field("all_creature_types", a.all_creature_types, b.all_creature_types);
  if (a.subtypes != b.subtypes) d.push_back("subtypes");
  field("keywords", a.keywords, b.keywords);
  field("abilities", a.abilities, b.abilities);
  field("land_mana", a.land_mana, b.land_mana);
  field("power", a.power, b.power);
  field("toughness", a.toughness, b.toughness);
  field("controller", a.controller, b.controller);
  field("text_count", a.text_count, b.text_count);
  if (a.text != b.text) d.push_back("text");
  return absl::StrJoin(d, ", ");
}

struct Tally {
  long boards = 0, mutations = 0, checks = 0, objects = 0, no_recompute = 0, rows = 0;
  long by_kind[static_cast<int>(MutationKind::kCount)] = {};
};

// Queries every object through the cache (twice: the second must not
// change anything) and compares with a fresh computation.
::testing::AssertionResult MatchesFresh(const Game& g, LayerCache& fresh, Tally& t) {
  const GameState& s = g.state();
  const uint64_t version = s.version;
  ComputeLayers(g.db(), s, fresh);
  if (fresh.version != version)
    return ::testing::AssertionFailure()
           << "fresh cache stamped " << fresh.version << ", state " << version;
  for (int pass = 0; pass < 2; ++pass) {
    for (ObjId o = 0; o < s.obj.count; ++o) {
      // A token that left the battlefield ceased to exist (G-12): in no
      // zone, no computation reaches it and nothing reads it.
      if (s.obj.zone[o] == Zone::kNone) continue;
      const Characteristics& cached = g.Chars(o);
      if (!(cached == fresh.chars[o]))
        return ::testing::AssertionFailure()
               << "object " << o << " (" << g.db()[s.obj.card[o]].name << ", "
               << ZoneName(s.obj.zone[o]) << ") pass " << pass << ": cached vs fresh differ in "
               << Diff(cached, fresh.chars[o]);
    }
    for (Player p = 0; p < 2; ++p)
      if (!(g.Rules(p) == fresh.rules[p]))
        return ::testing::AssertionFailure() << "player rules of " << int(p) << " differ";
    if (s.version != version)
      return ::testing::AssertionFailure() << "a query moved the state version";
  }
  ++t.checks;
  t.objects += s.obj.count;
  return ::testing::AssertionSuccess();
}

// A query without a mutation does not recompute: change an input behind the
// game's back (without Touch, so the version stays) such that a fresh
// computation would differ, and the cached answer must stay the old one.
// Returns false if no such change was found on this board.
bool QueryDoesNotRecompute(Game& g, const LayerCache& fresh, BoardRng& rng) {
  GameState& raw = const_cast<GameState&>(g.state());  // test only: bypasses Touch()
  const uint64_t version = raw.version;
  static thread_local LayerCache sneaky;
  const int n = raw.obj.count;
  int start = rng.Below(n);
  for (int k = 0; k < n; ++k) {
    ObjId o = static_cast<ObjId>((start + k) % n);
    raw.obj.controller[o] = Opponent(raw.obj.controller[o]);
    ComputeLayers(g.db(), raw, sneaky);
    bool differs = false;
    for (ObjId i = 0; i < n && !differs; ++i) differs = !(sneaky.chars[i] == fresh.chars[i]);
    bool stale_answer = true;
    if (differs)
      for (ObjId i = 0; i < n; ++i) stale_answer &= g.Chars(i) == fresh.chars[i];
    raw.obj.controller[o] = Opponent(raw.obj.controller[o]);
    EXPECT_EQ(raw.version, version);
    if (differs) {
      EXPECT_TRUE(stale_answer) << "a query without a mutation recomputed the layers";
      return true;
    }
  }
  return false;
}

class LayersProperty : public ::testing::TestWithParam<Edition> {};

// 3 editions x 3,400 boards: >= 10,000 boards in all.
constexpr int kBoardsPerEdition = 3400;

TEST_P(LayersProperty, CacheEqualsFreshComputation) {
  const CardDb& db = BundledPool();
  const Edition edition = GetParam();
  LayerCache fresh;
  Tally t;
  int failures = 0;
  for (int b = 0; b < kBoardsPerEdition && failures < 5; ++b) {
    const uint64_t seed =
        (uint64_t{static_cast<uint8_t>(edition)} << 32) | static_cast<uint64_t>(b);
    BoardRng rng(seed * 0x9E3779B97F4A7C15ull + 17);
    RandomBoardOptions opt;
    const int total = rng.Between(1, 40);
    opt.others = total == 1 ? 0 : rng.Between(0, total / 3);
    opt.permanents = total - opt.others;
    opt.effects = rng.Between(0, 15);
    opt.edition = edition;
    opt.checked_layers = b % 16 == 0;  // the engine's own L-9 check, now and then
    Game g = MakeRandomBoard(db, seed, opt);
    ASSERT_EQ(g.state().edition, edition);
    ASSERT_EQ(g.state().obj.count, total);
    ++t.boards;
    std::vector<std::string> history;
    auto where = [&] {
      return absl::StrCat("board seed ", seed, " (", std::string(EditionName(edition)), ", ", total,
                          " objects, ", opt.effects, " rows) after: ",
                          history.empty() ? std::string("build") : absl::StrJoin(history, "; "));
    };
    auto ok = MatchesFresh(g, fresh, t);
    if (!ok) {
      ADD_FAILURE() << where() << ": " << ok.message();
      ++failures;
      continue;
    }
    // (Not on checked boards: there the engine's own check would see the
    // change behind its back, which CheckedModeSeesAStaleCache tests.)
    if (!opt.checked_layers && QueryDoesNotRecompute(g, fresh, rng)) ++t.no_recompute;
    const int mutations = rng.Between(2, 5);
    for (int m = 0; m < mutations; ++m) {
      const uint64_t before = g.state().version;
      Mutation mu = ApplyRandomMutation(g, rng);
      history.push_back(mu.what);
      ++t.mutations;
      ++t.by_kind[static_cast<int>(mu.kind)];
      // A tap the layers did not read keeps the version (LayerCache::
      // tapped_read); MatchesFresh below shows the cache is still right.
      if (g.state().version <= before && mu.kind != MutationKind::kTap) {
        ADD_FAILURE() << where() << ": the mutation did not move the state version";
        ++failures;
        break;
      }
      ok = MatchesFresh(g, fresh, t);
      if (!ok) {
        ADD_FAILURE() << where() << ": " << ok.message();
        ++failures;
        break;
      }
    }
    t.rows += static_cast<long>(g.state().effects.size());
    if (g.options().checked_layers) {
      EXPECT_GT(g.layer_checks(), 0u);
      EXPECT_EQ(g.layer_mismatch(), "") << where();
    }
  }
  std::vector<std::string> kinds;
  for (int k = 0; k < static_cast<int>(MutationKind::kCount); ++k)
    kinds.push_back(absl::StrCat(std::string(MutationKindName(static_cast<MutationKind>(k))), "=",
                                 t.by_kind[k]));
  std::printf(
      "[%s] boards=%ld mutations=%ld checks=%ld objects_checked=%ld rows=%ld "
      "no_recompute_checks=%ld (%s)\n",
      std::string(EditionName(edition)).c_str(), t.boards, t.mutations, t.checks, t.objects, t.rows,
      t.no_recompute, absl::StrJoin(kinds, " ").c_str());
  RecordProperty("boards", static_cast<int>(t.boards));
  RecordProperty("mutations", static_cast<int>(t.mutations));
  RecordProperty("checks", static_cast<int>(t.checks));
  RecordProperty("objects_checked", static_cast<int>(t.objects));
  RecordProperty("no_recompute_checks", static_cast<int>(t.no_recompute));
  EXPECT_EQ(t.boards, kBoardsPerEdition);
  // Most boards have some object whose controller shows in a fresh computation.
  EXPECT_GT(t.no_recompute, t.boards * 3 / 4);
}

INSTANTIATE_TEST_SUITE_P(AllEditions, LayersProperty,
                         ::testing::Values(Edition::kClassic, Edition::kM10, Edition::kModern),
                         [](const ::testing::TestParamInfo<Edition>& info) {
                           return std::string(EditionName(info.param));
                         });

// The engine's checked mode (GameOptions::checked_layers) reports a cache
// that no longer matches its state: change an input without Touch().
TEST(RandomBoard, CheckedModeSeesAStaleCache) {
  const CardDb& db = BundledPool();
  RandomBoardOptions opt;
  opt.permanents = 10;
  opt.others = 0;
  opt.effects = 0;
  opt.other_controller = 0;
  opt.checked_layers = true;
  Game g = MakeRandomBoard(db, 5, opt);
  g.Chars(0);
  ASSERT_EQ(g.layer_mismatch(), "");
  GameState& raw = const_cast<GameState&>(g.state());  // bypasses Touch()
  for (ObjId o = 0; o < raw.obj.count; ++o) raw.obj.controller[o] = Opponent(raw.obj.controller[o]);
  g.Chars(0);
  EXPECT_NE(g.layer_mismatch(), "");
}

// The builder is deterministic and honours its options.
TEST(RandomBoard, DeterministicAndSized) {
  const CardDb& db = BundledPool();
  RandomBoardOptions opt;
  opt.permanents = 30;
  opt.others = 10;
  opt.effects = 12;
  Game a = MakeRandomBoard(db, 42, opt), b = MakeRandomBoard(db, 42, opt);
  ASSERT_EQ(a.state().obj.count, 40);
  EXPECT_EQ(b.state().obj.count, 40);
  EXPECT_EQ(a.state().effects.size(), 12u);
  EXPECT_EQ(a.state().edition, b.state().edition);
  int battlefield = 0;
  for (ObjId o = 0; o < a.state().obj.count; ++o) {
    EXPECT_EQ(a.state().obj.card[o], b.state().obj.card[o]);
    EXPECT_EQ(a.state().obj.zone[o], b.state().obj.zone[o]);
    EXPECT_EQ(a.state().obj.timestamp[o], b.state().obj.timestamp[o]);
    EXPECT_TRUE(a.Chars(o) == b.Chars(o));
    battlefield += a.state().obj.zone[o] == Zone::kBattlefield;
  }
  EXPECT_EQ(battlefield, 30);
  // The biggest benchmark board stays within kMaxObjects.
  opt.permanents = 200;
  opt.others = -1;
  opt.effects = 100;
  Game big = MakeRandomBoard(db, 7, opt);
  EXPECT_EQ(big.state().obj.count, 250);
  EXPECT_LE(big.state().obj.count, kMaxObjects);
}

// Plays 24 real games of the bundled decks (every edition; A's policy
// `pa`, B's `pb`) and, at every decision, checks that every object out of a
// library and both players' rules are what a full computation says; then
// calls `at(g, step)` and applies the policy's choice. Returns the games.
template <class At>
std::vector<Game> PlayComparingLayers(const CardDb& db, uint64_t seed, int deck_offset,
                                      const std::string& pa, const std::string& pb, At at) {
  LayerCache fresh;
  std::vector<Game> games;
  const std::vector<std::string> decks = BundledDeckNames(true);
  for (int game = 0; game < 24; ++game) {
    GameOptions go;
    go.seed = seed + game;
    go.edition = static_cast<Edition>(game % 3);
    Game g(db, go);
    g.Deal(BundledDeck(decks[game % decks.size()]),
           BundledDeck(decks[(game + deck_offset) % decks.size()]), 0);
    auto a = *MakePolicy(pa, game), b = *MakePolicy(pb, game + 50);
    for (int step = 0; step < 400; ++step) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      const GameState& s = g.state();
      ComputeLayers(db, s, fresh);
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] == Zone::kLibrary) continue;
        EXPECT_EQ(g.Chars(o), fresh.chars[o]) << "game " << game << ", object " << o;
      }
      for (Player p = 0; p < 2; ++p) EXPECT_EQ(g.Rules(p), fresh.rules[p]);
      if (::testing::Test::HasFailure()) return games;
      at(g, step);
      g.Apply((d.player == 0 ? a : b)->ChooseFor(g, d));
    }
    games.push_back(g);
  }
  return games;
}

// Layers leave libraries out when no card of the game reaches one
// (LayersReachLibrary): at every decision of real games, every object out of
// a library is what a full computation says, and so is a card in a library
// once asked about (which completes the cache).
TEST(LayersLibrary, LeavingLibrariesOutIsExact) {
  const CardDb& db = BundledPool();
  EXPECT_TRUE(LayersReachLibrary(db, db.Find("Conspiracy")));       // affects libraries
  EXPECT_FALSE(LayersReachLibrary(db, db.Find("Keldon Warlord")));  // a CDA on the battlefield
  LayerCache fresh;
  int lazy = 0, library_queries = 0;
  PlayComparingLayers(db, 1000, 3, "random", "random", [&](const Game& g, int step) {
    lazy += !g.LibrariesComputed();
    const auto& library = g.state().players[step % 2].library;
    if (step % 7 == 0 && !library.empty()) {
      const ObjId top = library.front();
      ComputeLayers(db, g.state(), fresh);
      EXPECT_EQ(g.Chars(top), fresh.chars[top]) << "library card " << top;
      EXPECT_TRUE(g.LibrariesComputed());
      ++library_queries;
    }
  });
  // The bundled decks never reach a library; each recompute leaves them out.
  // The decisions that see them left out: 857 when moves that no filter
  // sees stopped recomputing, 405 since moves under anthems keep the cache
  // too (steps 73 and 74): a computation made for a library query, which
  // includes them, now stays good longer.
  EXPECT_GT(lazy, 300);
  EXPECT_GT(library_queries, 100);
}

// A move between zones that no layer effect of the game reaches, of an object
// that is no layer source, keeps the layer cache (Game::KeepLayersAfterMove):
// at every decision of real games, every object out of a library is what a
// full computation says, and hundreds of draws, casts and spells put into
// a graveyard cost no recompute.
TEST(LayersMoves, MovesNoEffectReachesKeepTheCacheExactly) {
  const CardDb& db = BundledPool();
  auto bit = [](Zone z) { return static_cast<uint8_t>(1u << static_cast<int>(z)); };
  EXPECT_EQ(LayerZones(db, db.Find("Keldon Warlord")), bit(Zone::kBattlefield));
  EXPECT_EQ(LayerZones(db, db.Find("Tarmogoyf")), bit(Zone::kGraveyard));  // a CDA counting
  EXPECT_EQ(LayerZones(db, db.Find("Conspiracy")), bit(Zone::kBattlefield) | bit(Zone::kStack) |
                                                       bit(Zone::kHand) | bit(Zone::kLibrary) |
                                                       bit(Zone::kGraveyard) | bit(Zone::kExile));
  EXPECT_EQ(LayerZones(db, db.Find("Lightning Bolt")), 0);
  uint64_t kept = 0;
  for (const Game& g :
       PlayComparingLayers(db, 2000, 5, "random", "heuristic", [](const Game&, int) {}))
    kept += g.layers_kept();
  EXPECT_GT(kept, 300u);  // 593 when written
}

// Random games of red_burn against green_stompy from `seed`, the layer
// cache compared with a fresh computation at every decision: the land plays
// made while `counts` held, and those of them that kept the cache twice
// (the move, then the controller).
struct LandPlays {
  int plays = 0, kept_twice = 0;
};
LandPlays LandPlaysKeepingTheCache(int games, uint64_t seed,
                                   const std::function<bool(const GameState&)>& counts) {
  const CardDb& db = BundledPool();
  const Deck burn = BundledDeck("red_burn"), stompy = BundledDeck("green_stompy");
  LayerCache fresh;
  LandPlays out;
  for (int game = 0; game < games; ++game) {
    GameOptions go;
    go.seed = seed + game;
    Game g(db, go);
    g.Deal(burn, stompy, 0);
    auto a = *MakePolicy("random", game), b = *MakePolicy("random", game + 50);
    for (int step = 0; step < 2000; ++step) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      const GameState& s = g.state();
      ComputeLayers(db, s, fresh);
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] == Zone::kLibrary) continue;
        EXPECT_EQ(g.Chars(o), fresh.chars[o]) << "game " << game << ", object " << o;
      }
      if (::testing::Test::HasFailure()) return out;
      const int chosen = (d.player == 0 ? a : b)->ChooseFor(g, d);
      const bool land = d.actions[chosen].kind == ActionKind::kPlayLand && counts(s);
      const uint64_t kept = g.layers_kept();
      g.Apply(chosen);
      out.plays += land;
      out.kept_twice += land && g.layers_kept() >= kept + 2;
    }
  }
  return out;
}

// When no filter of the last computation could match an object, where it
// was or where it is, its entry is the only one a change to it can change,
// so permanents entering and leaving keep the cache too (LayerReach). In
// games of two decks with few effects, most land plays keep it twice, and
// at every decision the cache is what a full computation says.
TEST(LayersMoves, BattlefieldMovesNoFilterSeesKeepTheCacheExactly) {
  const LandPlays lands = LandPlaysKeepingTheCache(20, 4000, [](const GameState&) { return true; });
  EXPECT_GT(lands.plays, 200);
  EXPECT_GT(lands.kept_twice, lands.plays / 4);  // 162 of 366 with no effect about; none before
}

// A static ability about keeps the cache for moves its filters can't see
// (LayerReach): while a Keldon Warlord out of the library counts its
// controller's non-Wall creatures, a land entering changes no count, so the
// land play keeps the cache twice as it does with no effect about. Before,
// any static ability met made every permanent's move a full recompute.
TEST(LayersMoves, MovesNoEvaluatedFilterCouldMatchKeepTheCacheExactly) {
  const CardId warlord = BundledPool().Find("Keldon Warlord");
  const LandPlays lands = LandPlaysKeepingTheCache(30, 7000, [&](const GameState& s) {
    for (ObjId o = 0; o < s.obj.count; ++o)
      if (s.obj.card[o] == warlord && s.obj.zone[o] != Zone::kLibrary &&
          s.obj.zone[o] != Zone::kNone)
        return true;
    return false;
  });
  EXPECT_GT(lands.plays, 100);
  EXPECT_GT(lands.kept_twice, lands.plays * 9 / 10);  // 372 of 372 when written; none before
}

// Phyrexian Ingester's P/T reads the creature it exiled through its link,
// not through a filter, so moving that creature is never a change to the
// creature alone: the cache must not be kept (KeepLayersForOwnChange looks
// for links in any game with a linking card).
TEST(LayersMoves, MovingALinkedObjectRecomputes) {
  const CardDb& db = BundledPool();
  Game g(db, GameOptions{});
  const ObjId ingester = g.AddObject(db.Find("Phyrexian Ingester"), 0, Zone::kBattlefield);
  const ObjId bears = g.AddObject(db.Find("Grizzly Bears"), 1, Zone::kExile);
  g.MutableState().obj.linked[ingester] = g.state().Ref(bears);
  EXPECT_EQ(g.Chars(ingester).power, 5);  // 3 + the exiled Bears' 2
  const uint64_t kept = g.layers_kept();
  g.MoveTo(bears, Zone::kGraveyard, 1);
  EXPECT_EQ(g.layers_kept(), kept);
  EXPECT_EQ(g.Chars(ingester).power, 3);
}

// LayerReach: a filter's types are "one of", its controller is absolute per
// player, and a filter of no type sees every object in its zones.
TEST(LayerReach, SeesWhatAnEvaluatedFilterCouldMatch) {
  const auto bit = [](Zone z) { return static_cast<uint8_t>(1u << static_cast<int>(z)); };
  const TypeMask creature = 1u << kCreature, land = 1u << kLand, artifact = 1u << kArtifact;
  LayerReach r;
  EXPECT_FALSE(r.Sees(Zone::kBattlefield, 3, creature));
  r.Add(bit(Zone::kBattlefield), creature, 1);  // "creatures you control", you = player 0
  EXPECT_TRUE(r.Sees(Zone::kBattlefield, 1, creature | artifact));
  EXPECT_FALSE(r.Sees(Zone::kBattlefield, 1, land));
  EXPECT_FALSE(r.Sees(Zone::kBattlefield, 2, creature));  // the other player's
  EXPECT_TRUE(r.Sees(Zone::kBattlefield, 3, creature));
  EXPECT_FALSE(r.Sees(Zone::kGraveyard, 1, creature));
  r.Add(bit(Zone::kGraveyard), 0, 3);  // "cards in graveyards"
  EXPECT_TRUE(r.Sees(Zone::kGraveyard, 2, 0));
  EXPECT_FALSE(r.Sees(Zone::kHand, 2, land));
}

}  // namespace
}  // namespace strata
