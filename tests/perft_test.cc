// Perft: the number of decision sequences from fixed positions. The counts
// are pinned: a change in them is a change in the rules and must be looked
// at (and the counts updated with the reason in the commit).
#include "engine/perft.h"

#include "engine/card_loader.h"
#include "gtest/gtest.h"
#include "sim/scenario.h"
#include "tests/bundled.h"

namespace strata {
namespace {

class PerftTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = &BundledPool(); }
  static std::vector<uint64_t> Counts(const std::string& file, int depth) {
    auto pos = LoadScenarioPosition(*db_, std::string(STRATA_SOURCE_DIR "/") + file);
    EXPECT_TRUE(pos.ok()) << pos.status();
    std::vector<uint64_t> out;
    for (int d = 1; d <= depth; ++d) out.push_back(Perft(**pos, d));
    return out;
  }
  static const CardDb* db_;
};
const CardDb* PerftTest::db_ = nullptr;

TEST_F(PerftTest, OneForestByHand) {
  // Pass or play the Forest; then B loses drawing from an empty library.
  EXPECT_EQ(Counts("tests/perft/one_forest.toml", 4), (std::vector<uint64_t>{2, 2, 2, 2}));
}

TEST_F(PerftTest, BoltAndBears) {
  // Depth 1: pass, play the Mountain, cast Lightning Bolt, announce an attack.
  EXPECT_EQ(Counts("tests/perft/bolt_and_bears.toml", 6),
            (std::vector<uint64_t>{4, 11, 24, 54, 137, 320}));
}

TEST_F(PerftTest, WarMammothPosition) {
  EXPECT_EQ(Counts("tests/scenarios/seed000_war_mammoth_two_incinerates.toml", 5),
            (std::vector<uint64_t>{3, 9, 18, 53, 125}));
}

TEST_F(PerftTest, FireballInterruptPosition) {
  EXPECT_EQ(Counts("tests/scenarios/seed000_fireball_hydroblast_deathlace.toml", 6),
            (std::vector<uint64_t>{2, 3, 5, 85, 169, 337}));
}

TEST_F(PerftTest, APositionIsNotChangedByCounting) {
  auto pos = LoadScenarioPosition(*db_, STRATA_SOURCE_DIR "/tests/perft/bolt_and_bears.toml");
  ASSERT_TRUE(pos.ok());
  uint64_t version = (*pos)->state().version;
  EXPECT_EQ(Perft(**pos, 4), Perft(**pos, 4));
  EXPECT_EQ((*pos)->state().version, version);
}

}  // namespace
}  // namespace strata
