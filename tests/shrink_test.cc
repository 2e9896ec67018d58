// `strata fuzz --shrink` (sim/shrink.h). The heart is the round trip: the
// board of a fuzz game at the start of a phase, written as a scenario, with
// the game's decisions from there as steps, must play exactly as the game
// did: the same state, object by object, at the end of a later phase. Then
// shrinking: with a deliberately false invariant (a canary: a creature with
// power 6 or more) the shrunk scenario is much smaller and still fails it.
#include "sim/shrink.h"

#include <cstdlib>
#include <memory>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "sim/fuzz.h"
#include "sim/scenario.h"
#include "tests/bundled.h"

namespace strata {
namespace {

class ShrinkTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = &BundledPool(); }
  static const CardDb* db_;
};
const CardDb* ShrinkTest::db_ = nullptr;

// A phase end of a replayed game: the game stopped there, and the number of
// decisions taken before it.
struct PhaseEnd {
  size_t decisions;
  std::unique_ptr<Game> stopped;
};

// Replays a fuzz game from its decisions, stopping a copy at every phase end
// that follows a decision.
void Replay(const CardDb& db, const FuzzSetup& setup, const std::vector<int32_t>& decisions,
            std::vector<PhaseEnd>& ends, std::vector<Decision>& seen) {
  Game g(db, FuzzGameOptions(setup, false));
  g.Deal(setup.a, setup.b, setup.first);
  for (size_t k = 0; k < decisions.size(); ++k) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    auto c = std::make_unique<Game>(g);
    c->SetStop(StopAt::kPhaseEnd);
    c->Apply(decisions[k]);
    if (c->Advance().kind == DecisionKind::kNone) ends.push_back({k + 1, std::move(c)});
    seen.push_back(d);
    g.Apply(decisions[k]);
  }
}

// For games of every edition and both kinds of player: the scenario written
// at a phase start, run with the decisions up to a phase end a few phases
// later, ends in the state the game was in there.
TEST_F(ShrinkTest, AScenarioFromAPhaseStartReplaysTheGameExactly) {
  FuzzOptions opt;
  opt.seed = 11;
  UsageStats use(db_->cards.size());
  int compared = 0, unsayable = 0;
  const char* env = std::getenv("STRATA_ROUNDTRIP_GAMES");  // a longer run by hand
  const int64_t games = env ? std::atoi(env) : 8;
  for (int64_t index = 0; index < games; ++index) {
    const FuzzSetup setup = FuzzSetupFor(*db_, opt, index, use);
    FuzzGame game = PlayFuzzGame(*db_, setup, opt, nullptr);
    ASSERT_TRUE(game.failure.empty()) << game.failure;
    std::vector<PhaseEnd> ends;
    std::vector<Decision> seen;
    Replay(*db_, setup, game.decisions, ends, seen);
    ASSERT_GT(ends.size(), 8u);
    // Three stretches of each game: early, middle, late.
    for (size_t from : {ends.size() / 6, ends.size() / 2, ends.size() * 5 / 6}) {
      // The nearest earlier start a scenario can say (an effect in force, a
      // shield up: not a start; counted below).
      for (size_t back = 0; back < 8 && from > 0 && !BoardOf(*ends[from].stopped).ok(); ++back) {
        ++unsayable;
        --from;
      }
      // A scenario gives up on its script about three turns after its start.
      size_t to = std::min(ends.size() - 1, from + 4);
      while (to > from && ends[to].stopped->state().turn > ends[from].stopped->state().turn + 2)
        --to;
      if (to <= from) continue;
      auto board = BoardOf(*ends[from].stopped);
      if (!board.ok()) continue;
      ScenarioSpec spec = *board;
      // A token that ceased to exist (G-12) holds an object number the
      // board drops: later objects would be numbered differently.
      if (static_cast<int>(spec.objects.size()) != ends[from].stopped->state().obj.count) {
        ++unsayable;
        continue;
      }
      const size_t a = ends[from].decisions, b = ends[to].decisions;
      std::vector<Decision> ds(seen.begin() + static_cast<long>(a),
                               seen.begin() + static_cast<long>(b));
      std::vector<int> cs(game.decisions.begin() + static_cast<long>(a),
                          game.decisions.begin() + static_cast<long>(b));
      if (!AddSteps(*ends[to].stopped, ds, cs, spec)) {
        ++unsayable;  // a step names a token by its name alone (G-12)
        continue;
      }
      spec.until = "end_of_phase";
      spec.name = absl::StrCat("game ", index, " decisions ", a, " to ", b);
      ScenarioOptions so;
      so.keep_game = true;
      const std::string toml = spec.ToToml();
      ScenarioResult r = RunScenarioText(*db_, toml, "roundtrip.toml", so);
      ASSERT_TRUE(r.passed) << spec.name << ": " << (r.failures.empty() ? "" : r.failures[0])
                            << "\n"
                            << toml;
      ASSERT_TRUE(r.game);
      EXPECT_EQ(DescribeState(*r.game), DescribeState(*ends[to].stopped)) << spec.name << "\n"
                                                                          << toml;
      ++compared;
    }
  }
  // Most starts can be said; the round trip ran on many of them.
  EXPECT_GE(compared, games) << unsayable << " starts could not be said";
  RecordProperty("compared", compared);
  RecordProperty("unsayable", unsayable);
}

// The canary of `--canary power:6` (or another threshold), as a test hook.
ShrinkOptions Canary(const char* check = "power:6") {
  ShrinkOptions opt;
  opt.extra_name = "canary";
  opt.extra = *CanaryCheck(check);
  return opt;
}

// The two fixed decks the shrinking tests play (tests/decks, copies of two
// bundled ones), not random decks from the pool: each card added to the
// pool moved seed 5's random decks, and with Stasis one game grew so long
// that a shrink of it took 250 s under ASan.
void UseFixedDecks(const CardDb& db, FuzzOptions& opt) {
  opt.decks = "files";
  for (const char* name : {"shrink_green", "shrink_white"}) {
    auto deck = LoadDeckFile(absl::StrCat(STRATA_SOURCE_DIR, "/tests/decks/", name, ".txt"), db);
    ASSERT_TRUE(deck.ok()) << deck.status().message();
    opt.deck_files.push_back(*deck);
  }
}

// A game that breaks the canary shrinks to a scenario that is much smaller
// and still fails it under the scenario runner, and passes without it.
// The canary is power 4.
TEST_F(ShrinkTest, ShrinkingKeepsTheFailureAndDropsMostOfTheBoard) {
  FuzzOptions fopt;
  fopt.seed = 5;
  UseFixedDecks(*db_, fopt);
  fopt.extra_name = "canary";
  fopt.extra = *CanaryCheck("power:4");
  UsageStats use(db_->cards.size());
  int shrunk = 0;
  for (int64_t index = 0; index < 12 && shrunk < 3; ++index) {
    const FuzzSetup setup = FuzzSetupFor(*db_, fopt, index, use);
    FuzzGame game = PlayFuzzGame(*db_, setup, fopt, nullptr);
    if (game.failure.empty()) continue;
    ASSERT_EQ(game.failure.rfind("canary: ", 0), 0u) << game.failure;
    auto r = ShrinkFuzzGame(*db_, setup, game.decisions, Canary("power:4"));
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->invariant, "canary");
    EXPECT_GE(r->objects_before, 80);
    EXPECT_LE(r->objects_after * 5, r->objects_before) << r->toml;
    EXPECT_LE(r->tries, 400);
    ScenarioOptions so;
    so.extra_name = "canary";
    so.extra = *CanaryCheck("power:4");
    ScenarioResult run = RunScenarioText(*db_, r->toml, "shrunk.toml", so);
    EXPECT_FALSE(run.passed);
    EXPECT_EQ(run.invariant, "canary") << r->toml;
    // Without the canary the scenario breaks nothing: it pins only that.
    EXPECT_TRUE(RunScenarioText(*db_, r->toml, "shrunk.toml", ScenarioOptions{}).passed) << r->toml;
    // Shrinking is deterministic: a work budget, never a clock.
    auto again = ShrinkFuzzGame(*db_, setup, game.decisions, Canary("power:4"));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->toml, r->toml);
    ++shrunk;
  }
  EXPECT_EQ(shrunk, 3);
}

// A budget of one try leaves the scenario as written, still failing.
TEST_F(ShrinkTest, ABudgetBoundsTheWork) {
  FuzzOptions fopt;
  fopt.seed = 5;
  fopt.extra_name = "canary";
  fopt.extra = *CanaryCheck("power:6");
  UseFixedDecks(*db_, fopt);
  UsageStats use(db_->cards.size());
  // The first game of the seed that breaks the canary.
  FuzzSetup setup;
  FuzzGame game;
  for (int64_t index = 1; index <= 40 && game.failure.empty(); ++index) {
    setup = FuzzSetupFor(*db_, fopt, index, use);
    game = PlayFuzzGame(*db_, setup, fopt, nullptr);
  }
  ASSERT_FALSE(game.failure.empty());
  ShrinkOptions opt = Canary();
  opt.budget = 1;
  auto r = ShrinkFuzzGame(*db_, setup, game.decisions, opt);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // The tries that find a failing phase start are not shrinking: with a
  // budget of 1 nothing is taken out.
  EXPECT_EQ(r->objects_after, r->objects_before);
  EXPECT_EQ(r->steps_after, r->steps_before);
  EXPECT_TRUE(ScenarioFails(*db_, r->toml, "canary", opt));
  // With the default budget the same game does shrink: the budget stopped it.
  auto full = ShrinkFuzzGame(*db_, setup, game.decisions, Canary());
  ASSERT_TRUE(full.ok()) << full.status().message();
  EXPECT_GT(full->tries, r->tries);
  EXPECT_LT(full->objects_after + full->steps_after, full->objects_before + full->steps_before);
}

// A game that breaks nothing has nothing to shrink: one clear error.
TEST_F(ShrinkTest, AHealthyGameIsRefused) {
  FuzzOptions fopt;
  UsageStats use(db_->cards.size());
  const FuzzSetup setup = FuzzSetupFor(*db_, fopt, 0, use);
  FuzzGame game = PlayFuzzGame(*db_, setup, fopt, nullptr);
  auto r = ShrinkFuzzGame(*db_, setup, game.decisions, ShrinkOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "every invariant holds in this game as it replays: nothing to shrink");
}

// A game that runs past FuzzOptions::max_decisions is a "progress" failure
// with its own words, not a fuzz run that never ends (fuzz seed 36, game
// 8777 asked one question with no answer two million times).
TEST(FuzzGuards, AGamePastItsDecisionCapFailsAsProgress) {
  FuzzOptions opt;
  opt.games = 2;
  opt.seed = 5;
  opt.threads = 1;
  opt.replay_every = 0;
  opt.max_decisions = 20;
  const FuzzResult r = RunFuzz(BundledPool(), opt);
  ASSERT_EQ(r.failing_games, 2);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_NE(r.failures[0].failure.find("progress: the game went past 20 decisions without ending"),
            std::string::npos)
      << r.failures[0].failure;
  EXPECT_EQ(r.failures[0].decisions.size(), 20u);
  opt.max_decisions = FuzzOptions{}.max_decisions;
  EXPECT_EQ(RunFuzz(BundledPool(), opt).failing_games, 0);
}

}  // namespace
}  // namespace strata
