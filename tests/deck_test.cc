// Deck lists: strata's COUNT NAME lines, comments, a Sideboard section;
// Forge .dck, MTGA exports and .dec/MWS files recognised by content; labels
// made unique; and clear errors naming the line and the closest known cards.
#include "engine/deck.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/card_pool.h"
#include "tests/bundled.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

// The multiset of a deck part, for comparing decks read from different formats.
std::vector<CardId> Sorted(std::vector<CardId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

class DeckTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = &BundledPool(); }
  static const CardDb* db_;
};
const CardDb* DeckTest::db_ = nullptr;

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
  // Subfolders too (data/decks/classic: decks kept out of the default study).
  for (auto& e : std::filesystem::recursive_directory_iterator(BundledDecksDir())) {
    if (!e.is_regular_file()) continue;
    auto d = LoadDeckFile(e.path().string(), *db_);
    EXPECT_TRUE(d.ok()) << d.status();
    if (d.ok()) {
      EXPECT_TRUE(d->main.size() == 40 || d->main.size() == 60) << e.path();
    }
    ++decks;
  }
  EXPECT_GE(decks, 2);
}

// The same burn deck as a Forge .dck, an MTGA export and a .dec: each is
// recognised, names itself or takes its file name, and reads the same 40
// main cards; the sideboards (5, 5 and 6 cards) are kept apart.
TEST_F(DeckTest, ForgeDckWithSideboardAndSetCodes) {
  auto d = LoadDeckFile(STRATA_SOURCE_DIR "/tests/decks/forge_burn.dck", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->format, DeckFormat::kForge);
  EXPECT_EQ(d->name, "Forge Burn");
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_EQ(std::count(d->main.begin(), d->main.end(), db_->Find("Lightning Bolt")), 4);
  EXPECT_EQ(std::count(d->main.begin(), d->main.end(), db_->Find("Fireball")), 2);  // set ZZZ
  EXPECT_EQ(Sorted(d->sideboard),
            Sorted({db_->Find("Pyroblast"), db_->Find("Pyroblast"), db_->Find("Pyroblast"),
                    db_->Find("Red Elemental Blast"), db_->Find("Red Elemental Blast")}));
}

TEST_F(DeckTest, ArenaExportWithSideboard) {
  auto d = LoadDeckFile(STRATA_SOURCE_DIR "/tests/decks/arena_burn.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->format, DeckFormat::kArena);
  EXPECT_EQ(d->name, "arena_burn");
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_EQ(d->sideboard.size(), 5u);
  EXPECT_EQ(std::count(d->sideboard.begin(), d->sideboard.end(), db_->Find("Shatter")), 2);
}

TEST_F(DeckTest, DecWithXCountsAndSbLines) {
  auto d = LoadDeckFile(STRATA_SOURCE_DIR "/tests/decks/mws_burn.dec", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->format, DeckFormat::kDec);
  EXPECT_EQ(d->name, "MWS Burn");  // `// NAME : MWS Burn`
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_EQ(d->sideboard.size(), 6u);
  EXPECT_EQ(std::count(d->sideboard.begin(), d->sideboard.end(), db_->Find("Red Elemental Blast")),
            2);  // `SB:  2 [LEA] Red Elemental Blast`
}

TEST_F(DeckTest, TheThreeFormatsReadTheSameMainDeck) {
  auto forge = LoadDeckFile(STRATA_SOURCE_DIR "/tests/decks/forge_burn.dck", *db_);
  auto arena = LoadDeckFile(STRATA_SOURCE_DIR "/tests/decks/arena_burn.txt", *db_);
  auto dec = LoadDeckFile(STRATA_SOURCE_DIR "/tests/decks/mws_burn.dec", *db_);
  ASSERT_TRUE(forge.ok() && arena.ok() && dec.ok());
  EXPECT_EQ(Sorted(forge->main), Sorted(arena->main));
  EXPECT_EQ(Sorted(forge->main), Sorted(dec->main));
}

// The format comes from what the file says, whatever its name ends with.
TEST_F(DeckTest, RecognisedByContentNotExtension) {
  struct Case {
    const char* file;
    const char* text;
    DeckFormat format;
  } cases[] = {
      {"forge.txt", "[Main]\n40 Forest|LEA\n", DeckFormat::kForge},
      {"plain.dck", "40 Forest\n", DeckFormat::kStrata},
      {"arena.dec", "Deck\n40 Forest (M10) 246\n", DeckFormat::kArena},
      {"arena_no_header", "40 Forest (M10) 246\n", DeckFormat::kArena},
      {"mws.txt", "40 [LEA] Forest\n", DeckFormat::kDec},
      {"dec.dck", "40x Forest\nSB: 1 Forest\n", DeckFormat::kDec},
  };
  for (const Case& c : cases) {
    auto d = ParseDeck(c.text, c.file, *db_);
    ASSERT_TRUE(d.ok()) << c.file << ": " << d.status();
    EXPECT_EQ(d->format, c.format) << c.file;
    EXPECT_EQ(d->main.size(), 40u) << c.file;
  }
}

// `4x` counts are read in every format (many sites export them); the
// plain format reads them too.
TEST_F(DeckTest, XCountsAndWindowsLineEndingsAndByteOrderMark) {
  auto d = ParseDeck(
      "\xEF\xBB\xBF"
      "20x Forest\r\n20X Grizzly Bears\r\nSideboard\r\n2 Shock\r\n",
      "bom.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_EQ(d->sideboard.size(), 2u);
}

// MTGA: a blank line after the main cards starts the sideboard (older
// exports have no `Sideboard` line); `About`/`Name` names the deck;
// `Companion` cards are sideboard cards; strata's own format ignores blank
// lines.
TEST_F(DeckTest, ArenaBlankLineAboutAndCompanion) {
  auto d = ParseDeck(R"(About
Name Bears & Bolts

Companion
1 Shock (M19) 156

Deck
20 Forest (M10) 246
20 Grizzly Bears (M10) 180

2 Giant Growth (M10) 180
)",
                     "export.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->name, "Bears & Bolts");
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_EQ(Sorted(d->sideboard),
            Sorted({db_->Find("Shock"), db_->Find("Giant Growth"), db_->Find("Giant Growth")}));
  auto plain = ParseDeck("20 Forest\n\n20 Grizzly Bears\n", "plain.txt", *db_);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->main.size(), 40u);
  EXPECT_TRUE(plain->sideboard.empty());
}

// An MTGA `Commander` is skipped with one note naming it: the rest is a
// deck strata plays, as a two-player game without a commander.
TEST_F(DeckTest, ArenaCommanderIsSkippedWithANote) {
  auto d = ParseDeck("Commander\n1 Shivan Dragon (M10) 1\n\nDeck\n40 Mountain (M10) 242\n",
                     "brawl.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->main.size(), 40u);
  EXPECT_TRUE(d->sideboard.empty());
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0],
            "brawl.txt: skipped `Commander` 1 card (Shivan Dragon): strata plays `Deck` (and "
            "keeps `Sideboard`), in two-player games without a commander, planes or schemes");
}

TEST_F(DeckTest, ForgeSectionsAndMetadata) {
  auto before = ParseDeck("[metadata]\nName=X\n40 Forest|LEA\n", "a.dck", *db_);
  ASSERT_FALSE(before.ok());
  EXPECT_EQ(before.status().message(),
            "a.dck:3: a card line in [metadata]: expected it under [Main] or [Sideboard], got '40 "
            "Forest'");
  // Forge's other sections are skipped, whatever their lines hold, with
  // one note for the file naming each and its cards.
  auto other = ParseDeck(
      "[Commander]\n1 Shivan Dragon|M10\n[Main]\n40 Forest|LEA\n[Planes]\n1 Naya|HOP\n"
      "1 Sokenzan|HOP\n[Schemes]\nnot a card line\nKey=Value\n2 Plot (ARC) 3\n"
      "[StartInBattle_Reference]\n1 Treasure|T\n[Sideboard]\n2 Shock|M10\n",
      "b.dck", *db_);
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(other->main.size(), 40u);
  EXPECT_EQ(other->sideboard.size(), 2u);
  ASSERT_EQ(other->notes.size(), 1u);
  EXPECT_EQ(other->notes[0],
            "b.dck: skipped [Commander] 1 card (Shivan Dragon), [Planes] 2 cards (Naya, "
            "Sokenzan), [Schemes] 2 cards (Plot), [StartInBattle_Reference] 1 card (Treasure): "
            "strata plays [Main] (and keeps [Sideboard]), in two-player games without a "
            "commander, planes or schemes");
  // An empty section of another kind, other metadata keys and a blank Name=: fine.
  auto ok = ParseDeck("[metadata]\nName=\nDeck Type=constructed\n[Avatar]\n[Main]\n40 Forest\n",
                      "d.dck", *db_);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->name, "d");
  auto meta = ParseDeck("[Main]\nName=Late\n40 Forest\n", "e.dck", *db_);
  ASSERT_FALSE(meta.ok());
  EXPECT_THAT(std::string(meta.status().message()),
              HasSubstr("e.dck:2: expected `COUNT NAME|SET` (a Forge .dck line"));
}

// A line of one format in a file of another is refused, naming both lines.
TEST_F(DeckTest, MixedFormatsAreRefused) {
  auto d = ParseDeck("[Main]\n20 Forest|LEA\n20 Forest (M10) 246\n", "mixed.dck", *db_);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(
      d.status().message(),
      "mixed.dck:3: an MTGA `NAME (SET) NUMBER` line in a file that reads as Forge .dck (line "
      "1: a Forge `[section]` line): expected one decklist format per file");
  auto sb = ParseDeck("Deck\n40 Forest (M10) 246\nSB: 2 Shock\n", "mixed.txt", *db_);
  ASSERT_FALSE(sb.ok());
  EXPECT_THAT(std::string(sb.status().message()),
              HasSubstr("mixed.txt:3: a `SB:` line in a file that reads as MTGA export"));
}

// Errors in the other formats: the line, what was expected, the closest
// card for a misspelt name (set codes stripped first).
TEST_F(DeckTest, ErrorsInOtherFormatsNameTheLine) {
  auto forge = ParseDeck("[Main]\n20 Forest|LEA\n20 Grizzly Baers|LEA|2\n", "f.dck", *db_);
  ASSERT_FALSE(forge.ok());
  EXPECT_THAT(std::string(forge.status().message()),
              HasSubstr("f.dck:3: unknown card 'Grizzly Baers' (closest: Grizzly Bears"));
  auto arena = ParseDeck("Deck\n40 Forest (M10) 246\nSideboard\n0 Shock (M19) 1\n", "a.txt", *db_);
  ASSERT_FALSE(arena.ok());
  EXPECT_EQ(arena.status().message(),
            "a.txt:4: count 0 is out of range: expected 1 to 256 copies (a deck holds at most 256 "
            "cards)");
  auto dec = ParseDeck("40x Forest\nSB: Shock\n", "d.dec", *db_);
  ASSERT_FALSE(dec.ok());
  EXPECT_EQ(dec.status().message(),
            "d.dec:2: expected `COUNT NAME` or `SB: COUNT NAME` (a .dec line, e.g. `4x Lightning "
            "Bolt`), got 'SB: Shock'");
  auto small = ParseDeck("Deck\n20 Forest (M10) 246\n\n20 Forest (M10) 246\n", "s.txt", *db_);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.status().message(),
            "s.txt: a deck needs at least 40 cards, this one has 20 (and 20 in its sideboard)");
}

// Two decks labelled alike: by directory when their directories differ,
// else numbered; a label made so that another deck has is numbered too.
TEST_F(DeckTest, LabelsMadeUnique) {
  auto named = [](std::vector<std::string> names) {
    std::vector<Deck> decks(names.size());
    for (size_t i = 0; i < names.size(); ++i) decks[i].name = names[i];
    return decks;
  };
  auto labels = [](const std::vector<Deck>& decks) {
    std::vector<std::string> out;
    for (auto& d : decks) out.push_back(d.name);
    return out;
  };
  auto a = named({"burn", "stompy", "burn"});
  MakeDeckLabelsUnique(a, {"decks/v1/burn.txt", "decks/stompy.txt", "decks/v2/burn.dck"});
  EXPECT_EQ(labels(a), (std::vector<std::string>{"v1/burn", "stompy", "v2/burn"}));
  auto b = named({"burn", "burn", "burn"});
  MakeDeckLabelsUnique(b, {"d/burn.txt", "d/burn.txt", "e/burn.txt"});
  EXPECT_EQ(labels(b), (std::vector<std::string>{"burn", "burn (2)", "burn (3)"}));
  auto c = named({"burn", "v1/burn", "burn"});
  MakeDeckLabelsUnique(c, {"v1/burn.txt", "x/y.txt", "v2/burn.txt"});
  EXPECT_EQ(labels(c), (std::vector<std::string>{"v1/burn", "v1/burn (2)", "v2/burn"}));
}

// A sideboard card strata lacks leaves the sideboard with a note naming it
// and its line; the same card in the main deck is an error.
TEST_F(DeckTest, UnknownSideboardCardIsANote) {
  auto d = ParseDeck("40 Forest\nSideboard\n2 Shock\n1 Goblin Welder\n3 Camel\n", "sb.txt", *db_);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->sideboard.size(), 2u);
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(d->notes[0],
            "sb.txt: sideboard: left out 2 unknown cards: 'Goblin Welder' (line 4), 'Camel' (line "
            "5) (no game plays the sideboard)");
  EXPECT_EQ(DeckNotes(*d),
            (std::vector<std::string>{
                "sb: sideboard: 2 cards, not used (games are single games of the main deck)",
                d->notes[0]}));
  auto dec = ParseDeck("40 Forest\nSB: 1 Goblin Welder\n", "sb.dec", *db_);
  ASSERT_TRUE(dec.ok()) << dec.status();
  EXPECT_TRUE(dec->sideboard.empty());
  EXPECT_EQ(dec->notes.size(), 1u);
  auto main = ParseDeck("39 Forest\n1 Goblin Welder\nSideboard\n1 Camel\n", "m.txt", *db_);
  ASSERT_FALSE(main.ok());
  EXPECT_THAT(std::string(main.status().message()),
              HasSubstr("m.txt:2: unknown card 'Goblin Welder'"));
}

// Names in the spellings decklist tools write: any letter case, accents
// dropped or kept, Æ or AE, typographic apostrophes, spaces doubled, a
// split card's `//` or `/`.
TEST_F(DeckTest, NamesFoldAccentsCaseAndLigatures) {
  EXPECT_EQ(FoldCardName("Juz\u00e1m Djinn"), "juzam djinn");
  EXPECT_EQ(FoldCardName("JUZ\u00c1M  DJINN "), "juzam djinn");
  EXPECT_EQ(FoldCardName("\u00c6ther Storm"), "aether storm");
  EXPECT_EQ(FoldCardName("AEther Storm"), "aether storm");
  EXPECT_EQ(FoldCardName("Lim-D\u00fbl's Hex"), "lim-dul's hex");
  EXPECT_EQ(FoldCardName("Mons\u2019s Goblin Raiders"), "mons's goblin raiders");
  EXPECT_EQ(FoldCardName("Fire // Ice"), "fire/ice");
  EXPECT_EQ(FoldCardName("Fire/Ice"), "fire/ice");
  EXPECT_EQ(FoldCardName("Fire / Ice"), "fire/ice");
  CardDb db;
  ASSERT_TRUE(LoadCards({BundledCardsDir(),
                         std::string(STRATA_SOURCE_DIR) + "/tests/cards_extra/spellings.toml"},
                        db)
                  .ok());
  const CardId juzam = db.Find("Juz\u00e1m Djinn");
  const CardId wisp = db.Find("\u00c6ther Test Wisp");
  ASSERT_NE(juzam, kNoCard);
  ASSERT_NE(wisp, kNoCard);
  EXPECT_EQ(db.Find("Juzam Djinn"), juzam);
  EXPECT_EQ(db.Find("juzam djinn"), juzam);
  EXPECT_EQ(db.Find("AEther Test Wisp"), wisp);
  EXPECT_EQ(db.Find("Aether test wisp"), wisp);
  EXPECT_EQ(db.Find("Mons\u2019s Goblin Raiders"), db.Find("Mons's Goblin Raiders"));
  EXPECT_EQ(db.Find("Juzam"), kNoCard);  // folding is no prefix match
  auto d =
      LoadDeckFile(std::string(STRATA_SOURCE_DIR) + "/tests/decks/real/dec_folded_names.dec", db);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(std::count(d->main.begin(), d->main.end(), juzam), 8);
  EXPECT_EQ(std::count(d->main.begin(), d->main.end(), wisp), 8);
  EXPECT_EQ(d->sideboard, (std::vector<CardId>{wisp, wisp}));
}

// Suggestions weigh whole words: a word of the name finds the card, a
// misspelt word its card; a name near no card suggests none, and says how
// to search the pool.
TEST_F(DeckTest, ClosestWeighsWholeWords) {
  EXPECT_EQ(db_->Closest("Bolt").front(), "Lightning Bolt");
  EXPECT_EQ(db_->Closest("Grizzly Baers").front(), "Grizzly Bears");
  EXPECT_EQ(db_->Closest("Lightning Blot").front(), "Lightning Bolt");
  EXPECT_EQ(db_->Closest("Mons Goblin Raiders").front(), "Mons's Goblin Raiders");
  EXPECT_EQ(db_->Closest("Camel"), std::vector<std::string>{});
  EXPECT_EQ(db_->ClosestNote("Camel"),
            absl::StrCat("no card of the pool of ", db_->PoolSize(),
                         " has a name close to it; `strata cards list --name TEXT` searches it"));
  EXPECT_THAT(db_->ClosestNote("Giant Grwth"), HasSubstr("closest: Giant Growth"));
}

TEST_F(DeckTest, SideboardNote) {
  Deck d;
  d.name = "burn";
  EXPECT_EQ(SideboardNote(d), "");
  d.sideboard.assign(15, db_->Find("Shock"));
  EXPECT_EQ(SideboardNote(d),
            "burn: sideboard: 15 cards, not used (games are single games of the main deck)");
}

// Old spellings (data/card_aliases.toml, issue 37): read with the pool by
// LoadPool, beside data/cards. A deck naming a card by one gets the card
// and a note naming the line; without the aliases, and for a name that is
// neither, the unknown-card error as before.
TEST(DeckAliases, OldSpellingLoadsTheCardWithANote) {
  CardDb db;
  ASSERT_TRUE(LoadPool({BundledCardsDir()}, false, db).ok());
  const CardId djinn = db.Find("Erhnam Djinn");
  ASSERT_NE(djinn, kNoCard);
  EXPECT_EQ(db.Find("Ernham Djinn"), kNoCard);  // Find itself knows no alias
  EXPECT_EQ(db.FindAlias("ernham  djinn"), djinn);
  auto d = ParseDeck("20 Forest\n4 Ernham Djinn\n16 Grizzly Bears\n", "old.txt", db);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(std::count(d->main.begin(), d->main.end(), djinn), 4);
  EXPECT_THAT(d->notes, ::testing::ElementsAre(
                            "old.txt:2: 'Ernham Djinn' is an old spelling of 'Erhnam Djinn'; "
                            "loaded as that"));
  auto same = ParseDeck("20 Forest\n4 Erhnam Djinn\n16 Grizzly Bears\n", "new.txt", db);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->main, d->main);
  EXPECT_TRUE(same->notes.empty());

  auto typo = ParseDeck("20 Forest\n4 Ernhem Djinn\n16 Grizzly Bears\n", "typo.txt", db);
  ASSERT_FALSE(typo.ok());
  EXPECT_THAT(std::string(typo.status().message()),
              HasSubstr("typo.txt:2: unknown card 'Ernhem Djinn' (closest: Erhnam Djinn"));
  // LoadCards alone (no aliases file): the old spelling is unknown.
  auto without =
      ParseDeck("20 Forest\n4 Ernham Djinn\n16 Grizzly Bears\n", "old.txt", BundledPool());
  ASSERT_FALSE(without.ok());
  EXPECT_THAT(std::string(without.status().message()),
              HasSubstr("old.txt:2: unknown card 'Ernham Djinn' (closest: Erhnam Djinn"));
}

// An aliases file naming a card the pool lacks, or an old name that is a
// card's own, is refused with the line.
TEST(DeckAliases, BadAliasesRefused) {
  CardDb db;
  ASSERT_TRUE(LoadPool({BundledCardsDir()}, false, db).ok());
  const std::string path = ::testing::TempDir() + "/bad_card_aliases.toml";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("[aliases]\n\"Grizly Bears\" = \"Grizzly Baers\"\n\"Forest\" = \"Island\"\n", f);
    std::fclose(f);
  }
  absl::Status st = LoadCardAliases(path, db);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()),
              HasSubstr(":2: key 'Grizly Bears': expected the name of a card of the pool, got "
                        "'Grizzly Baers' (closest: Grizzly Bears"));
  EXPECT_THAT(std::string(st.message()),
              HasSubstr(":3: key 'Forest': expected a name no card of the pool has; 'Forest' is a "
                        "card"));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace strata
