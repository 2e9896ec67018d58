// Card loader tests (docs/cards.md): every mistake is reported as
// "file:line: card 'NAME': key 'KEY': expected ...", and valid cards compile to
// the printed values the rules need.
#include "engine/card_loader.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/state.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/fingerprint.h"
#include "tests/bundled.h"

namespace strata {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// Loads `toml` as "cards.toml" and returns the error message; fails the test
// if the load succeeded.
std::string LoadError(const std::string& toml) {
  CardDb db;
  absl::Status st = LoadCardsFromString(toml, "cards.toml", db);
  EXPECT_FALSE(st.ok()) << "expected an error for:\n" << toml;
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  return std::string(st.message());
}

// Loads a valid document; fails the test on error.
const CardDef& LoadOne(CardDb& db, const std::string& toml) {
  absl::Status st = LoadCardsFromString(toml, "cards.toml", db);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(db.cards.size(), 1u);
  static const CardDef kEmpty;
  return db.cards.empty() ? kEmpty : db.cards.back();
}

int Subtype(const char* name) {
  auto st = ParseSubtype(name);
  EXPECT_TRUE(st.has_value()) << name;
  return st.value_or(0);
}

// ---------------------------------------------------------------------------
// Mistakes. Each names file, line, card, key and what was expected.

// Numbers the engine holds in narrow fields are refused at load with the
// allowed range: value constants, target numbers, costs, the target total.
TEST(CardLoaderErrors, NumbersOutOfRange) {
  const std::string spell = R"([[card]]
name = "Odd Spell"
cost = "R"
types = ["Instant"]

[card.spell]
)";
  EXPECT_THAT(LoadError(spell + R"(targets = [{ what = "creature_or_player" }]
effects = [{ do = "damage", amount = 40000, target = 1 }]
)"),
              HasSubstr("cards.toml:8: card 'Odd Spell': key 'amount': expected an integer "
                        "between -1000 and 1000, got 40000"));
  EXPECT_THAT(
      LoadError(spell + R"(targets = [{ what = "creature_or_player", max = 4 }, { what = "player" }]
effects = [{ do = "damage", amount = 1, target = 2 }]
)"),
      HasSubstr("key 'targets': expected at most 4 targets in all, each counting its "
                "`max`; got 5"));
  EXPECT_THAT(LoadError(spell + R"(targets = [{ what = "permanent" }]
effects = [{ do = "continuous", affects = { types = ["Creature"] }, exclude_target = 3, parts = [{ layer = "copy", copy_of = 1 }] }]
)"),
              HasSubstr("key 'exclude_target': expected an integer between 1 and 1, got 3"));
  // exclude_target is a continuous effect's: a destroy refuses it.
  EXPECT_THAT(LoadError(spell + R"(targets = [{ what = "permanent" }]
effects = [{ do = "destroy", target = 1, exclude_target = 1 }]
)"),
              HasSubstr("key 'exclude_target': expected one of the keys of a destroy effect"));
  std::string cost = LoadError(R"([[card]]
name = "Pricey"
cost = "{100}G"
types = ["Artifact"]
)");
  EXPECT_THAT(cost, HasSubstr("(at most 100 mana symbols and generic mana), got '{100}G'"));
}

TEST(CardLoaderErrors, EmptyFile) {
  EXPECT_EQ(LoadError("# only a comment\n"),
            "cards.toml: empty card file: expected [[card]] tables");
}

TEST(CardLoaderErrors, UnknownCardKey) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
flavor = "It growls."
types = ["Creature"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:4: card 'Bear': key 'flavor': expected one of the keys "
                             "of card ("));
  EXPECT_THAT(msg, HasSubstr("this key is unknown"));
}

TEST(CardLoaderErrors, UnknownCardType) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creture"]
power = 2
toughness = 2
)");
  // The offending key is on line 4.
  EXPECT_THAT(msg, HasSubstr("cards.toml:4: card 'Bear': key 'types': expected a card type"));
  EXPECT_THAT(msg, HasSubstr("got 'Creture'"));
}

TEST(CardLoaderErrors, NoCardType) {
  std::string msg = LoadError(R"([[card]]
name = "Nothing"
cost = "1"
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:1: card 'Nothing': key 'types': expected at least one "
                             "card type"));
}

TEST(CardLoaderErrors, BadManaCost) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1Q"
types = ["Creature"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:3: card 'Bear': key 'cost': expected a mana cost like"));
  EXPECT_THAT(msg, HasSubstr("unknown symbol 'Q'"));
  EXPECT_THAT(msg, HasSubstr("got '1Q'"));
}

TEST(CardLoaderErrors, BadEquipCost) {
  std::string msg = LoadError(R"([[card]]
name = "Sword"
cost = "2"
types = ["Artifact"]
subtypes = ["Equipment"]
equip = "{2"
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:6: card 'Sword': key 'equip': expected a mana cost"));
  EXPECT_THAT(msg, HasSubstr("unclosed brace"));
}

TEST(CardLoaderErrors, FilterWithUnknownKey) {
  std::string msg = LoadError(R"([[card]]
name = "Aura"
cost = "W"
types = ["Enchantment"]
enchant = { typez = ["Creature"] }
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:5: card 'Aura': key 'typez': expected one of the keys "
                             "of a filter ("));
  EXPECT_THAT(msg, HasSubstr("not_subtypes"));  // lists what is allowed
}

TEST(CardLoaderErrors, FilterWithWrongValueType) {
  std::string msg = LoadError(R"([[card]]
name = "Lord"
cost = "2W"
types = ["Enchantment"]

[[card.static]]
affects = { types = ["Creature"], tapped = "yes" }
parts = [{ layer = "pt_modify", power = 1, toughness = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:7: card 'Lord': key 'tapped': expected true or false"));
}

TEST(CardLoaderErrors, FilterWithUnknownZone) {
  std::string msg = LoadError(R"([[card]]
name = "Counter"
cost = "1"
types = ["Artifact"]

[[card.static]]
affects = { zones = ["deck"] }
parts = [{ layer = "pt_modify", power = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:7: card 'Counter': key 'zones': expected zones among "
                             "battlefield"));
}

TEST(CardLoaderErrors, CreatureMissingPower) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:1: card 'Bear': key 'power': expected a power for a "
                             "creature card"));
}

TEST(CardLoaderErrors, CreatureMissingToughness) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:1: card 'Bear': key 'toughness': expected a toughness "
                             "for a creature card"));
}

TEST(CardLoaderErrors, DuplicateNameNamesBothPlaces) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2

[[card]]
name = "bear"
cost = "2G"
types = ["Creature"]
power = 3
toughness = 3
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:8: card 'bear': key 'name': expected a unique name"));
  EXPECT_THAT(msg, HasSubstr("already defined at cards.toml:1"));
}

TEST(CardLoaderErrors, DuplicateNameAcrossFiles) {
  CardDb db;
  const char* bear = R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2
)";
  ASSERT_TRUE(LoadCardsFromString(bear, "first.toml", db).ok());
  absl::Status st = LoadCardsFromString(std::string("\n\n") + bear, "second.toml", db);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()),
              HasSubstr("second.toml:3: card 'Bear': key 'name': expected a unique name; "
                        "already defined at first.toml:1"));
  EXPECT_EQ(db.cards.size(), 1u);
}

// --override (CardLoadOptions::replace_existing): the later file's card
// takes the earlier one's place and CardId, and the replacement is listed
// naming both places; a name twice in one file stays an error.
TEST(CardLoaderOverride, LaterFileReplacesAndIsReported) {
  CardDb db;
  const char* bear = R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2

[[card]]
name = "Wolf"
cost = "2G"
types = ["Creature"]
power = 2
toughness = 3
)";
  ASSERT_TRUE(LoadCardsFromString(bear, "first.toml", db).ok());
  const CardId id = db.Find("Bear");
  std::vector<std::string> replaced;
  CardLoadOptions options;
  options.replace_existing = true;
  options.replaced = &replaced;
  absl::Status st = LoadCardsFromString(R"(
[[card]]
name = "bear"
cost = "3G"
types = ["Creature"]
power = 5
toughness = 5
)",
                                        "mine.toml", db, options);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(db.cards.size(), 2u);
  EXPECT_EQ(db.Find("Bear"), id);
  EXPECT_EQ(db[id].power, 5);
  EXPECT_EQ(db[id].file, "mine.toml");
  EXPECT_EQ(db[db.Find("Wolf")].toughness, 3);
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced[0], "bear: mine.toml:2 replaces first.toml:1");
}

TEST(CardLoaderOverride, WithoutOverrideTheErrorSaysHow) {
  CardDb db;
  const char* bear = R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2
)";
  ASSERT_TRUE(LoadCardsFromString(bear, "first.toml", db).ok());
  absl::Status st = LoadCardsFromString(bear, "mine.toml", db);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "mine.toml:1: card 'Bear': key 'name': expected a unique name; already defined at "
            "first.toml:1 (--override: the later one replaces it)");
}

TEST(CardLoaderOverride, SameFileTwiceIsAnErrorEvenWithOverride) {
  CardDb db;
  CardLoadOptions options;
  options.replace_existing = true;
  absl::Status st = LoadCardsFromString(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2

[[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 3
toughness = 3
)",
                                        "cards.toml", db, options);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("cards.toml:8: card 'Bear': key 'name': expected a unique name; "
                              "already defined at cards.toml:1"),
                    Not(HasSubstr("--override"))));
}

// `--cards data/cards` on top of the default pool, or a file of a
// directory given too: each file is read once, not a duplicate of itself.
TEST(CardLoaderOverride, AFileReachedTwiceIsReadOnce) {
  CardDb once, twice;
  const std::string cards = BundledCardsDir();
  ASSERT_TRUE(LoadCards({cards}, once).ok());
  absl::Status st = LoadCards({cards, cards + "/../cards/", cards + "/classic.toml"}, twice);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(once.cards.size(), twice.cards.size());
}

// A study records the pool's fingerprint: a card replaced by --override is
// fingerprinted from the file that defines it now, so changing the
// replacement (not the bundled card it hides) is what a resume notices.
TEST(CardLoaderOverride, FingerprintIsTheReplacement) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("strata_override_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const char* name, int power) {
    std::ofstream(dir / name) << "[[card]]\nname = \"Bear\"\ncost = \"1G\"\ntypes = "
                                 "[\"Creature\"]\npower = "
                              << power << "\ntoughness = 2\n";
    return (dir / name).string();
  };
  const std::string base = write("base.toml", 2), mine = write("mine.toml", 4);
  CardLoadOptions options;
  options.replace_existing = true;
  CardDb a;
  ASSERT_TRUE(LoadCards({base, mine}, a, options).ok());
  const std::string before = FingerprintCards(a).at("Bear");
  write("base.toml", 3);  // the hidden card changes: not the pool's
  CardDb b;
  ASSERT_TRUE(LoadCards({base, mine}, b, options).ok());
  EXPECT_EQ(FingerprintCards(b).at("Bear"), before);
  write("mine.toml", 5);  // the replacement changes
  CardDb c;
  ASSERT_TRUE(LoadCards({base, mine}, c, options).ok());
  EXPECT_NE(FingerprintCards(c).at("Bear"), before);
  fs::remove_all(dir);
}

TEST(CardLoaderErrors, UnknownSubtype) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
subtypes = ["Baer"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:5: card 'Bear': key 'subtypes': expected a known "
                             "subtype, got 'Baer'"));
}

TEST(CardLoaderErrors, UnknownSupertype) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
supertypes = ["Mythic"]
types = ["Creature"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:4: card 'Bear': key 'supertypes': expected Basic, "
                             "Legendary, Snow or World, got 'Mythic'"));
}

TEST(CardLoaderErrors, UnknownKeyword) {
  std::string msg = LoadError(R"([[card]]
name = "Bird"
cost = "1W"
types = ["Creature"]
power = 1
toughness = 1
keywords = ["flyng"]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:7: card 'Bird': key 'keywords': expected a keyword "
                             "(flying, first strike, ...), got 'flyng'"));
}

TEST(CardLoaderErrors, UnknownColor) {
  std::string msg = LoadError(R"([[card]]
name = "Ghost"
types = ["Creature"]
colors = ["purple"]
power = 1
toughness = 1
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:4: card 'Ghost': key 'colors': expected a color "
                             "(white, blue, black, red, green), got 'purple'"));
}

TEST(CardLoaderErrors, PartWithUnknownLayer) {
  std::string msg = LoadError(R"([[card]]
name = "Anthem"
cost = "2W"
types = ["Enchantment"]

[[card.static]]
affects = { types = ["Creature"] }
parts = [
  { layer = "pt_sett", power = 1, toughness = 1 },
]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:9: card 'Anthem': key 'layer': expected copy, control, "
                             "text, type, color, ability, pt_set, pt_modify, pt_switch or rule, "
                             "got 'pt_sett'"));
}

TEST(CardLoaderErrors, PartWithKeyOfAnotherLayer) {
  std::string msg = LoadError(R"([[card]]
name = "Anthem"
cost = "2W"
types = ["Enchantment"]

[[card.static]]
parts = [{ layer = "color", power = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:7: card 'Anthem': key 'power': expected one of the keys "
                             "of a color part (layer, set_colors, add_colors)"));
}

TEST(CardLoaderErrors, StaticWithoutParts) {
  std::string msg = LoadError(R"([[card]]
name = "Anthem"
cost = "2W"
types = ["Enchantment"]

[[card.static]]
affects = { types = ["Creature"] }
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:6: card 'Anthem': key 'parts': expected a list of parts"));
}

TEST(CardLoaderErrors, StaticWithEmptyParts) {
  std::string msg = LoadError(R"([[card]]
name = "Anthem"
cost = "2W"
types = ["Enchantment"]

[[card.static]]
affects = { types = ["Creature"] }
parts = []
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:8: card 'Anthem': key 'parts': expected a non-empty "
                             "list of part tables"));
}

TEST(CardLoaderErrors, EffectWithUnknownDo) {
  std::string msg = LoadError(R"([[card]]
name = "Shock"
cost = "R"
types = ["Instant"]

[card.spell]
targets = [{ what = "creature_or_player" }]

[[card.spell.effects]]
do = "burn"
amount = 2
target = 1
)");
  EXPECT_THAT(msg, HasSubstr("card 'Shock': key 'do': expected an effect primitive (continuous, "
                             "draw, damage, ...), got 'burn'"));
  // The [[card.spell.effects]] table starts on line 9, `do` is on line 10;
  // either names the effect.
  EXPECT_THAT(msg, testing::AnyOf(HasSubstr("cards.toml:9:"), HasSubstr("cards.toml:10:")));
}

TEST(CardLoaderErrors, EffectTargetOutOfRange) {
  std::string msg = LoadError(R"([[card]]
name = "Growth"
cost = "G"
types = ["Instant"]

[card.spell]
targets = [{ types = ["Creature"] }]
effects = [
  { do = "continuous", target = 2, duration = "end_of_turn", parts = [{ layer = "pt_modify", power = 3, toughness = 3 }] },
]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:9: card 'Growth': key 'target': expected a target "
                             "number between 1 and 1"));
}

TEST(CardLoaderErrors, EffectTargetWithoutTargets) {
  std::string msg = LoadError(R"([[card]]
name = "Divination"
cost = "2U"
types = ["Sorcery"]

[card.spell]
effects = [{ do = "draw", count = 2, target = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:7: card 'Divination': key 'target': expected a target "
                             "number between 1 and 0"));
}

TEST(CardLoaderErrors, SpellOnCreature) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2

[card.spell]
effects = [{ do = "draw", count = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:8: card 'Bear': key 'spell': expected only instants, "
                             "interrupts and sorceries have a [card.spell]"));
}

TEST(CardLoaderErrors, SpellWithoutEffects) {
  std::string msg = LoadError(R"([[card]]
name = "Nothing"
cost = "U"
types = ["Instant"]

[card.spell]
targets = [{ types = ["Creature"] }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:6: card 'Nothing': key 'effects': expected a list of "
                             "effects"));
}

TEST(CardLoaderErrors, EntersCopyWithoutFilter) {
  std::string msg = LoadError(R"([[card]]
name = "Clone"
cost = "3U"
types = ["Creature"]
subtypes = ["Shapeshifter"]
power = 0
toughness = 0

[card.enters]
choose = "copy"
optional = true
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:9: card 'Clone': key 'filter': expected a filter for "
                             "the object chosen on entry"));
}

TEST(CardLoaderErrors, EntersUnknownChoice) {
  std::string msg = LoadError(R"([[card]]
name = "Clone"
cost = "3U"
types = ["Creature"]
power = 0
toughness = 0

[card.enters]
choose = "clone"
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:9: card 'Clone': key 'choose': expected color, "
                             "creature_type, basic_land_type, word_pair, color_pair, "
                             "land_type_pair, creature_type_pair, copy, mode, exile or source, got "
                             "'clone'"));
}

TEST(CardLoaderErrors, TomlSyntaxError) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G
types = ["Creature"]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:3: TOML syntax error"));
}

TEST(CardLoaderErrors, PowerIsAWord) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = "three"
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:5: card 'Bear': key 'power': expected an integer or "
                             "\"*\""));
}

TEST(CardLoaderErrors, ToughnessIsAFloat) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2.5
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:6: card 'Bear': key 'toughness': expected an integer"));
}

TEST(CardLoaderErrors, TypesIsNotAList) {
  std::string msg = LoadError(R"([[card]]
name = "Bear"
cost = "1G"
types = "Creature"
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:4: card 'Bear': key 'types': expected a list of "
                             "strings"));
}

TEST(CardLoaderErrors, MissingName) {
  std::string msg = LoadError(R"([[card]]
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:1: card '"));
  EXPECT_THAT(msg, HasSubstr("key 'name': expected this required key"));
}

TEST(CardLoaderErrors, TopLevelKeyOtherThanCard) {
  std::string msg = LoadError(R"(version = 2

[[card]]
name = "Bear"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:1: key 'version': expected only [[card]] tables at the "
                             "top level"));
}

// T-7.2: combat keys are refused where the layers (or an occurrence's last
// known values) read the filter, and "at end of combat" has no "before".
TEST(CardLoaderErrors, CombatKeysWhereNoCombatIsRead) {
  std::string msg = LoadError(R"([[card]]
name = "Flag"
cost = "1"
types = ["Artifact"]

[[card.static]]
affects = { types = ["Creature"], combat = "attacking" }
parts = [{ layer = "pt_modify", power = 1, toughness = 0 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:7: card 'Flag': key 'combat': expected no combat in a "
                             "static ability's filter"));
  msg = LoadError(R"([[card]]
name = "Flag"
cost = "1"
types = ["Artifact"]

[[card.activated]]
tap = true
targets = [{ combat = "charging" }]
effects = [{ do = "tap", target = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("key 'combat': expected attacking, blocking, blocked or unblocked"));
  msg = LoadError(R"([[card]]
name = "Flag"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "before"
on = { event = "end_of_combat" }
effects = [{ do = "gain_life", amount = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("key 'timing': expected when or after with event end_of_combat"));
}

TEST(CardLoaderErrors, UnknownTriggerEvent) {
  std::string msg = LoadError(R"([[card]]
name = "Soul"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "after"
on = { event = "dies" }
effects = [{ do = "gain_life", amount = 1 }]
)");
  EXPECT_THAT(msg, HasSubstr("cards.toml:8: card 'Soul': key 'event': expected zone_change, "
                             "draw, cast, phase_begin, phase_end, damage, play, life_change, "
                             "attack, block, tap, untap, resolve, effects_resolved, "
                             "attackers_declared, blockers_declared, end_of_combat or state"));
}

// Every key of a trigger's `on` is read for every event it is accepted with,
// or refused at load (issue 36: `phase` on phase_end loaded, was printed,
// and was read nowhere, so the trigger fired at the end of every phase).
TEST(CardLoaderErrors, TriggerKeyAnEventNeverCarriesIsRefused) {
  auto trigger = [](const std::string& on) {
    return absl::StrCat(R"([[card]]
name = "Soul"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "after"
on = )",
                        on, R"(
effects = [{ do = "gain_life", amount = 1 }]
)");
  };
  struct Case {
    std::string on, key, applies_to;
  };
  const Case cases[] = {
      {R"({ event = "draw", phase = "upkeep" })", "phase", "phase_begin, phase_end, tap and untap"},
      {R"({ event = "attack", phase = "main" })", "phase", "phase_begin, phase_end, tap and untap"},
      {R"({ event = "cast", from = "hand" })", "from", "zone_change"},
      {R"({ event = "damage", to = "graveyard" })", "to", "zone_change"},
      {R"({ event = "attack", damaged_by_self = true })", "damaged_by_self", "zone_change"},
      {R"({ event = "zone_change", source = "self" })", "source", "damage"},
      {R"({ event = "life_change", combat = true })", "combat", "damage"},
      {R"({ event = "tap", damage_to = "player" })", "damage_to", "damage"},
      {R"({ event = "phase_end", types = ["Creature"] })", "types", "events with an object"},
      {R"({ event = "life_change", colors = ["red"] })", "colors", "events with an object"},
      {R"({ event = "damage", change = "gain" })", "change", "life_change"},
  };
  for (const Case& c : cases) {
    const std::string msg = LoadError(trigger(c.on));
    EXPECT_THAT(msg, HasSubstr(absl::StrCat("cards.toml:8: card 'Soul': key '", c.key, "'")))
        << c.on;
    EXPECT_THAT(msg, HasSubstr(absl::StrCat("it applies to ", c.applies_to))) << c.on;
  }
  EXPECT_THAT(LoadError(trigger(R"({ event = "phase_begin", phase = "upkep" })")),
              HasSubstr("key 'phase': expected untap, upkeep, draw, main, discard or cleanup"));
  EXPECT_THAT(LoadError(trigger(R"({ event = "life_change", change = "gains" })")),
              HasSubstr("key 'change': expected gain or loss"));
  // The same keys with their own events load.
  for (
      const std::string on :
      {R"({ event = "phase_end", phase = "upkeep", player = "you" })",
       R"({ event = "zone_change", from = "battlefield", to = "graveyard", damaged_by_self = true })",
       R"({ event = "damage", source = "self", combat = true, damage_to = "player" })",
       R"({ event = "life_change", player = "opponent", unless_any = { types = ["Creature"] } })",
       R"({ event = "life_change", change = "loss", player = "you" })",
       R"({ event = "untap", self = true, phase = "untap" })"}) {
    CardDb db;
    EXPECT_TRUE(LoadCardsFromString(trigger(on), "cards.toml", db).ok()) << on;
  }
}

// Activation limits ("activate only during your turn / your upkeep", T-5)
// and a filter on power (Meekstone): checked values; no power filter where
// the layers would read it while computing power.
TEST(CardLoaderErrors, ActivationLimitsAndPowerFiltersAreChecked) {
  auto activated = [](const std::string& keys) {
    return absl::StrCat(R"([[card]]
name = "Rod"
cost = "1"
types = ["Artifact"]

[[card.activated]]
cost = "1"
)",
                        keys, "\neffects = [{ do = \"untap\", target = \"self\" }]\n");
  };
  EXPECT_THAT(LoadError(activated(R"(turn = "mine")")),
              HasSubstr("key 'turn': expected yours or opponents (only during your turn, an "
                        "opponent's: T-5.7)"));
  EXPECT_THAT(LoadError(activated(R"(phase = "upkep")")),
              HasSubstr("key 'phase': expected untap, upkeep, draw, main, discard or cleanup"));
  EXPECT_THAT(LoadError(activated(R"(phase = "untap")")),
              HasSubstr("key 'phase': expected a phase with fast effects"));
  {
    CardDb db;
    const CardDef& c = LoadOne(db, activated("turn = \"yours\"\nphase = \"upkeep\""));
    EXPECT_TRUE(c.activated[0].only_your_turn);
    EXPECT_EQ(c.activated[0].only_phase, static_cast<int>(strata::Phase::kUpkeep));
  }
  EXPECT_THAT(LoadError(R"([[card]]
name = "Big Anthem"
cost = "1"
types = ["Enchantment"]

[[card.static]]
affects = { types = ["Creature"], power_at_least = 3 }
parts = [{ layer = "pt_modify", power = 1, toughness = 1 }]
)"),
              HasSubstr("key 'power_at_least': expected no power_at_least in a static ability's "
                        "filter"));
  // A filter key of an `on` table is copied into a filter made in code:
  // its message still names the line of the `on` table.
  EXPECT_THAT(LoadError(R"([[card]]
name = "Bad Stone"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "instead"
on = { event = "untap", power_at_least = "three" }
effects = []
)"),
              HasSubstr("cards.toml:8: card 'Bad Stone': key 'power_at_least'"));
}

// A next_time step names objects only by `target = N`, the target it is
// bound to (Disintegrate); `player`, `affects` and `if` would be ignored.
TEST(CardLoaderErrors, NextTimeTargetsAreChecked) {
  auto spell = [](const std::string& extra) {
    return absl::StrCat(
        R"([[card]]
name = "Doom"
cost = "R"
types = ["Sorcery"]

[card.spell]
targets = [{ types = ["Creature"] }]
effects = [{ do = "next_time", )",
        extra,
        R"(, trigger = { timing = "instead", on = { event = "zone_change", to = "graveyard" }, effects = [{ do = "exile", target = "event_object" }] } }]
)");
  };
  {
    CardDb db;
    EXPECT_EQ(LoadOne(db, spell("target = 1")).spell.steps[0].target.kind, Ref::kTarget);
  }
  EXPECT_THAT(LoadError(spell(R"(target = "self")")),
              HasSubstr("key 'target': expected a target number for next_time"));
  EXPECT_THAT(LoadError(spell(R"(player = "you")")), HasSubstr("key 'player': expected nothing"));
  EXPECT_THAT(LoadError(spell(R"(affects = { types = ["Creature"] })")),
              HasSubstr("key 'affects': expected nothing"));
}

// What a step acts on, by what its operation reads: a player for a draw,
// objects for a destruction, nothing for mana; another kind of reference,
// an `affects` or an `if` would be accepted and ignored (issue 36).
TEST(CardLoaderErrors, StepReferencesFitTheirOperation) {
  auto spell = [](const std::string& effect) {
    return absl::StrCat(R"([[card]]
name = "Odd"
cost = "1"
types = ["Sorcery"]

[card.spell]
effects = [)",
                        effect, "]\n");
  };
  struct Case {
    std::string effect, message;
  };
  const Case cases[] = {
      {R"({ do = "add_mana", mana = "R", player = "opponent" })", "key 'player': expected nothing"},
      {R"({ do = "draw", count = 1, target = "self" })", "key 'target': expected a player"},
      {R"({ do = "gain_life", amount = 1, affects = { types = ["Creature"] } })",
       "key 'affects': expected no affects"},
      {R"({ do = "lose_life", amount = 1, if = { colors = ["red"] } })",
       "key 'if': expected no if"},
      {R"({ do = "destroy", player = "opponent" })", "key 'player': expected an object"},
      {R"({ do = "tap", target = "each" })", "key 'target': expected an object"},
  };
  for (const Case& c : cases)
    EXPECT_THAT(LoadError(spell(c.effect)), HasSubstr(c.message)) << c.effect;
  for (const std::string ok :
       {R"({ do = "draw", count = 1, player = "opponent" })", R"({ do = "tap", target = "self" })",
        R"({ do = "destroy", affects = { types = ["Creature"] } })",
        R"({ do = "add_mana", mana = "R" })"}) {
    CardDb db;
    EXPECT_TRUE(LoadCardsFromString(spell(ok), "cards.toml", db).ok()) << ok;
  }
}

TEST(CardLoaderErrors, EveryBadCardIsReportedOncePerCard) {
  std::string msg = LoadError(R"([[card]]
name = "One"
cost = "1G"
types = ["Creature"]
toughness = 2

[[card]]
name = "Two"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2
keywords = ["hexproof!"]

[[card]]
name = "Fine"
cost = "1G"
types = ["Creature"]
power = 2
toughness = 2
)");
  EXPECT_THAT(msg, HasSubstr("card 'One': key 'power'"));
  EXPECT_THAT(msg, HasSubstr("card 'Two': key 'keywords'"));
  EXPECT_THAT(msg, Not(HasSubstr("card 'Fine'")));
  EXPECT_EQ(std::count(msg.begin(), msg.end(), '\n'), 1) << msg;  // two lines
}

// ---------------------------------------------------------------------------
// Mana costs.

TEST(ManaCostParse, GenericAndColored) {
  auto c = ParseManaCost("3UU");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->generic, 3);
  EXPECT_EQ(c->colored[kBlue], 2);
  EXPECT_EQ(c->ManaValue(), 5);
  EXPECT_EQ(c->Colors(), 1u << kBlue);
  EXPECT_EQ(c->ToString(), "{3}{U}{U}");
}

TEST(ManaCostParse, BracedFormIsTheSame) {
  auto a = ParseManaCost("3UU");
  auto b = ParseManaCost("{3}{U}{U}");
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->ToString(), b->ToString());
  EXPECT_EQ(b->generic, 3);
  EXPECT_EQ(b->colored[kBlue], 2);
  auto ten = ParseManaCost("{10}G");
  ASSERT_TRUE(ten.ok());
  EXPECT_EQ(ten->generic, 10);
  EXPECT_EQ(ten->ManaValue(), 11);
}

TEST(ManaCostParse, HybridXAndColorless) {
  auto h = ParseManaCost("{W/U}{W/U}");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->ManaValue(), 2);
  EXPECT_EQ(h->Colors(), (1u << kWhite) | (1u << kBlue));
  ASSERT_EQ(h->hybrid.size(), 2u);
  EXPECT_EQ(h->hybrid[0], (1u << kWhite) | (1u << kBlue));

  auto x = ParseManaCost("XR");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->x_count, 1);
  EXPECT_EQ(x->ManaValue(), 1);  // X is 0 outside the stack
  EXPECT_EQ(x->Colors(), 1u << kRed);

  auto c = ParseManaCost("{C}{C}");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->colorless, 2);
  EXPECT_EQ(c->ManaValue(), 2);
  EXPECT_EQ(c->Colors(), 0);

  auto zero = ParseManaCost("0");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->ManaValue(), 0);
}

TEST(ManaCostParse, Errors) {
  auto q = ParseManaCost("2Q");
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(std::string(q.status().message()),
              AllOf(HasSubstr("unknown symbol 'Q'"), HasSubstr("got '2Q'")));
  auto brace = ParseManaCost("{3");
  ASSERT_FALSE(brace.ok());
  EXPECT_THAT(std::string(brace.status().message()), HasSubstr("unclosed brace"));
  auto hyb = ParseManaCost("{W/Q}");
  ASSERT_FALSE(hyb.ok());
  EXPECT_THAT(std::string(hyb.status().message()), HasSubstr("bad hybrid"));
  auto empty = ParseManaCost("{}");
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.status().message()), HasSubstr("empty symbol"));
  auto lower = ParseManaCost("1g");
  EXPECT_FALSE(lower.ok());
}

// A cost whose number does not fit an int is a mistake in the file, not a
// crash of the loader.
TEST(ManaCostParse, HugeGenericIsAnErrorNotACrash) {
  absl::StatusOr<ManaCost> c = absl::InternalError("not run");
  EXPECT_NO_THROW(c = ParseManaCost("99999999999"));
  EXPECT_FALSE(c.ok());
  EXPECT_NO_THROW(c = ParseManaCost("{99999999999}"));
  EXPECT_FALSE(c.ok());
}

// ---------------------------------------------------------------------------
// What valid cards compile to.

TEST(CardLoaderCompile, VanillaCreature) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Grizzly Bears"
cost = "1G"
types = ["Creature"]
subtypes = ["Bear"]
power = 2
toughness = 2
)");
  EXPECT_EQ(c.name, "Grizzly Bears");
  EXPECT_EQ(c.file, "cards.toml");
  EXPECT_EQ(c.line, 1);
  EXPECT_EQ(c.cost.ManaValue(), 2);
  EXPECT_EQ(c.cost.generic, 1);
  EXPECT_EQ(c.cost.colored[kGreen], 1);
  EXPECT_EQ(c.colors, 1u << kGreen);
  EXPECT_EQ(c.types, 1u << kCreature);
  EXPECT_EQ(c.supertypes, 0);
  EXPECT_EQ(c.subtypes.count(), 1u);
  EXPECT_TRUE(c.subtypes.test(Subtype("Bear")));
  EXPECT_EQ(c.power, 2);
  EXPECT_EQ(c.toughness, 2);
  EXPECT_FALSE(c.power_star);
  EXPECT_FALSE(c.toughness_star);
  EXPECT_EQ(c.keywords, 0u);
  EXPECT_EQ(c.AbilityCount(), 0);
  EXPECT_FALSE(c.has_spell);
  EXPECT_EQ(db.Find("grizzly bears"), 0);
}

TEST(CardLoaderCompile, HybridCostGivesBothColors) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Duo"
cost = "{W/U}{W/U}"
types = ["Creature"]
power = 2
toughness = 2
keywords = ["Flying", "first strike"]
)");
  EXPECT_EQ(c.cost.ManaValue(), 2);
  EXPECT_EQ(c.colors, (1u << kWhite) | (1u << kBlue));
  EXPECT_EQ(c.keywords, (KeywordMask{1} << kFlying) | (KeywordMask{1} << kFirstStrike));
}

TEST(CardLoaderCompile, ColorsDeriveFromCostUnlessGiven) {
  CardDb db;
  ASSERT_TRUE(LoadCardsFromString(R"([[card]]
name = "Derived"
cost = "1BR"
types = ["Creature"]
power = 2
toughness = 2

[[card]]
name = "Indicated"
cost = "1G"
types = ["Creature"]
colors = ["blue"]
power = 2
toughness = 2

[[card]]
name = "Colorless"
cost = "3G"
types = ["Artifact"]
colors = []

[[card]]
name = "Land"
types = ["Land"]
)",
                                  "cards.toml", db)
                  .ok());
  EXPECT_EQ(db[db.Find("Derived")].colors, (1u << kBlack) | (1u << kRed));
  EXPECT_EQ(db[db.Find("Indicated")].colors, 1u << kBlue);
  EXPECT_EQ(db[db.Find("Colorless")].colors, 0);
  EXPECT_EQ(db[db.Find("Land")].colors, 0);
  EXPECT_TRUE(db[db.Find("Land")].cost.Empty());
}

TEST(CardLoaderCompile, StarPowerAndToughness) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Goyf"
cost = "1G"
types = ["Creature"]
power = "*"
toughness = "*"

[[card.static]]
cda = true
parts = [{ layer = "pt_set", power = { card_types = { zones = ["graveyard"] } }, toughness = { card_types = { zones = ["graveyard"] }, plus = 1 } }]
)");
  EXPECT_TRUE(c.power_star);
  EXPECT_TRUE(c.toughness_star);
  ASSERT_EQ(c.statics.size(), 1u);
  EXPECT_TRUE(c.statics[0].cda);
  ASSERT_EQ(c.statics[0].parts.size(), 1u);
  const Part& p = c.statics[0].parts[0];
  EXPECT_EQ(p.layer, PartLayer::kPtSet);
  EXPECT_EQ(p.power.kind, Value::kCardTypes);
  EXPECT_EQ(p.toughness.kind, Value::kCardTypes);
  EXPECT_EQ(p.toughness.plus, 1);
  ASSERT_NE(p.power.filter, kNoFilter);
  EXPECT_EQ(db.filter(p.power.filter).zones, 1u << static_cast<int>(Zone::kGraveyard));
}

TEST(CardLoaderCompile, ChangelingIsACdaStatic) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Changeling"
cost = "1B"
types = ["Creature"]
subtypes = ["Shapeshifter"]
power = 1
toughness = 1
keywords = ["changeling"]

[[card.activated]]
cost = "1B"
effects = [{ do = "regenerate", target = "self" }]
)");
  EXPECT_TRUE(Has(c.keywords, kChangeling));
  // The keyword's CDA is kept apart from the printed abilities: it has no
  // bit in the ability mask and the activated ability is still bit 0.
  EXPECT_TRUE(c.statics.empty());
  ASSERT_EQ(c.keyword_statics.size(), 1u);
  ASSERT_EQ(c.activated.size(), 1u);
  EXPECT_EQ(c.ActivatedBit(0), 0);
  const EffectTemplate& cda = c.keyword_statics[0];
  EXPECT_TRUE(cda.cda);
  EXPECT_EQ(cda.implicit_keyword, kChangeling);
  EXPECT_TRUE(cda.affects.empty());  // the card itself
  ASSERT_EQ(cda.parts.size(), 1u);
  EXPECT_EQ(cda.parts[0].layer, PartLayer::kType);
  EXPECT_TRUE(cda.parts[0].all_creature_types);
  EXPECT_FALSE(c.activated[0].mana_ability);
}

TEST(CardLoaderCompile, ManaAbilityAndBasicLand) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Elves"
cost = "G"
types = ["Creature"]
subtypes = ["Elf", "Druid"]
power = 1
toughness = 1

[[card.activated]]
tap = true
effects = [{ do = "add_mana", mana = "G" }]
)");
  ASSERT_EQ(c.activated.size(), 1u);
  EXPECT_TRUE(c.activated[0].tap);
  EXPECT_TRUE(c.activated[0].mana_ability);
  ASSERT_EQ(c.activated[0].body.steps.size(), 1u);
  EXPECT_EQ(c.activated[0].body.steps[0].op, Op::kAddMana);
  EXPECT_EQ(c.activated[0].body.steps[0].mana_colors, 1u << kGreen);
}

TEST(CardLoaderCompile, AuraGetsAuraSubtypeAndEnchantFilter) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Dust"
cost = "2U"
types = ["Enchantment"]
enchant = { types = ["Creature"], controller = "opponent" }

[[card.static]]
affects = { enchanted = true }
parts = [{ layer = "pt_modify", power = -3, toughness = 0 }]
)");
  EXPECT_TRUE(c.subtypes.test(Subtype("Aura")));
  ASSERT_NE(c.enchant, kNoFilter);
  EXPECT_EQ(db.filter(c.enchant).types, 1u << kCreature);
  EXPECT_EQ(db.filter(c.enchant).controller, 1);
  ASSERT_EQ(c.statics.size(), 1u);
  ASSERT_EQ(c.statics[0].parts.size(), 1u);
  EXPECT_EQ(c.statics[0].parts[0].power.constant, -3);
  EXPECT_TRUE(c.statics[0].parts[0].has_toughness);
  EXPECT_EQ(c.statics[0].parts[0].toughness.constant, 0);
}

TEST(CardLoaderCompile, SpellTargetsAndEffects) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"([[card]]
name = "Wisps"
cost = "G"
types = ["Instant"]

[card.spell]
targets = [{ types = ["Creature"] }]

[[card.spell.effects]]
do = "continuous"
target = 1
duration = "end_of_turn"
parts = [
  { layer = "color", set_colors = ["green"] },
  { layer = "pt_modify", power = 1, toughness = 0 },
]

[[card.spell.effects]]
do = "draw"
count = 1
)");
  ASSERT_TRUE(c.has_spell);
  ASSERT_EQ(c.spell.targets.size(), 1u);
  ASSERT_EQ(c.spell.steps.size(), 2u);
  EXPECT_EQ(c.spell.steps[0].op, Op::kContinuous);
  EXPECT_EQ(c.spell.steps[0].target.kind, Ref::kTarget);
  EXPECT_EQ(c.spell.steps[0].target.index, 1);
  EXPECT_EQ(c.spell.steps[0].duration, Duration::kEndOfTurn);
  ASSERT_EQ(c.continuous.size(), 1u);
  ASSERT_EQ(c.continuous[0].parts.size(), 2u);  // one effect, two parts
  EXPECT_EQ(c.continuous[0].parts[0].layer, PartLayer::kColor);
  EXPECT_EQ(c.continuous[0].parts[1].layer, PartLayer::kPtModify);
  EXPECT_EQ(c.spell.steps[1].op, Op::kDraw);
  EXPECT_EQ(c.spell.steps[1].amount.constant, 1);
}

// ---------------------------------------------------------------------------
// Directories.

TEST(CardLoaderFiles, RealCardDatabaseLoads) {
  CardDb db;
  absl::Status st = LoadCards({BundledCardsDir()}, db);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_GE(db.cards.size(), 60u);
  for (const char* name : {"Grizzly Bears", "Giant Growth", "Forest", "Humility", "Clone",
                           "Tarmogoyf", "Skeletal Changeling", "Ashen-Skin Zubera"})
    EXPECT_NE(db.Find(name), kNoCard) << name;
  const CardDef& goyf = db[db.Find("Tarmogoyf")];
  EXPECT_TRUE(goyf.power_star);
  EXPECT_EQ(goyf.colors, 1u << kGreen);
  const CardDef& godhead = db[db.Find("Godhead of Awe")];
  EXPECT_EQ(godhead.cost.ManaValue(), 5);
  EXPECT_EQ(godhead.colors, (1u << kWhite) | (1u << kBlue));
  const CardDef& forest = db[db.Find("Forest")];
  EXPECT_TRUE(Has(forest.supertypes, kBasic));
  EXPECT_TRUE(forest.subtypes.test(Subtype("Forest")));
}

TEST(CardLoaderFiles, BadCardsDirectoryReportsEveryFile) {
  const std::string dir = STRATA_SOURCE_DIR "/tests/bad_cards";
  CardDb db;
  absl::Status st = LoadCards({dir}, db);
  ASSERT_FALSE(st.ok());
  std::string msg(st.message());
  EXPECT_THAT(msg, HasSubstr(dir + "/missing_power.toml:4: card 'Powerless Bear': key 'power': "
                                   "expected a power for a creature card"));
  EXPECT_THAT(msg, HasSubstr(dir + "/bad_cost.toml:6: card 'Costly Mistake': key 'cost': "
                                   "expected a mana cost"));
  EXPECT_THAT(msg, HasSubstr(dir + "/unknown_layer.toml:"));
  EXPECT_THAT(msg, HasSubstr("card 'Misfiled Anthem': key 'layer'"));
  EXPECT_THAT(msg, HasSubstr("got 'pt_bonus'"));
  // Numbers beyond the engine's fields are refused with the allowed range.
  EXPECT_THAT(msg, HasSubstr(dir + "/huge_numbers.toml:12: card 'Billion Bolt': key 'amount': "
                                   "expected an integer between -1000 and 1000, got 1000000000"));
  EXPECT_THAT(msg, HasSubstr("card 'Costly Colossus': key 'cost': expected a mana cost like "
                             "\"3UU\", \"XR\" or \"{W/U}\" (at most 100 mana symbols and "
                             "generic mana), got '{999}{999}'"));
  EXPECT_THAT(msg, HasSubstr(dir + "/empty.toml: empty card file: expected [[card]] tables"));
  // Every *.toml file in the directory contributed at least one error.
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".toml") continue;
    ++files;
    EXPECT_THAT(msg, HasSubstr(e.path().string() + ":")) << e.path();
  }
  EXPECT_GE(files, 3);
}

TEST(CardLoaderFiles, MissingFileAndEmptyDirectory) {
  CardDb db;
  absl::Status st = LoadCards({"/nonexistent/cards.toml"}, db);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()),
              HasSubstr("/nonexistent/cards.toml: cannot open card file"));
  auto tmp = std::filesystem::temp_directory_path() / "strata_empty_card_dir_test";
  std::filesystem::create_directories(tmp);
  absl::Status empty = LoadCards({tmp.string()}, db);
  std::filesystem::remove_all(tmp);
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.message()), HasSubstr("no *.toml card files found"));
}

// Listing plays skips a card whose windows (CardDef::spell_windows,
// ability_windows) leave out the window at hand, without asking anything
// else: every card of the pool must name each window its spell, or one of
// its activated abilities other than mana abilities, can be played in.
TEST(CardWindows, NameEveryWindowABodyCanBePlayedIn) {
  const CardDb& db = BundledPool();
  const uint8_t batch = WindowBit(0, Reaction::kNone), interrupt = WindowBit(1, Reaction::kNone),
                prevention = WindowBit(2, Reaction::kNone),
                destroyed = WindowBit(2, Reaction::kDestroy), draw = WindowBit(2, Reaction::kDraw);
  EXPECT_EQ(std::popcount(static_cast<unsigned>(batch | interrupt | prevention | destroyed | draw)),
            5);
  auto windows = [&](auto& self, const AbilityBody& b) -> uint8_t {
    if (!b.modes.empty()) {
      uint8_t w = 0;
      for (const AbilityBody& m : b.modes) w |= self(self, m);
      return w;
    }
    bool at_spell = false;
    for (const TargetSpec& t : b.targets) at_spell = at_spell || t.what == TargetWhat::kSpell;
    return static_cast<uint8_t>((b.reaction == Reaction::kNone && !at_spell ? batch : 0) |
                                (at_spell ? interrupt : 0) | (b.prevention ? prevention : 0) |
                                (b.reaction == Reaction::kDestroy ? destroyed : 0) |
                                (b.reaction == Reaction::kDraw ? draw : 0));
  };
  for (const CardDef& card : db.cards) {
    const uint8_t spell = Has(card.types, kLand) ? 0
                          : card.has_spell       ? windows(windows, card.spell)
                                                 : batch;
    // A mana ability offered as an action (T-10.2: Black Lotus) is in
    // every window its controller may play something in.
    uint8_t abilities = 0;
    for (const ActivatedAbility& a : card.activated)
      if (!a.mana_ability)
        abilities |= windows(windows, a.body);
      else if (a.manual_mana)
        abilities = 0xFF;
    EXPECT_EQ(card.spell_windows, spell) << card.name;
    EXPECT_EQ(card.ability_windows, abilities) << card.name;
  }
  auto card = [&](const char* name) -> const CardDef& { return db[db.Find(name)]; };
  EXPECT_EQ(card("Mountain").spell_windows, 0);
  EXPECT_EQ(card("Grizzly Bears").spell_windows, batch);
  EXPECT_EQ(card("Lightning Bolt").spell_windows, batch);
  EXPECT_EQ(card("Counterspell").spell_windows, interrupt);
  EXPECT_EQ(card("Llanowar Elves").ability_windows, 0);            // a mana ability
  EXPECT_EQ(card("Drudge Skeletons").ability_windows, destroyed);  // regenerates as a reaction
}

// Issue 36's class "a key the loader accepts and the engine ignores", for
// effect steps: each operation takes the keys it reads and no other.
TEST(CardLoaderErrors, AStepKeyAnotherOperationReadsIsRefused) {
  auto spell = [](const std::string& step) {
    return absl::StrCat(R"([[card]]
name = "Bad"
cost = "1"
types = ["Sorcery"]

[card.spell]
effects = [)",
                        step, "]\n");
  };
  struct Case {
    std::string step, key, op;
  };
  const Case cases[] = {
      {R"({ do = "draw", count = 1, random = true })", "random", "draw"},
      {R"({ do = "gain_life", amount = 1, at = "next_upkeep" })", "at", "gain_life"},
      {R"({ do = "tap", target = "self", divide = true })", "divide", "tap"},
      {R"({ do = "bounce", target = "self", cant_regenerate = true })", "cant_regenerate",
       "bounce"},
      {R"({ do = "add_mana", mana = "R", from = { colors = ["red"] } })", "from", "add_mana"},
      {R"({ do = "draw", count = 1, trigger = {} })", "trigger", "draw"},
  };
  for (const Case& c : cases) {
    const std::string msg = LoadError(spell(c.step));
    EXPECT_THAT(msg, HasSubstr(absl::StrCat("cards.toml:7: card 'Bad': key '", c.key, "'")))
        << c.step;
    EXPECT_THAT(msg, HasSubstr(absl::StrCat("the keys of a ", c.op, " effect"))) << c.step;
  }
}

// E-7: change_amount changes the gain or loss a before trigger waits on;
// anywhere else there is nothing for it to change.
TEST(CardLoaderErrors, ChangeAmountOnlyInABeforeTriggerOnALifeChange) {
  auto trigger = [](const std::string& timing, const std::string& event) {
    return absl::StrCat(R"([[card]]
name = "Ledger"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = ")",
                        timing, R"("
on = { event = ")",
                        event, R"(" }
effects = [{ do = "change_amount", amount = -1 }]
)");
  };
  const std::string refused = "change_amount only in a before trigger on life_change";
  EXPECT_THAT(LoadError(trigger("after", "life_change")), HasSubstr(refused));
  // A card being played is not held for "before" responses: refused, not ignored.
  EXPECT_THAT(LoadError(trigger("before", "play")),
              HasSubstr("key 'timing': expected when or after with event play"));
  EXPECT_THAT(LoadError(trigger("before", "draw")), HasSubstr(refused));
  EXPECT_THAT(LoadError(R"([[card]]
name = "Bad"
cost = "1"
types = ["Sorcery"]

[card.spell]
effects = [{ do = "change_amount", amount = 1 }]
)"),
              HasSubstr(refused));
  CardDb db;
  EXPECT_TRUE(LoadCardsFromString(trigger("before", "life_change"), "cards.toml", db).ok());
  CardDb db2;  // and the size of a damage about to be dealt
  EXPECT_TRUE(LoadCardsFromString(trigger("before", "damage"), "cards.toml", db2).ok());
}

// E-6: a next-time step's trigger, its `or` and its duration are checked
// like a card's own trigger.
TEST(CardLoaderErrors, NextTimeTriggersAreChecked) {
  auto spell = [](const std::string& step) {
    return absl::StrCat(R"([[card]]
name = "Omen"
cost = "U"
types = ["Instant"]

[card.spell]
effects = [{ do = "next_time", )",
                        step, " }]\n");
  };
  const std::string draw =
      R"(trigger = { timing = "after", on = { event = "draw" }, effects = [{ do = "draw", count = 1 }])";
  EXPECT_THAT(LoadError(spell("duration = \"end_of_turn\"")), HasSubstr("key 'trigger'"));
  EXPECT_THAT(LoadError(spell(draw + ", optional_cost = \"1\" }")),
              HasSubstr("no optional cost on a next-time trigger"));
  EXPECT_THAT(LoadError(spell(draw + ", or = { event = \"draw\", from = \"hand\" } }")),
              HasSubstr("key 'from': expected no from with event draw"));
  EXPECT_THAT(LoadError(spell(draw + " }, duration = \"forever\"")),
              HasSubstr("key 'duration': expected end_of_turn or permanent"));
  EXPECT_THAT(LoadError(spell(draw + ", when = 1 }")), HasSubstr("key 'when'"));
  CardDb db;
  ASSERT_TRUE(
      LoadCardsFromString(spell(draw + ", or = { event = \"cast\" } }"), "cards.toml", db).ok());
  const CardDef& omen = db[db.Find("Omen")];
  ASSERT_EQ(omen.next_times.size(), 2u);
  EXPECT_EQ(omen.spell.steps[0].next_time, 1);
  EXPECT_EQ(omen.spell.steps[0].next_time_or, 0);
  EXPECT_EQ(omen.next_times[0].event, EventKind::kCast);
  EXPECT_TRUE(omen.triggers.empty());
}

// E-3 A: a replacement ("timing = instead") of the occurrences strata holds
// for step A, never optional, choosing no targets; `redirect` only in a
// replacement of damage, to one creature or player.
TEST(CardLoaderErrors, ReplacementsAreChecked) {
  auto card = [](const std::string& on, const std::string& rest) {
    return absl::StrCat(R"([[card]]
name = "Ward"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "instead"
on = { )",
                        on, " }\n", rest, "\n");
  };
  const std::string gain = R"(event = "life_change", change = "gain")";
  const std::string draw = R"(effects = [{ do = "draw", count = "event_amount" }])";
  EXPECT_THAT(LoadError(card(R"(event = "play")", draw)),
              HasSubstr("expected event damage, life_change, draw, zone_change, tap, untap, "
                        "phase_begin (the phase is skipped), attack or block (the creature is not "
                        "declared) or cast (the spell is not cast) for timing instead"));
  for (const char* refused : {"play", "phase_end", "resolve", "effects_resolved"})
    EXPECT_THAT(LoadError(card(absl::StrCat("event = \"", refused, "\""), draw)),
                HasSubstr("for timing instead"))
        << refused;
  for (const std::string on :
       {R"(event = "zone_change", to = "graveyard")", R"(event = "tap")",
        R"(event = "untap", self = true, phase = "untap")", R"(event = "attack")",
        R"(event = "block", player = "you")", R"(event = "cast", player = "opponent")"}) {
    CardDb db;
    EXPECT_EQ(LoadOne(db, card(on, R"(effects = [{ do = "exile", target = "event_object" }])"))
                  .triggers.size(),
              1u)
        << on;
  }
  {
    // "Skip your untap step": a replacement of a phase's beginning.
    CardDb db;
    EXPECT_EQ(LoadOne(db, card(R"(event = "phase_begin", phase = "untap")", "effects = []"))
                  .triggers.size(),
              1u);
  }
  {
    // "Doesn't untap": a replacement with nothing in the occurrence's place.
    CardDb db;
    EXPECT_TRUE(LoadOne(db, card(R"(event = "untap", self = true)", "effects = []"))
                    .triggers[0]
                    .body.steps.empty());
  }
  EXPECT_THAT(LoadError(card(gain, draw + "\noptional_cost = \"1\"")),
              HasSubstr("key 'optional_cost': expected nothing: a replacement is not optional"));
  EXPECT_THAT(LoadError(card(gain, draw + "\ntargets = [{ types = [\"Creature\"] }]")),
              HasSubstr("key 'targets': expected nothing"));
  EXPECT_THAT(LoadError(card(gain, R"(effects = [{ do = "redirect", target = "self" }])")),
              HasSubstr("redirect only in a trigger timed instead on damage"));
  EXPECT_THAT(LoadError(card(R"(event = "damage", player = "you")",
                             R"(effects = [{ do = "redirect", player = "each" }])")),
              HasSubstr("one creature or player for redirect"));
  EXPECT_THAT(LoadError(card(R"(event = "damage")",
                             R"(effects = [{ do = "redirect", target = "self", amount = 1 }])")),
              HasSubstr("key 'amount'"));
  EXPECT_THAT(LoadError(R"([[card]]
name = "Bad"
cost = "1"
types = ["Sorcery"]

[card.spell]
effects = [{ do = "redirect", target = "self" }]
)"),
              HasSubstr("redirect only in a trigger timed instead on damage"));
  CardDb db;
  ASSERT_TRUE(LoadCardsFromString(card(gain, draw), "cards.toml", db).ok());
  EXPECT_EQ(db[db.Find("Ward")].triggers[0].timing, Timing::kInstead);
  CardDb db2;
  EXPECT_TRUE(LoadCardsFromString(card(R"(event = "damage", player = "you")",
                                       R"(effects = [{ do = "redirect", target = "self" }])"),
                                  "cards.toml", db2)
                  .ok());
}

// Seed 003's "when ... would": change_target only in a before trigger on a
// cast or a block, with a `from` filter and one creature or player to
// change to.
TEST(CardLoaderErrors, ChangeTargetOnlyInABeforeTriggerOnACastOrABlock) {
  auto trigger = [](const std::string& timing, const std::string& event, const std::string& step) {
    return absl::StrCat(R"([[card]]
name = "Rod"
cost = "3"
types = ["Artifact"]

[[card.trigger]]
timing = ")",
                        timing, R"("
on = { event = ")",
                        event, R"(" }
effects = [{ do = "change_target", )",
                        step, " }]\n");
  };
  const std::string ok = R"(target = "self", from = { types = ["Creature"] })";
  const std::string refused = "change_target only in a before trigger on cast or block";
  EXPECT_THAT(LoadError(trigger("after", "cast", ok)), HasSubstr(refused));
  EXPECT_THAT(LoadError(trigger("before", "damage", ok)), HasSubstr(refused));
  EXPECT_THAT(LoadError(trigger("before", "attack", ok)), HasSubstr(refused));
  EXPECT_THAT(LoadError(trigger("after", "block", ok)), HasSubstr(refused));
  EXPECT_THAT(LoadError(trigger("before", "cast", R"(target = "self")")),
              HasSubstr("key 'from': expected a filter"));
  EXPECT_THAT(LoadError(trigger("before", "cast", R"(player = "each", from = {})")),
              HasSubstr("one creature or player for change_target"));
  EXPECT_THAT(LoadError(trigger("before", "cast", ok + ", amount = 2")), HasSubstr("key 'amount'"));
  for (const char* event : {"cast", "block"}) {
    CardDb db;
    ASSERT_TRUE(LoadCardsFromString(trigger("before", event, ok), "cards.toml", db).ok());
    EXPECT_EQ(db[db.Find("Rod")].triggers[0].body.steps[0].op, Op::kChangeTarget);
  }
}

// Nothing but a cast puts a card on the stack, and a cast is its own
// occurrence: a zone_change trigger `to = "stack"` would never fire.
TEST(CardLoaderErrors, NoZoneChangeToTheStack) {
  auto card = [](const std::string& to) {
    return absl::StrCat(R"([[card]]
name = "Watcher"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = "after"
on = { event = "zone_change", to = ")",
                        to, R"(" }
effects = [{ do = "gain_life", amount = 1, target = "you" }]
)");
  };
  {
    CardDb db;
    EXPECT_EQ(LoadOne(db, card("graveyard")).triggers.size(), 1u);
  }
  EXPECT_THAT(LoadError(card("stack")),
              HasSubstr("key 'to': expected a zone other than stack: a spell put on the stack is "
                        "cast (event cast)"));
}

// A draw is held for its "before" responses and replacements as a draw,
// its card unknown until drawn: a zone_change trigger of those timings that
// could match one (from the library or anywhere, to the hand or anywhere)
// would never fire before a draw, and is refused. "When" and "after" see a
// draw as a zone change too (scenario e1_a_draw_is_a_zone_change).
TEST(CardLoaderErrors, NoBeforeOrInsteadZoneChangeThatADrawWouldBe) {
  auto card = [](const std::string& timing, const std::string& zones) {
    return absl::StrCat(R"([[card]]
name = "Watcher"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = ")",
                        timing, R"("
on = { event = "zone_change")",
                        zones, R"( }
effects = [{ do = "gain_life", amount = 1, target = "you" }]
)");
  };
  for (const char* timing : {"before", "instead"})
    for (const char* zones :
         {"", R"(, from = "library")", R"(, to = "hand")", R"(, from = "library", to = "hand")"}) {
      SCOPED_TRACE(absl::StrCat(timing, zones));
      EXPECT_THAT(LoadError(card(timing, zones)),
                  HasSubstr("key 'on': expected a zone change that is never a draw for timing "));
    }
  for (const char* zones : {R"(, from = "battlefield")", R"(, to = "graveyard")",
                            R"(, from = "library", to = "graveyard")"}) {
    CardDb db;
    EXPECT_EQ(LoadOne(db, card("before", zones)).triggers.size(), 1u) << zones;
  }
  for (const char* timing : {"when", "after"}) {
    CardDb db;
    EXPECT_EQ(LoadOne(db, card(timing, R"(, from = "library")")).triggers.size(), 1u);
  }
}

// E-2's events: a time point (effects_resolved, attackers_declared,
// blockers_declared) has no object, so a filter key on it would never
// match; a batch is no one player's; whether an effect resolves is known
// only as it does (no "before"); nothing replaces a time point or a
// resolution ("instead").
TEST(CardLoaderErrors, TimePointsAndResolutionsTakeOnlyTheirKeys) {
  auto card = [](const std::string& timing, const std::string& on) {
    return absl::StrCat(R"([[card]]
name = "Bell"
cost = "1"
types = ["Artifact"]

[[card.trigger]]
timing = ")",
                        timing, R"("
on = { )",
                        on, R"( }
effects = [{ do = "gain_life", amount = 1, target = "you" }]
)");
  };
  for (const char* ok : {R"(event = "effects_resolved")", R"(event = "resolve", player = "you")",
                         R"(event = "resolve", types = ["Instant"])",
                         R"(event = "attackers_declared", player = "you")",
                         R"(event = "blockers_declared", player = "opponent")"})
    for (const char* timing : {"when", "after"}) {
      CardDb db;
      EXPECT_EQ(LoadOne(db, card(timing, ok)).triggers.size(), 1u) << ok;
    }
  {
    CardDb db;
    EXPECT_EQ(LoadOne(db, card("before", R"(event = "blockers_declared")")).triggers.size(), 1u);
  }
  EXPECT_THAT(LoadError(card("after", R"(event = "effects_resolved", player = "you")")),
              HasSubstr("key 'player': expected no player with event effects_resolved"));
  EXPECT_THAT(LoadError(card("after", R"(event = "attackers_declared", types = ["Creature"])")),
              HasSubstr("key 'types': expected no types with event attackers_declared"));
  EXPECT_THAT(LoadError(card("before", R"(event = "resolve")")),
              HasSubstr("key 'timing': expected when or after with event resolve"));
  for (const char* on : {R"(event = "resolve")", R"(event = "effects_resolved")",
                         R"(event = "attackers_declared")", R"(event = "blockers_declared")"})
    EXPECT_THAT(LoadError(card("instead", on)), HasSubstr("for timing instead")) << on;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// G-3: a search's keys. `find` looks in the library (no zones of its own);
// only a land may be put onto the battlefield by a search; `to` is hand or
// battlefield; a search acts on players.
TEST(CardLoaderErrors, SearchKeysAreChecked) {
  auto card = [](const std::string& step) {
    return absl::StrCat(R"([[card]]
name = "Seeker"
cost = "1B"
types = ["Sorcery"]

[card.spell]
effects = [{ do = "search", )",
                        step, " }]\n");
  };
  EXPECT_THAT(LoadError(card(R"(to = "battlefield")")),
              HasSubstr("only a land is put onto the battlefield by a search"));
  EXPECT_THAT(LoadError(card(R"(find = { types = ["Creature"] }, to = "battlefield")")),
              HasSubstr("only a land is put onto the battlefield by a search"));
  EXPECT_THAT(LoadError(card(R"(to = "graveyard")")), HasSubstr("hand or battlefield"));
  EXPECT_THAT(LoadError(card(R"(find = { zones = ["graveyard"] })")),
              HasSubstr("no zones: a search looks in the searcher's library"));
  EXPECT_THAT(LoadError(card(R"(target = "self")")), HasSubstr("a player"));
  EXPECT_THAT(LoadError(card(R"(random = true)")), HasSubstr("key 'random'"));
  CardDb db;
  ASSERT_TRUE(
      LoadCardsFromString(
          card(
              R"(find = { types = ["Land"], supertypes = ["Basic"] }, to = "battlefield", count = 2)"),
          "cards.toml", db)
          .ok());
  const EffectStep& st = db[db.Find("Seeker")].spell.steps[0];
  EXPECT_EQ(st.op, Op::kSearch);
  EXPECT_EQ(st.to, Zone::kBattlefield);
  EXPECT_EQ(st.amount.constant, 2);
  EXPECT_EQ(db.filter(st.from).zones, 1u << static_cast<int>(Zone::kLibrary));
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// G-4: discard_hand and shuffle_into_library act on players; the shuffle
// names its zones (hand and/or graveyard) and what is drawn after.
TEST(CardLoaderErrors, RefillKeysAreChecked) {
  auto card = [](const std::string& step) {
    return absl::StrCat(R"([[card]]
name = "Refill"
cost = "2U"
types = ["Sorcery"]

[card.spell]
effects = [)",
                        step, "]\n");
  };
  const std::string shuffle = R"({ do = "shuffle_into_library", player = "each", )";
  EXPECT_THAT(LoadError(card(shuffle + "draw = 7 }")), HasSubstr("key 'zones'"));
  EXPECT_THAT(LoadError(card(shuffle + R"(zones = ["library"] })")),
              HasSubstr("hand and/or graveyard"));
  EXPECT_THAT(LoadError(card(shuffle + R"(zones = ["hand"], draw = "some" })")),
              HasSubstr("a number of cards, or as_many"));
  EXPECT_THAT(LoadError(card(shuffle + R"(zones = ["hand"], draw = -1 })")), HasSubstr("draw"));
  EXPECT_THAT(LoadError(card(R"({ do = "discard_hand", target = "self" })")),
              HasSubstr("a player"));
  EXPECT_THAT(LoadError(card(R"({ do = "discard_hand", player = "each", count = 2 })")),
              HasSubstr("key 'count'"));
  CardDb db;
  ASSERT_TRUE(
      LoadCardsFromString(card(shuffle + R"(zones = ["hand", "graveyard"], draw = "as_many" })"),
                          "cards.toml", db)
          .ok());
  const EffectStep& st = db[db.Find("Refill")].spell.steps[0];
  EXPECT_EQ(st.op, Op::kShuffleIn);
  EXPECT_EQ(st.draw, EffectStep::kDrawAsMany);
  EXPECT_EQ(st.zones,
            (1u << static_cast<int>(Zone::kHand)) | (1u << static_cast<int>(Zone::kGraveyard)));
}

// docs/rules.md G-6: a value table's divide, round and bounds compile into
// the Value, and Scale computes base * times + plus, then the division
// rounded down (floor, also below zero) or up (ceiling), then the bounds.
TEST(CardLoaderValues, DivideRoundAndBoundsScale) {
  CardDb db;
  const CardDef& c = LoadOne(db, R"(
[[card]]
name = "Halving Aura"
cost = "1G"
types = ["Enchantment"]
subtypes = ["Aura"]
enchant = { types = ["Creature"] }

[[card.static]]
affects = { enchanted = true }
parts = [{ layer = "pt_modify", power = { count = { subtypes = ["Forest"] }, divide = 2 }, toughness = { value = "target_toughness", times = -1, plus = 1, divide = 2, round = "up", at_least = -4, at_most = 0 } }]
)");
  ASSERT_EQ(c.statics.size(), 1u);
  ASSERT_EQ(c.statics[0].parts.size(), 1u);
  const Value& down = c.statics[0].parts[0].power;
  const Value& up = c.statics[0].parts[0].toughness;
  EXPECT_EQ(down.kind, Value::kCount);
  EXPECT_EQ(down.divide, 2);
  EXPECT_FALSE(down.round_up);
  EXPECT_EQ(down.Scale(3), 1);
  EXPECT_EQ(down.Scale(4), 2);
  EXPECT_EQ(down.Scale(-3), -2);  // floor, not toward zero
  EXPECT_EQ(up.kind, Value::kTargetToughness);
  EXPECT_TRUE(up.round_up);
  EXPECT_EQ(up.Scale(0), 0);    // (0 * -1 + 1) / 2 = 0.5, up: 1, at most 0
  EXPECT_EQ(up.Scale(4), -1);   // -3 / 2 = -1.5, up: -1
  EXPECT_EQ(up.Scale(20), -4);  // -19 / 2 = -9.5, up: -9, at least -4
}

}  // namespace
}  // namespace strata
