// The conformance suite: every policy in every rules edition plays random
// games on the bundled decks, under every mulligan rule, with the kit's
// checks at every decision (tests/conformance/README.md). A new policy or
// edition joins by a line in kPolicies or kEditions; a policy that
// PolicyTable() holds and the kit does not fails EveryPolicyIsInTheKit.
#include "tests/conformance/conformance.h"

#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/rng.h"
#include "gtest/gtest.h"
#include "policies/policy.h"
#include "policies/policy_table.h"
#include "tests/bundled.h"

namespace strata::conformance {
namespace {

// Every policy, with settings small enough for a test (mc looks one
// rollout of six decisions ahead).
const std::vector<std::string> kPolicies = {"random", "heuristic", "passive",
                                            "mc:rollouts=1,depth=6"};
const std::vector<Edition> kEditions = {Edition::kClassic, Edition::kM10, Edition::kModern};
const std::vector<Mulligan> kMulligans = {Mulligan::kNone, Mulligan::kParis, Mulligan::kLondon};
// Games per mulligan rule in each policy x edition: half of them the policy
// against itself, half against another (random, or heuristic for random).
constexpr int kGamesPerMulligan = 4;

struct Param {
  std::string policy;
  Edition edition;
};

// gtest prints the parameter in test lists and failures.
void PrintTo(const Param& p, std::ostream* os) {
  *os << p.policy << " " << EditionName(p.edition);
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  std::string name = info.param.policy.substr(0, info.param.policy.find(':'));
  return name + "_" + std::string(EditionName(info.param.edition));
}

std::vector<Param> AllParams() {
  std::vector<Param> out;
  for (const std::string& p : kPolicies)
    for (Edition e : kEditions) out.push_back({p, e});
  return out;
}

// How to play a failing game again.
std::string Describe(const GameSetup& s) {
  return absl::StrCat("policies ", s.policies[0], " vs ", s.policies[1], ", ",
                      std::string(EditionName(s.edition)), ", mulligan ",
                      std::string(MulliganName(s.mulligan)), ", ", s.a.name, " vs ", s.b.name, ", ",
                      s.first ? "B" : "A", " first, seed ", s.seed);
}

class Conformance : public ::testing::TestWithParam<Param> {};

TEST_P(Conformance, RandomGamesPassEveryCheck) {
  const Param& param = GetParam();
  const std::vector<Deck> decks = BundledDecks(BundledDeckNames());
  ASSERT_GE(decks.size(), 2u);
  const std::string other = param.policy == "random" ? "heuristic" : "random";
  std::array<uint64_t, kCheckCount> checks{};
  int64_t decisions = 0;
  int games = 0;
  for (Mulligan mulligan : kMulligans) {
    for (int i = 0; i < kGamesPerMulligan; ++i, ++games) {
      GameSetup s;
      s.seed = Rng::GameSeed(0xC0FFEEu + static_cast<uint64_t>(param.edition),
                             static_cast<uint64_t>(games));
      Rng pick(s.seed);
      s.a = decks[pick.Below(static_cast<uint32_t>(decks.size()))];
      s.b = decks[pick.Below(static_cast<uint32_t>(decks.size()))];
      s.edition = param.edition;
      s.mulligan = mulligan;
      s.first = static_cast<Player>(games % 2);
      // The policy plays itself, then another from either seat.
      s.policies = {param.policy, param.policy};
      if (i % 2 == 1) s.policies[(i / 2) % 2] = other;
      const Report r = PlayGame(BundledPool(), s);
      ASSERT_TRUE(r.ok()) << r.failure << "\n  in game " << games << ": " << Describe(s);
      for (int c = 0; c < kCheckCount; ++c) checks[c] += r.checks[c];
      decisions += r.decisions;
    }
  }
  // Every check ran, and at every decision where it is made at each one.
  for (int c = 0; c < kCheckCount; ++c)
    EXPECT_GT(checks[c], 0u) << CheckName(static_cast<Check>(c)) << " never ran";
  for (Check c : {Check::kOffered, Check::kRefused, Check::kChoice, Check::kInvariants})
    EXPECT_EQ(checks[static_cast<int>(c)], static_cast<uint64_t>(decisions)) << CheckName(c);
  EXPECT_EQ(checks[static_cast<int>(Check::kReplay)], static_cast<uint64_t>(games));
}

INSTANTIATE_TEST_SUITE_P(Kit, Conformance, ::testing::ValuesIn(AllParams()), ParamName);

// The policies MakePolicy knows, by the names its help lists ("  name..."
// lines): each must be in kPolicies, so a policy added to the registry
// without joining the kit fails here.
TEST(ConformanceKit, EveryPolicyIsInTheKit) {
  std::set<std::string> known;
  for (const PolicyEntry& entry : PolicyTable()) known.insert(std::string(entry.name));
  ASSERT_FALSE(known.empty()) << "no policy in PolicyTable()";
  std::set<std::string> in_kit;
  for (const std::string& spec : kPolicies) in_kit.insert(spec.substr(0, spec.find(':')));
  for (const std::string& name : known)
    EXPECT_TRUE(in_kit.count(name)) << "policy '" << name << "' is not in the conformance kit";
  for (const std::string& spec : kPolicies) EXPECT_TRUE(MakePolicy(spec, 1).ok()) << spec;
}

}  // namespace
}  // namespace strata::conformance
