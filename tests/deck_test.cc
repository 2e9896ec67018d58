// Deck lists: COUNT NAME lines, comments, a Sideboard section, and clear
// errors naming the line and the closest known cards.
#include "engine/deck.h"

#include <filesystem>

#include "engine/card_loader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

class DeckTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new CardDb;
    ASSERT_TRUE(LoadCards({STRATA_SOURCE_DIR "/data/cards"}, *db_).ok());
  }
  static void TearDownTestSuite() { delete db_; }
  static CardDb* db_;
};
CardDb* DeckTest::db_ = nullptr;

TEST_F(DeckTest, ParsesCountsCommentsAndSideboard) {
  auto d = ParseDeck(R"(# a comment
20 Forest
20 Grizzly Bears  # trailing comment

Sideboard
3 Giant Growth
)",
                     "bears.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->name, "bears");
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_EQ(d->sideboard.size(), 3u);
  EXPECT_EQ(d->main[0], db_->Find("Forest"));
  EXPECT_EQ(d->main[39], db_->Find("Grizzly Bears"));
}

TEST_F(DeckTest, UnknownCardNamesTheLineAndClosestCards) {
  auto d = ParseDeck("20 Forest\n20 Grizzly Baers\n", "deck.txt", *db_);
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(std::string(d.status().message()),
              HasSubstr("deck.txt:2: unknown card 'Grizzly Baers' (closest: Grizzly Bears"));
}

TEST_F(DeckTest, BadLineAndTooSmall) {
  auto d = ParseDeck("Forest\n", "deck.txt", *db_);
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(
      std::string(d.status().message()),
      HasSubstr("deck.txt:1: expected `COUNT NAME` (e.g. `4 Lightning Bolt`), got 'Forest'"));
  auto small = ParseDeck("10 Forest\n", "small.txt", *db_);
  ASSERT_FALSE(small.ok());
  EXPECT_THAT(std::string(small.status().message()),
              HasSubstr("small.txt: a deck needs at least 40 cards, this one has 10"));
}

// Decks up to kMaxDeckCards (half the engine's objects) load, with any
// count per line in range; bigger ones are refused naming the limit.
TEST_F(DeckTest, BigDecksUpToTheEngineCapacity) {
  auto d = ParseDeck("150 Grizzly Bears\n106 Forest\n", "big.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->main.size(), static_cast<size_t>(kMaxDeckCards));
  EXPECT_EQ(kMaxDeckCards, 256);
  auto over = ParseDeck("150 Grizzly Bears\n107 Forest\n", "over.txt", *db_);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().message(),
            "over.txt: a deck holds at most 256 cards (a game holds 512 objects, two decks), "
            "this one has 257");
}

TEST_F(DeckTest, CountOutOfRangeSaysTheRange) {
  for (const char* line :
       {"300 Grizzly Bears", "0 Forest", "-4 Forest", "99999999999999999999999 Forest"}) {
    auto d = ParseDeck(std::string("40 Forest\n") + line + "\n", "deck.txt", *db_);
    ASSERT_FALSE(d.ok()) << line;
    std::string count(line, std::string(line).find(' '));
    EXPECT_EQ(d.status().message(), "deck.txt:2: count " + count +
                                        " is out of range: expected 1 to 256 copies (a deck "
                                        "holds at most 256 cards)");
  }
  auto bad = ParseDeck("1e9 Forest\n", "deck.txt", *db_);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("deck.txt:1: expected `COUNT NAME`"));
}

TEST_F(DeckTest, EveryBundledDeckLoads) {
  int decks = 0;
  for (auto& e : std::filesystem::directory_iterator(STRATA_SOURCE_DIR "/data/decks")) {
    auto d = LoadDeckFile(e.path().string(), *db_);
    EXPECT_TRUE(d.ok()) << d.status();
    if (d.ok()) {
      EXPECT_TRUE(d->main.size() == 40 || d->main.size() == 60) << e.path();
    }
    ++decks;
  }
  EXPECT_GE(decks, 2);
}

}  // namespace
}  // namespace strata
