// Each check of the conformance kit fails when it should: a kit whose checks
// can't fail proves nothing. Every test breaks exactly one thing (a
// corrupted copy, a wrong decision, a truncated record, a policy that
// breaks the contract) and expects that check, and no other, to report it;
// a healthy game first shows that the same game passes untouched.
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/rng.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "policies/random_policy.h"
#include "sim/fuzz.h"
#include "tests/bundled.h"
#include "tests/conformance/conformance.h"

namespace strata::conformance {
namespace {

using ::testing::HasSubstr;

GameSetup Healthy(const std::string& policy = "random") {
  GameSetup s;
  s.policies = {policy, policy};
  s.a = BundledDeck("red_burn");
  s.b = BundledDeck("green_stompy");
  s.mulligan = Mulligan::kLondon;
  s.seed = 7;
  return s;
}

// The check that failed, by name, with the failure for the message.
std::string Failed(const Report& r) {
  return r.ok() ? "none" : std::string(CheckName(r.failed)) + " (" + r.failure + ")";
}

TEST(ConformanceChecks, AHealthyGamePassesEveryCheck) {
  const Report r = PlayGame(BundledPool(), Healthy());
  EXPECT_TRUE(r.ok()) << r.failure;
  EXPECT_GT(r.decisions, 20);
  for (int c = 0; c < kCheckCount; ++c)
    EXPECT_GT(r.checks[c], 0u) << CheckName(static_cast<Check>(c));
}

// [offered]: the checks see one action more than the game offers; applied
// to a copy, it is refused.
TEST(ConformanceChecks, OfferedFiresOnAnActionTheGameRefuses) {
  Faults f;
  f.decision = [](Decision& d) { d.actions.push_back(d.actions.back()); };
  const Report r = PlayGame(BundledPool(), Healthy(), {}, f);
  EXPECT_EQ(r.failed, Check::kOffered) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("was refused"));
}

// [refused]: the checks see one action fewer, so the index "past" them is
// one the game offers, and it applies.
TEST(ConformanceChecks, RefusedFiresWhenAnUnofferedIndexApplies) {
  Faults f;
  f.decision = [](Decision& d) { d.actions.pop_back(); };
  const Report r = PlayGame(BundledPool(), Healthy(), {}, f);
  EXPECT_EQ(r.failed, Check::kRefused) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("was applied"));
}

// Policies that break the contract.
class OutOfRange : public Policy {
 public:
  int Choose(const PlayerView&, const Decision& d) override {
    return static_cast<int>(d.actions.size());
  }
  std::string Name() const override { return "out_of_range"; }
  void Reset(uint64_t) override {}
};

class Meddler : public Policy {  // changes the game it was shown
 public:
  int Choose(const PlayerView& view, const Decision&) override {
    Game* g = const_cast<Game*>(view.whole_game());
    g->SetLifeTotal(0, g->state().players[0].life + 1);
    return 0;
  }
  std::string Name() const override { return "meddler"; }
  bool omniscient() const override { return true; }
  void Reset(uint64_t) override {}
};

// Random players (passing at times, so games end) that break [seeded].
class Forgetful : public Policy {  // Reset leaves the generator where it is
 public:
  explicit Forgetful(uint64_t seed) : inner_(seed, 0.3) {}
  int Choose(const PlayerView& view, const Decision& d) override { return inner_.Choose(view, d); }
  std::string Name() const override { return "forgetful"; }
  void Reset(uint64_t) override {}

 private:
  RandomPolicy inner_;
};

uint64_t g_unseeded = 0;          // how many times an Unseeded player was seeded
class Unseeded : public Policy {  // seeds itself from a count, not its seed
 public:
  Unseeded() : inner_(++g_unseeded, 0.3) {}
  int Choose(const PlayerView& view, const Decision& d) override { return inner_.Choose(view, d); }
  std::string Name() const override { return "unseeded"; }
  void Reset(uint64_t) override { inner_.Reset(++g_unseeded); }

 private:
  RandomPolicy inner_;
};

template <typename P>
Faults Players() {
  Faults f;
  f.players = [](Player, uint64_t seed) -> std::unique_ptr<Policy> {
    if constexpr (std::is_constructible_v<P, uint64_t>)
      return std::make_unique<P>(seed);
    else
      return std::make_unique<P>();
  };
  return f;
}

TEST(ConformanceChecks, ChoiceFiresOnAnIndexPastTheActions) {
  const Report r = PlayGame(BundledPool(), Healthy(), {}, Players<OutOfRange>());
  EXPECT_EQ(r.failed, Check::kChoice) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("the policy chose"));
}

TEST(ConformanceChecks, ChoiceFiresOnAPolicyThatChangesTheGame) {
  const Report r = PlayGame(BundledPool(), Healthy(), {}, Players<Meddler>());
  EXPECT_EQ(r.failed, Check::kChoice) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("the game changed"));
}

// [copy]: each copy gets a life point more; compared copy_horizon
// decisions later, it is elsewhere. Without the short copies, the copies
// fed to the game's end find it.
TEST(ConformanceChecks, CopyFiresOnACorruptedCopy) {
  Faults f;
  f.copy = [](Game& c) { c.SetLifeTotal(1, c.state().players[1].life + 1); };
  Report r = PlayGame(BundledPool(), Healthy(), {}, f);
  EXPECT_EQ(r.failed, Check::kCopy) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("a copy made at decision 0 went elsewhere"));
  Options to_the_end;
  to_the_end.copy_horizon = 0;
  r = PlayGame(BundledPool(), Healthy(), to_the_end, f);
  EXPECT_EQ(r.failed, Check::kCopy) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("a copy made at decision 8 ended elsewhere"));
}

// [copy] on its own: a copy fed another decision than the game took.
TEST(ConformanceChecks, CopyFiresOnAWrongDecision) {
  GameSetup s = Healthy();
  Game g(BundledPool(), OptionsOf(s));
  g.Deal(s.a, s.b, s.first);
  // The first decision with a choice (keep or mulligan, at London rules).
  const Decision* d = &g.Advance();
  ASSERT_GE(d->actions.size(), 2u);
  Game copy = g;
  Game same = g;
  ASSERT_TRUE(g.Apply(0));
  const int32_t right[] = {0}, wrong[] = {1};
  EXPECT_EQ(CheckCopyContinues(same, right, g), "");
  EXPECT_THAT(CheckCopyContinues(copy, wrong, g), HasSubstr("went elsewhere"));
}

// [replay]: the record lacks the last decision, so the replay stops short.
TEST(ConformanceChecks, ReplayFiresOnATruncatedRecord) {
  Faults f;
  f.record = [](std::vector<int32_t>& r) { r.pop_back(); };
  const Report r = PlayGame(BundledPool(), Healthy(), {}, f);
  EXPECT_EQ(r.failed, Check::kReplay) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("ended elsewhere"));
}

// [replay] on its own: the same decisions from another seed.
TEST(ConformanceChecks, ReplayFiresOnAnotherSeed) {
  GameSetup s = Healthy("passive");
  Game g(BundledPool(), OptionsOf(s));
  g.Deal(s.a, s.b, s.first);
  std::vector<int32_t> record;
  while (g.Advance().kind != DecisionKind::kNone) {
    record.push_back(0);
    g.Apply(0);
  }
  Game same(BundledPool(), OptionsOf(s));
  same.Deal(s.a, s.b, s.first);
  EXPECT_EQ(CheckReplayEnds(same, record, g), "");
  s.seed += 1;
  Game other(BundledPool(), OptionsOf(s));
  other.Deal(s.a, s.b, s.first);
  EXPECT_THAT(CheckReplayEnds(other, record, g), HasSubstr("ended elsewhere"));
}

// [reset]: the reused Game's generator is moved after Reset, so it deals
// other hands; a new Game replays fine.
TEST(ConformanceChecks, ResetFiresWhenAResetGameIsNotLikeNew) {
  Faults f;
  f.reset = [](Game& g) { g.SetRng(Rng(12345)); };
  const Report r = PlayGame(BundledPool(), Healthy(), {}, f);
  EXPECT_EQ(r.failed, Check::kReset) << Failed(r);
  EXPECT_EQ(r.checks[static_cast<int>(Check::kReplay)], 1u);
}

TEST(ConformanceChecks, SeededFiresOnAPolicyWhoseResetForgetsItsSeed) {
  const Report r = PlayGame(BundledPool(), Healthy(), {}, Players<Forgetful>());
  EXPECT_EQ(r.failed, Check::kSeeded) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("Reset is not like new"));
}

TEST(ConformanceChecks, SeededFiresOnAPolicyThatDependsOnMoreThanItsSeed) {
  const Report r = PlayGame(BundledPool(), Healthy(), {}, Players<Unseeded>());
  EXPECT_EQ(r.failed, Check::kSeeded) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("made again from the same seeds"));
}

// [ends]: random players reach a turn cap of 3 with both libraries full: a
// loop, not a stall (the invariant [progress]).
TEST(ConformanceChecks, EndsFiresOnAGameCappedWhileBothCouldStillLose) {
  GameSetup s = Healthy();
  s.turn_cap = 3;
  const Report r = PlayGame(BundledPool(), s);
  EXPECT_EQ(r.failed, Check::kEnds) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("turn_cap"));
}

// [ends] on its own: a game stopped (SetStop) is not over.
TEST(ConformanceChecks, EndsFiresOnAStoppedGame) {
  GameSetup s = Healthy("passive");
  Game g(BundledPool(), OptionsOf(s));
  g.Deal(s.a, s.b, s.first);
  g.SetStop(StopAt::kTurn, 3);
  while (g.Advance().kind != DecisionKind::kNone) g.Apply(0);
  EXPECT_THAT(CheckEnds(g), HasSubstr("without ending"));
}

// [invariants]: a deliberately false invariant (no creature with power 1
// or more) fires as soon as a creature is in play.
TEST(ConformanceChecks, InvariantsFireOnAFalseInvariant) {
  auto canary = CanaryCheck("power:1");
  ASSERT_TRUE(canary.ok());
  Faults f;
  f.extra_name = "canary";
  f.extra = *canary;
  const Report r = PlayGame(BundledPool(), Healthy(), {}, f);
  EXPECT_EQ(r.failed, Check::kInvariants) << Failed(r);
  EXPECT_THAT(r.failure, HasSubstr("canary"));
}

}  // namespace
}  // namespace strata::conformance
