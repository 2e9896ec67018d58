// Each rules invariant (engine/invariants.h) fires on a state or decision
// corrupted in exactly the way it guards against, and stays quiet on a
// healthy game: a check that can't fail proves nothing.
#include "engine/invariants.h"

#include <memory>
#include <string>

#include "absl/strings/str_join.h"
#include "engine/card_loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "policies/policy.h"
#include "sim/scenario.h"
#include "tests/bundled.h"
#include "tests/game_internals.h"

namespace strata {

namespace {

using Internals = GameInternalsForTests;

CardId Card(const std::string& name) {
  CardId c = BundledPool().Find(name);
  EXPECT_NE(c, kNoCard) << name;
  return c;
}

// A small game in A's main phase: A has Grizzly Bears in play and in hand.
struct Board {
  std::unique_ptr<Game> g;
  ObjId bears = kNoObj, hand_bears = kNoObj;
  explicit Board(bool check = true) {
    GameOptions opt;
    opt.free_mana = true;
    opt.check_invariants = check;
    g = std::make_unique<Game>(BundledPool(), opt);
    bears = g->AddObject(Card("Grizzly Bears"), 0, Zone::kBattlefield);
    hand_bears = g->AddObject(Card("Grizzly Bears"), 0, Zone::kHand);
    for (int i = 0; i < 5; ++i) {
      g->AddObject(Card("Forest"), 0, Zone::kLibrary);
      g->AddObject(Card("Island"), 1, Zone::kLibrary);
    }
    g->StartAt(Phase::kMain, 0, 2);
  }
};

Decision Made(DecisionKind kind, Player p, std::vector<Action> actions) {
  Decision d;
  d.kind = kind;
  d.player = p;
  d.actions = std::move(actions);
  return d;
}

void ExpectFires(const InvariantChecker& c, Invariant i) {
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.failed(), i) << c.failure();
  EXPECT_EQ(c.failure().rfind(std::string(InvariantName(i)) + ": ", 0), 0u) << c.failure();
  EXPECT_GE(c.tally().violations[static_cast<int>(i)], 1u);
}

TEST(Invariants, AHealthyGameBreaksNone) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  for (int n = 0; n < 200; ++n) {
    const Decision& d = b.g->Advance();
    if (d.kind == DecisionKind::kNone) break;
    c.OnDecision(*b.g, d);
    const bool applied = b.g->Apply(0);
    c.AfterApply(*b.g, d, 0, applied);
  }
  c.End(*b.g, false);
  EXPECT_TRUE(c.ok()) << c.failure();
  EXPECT_GT(c.tally().checks[static_cast<int>(Invariant::kZones)], 0u);
}

// The state check skips itself when nothing it reads changed since a check
// that found nothing to do (OccurrenceState::check_inputs), and phases skip
// collecting phase abilities in games whose cards have none
// (TurnState::phase_cards). Checked games test both after every action:
// nothing the check should have removed survives it ("state_check"), and a
// game without phase cards never has a phase ability ("phase_todos"). Over
// every bundled deck, with damage, regeneration, Auras and phase costs.
TEST(Invariants, StateCheckAndPhaseShortcutsMissNothing) {
  const CardDb& db = BundledPool();
  std::vector<Deck> decks;
  for (const std::string& name : BundledDeckNames(true)) decks.push_back(BundledDeck(name));
  // And a deck whose every other card has phase abilities or grants them.
  Deck phases = BundledDeck("green_stompy");
  std::vector<CardId> phase_cards;
  for (CardId c = 0; c < static_cast<CardId>(db.cards.size()); ++c)
    if (!db[c].phase.empty() || !db[c].granted_phase.empty()) phase_cards.push_back(c);
  ASSERT_GT(phase_cards.size(), 3u);
  for (size_t i = 0; i < phases.main.size(); i += 2)
    phases.main[i] = phase_cards[i / 2 % phase_cards.size()];
  decks.push_back(phases);
  int would_skip = 0, decisions = 0, games_with_phase_cards = 0, games_without = 0;
  for (int game = 0; game < 40; ++game) {
    GameOptions go;
    go.seed = 900 + game;
    go.check_invariants = true;
    go.edition = static_cast<Edition>(game % 3);
    Game g(db, go);
    g.Deal(decks[game % decks.size()], decks[(game * 3 + 1) % decks.size()], 0);
    auto a = *MakePolicy(game % 2 ? "heuristic" : "random", game);
    auto b = *MakePolicy("random", game + 50);
    (Internals::PhaseCards(g) ? games_with_phase_cards : games_without)++;
    for (int step = 0; step < 3000; ++step) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      ++decisions;
      would_skip += Internals::StateCheckWouldSkip(g);
      g.Apply((d.player == 0 ? a : b)->ChooseFor(g, d));
    }
    ASSERT_EQ(g.invariant_failure(), "") << "game " << game;
  }
  EXPECT_GT(would_skip, decisions / 10) << decisions;  // the shortcut is taken, and often
  EXPECT_GT(games_with_phase_cards, 0);
  EXPECT_GT(games_without, 0);
}

// A tap is an input of the state check only in a game with an Aura whose
// enchant filter reads the tapped flag (TurnState::tapped_enchant_filters).
// In such a game, an Aura for untapped creatures goes to the graveyard once
// its creature has tapped to attack. (Without the flag every later check
// would skip itself: the Aura would stay, and the scenario's invariant
// checks would fail.)
TEST(Invariants, AnAuraForUntappedCreaturesFallsOffWhenItsCreatureTaps) {
  CardDb db;
  ASSERT_TRUE(LoadCards({BundledCardsDir()}, db).ok());
  ASSERT_TRUE(LoadCardsFromString(R"(
[[card]]
name = "Test Sentry Ward"
cost = "W"
types = ["Enchantment"]
subtypes = ["Aura"]
enchant = { types = ["Creature"], tapped = false }

[[card.static]]
affects = { enchanted = true }
parts = [{ layer = "pt_modify", power = 1, toughness = 1 }]
)",
                                  "ward.toml", db)
                  .ok());
  const std::string scenario = R"(
[players.A]
library = ["Forest"]

[players.B]
library = ["Swamp"]

[[object]]
id = "bears"
card = "Grizzly Bears"

[[object]]
id = "ward"
card = "Test Sentry Ward"
attached_to = "bears"

[[step]]
player = "A"
attack = ["bears"]

[[expect]]
object = "ward"
zone = "graveyard"
)";
  ScenarioResult r = RunScenarioText(db, scenario, "ward_falls_off.toml", ScenarioOptions{});
  EXPECT_TRUE(r.passed) << absl::StrJoin(r.failures, "\n") << "\n" << r.invariant;
}

TEST(Invariants, ZonesFiresOnACardListedNowhere) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::raw_state(*b.g).players[0].hand.clear();  // the Bears in hand vanish from the list
  c.OnDecision(*b.g, b.g->Advance());
  ExpectFires(c, Invariant::kZones);
}

TEST(Invariants, ObjectsKeptFiresOnANewObject) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  b.g->AddObject(Card("Forest"), 0, Zone::kLibrary);
  c.OnDecision(*b.g, b.g->Advance());
  ExpectFires(c, Invariant::kObjectsKept);
}

TEST(Invariants, BatchAtPhaseEndFiresOnALeftoverEffect) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::batch(*b.g).push_back(0);
  Internals::raw_state(*b.g).phase = Phase::kDiscard;  // the main phase "ended"
  c.End(*b.g, false);
  ExpectFires(c, Invariant::kBatchAtPhaseEnd);
}

// Checked as the next phase begins (AuditPoint::kPhaseBegun), before
// anything of it may add mana (Mana Drain's at a main phase's beginning,
// docs/rules.md T-1.7).
TEST(Invariants, PoolsAfterBurnFiresOnManaKeptAcrossPhases) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::raw_state(*b.g).players[1].pool[0] = 2;
  Internals::raw_state(*b.g).phase = Phase::kDiscard;
  c.At(*b.g, AuditPoint::kPhaseBegun, 0);
  ExpectFires(c, Invariant::kPoolsAfterBurn);
}

TEST(Invariants, FirstDecisionFiresWhenTheWrongPlayerOpensAWindow) {
  // B holds a Lightning Bolt and A nothing it can do: A passes by itself and
  // B's decision is the window's second. Told it is the first, the check fires.
  GameOptions opt;
  opt.free_mana = true;
  Game g(BundledPool(), opt);
  g.AddObject(Card("Lightning Bolt"), 1, Zone::kHand);
  g.StartAt(Phase::kMain, 0, 2);
  const Decision& d = g.Advance();
  ASSERT_EQ(d.player, 1);
  InvariantChecker quiet;
  quiet.Begin(g);
  quiet.OnDecision(g, d);
  EXPECT_TRUE(quiet.ok()) << quiet.failure();
  Internals::FirstPassesToZero(g);
  InvariantChecker c;
  c.Begin(g);
  c.OnDecision(g, d);
  ExpectFires(c, Invariant::kFirstDecision);
}

TEST(Invariants, OneBatchFiresOnTwoBatches) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::PushBatchFrame(*b.g);
  Internals::PushBatchFrame(*b.g);
  c.End(*b.g, false);
  ExpectFires(c, Invariant::kOneBatch);
}

TEST(Invariants, SorcerySpeedFiresOnACreatureOfferedInResponse) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  c.OnDecision(*b.g, Made(DecisionKind::kRespond, 0,
                          {{ActionKind::kPass}, {ActionKind::kCast, b.hand_bears}}));
  ExpectFires(c, Invariant::kSorcerySpeed);
}

TEST(Invariants, PhaseEffectOnceFiresOnTheSameEffectTwice) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Decision d = Made(DecisionKind::kNeutral, 0, {{ActionKind::kPhaseEffect, b.bears, 0, 0}});
  c.OnDecision(*b.g, d);
  c.AfterApply(*b.g, d, 0, true);
  EXPECT_TRUE(c.ok()) << c.failure();
  c.AfterApply(*b.g, d, 0, true);
  ExpectFires(c, Invariant::kPhaseEffectOnce);
}

TEST(Invariants, AttackersFiresOnACreatureThatCameThisTurn) {
  Board b;
  Internals::raw_state(*b.g).obj.sick[b.bears] = true;  // it entered this turn
  InvariantChecker c;
  c.Begin(*b.g);
  c.OnDecision(*b.g, Made(DecisionKind::kAttackers, 0,
                          {{ActionKind::kObject, b.bears}, {ActionKind::kDone}}));
  ExpectFires(c, Invariant::kAttackers);
}

TEST(Invariants, BlockersFiresOnATappedBlocker) {
  Board b;
  ObjId blocker = b.g->AddObject(Card("Grizzly Bears"), 1, Zone::kBattlefield);
  b.g->SetTapped(blocker, true);
  InvariantChecker c;
  c.Begin(*b.g);
  c.OnDecision(*b.g, Made(DecisionKind::kBlockers, 1,
                          {{ActionKind::kBlock, blocker, 0, b.bears}, {ActionKind::kDone}}));
  ExpectFires(c, Invariant::kBlockers);
}

TEST(Invariants, CounteredFiresOnAResolutionAfterACounter) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::AddOutcome(*b.g, 7, Outcome::kCountered);
  Internals::AddOutcome(*b.g, 7, Outcome::kResolved);
  c.End(*b.g, false);
  ExpectFires(c, Invariant::kCountered);
}

TEST(Invariants, StateCheckFindsWhatAStateCheckMustRemove) {
  Board b;
  EXPECT_EQ(b.g->StateCheckLeftovers(), "");
  b.g->AddCounters(b.bears, 1, 2);  // two -1/-1 counters: a 0/0
  EXPECT_NE(b.g->StateCheckLeftovers(), "");
  {
    // An Aura attached to nothing is a leftover too.
    Board aura_board;
    const ObjId aura = aura_board.g->AddObject(Card("Control Magic"), 0, Zone::kBattlefield);
    EXPECT_THAT(aura_board.g->StateCheckLeftovers(), testing::HasSubstr("not attached"));
    Internals::raw_state(*aura_board.g).obj.attached_to[aura] = aura_board.bears;
    EXPECT_EQ(aura_board.g->StateCheckLeftovers(), "");
  }
  // The engine's own check removes it, so its self-check stays quiet.
  InvariantChecker c;
  c.Begin(*b.g);
  c.OnDecision(*b.g, b.g->Advance());
  EXPECT_EQ(b.g->state().obj.zone[b.bears], Zone::kGraveyard);
  EXPECT_TRUE(c.ok()) << c.failure();
}

TEST(Invariants, LifeFiresOnLifeLostWithoutAnOccurrence) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::raw_state(*b.g).players[1].life -= 3;
  c.End(*b.g, false);
  ExpectFires(c, Invariant::kLife);
}

TEST(Invariants, LayersFiresOnAStaleCache) {
  Board b;
  b.g->Chars(0);  // the cache is current
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::raw_state(*b.g).obj.p1p1[b.bears] = 3;  // changed behind the cache's back
  c.End(*b.g, false);
  ExpectFires(c, Invariant::kLayers);
}

TEST(Invariants, TimestampsFiresWhenTheyGoBack) {
  Board b;
  InvariantChecker c;
  c.Begin(*b.g);
  Internals::raw_state(*b.g).next_timestamp = 1;
  c.End(*b.g, false);
  ExpectFires(c, Invariant::kTimestamps);
}

TEST(Invariants, NumberingFindsATieBrokenByObjectIds) {
  // Two creature-setting statics with one timestamp (a tie L-4 leaves to the
  // active player): the engine breaks it by object id, so renumbering shows.
  Board b;
  ObjId humility = b.g->AddObject(Card("Humility"), 0, Zone::kBattlefield);
  ObjId opalescence = b.g->AddObject(Card("Opalescence"), 0, Zone::kBattlefield);
  EXPECT_EQ(CheckNumbering(BundledPool(), b.g->state()), "");
  GameState& s = Internals::raw_state(*b.g);
  s.obj.timestamp[opalescence] = s.obj.timestamp[humility];
  EXPECT_NE(CheckNumbering(BundledPool(), s), "");
}

TEST(Invariants, ApplyRefusesAnIndexItDidNotOffer) {
  Board b;
  const Decision& d = b.g->Advance();
  ASSERT_NE(d.kind, DecisionKind::kNone);
  const uint64_t before = b.g->Fingerprint();
  EXPECT_FALSE(b.g->Apply(static_cast<int>(d.actions.size())));
  EXPECT_FALSE(b.g->Apply(-1));
  EXPECT_EQ(b.g->Fingerprint(), before);
  InvariantChecker c;
  c.Begin(*b.g);
  c.AfterApply(*b.g, d, 0, false);  // an offered action refused
  ExpectFires(c, Invariant::kApply);
}

TEST(Invariants, FingerprintSeesEveryChangeAndCopiesAgree) {
  Board b;
  Game copy = *b.g;
  EXPECT_EQ(copy.Fingerprint(), b.g->Fingerprint());
  copy.SetTapped(copy.state().obj.count - 1, true);
  EXPECT_NE(copy.Fingerprint(), b.g->Fingerprint());
}

TEST(Invariants, ProgressFiresOnACappedGameUnlessBothPass) {
  GameOptions opt;
  opt.turn_cap = 1;
  Game g(BundledPool(), opt);
  for (int i = 0; i < 10; ++i) {
    g.AddObject(Card("Forest"), 0, Zone::kLibrary);
    g.AddObject(Card("Forest"), 1, Zone::kLibrary);
  }
  g.StartAt(Phase::kMain, 0, 2);
  while (g.Advance().kind != DecisionKind::kNone) g.Apply(0);
  ASSERT_EQ(g.end_reason(), EndReason::kTurnCap);
  InvariantChecker passive;
  passive.Begin(g);
  passive.End(g, true);
  EXPECT_TRUE(passive.ok()) << passive.failure();
  InvariantChecker c;
  c.Begin(g);
  c.End(g, false);
  ExpectFires(c, Invariant::kProgress);
}

// Plays a game of passes to its turn cap with the checker watching, so it
// sees the libraries turn by turn.
// With `cast` and `on_turn`, that card is cast the first time it is offered
// from that turn on, and kept in hand until then (another card discarded).
InvariantChecker PassToTheCap(Game& g, ObjId cast = kNoObj, int on_turn = 0) {
  InvariantChecker c;
  c.Begin(g);
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    c.OnDecision(g, d);
    int pick = 0;
    for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
      if (g.state().turn >= on_turn && d.actions[i].kind == ActionKind::kCast &&
          d.actions[i].object == cast)
        pick = i;
      if (d.kind == DecisionKind::kDiscard && d.actions[pick].object == cast) pick = i;
    }
    const bool applied = g.Apply(pick);
    c.AfterApply(g, d, pick, applied);
  }
  EXPECT_EQ(g.end_reason(), EndReason::kTurnCap);
  c.End(g, false);
  return c;
}

TEST(Invariants, ProgressTellsAStallFromALoop) {
  GameOptions opt;
  opt.turn_cap = 30;
  // Both draw every turn from libraries too big to run out: someone could
  // still lose, so reaching the cap is a loop.
  {
    Game g(BundledPool(), opt);
    for (int i = 0; i < 40; ++i) {
      g.AddObject(Card("Forest"), 0, Zone::kLibrary);
      g.AddObject(Card("Forest"), 1, Zone::kLibrary);
    }
    g.StartAt(Phase::kMain, 0, 2);
    ExpectFires(PassToTheCap(g), Invariant::kProgress);
  }
  // Smaller libraries, but a Timetwister cast on turn 25 refills both:
  // drawing once a turn would not empty them by the cap (turn 30), a long game and no
  // loop (fuzz seed 100, games 38772 and 62988). Never cast, the same game
  // decks no one by turn 30 either and is a loop, as the first.
  for (const bool twist : {true, false}) {
    Game g(BundledPool(), opt);
    for (int i = 0; i < 24; ++i) {
      g.AddObject(Card("Forest"), 0, Zone::kLibrary);
      g.AddObject(Card("Forest"), 1, Zone::kLibrary);
    }
    for (int i = 0; i < 3; ++i) g.AddObject(Card("Island"), 0, Zone::kBattlefield);
    const ObjId twister = g.AddObject(Card("Timetwister"), 0, Zone::kHand);
    g.StartAt(Phase::kMain, 0, 2);
    InvariantChecker c = PassToTheCap(g, twist ? twister : kNoObj, 25);
    if (twist) {
      EXPECT_EQ(g.state().obj.zone[twister], Zone::kGraveyard);
      EXPECT_GE(g.refilled_until(0), 30);
      EXPECT_GE(g.refilled_until(1), 30);
      EXPECT_TRUE(c.ok()) << c.failure();
    } else {
      EXPECT_EQ(g.refilled_until(0), 0);
      ExpectFires(c, Invariant::kProgress);
    }
  }
  // Each player has a Platinum Angel and an empty library: no one can lose,
  // a stall.
  {
    Game g(BundledPool(), opt);
    g.AddObject(Card("Platinum Angel"), 0, Zone::kBattlefield);
    g.AddObject(Card("Platinum Angel"), 1, Zone::kBattlefield);
    g.StartAt(Phase::kMain, 0, 2);
    InvariantChecker c = PassToTheCap(g);
    EXPECT_TRUE(c.ok()) << c.failure();
    EXPECT_EQ(c.tally().checks[static_cast<int>(Invariant::kProgress)], 1u);
  }
  // Both skip their draws (Null Profusion), one with an empty library: no one
  // draws, so no one can deck: a stall (fuzz seed 2001, game 44706). B's
  // creature, which never attacks, gives B a decision each turn, so the
  // checker sees the libraries (it sees nothing between decisions).
  {
    Game g(BundledPool(), opt);
    for (int i = 0; i < 10; ++i) g.AddObject(Card("Forest"), 1, Zone::kLibrary);
    g.AddObject(Card("Null Profusion"), 0, Zone::kBattlefield);
    g.AddObject(Card("Null Profusion"), 1, Zone::kBattlefield);
    g.AddObject(Card("Walking Corpse"), 1, Zone::kBattlefield);
    g.StartAt(Phase::kMain, 0, 2);
    InvariantChecker c = PassToTheCap(g);
    EXPECT_TRUE(c.ok()) << c.failure();
  }
  // Null Profusion skips its controller's draws, Platinum Angel keeps the
  // other alive: a stall.
  {
    Game g(BundledPool(), opt);
    for (int i = 0; i < 10; ++i) g.AddObject(Card("Forest"), 0, Zone::kLibrary);
    g.AddObject(Card("Null Profusion"), 0, Zone::kBattlefield);
    g.AddObject(Card("Platinum Angel"), 1, Zone::kBattlefield);
    g.StartAt(Phase::kMain, 0, 2);
    InvariantChecker c = PassToTheCap(g);
    EXPECT_TRUE(c.ok()) << c.failure();
  }
}

}  // namespace
}  // namespace strata
