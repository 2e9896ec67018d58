// The TOML reader every loader uses (engine/toml_reader.h): each accessor
// takes exactly its type and range and otherwise fails with
// "FILE:LINE: key 'KEY': expected WHAT", so the cards, scenarios and study
// files all report a mistake the same way.
#include "engine/toml_reader.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

// Moved out, never copied: a copied node forgets its line.
toml::table Parse(std::string_view text) {
  auto t = ParseToml(text, "r.toml");
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : toml::table{};
}

// The message of the TomlError `read` throws, or "" if it throws none.
template <typename F>
std::string ErrorOf(F&& read) {
  try {
    read();
  } catch (const TomlError& e) {
    return e.message;
  }
  return "";
}

TEST(TomlReader, ReadsEachTypeItIsGiven) {
  const toml::table t = Parse(R"(
name = "Bear"
tapped = true
power = -3
ci = 0.25
whole = 2
types = ["Creature", "Artifact"]
[[object]]
id = "a"
[[object]]
id = "b"
)");
  const TomlReader r("r.toml");
  EXPECT_EQ(r.String(*t.get("name"), "name"), "Bear");
  EXPECT_TRUE(r.Bool(*t.get("tapped"), "tapped"));
  EXPECT_EQ(r.Int(*t.get("power"), "power", -10, 10), -3);
  EXPECT_EQ(r.Int64(*t.get("power"), "power"), -3);
  EXPECT_EQ(r.Number(*t.get("ci"), "ci"), 0.25);
  EXPECT_EQ(r.Number(*t.get("whole"), "whole"), 2.0);  // a number may be written whole
  EXPECT_EQ(r.Strings(*t.get("types"), "types"),
            (std::vector<std::string>{"Creature", "Artifact"}));
  auto objects = r.Tables(*t.get("object"), "object", "[[object]] tables");
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(r.RequiredString(*objects[1], "id"), "b");
  EXPECT_EQ(r.RequiredInt64(t, "power", -3, -3), -3);
  EXPECT_TRUE(r.RequiredBool(t, "tapped"));
  EXPECT_EQ(r.RequiredNumber(t, "ci"), 0.25);
  EXPECT_EQ(r.RequiredStrings(t, "types").size(), 2u);
  EXPECT_EQ(r.OptionalString(t, "missing"), "");
  EXPECT_TRUE(r.OptionalStrings(t, "missing").empty());
  EXPECT_EQ(r.OptionalString(t, "name"), "Bear");
}

TEST(TomlReader, AValueMustHaveItsTypeNotOneItConvertsTo) {
  const toml::table t = Parse("seven = 7\ntwo = 2.0\nyes = 'true'\nnan = nan\nlist = 'a'\n");
  const TomlReader r("r.toml");
  EXPECT_EQ(ErrorOf([&] { r.Bool(*t.get("seven"), "seven"); }),
            "r.toml:1: key 'seven': expected true or false");
  EXPECT_EQ(ErrorOf([&] { r.Int64(*t.get("two"), "two"); }),
            "r.toml:2: key 'two': expected an integer");
  EXPECT_EQ(ErrorOf([&] { r.Bool(*t.get("yes"), "yes"); }),
            "r.toml:3: key 'yes': expected true or false");
  EXPECT_EQ(ErrorOf([&] { r.String(*t.get("seven"), "seven"); }),
            "r.toml:1: key 'seven': expected a string");
  EXPECT_EQ(ErrorOf([&] { r.Number(*t.get("nan"), "nan"); }),
            "r.toml:4: key 'nan': expected a finite number");
  EXPECT_EQ(ErrorOf([&] { r.Strings(*t.get("list"), "list"); }),
            "r.toml:5: key 'list': expected a list of strings");
  EXPECT_EQ(ErrorOf([&] { r.Table(*t.get("list"), "list"); }),
            "r.toml:5: key 'list': expected a table");
  EXPECT_EQ(ErrorOf([&] { r.Array(*t.get("list"), "list", "[[list]] tables"); }),
            "r.toml:5: key 'list': expected [[list]] tables");
}

TEST(TomlReader, ANumberIsCheckedAgainstItsRangeBeforeItNarrows) {
  const toml::table t = Parse("big = 4294967297\nlow = -5\n");
  const TomlReader r("r.toml");
  // 2^32 + 1 would be 1 as an int: refused, never truncated.
  EXPECT_EQ(ErrorOf([&] { r.Int(*t.get("big"), "big", 1, 32); }),
            "r.toml:1: key 'big': expected an integer between 1 and 32, got 4294967297");
  EXPECT_EQ(ErrorOf([&] { r.RequiredInt64(t, "low", 0, 100); }),
            "r.toml:2: key 'low': expected an integer between 0 and 100, got -5");
  EXPECT_EQ(r.Int64(*t.get("big"), "big"), 4294967297);
}

TEST(TomlReader, AWrongElementIsReportedAtItsOwnLine) {
  const toml::table t = Parse("types = [\n  'Creature',\n  3,\n]\nobject = [{ id = 'a' },\n  7]\n");
  const TomlReader r("r.toml");
  EXPECT_EQ(ErrorOf([&] { r.Strings(*t.get("types"), "types"); }),
            "r.toml:3: key 'types': expected a string");
  EXPECT_EQ(ErrorOf([&] { r.Tables(*t.get("object"), "object", "[[object]] tables"); }),
            "r.toml:6: key 'object': expected a table");
}

TEST(TomlReader, AMissingRequiredKeySaysWhatWasExpectedAtItsTable) {
  const toml::table t = Parse("[[card]]\nname = 'Bear'\n\n[[card]]\ncost = '1'\n");
  const TomlReader r("r.toml");
  const toml::table& second = *t["card"][1].as_table();
  EXPECT_EQ(ErrorOf([&] { r.RequiredString(second, "name"); }),
            "r.toml:4: key 'name': expected this required key (a string)");
  EXPECT_EQ(ErrorOf([&] { r.Required(second, "on", "the occurrence that triggers it"); }),
            "r.toml:4: key 'on': expected this required key (the occurrence that triggers it)");
}

TEST(TomlReader, UnknownKeysAreNamedWithTheKeysAllowed) {
  const toml::table t = Parse("name = 'Bear'\ncolour = 'green'\n");
  const TomlReader r("r.toml");
  EXPECT_EQ(ErrorOf([&] {
              r.CheckKeys(t, "a card", {"name", "colors"});
            }),
            "r.toml:2: key 'colour': expected one of the keys of a card (name, colors); this key "
            "is unknown");
  EXPECT_EQ(ErrorOf([&] { r.CheckKeys(t, "a card", {"name", "colour"}); }), "");
  const std::vector<std::string_view> allowed = {"name"};
  EXPECT_THAT(ErrorOf([&] { r.CheckKeys(t, "a body", allowed); }),
              HasSubstr("key 'colour': expected one of the keys of a body (name)"));
}

TEST(TomlReader, AContextGoesBeforeTheKey) {
  const toml::table t = Parse("power = 'two'\n");
  TomlReader r("cards.toml");
  r.SetContext("card 'Bear': ");
  EXPECT_EQ(ErrorOf([&] { r.Int(*t.get("power"), "power", -1000, 1000); }),
            "cards.toml:1: card 'Bear': key 'power': expected an integer");
  EXPECT_EQ(r.Message(*t.get("power"), "power", "a number"),
            "cards.toml:1: card 'Bear': key 'power': expected a number");
}

TEST(TomlReader, ANodeMadeInCodeHasNoLineToName) {
  toml::table made;
  made.insert("power", "two");
  const TomlReader r("cards.toml");
  EXPECT_EQ(ErrorOf([&] { r.Int(*made.get("power"), "power", 0, 9); }),
            "cards.toml: key 'power': expected an integer");
}

TEST(TomlReader, ASyntaxErrorNamesFileAndLine) {
  auto t = ParseToml("a = 1\nb = = 2\n", "bad.toml");
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("bad.toml:2: TOML syntax error: "));
}

}  // namespace
}  // namespace strata
