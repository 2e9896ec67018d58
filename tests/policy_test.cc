// Policies: built from specs, only ever choose legal actions, depend only on
// their seed, and the heuristic player beats the random one.
#include "policies/policy.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/deck.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "policies/mc.h"
#include "policies/passive.h"
#include "policies/policy_table.h"
#include "tests/bundled.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

class PolicyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = &BundledPool();
    decks_ = BundledDecks({"green_stompy", "red_burn", "blue_control", "white_weenie"});
  }

  // Plays seeds 1 to 4 of mc (seat 0, decks_[mine]) against heuristic
  // (decks_[theirs]); `seen(d, mc)` after each of mc's choices.
  template <class F>
  static void PlayMcAgainstHeuristic(const McPolicy::Params& params, int mine, int theirs,
                                     F&& seen) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      GameOptions opt;
      opt.seed = seed;
      Game g(*db_, opt);
      g.Deal(decks_[mine], decks_[theirs], static_cast<Player>(seed % 2));
      McPolicy mc(seed, params);
      auto other = MakePolicy("heuristic", seed);
      ASSERT_TRUE(other.ok());
      for (int guard = 0; guard < 5000; ++guard) {
        const Decision& d = g.Advance();
        if (d.kind == DecisionKind::kNone) break;
        if (d.player == 1) {
          g.Apply((*other)->ChooseFor(g, d));
          continue;
        }
        const int i = mc.ChooseFor(g, d);
        seen(d, mc);
        g.Apply(i);
      }
    }
  }

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

  static const CardDb* db_;
  static std::vector<Deck> decks_;
};
const CardDb* PolicyTest::db_ = nullptr;
std::vector<Deck> PolicyTest::decks_;

TEST_F(PolicyTest, SpecsAndErrors) {
  EXPECT_TRUE(MakePolicy("random", 1).ok());
  EXPECT_TRUE(MakePolicy("random:pass=0.1", 1).ok());
  EXPECT_TRUE(MakePolicy("heuristic:style=control", 1).ok());
  EXPECT_EQ((*MakePolicy("heuristic", 1))->Name(), "heuristic:style=aggro");
  auto bad = MakePolicy("heuristic:style=sleepy", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("parameter 'style': expected style=aggro or style=control, got 'sleepy'"));
  auto unknown = MakePolicy("genius", 1);
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("unknown policy 'genius'"));
  EXPECT_THAT(std::string(unknown.status().message()),
              HasSubstr("heuristic[:style=aggro|control,keep=all]"));
}

// Values a parameter of this kind must refuse.
std::vector<std::string> BadValues(const PolicyParam& p, absl::string_view owner) {
  switch (p.kind) {
    case PolicyParam::Kind::kInt:
      return {"x",
              "",
              "1.5",
              absl::StrCat(static_cast<int64_t>(p.lo) - 1),
              absl::StrCat(static_cast<int64_t>(p.hi) + 1),
              "99999999999999999999"};
    case PolicyParam::Kind::kReal:
      return {"x", "", "nan", absl::StrCat(p.lo - 0.5), absl::StrCat(p.hi + 0.5)};
    case PolicyParam::Kind::kWord:
      return {"", "nonsense", absl::StrCat(p.words[0], "x")};
    case PolicyParam::Kind::kPolicy:
      return {"", "genius", std::string(owner), absl::StrCat(owner, ":", "x=1"), "random:pass=2"};
  }
  return {};
}

// Every policy comes from its row of the table: --help names each one with
// its summary and each parameter with its meaning and default; it is built
// from its defaults, which written out give the same policy; a bad value of
// each parameter, and a parameter it does not take, are refused with a
// message naming the spec and the parameter.
TEST_F(PolicyTest, TheTableMakesSpecsHelpAndErrors) {
  const std::string help = PolicyHelp();
  std::vector<std::string> names;
  for (const PolicyEntry& e : PolicyTable()) {
    const std::string name(e.name);
    names.push_back(name);
    std::vector<std::string> synopses, defaults;
    for (const PolicyParam& p : e.params) {
      synopses.push_back(ParamSynopsis(p));
      if (!p.default_value.empty()) defaults.push_back(absl::StrCat(p.name, "=", p.default_value));
    }
    const std::string synopsis =
        synopses.empty() ? name : absl::StrCat(name, "[:", absl::StrJoin(synopses, ","), "]");
    EXPECT_THAT(help, HasSubstr(absl::StrCat("  ", synopsis, "   ", e.summary, "\n")));
    for (const PolicyParam& p : e.params) {
      EXPECT_THAT(help, HasSubstr(absl::StrCat("      ", ParamSynopsis(p), " ")));
      EXPECT_THAT(help, HasSubstr(p.meaning));
      if (!p.default_value.empty()) {  // (EXPECT_THAT is an if-else inside)
        EXPECT_THAT(help, HasSubstr(absl::StrCat("default ", p.default_value, ")")));
      }
      for (const std::string& bad : BadValues(p, e.name)) {
        const std::string spec = absl::StrCat(name, ":", p.name, "=", bad);
        auto made = MakePolicy(spec, 1);
        ASSERT_FALSE(made.ok()) << spec;
        EXPECT_THAT(std::string(made.status().message()),
                    HasSubstr(absl::StrCat("policy '", spec, "': parameter '", p.name, "': ")));
      }
    }
    auto plain = MakePolicy(name, 1);
    ASSERT_TRUE(plain.ok()) << plain.status();
    if (!defaults.empty()) {
      auto spelled = MakePolicy(absl::StrCat(name, ":", absl::StrJoin(defaults, ",")), 1);
      ASSERT_TRUE(spelled.ok()) << spelled.status();
      EXPECT_EQ((*spelled)->Name(), (*plain)->Name());
    }
    auto unknown = MakePolicy(name + ":bogus=1", 1);
    ASSERT_FALSE(unknown.ok());
    const std::string message(unknown.status().message());
    if (e.params.empty()) {
      EXPECT_EQ(message,
                absl::StrCat("policy '", name, ":bogus=1': ", name, " takes no parameters"));
    } else {
      EXPECT_THAT(message, HasSubstr(absl::StrCat("policy '", name,
                                                  ":bogus=1': parameter 'bogus': expected ")));
      for (const std::string& s : synopses) EXPECT_THAT(message, HasSubstr(s));
    }
    auto no_value = MakePolicy(name + ":bogus", 1);
    ASSERT_FALSE(no_value.ok());
  }
  EXPECT_THAT(names, ::testing::IsSupersetOf({"random", "heuristic", "passive", "mc"}));
  // An unknown name lists every known one.
  auto unknown = MakePolicy("genius:x=1", 1);
  ASSERT_FALSE(unknown.ok());
  for (const std::string& name : names)
    EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("\n  " + name));
  // The table's defaults are those of the policies' own parameters.
  EXPECT_EQ((*MakePolicy("mc", 1))->Name(), McPolicy(1, McPolicy::Params{}).Name());
  EXPECT_EQ((*MakePolicy("random", 1))->Name(), "random:pass=0.3");
  EXPECT_EQ((*MakePolicy("heuristic", 1))->Name(), "heuristic:style=aggro");
}

// The messages say what each parameter takes.
TEST_F(PolicyTest, ParameterErrorsSayWhatTheyTake) {
  auto message = [](const std::string& spec) {
    auto made = MakePolicy(spec, 1);
    return made.ok() ? std::string("(built)") : std::string(made.status().message());
  };
  EXPECT_EQ(message("random:pass=2"),
            "policy 'random:pass=2': parameter 'pass': expected a number from 0 to 1, got '2'");
  EXPECT_EQ(message("random:pass"), "policy 'random:pass': parameter 'pass': expected name=value");
  EXPECT_EQ(message("random:x=1"), "policy 'random:x=1': parameter 'x': expected pass=P");
  EXPECT_EQ(message("heuristic:keep=none"),
            "policy 'heuristic:keep=none': parameter 'keep': expected keep=all, got 'none'");
  EXPECT_EQ(message("heuristic:x=1"),
            "policy 'heuristic:x=1': parameter 'x': expected one of style=aggro|control, "
            "keep=all");
  EXPECT_EQ(message("mc:depth=0"),
            "policy 'mc:depth=0': parameter 'depth': expected an integer from 1 to 100000, got "
            "'0'");
  EXPECT_EQ(message("mc:x=1"),
            "policy 'mc:x=1': parameter 'x': expected one of rollouts=N, depth=D, rollout=P, "
            "margin=M, decide=W");
  EXPECT_THAT(message("mc:rollout=random:pass=2"),
              HasSubstr("policy 'mc:rollout=random:pass=2': parameter 'rollout': policy "
                        "'random:pass=2': parameter 'pass': expected a number from 0 to 1"));
  EXPECT_EQ(message("passive:"), "(built)");
  EXPECT_EQ(message("random:"), "(built)");
}

TEST_F(PolicyTest, OnlyLegalActionsOverManyDecisions) {
  int total = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    int n = 0;
    Play("heuristic", "heuristic:style=control", seed, seed % 4, (seed + 1) % 4, nullptr, &n);
    total += n;
    Play("random", "heuristic", seed, (seed + 2) % 4, seed % 4, nullptr, &n);
    total += n;
    Play("passive", "random:pass=0.1", seed, seed % 4, (seed + 3) % 4, nullptr, &n);
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

namespace strata {
namespace {

// mc must not read the opponent's hidden cards: two games that differ only
// in how the opponent's cards are split between hand and library (and in
// the order of the libraries) give the same determinizations and choices.
TEST_F(PolicyTest, McDoesNotPeek) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    GameOptions opt;
    opt.seed = seed;
    Game g1(*db_, opt);
    g1.Deal(decks_[0], decks_[1], 0);
    Game g2 = g1;
    GameState& s2 = g2.MutableState();
    // Swap B's first hand card with a different card of B's library, and
    // reverse A's library.
    ObjId h = s2.players[1].hand[0];
    for (ObjId l : s2.players[1].library)
      if (s2.obj.card[l] != s2.obj.card[h]) {
        std::swap(s2.obj.card[h], s2.obj.card[l]);
        break;
      }
    std::vector<CardId> lib;
    for (ObjId o : s2.players[0].library) lib.push_back(s2.obj.card[o]);
    for (size_t i = 0; i < lib.size(); ++i)
      s2.obj.card[s2.players[0].library[i]] = lib[lib.size() - 1 - i];
    const Decision& d1 = g1.Advance();
    const Decision& d2 = g2.Advance();
    ASSERT_EQ(d1.player, 0);
    ASSERT_EQ(d1.actions, d2.actions);
    Rng r1(seed), r2(seed);
    Game x1 = Determinize(g1, 0, r1), x2 = Determinize(g2, 0, r2);
    for (ObjId o = 0; o < x1.state().obj.count; ++o)
      EXPECT_EQ(x1.state().obj.card[o], x2.state().obj.card[o]) << "object " << o;
    auto m1 = MakePolicy("mc:rollouts=8;depth=60", seed),
         m2 = MakePolicy("mc:rollouts=8;depth=60", seed);
    EXPECT_EQ((*m1)->ChooseFor(g1, d1), (*m2)->ChooseFor(g2, d2));
    ++compared;
  }
  EXPECT_EQ(compared, 6);
}

TEST_F(PolicyTest, McChoosesLegalActionsAndFinishesGames) {
  int n = 0;
  Play("mc:rollouts=4;depth=40", "heuristic", 3, 0, 1, nullptr, &n);
  EXPECT_GT(n, 10);
}

// mc overrules its default only after verifying: the two actions are played
// again in kVerify x rollouts new determinizations first.
TEST_F(PolicyTest, McVerifiesBeforeOverrulingItsDefault) {
  McPolicy::Params params;
  params.rollouts = 2;
  params.depth = 14;
  int verified = 0, overruled = 0;
  PlayMcAgainstHeuristic(params, 1, 0, [&](const Decision&, const McPolicy& mc) {
    if (mc.last().overruled) {
      ++overruled;
      EXPECT_TRUE(mc.last().verified);
      EXPECT_GE(mc.last().rollouts, 2 * McPolicy::kVerify * params.rollouts);
    }
    verified += mc.last().verified;
  });
  EXPECT_GT(verified, 0);
  EXPECT_GT(overruled, 0);
  EXPECT_GE(verified, overruled);
}

// A deck holding a counterspell has its interrupts and batch responses
// weighed by the rollouts; a deck without one only its attacks there.
TEST_F(PolicyTest, McWeighsInterruptsAndResponsesOnlyForACounterspellDeck) {
  McPolicy::Params params;
  params.rollouts = 2;
  params.depth = 14;
  // {mc's deck, the heuristic's deck}: blue_control has Counterspell,
  // red_burn has none.
  for (auto [mine, theirs] : {std::pair{2, 3}, std::pair{1, 0}}) {
    int weighed = 0, windows = 0;
    PlayMcAgainstHeuristic(params, mine, theirs, [&](const Decision& d, const McPolicy& mc) {
      const bool window = d.kind == DecisionKind::kInterrupt || d.kind == DecisionKind::kRespond;
      bool attack = false;
      for (const Action& a : d.actions) attack |= a.kind == ActionKind::kAttack;
      if (window && !attack && d.actions.size() > 1) {
        ++windows;
        weighed += mc.last().rollouts > 0;
      }
    });
    if (mine == 2) {
      EXPECT_GT(windows, 0);
      EXPECT_GT(weighed, 0) << "blue_control";
    } else {
      EXPECT_GT(windows, 0);
      EXPECT_EQ(weighed, 0) << "red_burn";
    }
  }
}

// A deck holding a counterspell plays its rollouts to the end of the next
// turn; a deck without one stops them after `depth` decisions.
TEST_F(PolicyTest, McRollsACounterspellDeckToTheEndOfTheNextTurn) {
  McPolicy::Params params;
  params.rollouts = 2;
  params.depth = 14;
  for (auto [mine, theirs] : {std::pair{2, 3}, std::pair{1, 0}}) {
    int weighed = 0, to_turn_end = 0;
    PlayMcAgainstHeuristic(params, mine, theirs, [&](const Decision&, const McPolicy& mc) {
      if (mc.last().rollouts == 0) return;
      ++weighed;
      to_turn_end += mc.last().last_turn > 0;
    });
    EXPECT_GT(weighed, 0);
    EXPECT_EQ(to_turn_end, mine == 2 ? weighed : 0) << (mine == 2 ? "blue_control" : "red_burn");
  }
}

TEST_F(PolicyTest, PolicyPairsOnTheCommandLine) {
  auto one = ParsePolicyPair("heuristic");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ((*one)[0], "heuristic");
  EXPECT_EQ((*one)[1], "heuristic");
  // A ',' followed by name=value continues mc's parameters.
  auto mixed = ParsePolicyPair("mc:rollouts=8,depth=20,rollout=heuristic:style=control,passive");
  ASSERT_TRUE(mixed.ok()) << mixed.status();
  EXPECT_EQ((*mixed)[0], "mc:rollouts=8,depth=20,rollout=heuristic:style=control");
  EXPECT_EQ((*mixed)[1], "passive");
  EXPECT_EQ((*MakePolicy((*mixed)[0], 1))->Name(),
            "mc:rollouts=8,depth=20,rollout=heuristic:style=control,margin=0.02,decide=tactical");
  EXPECT_EQ((*MakePolicy("mc:decide=all", 1))->Name(),
            "mc:rollouts=8,depth=40,rollout=heuristic,margin=0.02,decide=all");
  auto decide = ParsePolicyPair("mc:decide=everything");
  ASSERT_FALSE(decide.ok());
  EXPECT_THAT(std::string(decide.status().message()), HasSubstr("parameter 'decide': expected"));
  auto three = ParsePolicyPair("random,random,random");
  ASSERT_FALSE(three.ok());
  EXPECT_THAT(std::string(three.status().message()), HasSubstr("expected one policy or two"));
  auto bad = ParsePolicyPair("heuristic,mc:rollouts=0");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("parameter 'rollouts': expected an integer from 1 to 100000, got '0'"));
  auto nested = ParsePolicyPair("heuristic,mc:rollout=mc");  // no mc inside mc
  ASSERT_FALSE(nested.ok());
  EXPECT_THAT(std::string(nested.status().message()),
              HasSubstr("parameter 'rollout': expected a policy other than mc, got 'mc'"));
  auto passive = ParsePolicyPair("passive:x=1");
  ASSERT_FALSE(passive.ok());
  EXPECT_THAT(std::string(passive.status().message()),
              HasSubstr("policy 'passive:x=1': passive takes no parameters"));
}

// A list of any length (strata bench --policies), split as a pair is.
TEST(PolicyList, SplitsAndChecksEverySpec) {
  auto three = ParsePolicyList("random,mc:rollouts=2,depth=14,heuristic:style=control");
  ASSERT_TRUE(three.ok()) << three.status();
  EXPECT_THAT(*three, ::testing::ElementsAre("random", "mc:rollouts=2,depth=14",
                                             "heuristic:style=control"));
  auto bad = ParsePolicyList("random,heuristic,mc:depth=0");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("parameter 'depth'"));
  EXPECT_FALSE(ParsePolicyList("").ok());
  EXPECT_FALSE(ParsePolicyList("random,").ok());
}

// The passive player passes whenever passing is legal, and its games still
// end (it loses them: it never casts anything).
TEST_F(PolicyTest, PassivePassesWheneverItMay) {
  int passes = 0, heuristic_wins = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    GameOptions opt;
    opt.seed = seed;
    Game g(*db_, opt);
    g.Deal(decks_[seed % 4], decks_[(seed + 1) % 4], 0);
    PassivePolicy passive;
    auto other = *MakePolicy("heuristic", seed);
    for (;;) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      if (d.player == 1) {
        g.Apply(other->ChooseFor(g, d));
        continue;
      }
      const int i = passive.ChooseFor(g, d);
      ASSERT_LT(i, static_cast<int>(d.actions.size()));
      bool can_pass = false;
      for (const Action& a : d.actions) can_pass |= a.kind == ActionKind::kPass;
      if (can_pass) {
        EXPECT_EQ(d.actions[i].kind, ActionKind::kPass) << DecisionKindName(d.kind);
        ++passes;
      }
      g.Apply(i);
    }
    heuristic_wins += g.Winner() == 1;
  }
  EXPECT_GT(passes, 10);  // enough decisions were checked
  EXPECT_EQ(heuristic_wins, 4);
}

// Reset(seed) makes a used policy play exactly like a new one built with
// that seed, so runners and rollouts can reuse policies.
TEST_F(PolicyTest, ResetIsLikeNew) {
  for (const char* spec : {"random", "heuristic:style=control", "mc:rollouts=2,depth=8"}) {
    auto play = [&](Policy& p, uint64_t seed) {
      GameOptions opt;
      opt.seed = seed;
      opt.log = true;
      Game g(*db_, opt);
      g.Deal(decks_[1], decks_[0], 0);
      auto other = *MakePolicy("heuristic", 99);
      for (;;) {
        const Decision& d = g.Advance();
        if (d.kind == DecisionKind::kNone) break;
        g.Apply(d.player == 0 ? p.ChooseFor(g, d) : other->ChooseFor(g, d));
      }
      return g.log();
    };
    auto used = *MakePolicy(spec, 5);
    auto first = play(*used, 11);
    used->Reset(7);
    auto fresh = *MakePolicy(spec, 7);
    auto again = play(*used, 12);
    EXPECT_EQ(again, play(*fresh, 12)) << spec;
    EXPECT_NE(first, again) << spec;  // a different game, so the comparison means something
  }
}

// The leaf score is one player's view of a zero-sum position: the two
// players' scores add up to 1, and a finished game scores 1 for its winner.
TEST_F(PolicyTest, ScorePositionIsZeroSum) {
  GameOptions opt;
  opt.seed = 3;
  Game g(*db_, opt);
  g.Deal(decks_[0], decks_[1], 0);
  auto a = *MakePolicy("heuristic", 1), b = *MakePolicy("heuristic", 2);
  int checked = 0;
  double lowest = 1, highest = 0;
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    const double s0 = ScorePosition(g, 0), s1 = ScorePosition(g, 1);
    EXPECT_NEAR(s0 + s1, 1.0, 1e-12);
    lowest = std::min(lowest, s0), highest = std::max(highest, s0);
    ++checked;
    g.Apply((d.player == 0 ? *a : *b).ChooseFor(g, d));
  }
  ASSERT_GE(g.Winner(), 0);
  EXPECT_EQ(ScorePosition(g, g.Winner()), 1.0);
  EXPECT_EQ(ScorePosition(g, Opponent(g.Winner())), 0.0);
  EXPECT_GT(checked, 20);
  EXPECT_LT(lowest, highest);  // it moves with the game
}

}  // namespace
}  // namespace strata
