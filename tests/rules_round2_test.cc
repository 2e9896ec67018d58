// Rules fixes of the second rules review, tested where a scenario file can't
// reach: a phase effect offered and played once a phase (T-12), whole games
// of a deck whose phase effect once looped to the action cap, summoning
// sickness after a change of control (T-7), and saturating arithmetic.
#include <string>

#include "engine/game.h"
#include "gtest/gtest.h"
#include "policies/policy.h"
#include "tests/bundled.h"

namespace strata {
namespace {

CardId Card(const CardDb& db, const std::string& name) {
  CardId c = db.Find(name);
  EXPECT_NE(c, kNoCard) << name;
  return c;
}

int CountActions(const Decision& d, ActionKind kind) {
  int n = 0;
  for (const Action& a : d.actions) n += a.kind == kind;
  return n;
}

// Erhnam Djinn's upkeep effect, with a creature of B's to target: offered
// until A plays it, then never again in that upkeep, and the phase ends.
TEST(PhaseEffects, PlayedOnceAPhaseAndThenNoLongerOffered) {
  const CardDb& db = BundledPool();
  GameOptions opt;
  opt.free_mana = true;
  opt.checked_layers = true;
  Game g(db, opt);
  g.AddObject(Card(db, "Erhnam Djinn"), 0, Zone::kBattlefield);
  g.AddObject(Card(db, "Grizzly Bears"), 1, Zone::kBattlefield);
  g.StartAt(Phase::kUpkeep, 0, 2);
  int played = 0, offered_after = 0;
  for (int guard = 0; guard < 200 && g.state().phase == Phase::kUpkeep; ++guard) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    int pick = 0;
    const int offers = CountActions(d, ActionKind::kPhaseEffect);
    if (played) offered_after += offers;
    for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
      if (d.actions[i].kind == ActionKind::kPhaseEffect && !played) {
        pick = i;
        ++played;
      }
    if (d.actions[pick].kind == ActionKind::kPass || d.kind != DecisionKind::kNeutral ||
        d.actions[pick].kind == ActionKind::kPhaseEffect)
      g.Apply(pick);
    else
      g.Apply(0);
  }
  EXPECT_EQ(played, 1);
  EXPECT_EQ(offered_after, 0);
  EXPECT_NE(g.state().phase, Phase::kUpkeep);
}

// With no legal target the effect is neither offered nor holds the phase.
TEST(PhaseEffects, WithoutALegalTargetNotOffered) {
  const CardDb& db = BundledPool();
  GameOptions opt;
  opt.free_mana = true;
  Game g(db, opt);
  g.AddObject(Card(db, "Erhnam Djinn"), 0, Zone::kBattlefield);
  g.StartAt(Phase::kUpkeep, 0, 2);
  for (int guard = 0; guard < 50 && g.state().phase == Phase::kUpkeep; ++guard) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    EXPECT_EQ(CountActions(d, ActionKind::kPhaseEffect), 0);
    g.Apply(0);
  }
  EXPECT_NE(g.state().phase, Phase::kUpkeep);
}

// The review's deck (20 Forest, 4 Erhnam Djinn, 16 Grizzly Bears) against
// white_weenie, heuristic players: 48 of 64 games used to end by the action
// cap, the upkeep effect "handled" a thousand times. None may now.
TEST(PhaseEffects, ErhnamDeckGamesEndWithoutTheActionCap) {
  const CardDb& db = BundledPool();
  Deck erhnam;
  erhnam.name = "erhnam";
  for (int i = 0; i < 20; ++i) erhnam.main.push_back(Card(db, "Forest"));
  for (int i = 0; i < 4; ++i) erhnam.main.push_back(Card(db, "Erhnam Djinn"));
  for (int i = 0; i < 16; ++i) erhnam.main.push_back(Card(db, "Grizzly Bears"));
  const Deck weenie = BundledDecks(db, {"white_weenie"})[0];
  int action_caps = 0, phase_effects = 0;
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    GameOptions opt;
    opt.seed = seed;
    Game g(db, opt);
    g.Deal(seed % 2 ? erhnam : weenie, seed % 2 ? weenie : erhnam,
           static_cast<Player>(seed / 2 % 2));
    auto a = MakePolicy("heuristic", seed * 2), b = MakePolicy("heuristic", seed * 2 + 1);
    ASSERT_TRUE(a.ok() && b.ok());
    for (;;) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      const int i = (d.player == 0 ? **a : **b).ChooseFor(g, d);
      phase_effects += d.actions[i].kind == ActionKind::kPhaseEffect;
      g.Apply(i);
    }
    action_caps += g.end_reason() == EndReason::kActionCap;
  }
  EXPECT_EQ(action_caps, 0);
  EXPECT_GT(phase_effects, 0);  // the Djinns did come down and use their effect
}

// T-7: a creature that changes control is summoning sick for its new
// controller at once, even before a state check has seen the change, and
// stops being sick when that player's turn begins.
TEST(SummoningSickness, ComesWithAChangeOfControl) {
  const CardDb& db = BundledPool();
  GameOptions opt;
  opt.free_mana = true;
  Game g(db, opt);
  ObjId bears = g.AddObject(Card(db, "Grizzly Bears"), 1, Zone::kBattlefield);
  // A casts Control Magic on B's Bears (no haste, unlike Act of Treason).
  ObjId magic = g.AddObject(Card(db, "Control Magic"), 0, Zone::kHand);
  ObjId own = g.AddObject(Card(db, "Grizzly Bears"), 0, Zone::kBattlefield);  // A may attack
  g.StartAt(Phase::kMain, 0, 3);
  EXPECT_FALSE(g.SummoningSick(bears));
  for (;;) {
    const Decision& d = g.Advance();
    ASSERT_NE(d.kind, DecisionKind::kNone);
    int pick = -1;
    for (int i = 0; i < static_cast<int>(d.actions.size()) && pick < 0; ++i) {
      const Action& a = d.actions[i];
      if ((a.kind == ActionKind::kCast && a.object == magic) ||
          (a.kind == ActionKind::kTargetObject && a.object == bears))
        pick = i;
    }
    if (d.kind == DecisionKind::kNeutral && pick < 0 && g.Chars(bears).controller == 0) break;
    g.Apply(pick < 0 ? 0 : pick);
  }
  EXPECT_EQ(g.Chars(bears).controller, 0);
  EXPECT_TRUE(g.SummoningSick(bears));
  // A announces an attack: only its own Bears may be declared.
  const Decision& d = g.Advance();
  int attack = -1;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == ActionKind::kAttack) attack = i;
  ASSERT_GE(attack, 0);
  g.Apply(attack);
  const Decision& attackers = g.Advance();
  ASSERT_EQ(attackers.kind, DecisionKind::kAttackers);
  bool stolen = false, mine = false;
  for (const Action& a : attackers.actions) {
    stolen |= a.object == bears;
    mine |= a.object == own;
  }
  EXPECT_FALSE(stolen) << "a stolen creature attacks at once";
  EXPECT_TRUE(mine);
}

// Numbers past the engine's ranges saturate instead of wrapping: 30,000
// damage twice is lethal, not negative, and life can't overflow.
TEST(Arithmetic, DamageAndLifeSaturate) {
  const CardDb& db = BundledPool();
  GameOptions opt;
  Game g(db, opt);
  ObjId bears = g.AddObject(Card(db, "Grizzly Bears"), 0, Zone::kBattlefield);
  g.AddCounters(bears, 0, 30000);
  g.AddCounters(bears, 0, 30000);
  EXPECT_EQ(g.state().obj.p1p1[bears], 32767);
  EXPECT_EQ(g.Chars(bears).power, 32767);
  g.SetLifeTotal(0, kLifeLimit);
  EXPECT_EQ(LifeAfter(g.state().players[0].life, kLifeLimit), kLifeLimit);
  EXPECT_EQ(LifeAfter(-kLifeLimit, -5), -kLifeLimit);
}

}  // namespace
}  // namespace strata
