// --format (sim/format.h): the bundled formats load, their lists name
// printed cards exactly, a bad format file is refused at its line, a
// card's lines are found in every decklist format, and each kind of
// illegal deck gets its own message.
#include "sim/format.h"

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/bundled.h"

namespace strata {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

const std::string kSetsDir = std::string(STRATA_SOURCE_DIR) + "/data/sets";

FormatRules Oldschool() {
  auto f = LoadFormat("oldschool");
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() && f->has_value() ? **f : FormatRules{};
}

Deck Parse(const std::string& text) {
  auto d = ParseDeck(text, "deck.txt", BundledPool());
  EXPECT_TRUE(d.ok()) << d.status();
  return d.ok() ? *d : Deck{};
}

// A legal Old School deck's main part (60 cards of Alpha to The Dark), to
// which each test adds its one problem.
constexpr char kLegalMain[] = R"(4 Kird Ape
4 Llanowar Elves
4 Grizzly Bears
4 Mons's Goblin Raiders
4 Erhnam Djinn
4 Uthden Troll
4 Lightning Bolt
4 Giant Growth
3 Stone Rain
1 Fireball
1 Sol Ring
1 Strip Mine
4 Taiga
9 Mountain
9 Forest
)";

TEST(FormatTest, NoneIsNoFormat) {
  auto f = LoadFormat("none");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_FALSE(f->has_value());
}

// Loading checks every restricted and banned name against the set lists,
// exactly as spelled there (ParseFormat), so this is also the test that
// oldschool.toml names real cards of its sets.
TEST(FormatTest, OldschoolLoadsWithItsLists) {
  const FormatRules f = Oldschool();
  EXPECT_EQ(f.name, "oldschool");
  EXPECT_EQ(f.list_date, "2019-09-07");
  EXPECT_THAT(f.sets, ElementsAre("LEA", "2ED", "ARN", "ATQ", "LEG", "DRK", "FEM"));
  EXPECT_EQ(f.main_deck_min, 60);
  EXPECT_EQ(f.sideboard_max, 15);
  EXPECT_EQ(f.copies_max, 4);
  EXPECT_THAT(f.restricted, SizeIs(22));
  EXPECT_THAT(f.banned, SizeIs(7));
  EXPECT_TRUE(f.restricted.contains(FoldCardName("Library of Alexandria")));
  EXPECT_FALSE(f.restricted.contains(FoldCardName("Maze of Ith")));  // unrestricted 2019-09-07
  EXPECT_TRUE(f.banned.contains(FoldCardName("Contract from Below")));
  // Names fold: a deck's `Juzam Djinn` is the list's `Juzám Djinn`.
  EXPECT_TRUE(f.legal.contains(FoldCardName("Juzam Djinn")));
  EXPECT_FALSE(f.legal.contains(FoldCardName("Incinerate")));  // Ice Age
}

TEST(FormatTest, UnknownFormatListsTheKnownOnes) {
  auto f = LoadFormat("oldscool");
  ASSERT_FALSE(f.ok());
  EXPECT_THAT(f.status().message(), HasSubstr("unknown format 'oldscool': expected none, "));
  EXPECT_THAT(f.status().message(), HasSubstr("oldschool"));
}

TEST(FormatTest, BadFormatFilesAreRefusedAtTheirLine) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\"]\nbans = []\n",
       "f.toml:4: key 'bans': expected one of the keys of a format file"},
      {"name = \"x\"\nsets = [\"LEA\"]\n", "key 'list_date': expected this required key"},
      {"name = \"x\"\nlist_date = \"2024-13-01\"\nsets = [\"LEA\"]\n",
       "f.toml:2: key 'list_date': expected the date of the restricted and banned lists as "
       "\"YYYY-MM-DD\", got '2024-13-01'"},
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = [\n \"LEA\",\n \"M10\"]\n",
       "f.toml:5: key 'sets': expected a set code with a card list in"},
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = []\n",
       "f.toml:3: key 'sets': expected at least one set code"},
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\"]\nrestricted = [\"Mox Jett\"]\n",
       "f.toml:4: key 'restricted': expected a card name exactly as a set list of `sets` (or "
       "also_legal) writes it, got 'Mox Jett' (printed in none of the format's sets)"},
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\"]\nbanned = [\"black lotus\"]\n",
       "got 'black lotus' (the list writes 'Black Lotus')"},
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\"]\nrestricted = [\"Mind Twist\"]\n"
       "banned = [\"Mind Twist\"]\n",
       "f.toml:5: key 'banned': expected a card not also in restricted, got 'Mind Twist'"},
      {"name = \"x\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\"]\ncopies_max = 4.5\n",
       "f.toml:4: key 'copies_max': expected an integer"},
      {"name = \"x y\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\"]\n",
       "f.toml:1: key 'name': expected a format name of letters, digits, '-' and '_'"},
  };
  for (const auto& c : cases) {
    auto f = ParseFormat(c.text, "f.toml", kSetsDir);
    ASSERT_FALSE(f.ok()) << c.text;
    EXPECT_THAT(f.status().message(), HasSubstr(c.message)) << c.text;
  }
}

TEST(FormatTest, FindsACardsLinesInEveryDecklistFormat) {
  const CardDb& db = BundledPool();
  const CardId bolt = db.Find("Lightning Bolt");
  ASSERT_NE(bolt, kNoCard);
  EXPECT_THAT(
      LocateCardLines("# c\n4 Lightning Bolt  # best\nSideboard\n1 lightning bolt\n", db, bolt),
      ElementsAre(2, 4));
  EXPECT_THAT(LocateCardLines("[Main]\n4 Lightning Bolt|LEA|1\n4 Shock|M19\n", db, bolt),
              ElementsAre(2));
  EXPECT_THAT(LocateCardLines("Deck\n4 Shock (M19) 156\n4 Lightning Bolt (M10) 146\n", db, bolt),
              ElementsAre(3));
  EXPECT_THAT(
      LocateCardLines("// NAME : x\n4x Lightning Bolt\nSB: 1 [LEA] Lightning Bolt\n", db, bolt),
      ElementsAre(2, 3));
  EXPECT_THAT(LocateCardLines("4 Chain Lightning\n4 Shock\n", db, bolt), IsEmpty());
}

TEST(FormatTest, ALegalDeckHasNoProblem) {
  Deck d = Parse(std::string(kLegalMain) + "Sideboard\n4 Red Elemental Blast\n");
  EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(), d, ""), IsEmpty());
}

TEST(FormatTest, TooFewCards) {
  Deck d = Parse(std::string(kLegalMain) + "Sideboard\n");
  d.main.resize(56);
  EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(), d, ""),
              ElementsAre("deck: the main deck has 56 cards; oldschool needs at least 60"));
}

TEST(FormatTest, SideboardTooBig) {
  Deck d = Parse(std::string(kLegalMain) +
                 "Sideboard\n4 Red Elemental Blast\n4 Shatter\n4 Tranquility\n4 Disenchant\n");
  EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(), d, ""),
              ElementsAre("deck: the sideboard has 16 cards; oldschool allows at most 15"));
}

TEST(FormatTest, ACardOfALaterSet) {
  std::string text = kLegalMain;
  text.replace(text.find("4 Lightning Bolt"), 16, "4 Incinerate");
  EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(), Parse(text), ""),
              ElementsAre("deck: 'Incinerate' is not printed in an allowed set of oldschool "
                          "(LEA, 2ED, ARN, ATQ, LEG, DRK, FEM)"));
}

TEST(FormatTest, RestrictedCopiesCountTheSideboard) {
  EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(),
                           Parse(std::string(kLegalMain) + "Sideboard\n1 Sol Ring\n"), ""),
              ElementsAre("deck: 'Sol Ring' is restricted in oldschool (list of 2019-09-07): at "
                          "most 1 copy, the sideboard counting with the main deck; this deck has "
                          "2 (1 in the main deck, 1 in the sideboard)"));
}

TEST(FormatTest, FourCopiesButBasicLands) {
  // Nine Mountains are fine (basic); a fifth Lightning Bolt is not.
  EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(),
                           Parse(std::string(kLegalMain) + "Sideboard\n1 Lightning Bolt\n"), ""),
              ElementsAre(HasSubstr("'Lightning Bolt': oldschool allows at most 4 copies of a "
                                    "card but a basic land")));
}

TEST(FormatTest, ABannedCard) {
  // No card of oldschool's banned list (the ante cards) is in the pool
  // yet: a format of the test's own bans one that is.
  auto f = ParseFormat(
      "name = \"house\"\nlist_date = \"2024-01-01\"\nsets = [\"LEA\", \"ARN\", \"ATQ\"]\n"
      "banned = [\"Lightning Bolt\"]\n",
      "house.toml", kSetsDir);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_THAT(DeckProblems(*f, BundledPool(), Parse(kLegalMain), ""),
              ElementsAre("deck: 'Lightning Bolt' is banned in house (list of 2024-01-01): no "
                          "copy in the deck nor its sideboard; this deck has 4 (4 in the main "
                          "deck)"));
}

TEST(FormatTest, EveryProblemOnce) {
  Deck d = Parse(
      "4 Kird Ape\n5 Lightning Bolt\n4 Shock\n2 Ancestral Recall\n9 Mountain\n20 Forest\n"
      "Sideboard\n1 Ancestral Recall\n4 Shatter\n4 Tranquility\n4 Red Elemental Blast\n"
      "4 Disenchant\n");
  EXPECT_THAT(
      DeckProblems(Oldschool(), BundledPool(), d, ""),
      ElementsAre(HasSubstr("the main deck has 44 cards"), HasSubstr("the sideboard has 17 cards"),
                  HasSubstr("'Lightning Bolt': oldschool allows at most 4"),
                  HasSubstr("'Shock' is not printed"),
                  HasSubstr("'Ancestral Recall' is restricted in oldschool")));
}

TEST(FormatTest, MessagesNameTheFileAndLine) {
  const std::string path = std::string(STRATA_SOURCE_DIR) + "/tests/decks/format/several.dck";
  auto d = LoadDeckFile(path, BundledPool());
  ASSERT_TRUE(d.ok()) << d.status();
  const std::vector<std::string> problems = DeckProblems(Oldschool(), BundledPool(), *d, path);
  ASSERT_THAT(problems, SizeIs(5));
  EXPECT_THAT(problems[0], HasSubstr(path + ": the main deck has 54 cards"));
  EXPECT_THAT(problems[2], HasSubstr(path + ":11: 'Lightning Bolt'"));
  EXPECT_THAT(problems[3], HasSubstr(path + ":12: 'Shock'"));
  EXPECT_THAT(problems[4], HasSubstr(path + ":13: 'Ancestral Recall'"));
  EXPECT_THAT(problems[4], HasSubstr("(lines 13, 23)"));
}

// Every bundled Old School deck (data/decks/oldschool, once issue 38
// brings it) is legal in the format.
TEST(FormatTest, BundledOldschoolDecksAreLegal) {
  const std::filesystem::path dir = BundledDecksDir() + "/oldschool";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " does not exist yet";
  int decks = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    auto d = LoadDeckFile(e.path().string(), BundledPool());
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_THAT(DeckProblems(Oldschool(), BundledPool(), *d, e.path().string()), IsEmpty());
    ++decks;
  }
  EXPECT_GT(decks, 0) << "no deck in " << dir;
}

}  // namespace
}  // namespace strata
