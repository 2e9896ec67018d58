// The subtype vocabulary and text-change words (engine/words.h), and the
// small name tables of engine/types.h.
#include "engine/words.h"

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(Subtypes, ParseIsCaseInsensitiveAndKeepsPrintedName) {
  auto bear = ParseSubtype("Bear");
  ASSERT_TRUE(bear.has_value());
  EXPECT_EQ(ParseSubtype("bear"), bear);
  EXPECT_EQ(ParseSubtype("BEAR"), bear);
  EXPECT_EQ(ParseSubtype("bEaR"), bear);
  EXPECT_EQ(SubtypeName(*bear), "Bear");
  EXPECT_EQ(SubtypeName(*ParseSubtype("assembly-worker")), "Assembly-Worker");
  EXPECT_EQ(SubtypeName(*ParseSubtype("URZA'S")), "Urza's");
  EXPECT_NE(ParseSubtype("Elf"), ParseSubtype("Goblin"));
}

TEST(Subtypes, UnknownWordsAreRejected) {
  EXPECT_FALSE(ParseSubtype("Baer").has_value());
  EXPECT_FALSE(ParseSubtype("").has_value());
  EXPECT_FALSE(ParseSubtype("Bear ").has_value());
  EXPECT_FALSE(ParseSubtype("Creature").has_value());  // a card type, not a subtype
  EXPECT_FALSE(ParseSubtype("green").has_value());     // a color
  EXPECT_FALSE(ParseCreatureType("Sheepish").has_value());
}

TEST(Subtypes, Kinds) {
  for (const char* n : {"Bear", "Goblin", "Shapeshifter", "Zubera", "Sheep", "Wall"}) {
    auto id = ParseSubtype(n);
    ASSERT_TRUE(id.has_value()) << n;
    EXPECT_EQ(SubtypeKindOf(*id), SubtypeKind::kCreature) << n;
    EXPECT_TRUE(CreatureTypeMask().test(*id)) << n;
    EXPECT_FALSE(LandTypeMask().test(*id)) << n;
    EXPECT_EQ(ParseCreatureType(n), id) << n;
  }
  for (const char* n : {"Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Urza's"}) {
    auto id = ParseSubtype(n);
    ASSERT_TRUE(id.has_value()) << n;
    EXPECT_EQ(SubtypeKindOf(*id), SubtypeKind::kLand) << n;
    EXPECT_TRUE(LandTypeMask().test(*id)) << n;
    EXPECT_FALSE(CreatureTypeMask().test(*id)) << n;
    EXPECT_FALSE(ParseCreatureType(n).has_value()) << n;
  }
  EXPECT_EQ(SubtypeKindOf(*ParseSubtype("Equipment")), SubtypeKind::kArtifact);
  EXPECT_EQ(SubtypeKindOf(*ParseSubtype("Aura")), SubtypeKind::kEnchantment);
  EXPECT_FALSE(ParseCreatureType("Aura").has_value());
  EXPECT_FALSE(CreatureTypeMask().test(*ParseSubtype("Aura")));
  EXPECT_FALSE(LandTypeMask().test(*ParseSubtype("Equipment")));
}

TEST(Subtypes, CountFitsTheBitsetAndNamesRoundTrip) {
  ASSERT_GT(SubtypeCount(), 250);
  ASSERT_LE(SubtypeCount(), kMaxSubtypes);
  EXPECT_LT(SubtypeCount(), static_cast<int>(kColorWordBase));
  for (int id = 0; id < SubtypeCount(); ++id) {
    auto back = ParseSubtype(SubtypeName(id));
    ASSERT_TRUE(back.has_value()) << SubtypeName(id);
    EXPECT_EQ(*back, id) << SubtypeName(id);  // no duplicate names
  }
  EXPECT_EQ(
      CreatureTypeMask().count() + LandTypeMask().count() + 7 /*artifact*/ + 5 /*enchantment*/,
      static_cast<size_t>(SubtypeCount()));
}

TEST(BasicLands, SubtypeAndColor) {
  const char* names[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
  const int colors[] = {kWhite, kBlue, kBlack, kRed, kGreen};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(BasicLandSubtype(colors[i]), *ParseSubtype(names[i])) << names[i];
    EXPECT_EQ(BasicLandColor(*ParseSubtype(names[i])), colors[i]) << names[i];
  }
  EXPECT_EQ(BasicLandColor(*ParseSubtype("Forest")), kGreen);
  EXPECT_FALSE(BasicLandColor(*ParseSubtype("Desert")).has_value());
  EXPECT_FALSE(BasicLandColor(*ParseSubtype("Urza's")).has_value());
  EXPECT_FALSE(BasicLandColor(*ParseSubtype("Bear")).has_value());
  EXPECT_FALSE(BasicLandColor(*ParseSubtype("Zubera")).has_value());
  EXPECT_FALSE(BasicLandColor(*ParseSubtype("Aura")).has_value());
}

TEST(Words, Colors) {
  for (int c = 0; c < kColorCount; ++c) {
    auto w = ParseWord(ColorName(c));
    ASSERT_TRUE(w.has_value()) << ColorName(c);
    EXPECT_EQ(*w, ColorWord(c));
    EXPECT_TRUE(IsColorWord(*w));
    EXPECT_EQ(WordName(*w), ColorName(c));
  }
  EXPECT_EQ(ParseWord("Black"), ColorWord(kBlack));
  EXPECT_EQ(ParseWord("RED"), ColorWord(kRed));
  EXPECT_EQ(WordName(ColorWord(kGreen)), "green");
  EXPECT_FALSE(IsColorWord(static_cast<Word>(ColorWord(kGreen) + 1)));
  EXPECT_FALSE(IsColorWord(kNoWord));
  EXPECT_FALSE(IsColorWord(static_cast<Word>(kColorWordBase - 1)));
}

TEST(Words, Subtypes) {
  auto island = ParseWord("island");
  ASSERT_TRUE(island.has_value());
  EXPECT_FALSE(IsColorWord(*island));
  EXPECT_EQ(*island, *ParseSubtype("Island"));
  EXPECT_EQ(WordName(*island), "Island");
  auto goblin = ParseWord("Goblin");
  ASSERT_TRUE(goblin.has_value());
  EXPECT_EQ(WordName(*goblin), "Goblin");
  EXPECT_NE(*goblin, *island);
}

TEST(Words, UnknownWords) {
  EXPECT_FALSE(ParseWord("purple").has_value());
  EXPECT_FALSE(ParseWord("").has_value());
  EXPECT_FALSE(ParseWord("Creature").has_value());  // card types are not text-change words
  EXPECT_FALSE(ParseWord("Legendary").has_value());
  EXPECT_FALSE(ParseWord("flying").has_value());
  EXPECT_EQ(WordName(kNoWord), "?");
  EXPECT_EQ(WordName(static_cast<Word>(SubtypeCount())), "?");
}

TEST(Types, CardTypesSupertypesKeywordsZones) {
  EXPECT_EQ(ParseCardType("creature"), kCreature);
  EXPECT_EQ(ParseCardType("Interrupt"), kInterrupt);
  EXPECT_FALSE(ParseCardType("Planeswalker").has_value());
  EXPECT_EQ(CardTypeName(kLand), "Land");
  EXPECT_EQ(ParseSupertype("basic"), kBasic);
  EXPECT_FALSE(ParseSupertype("Mythic").has_value());
  EXPECT_EQ(ParseKeyword("First Strike"), kFirstStrike);
  EXPECT_EQ(ParseKeyword("protection from green"), kProtGreen);
  EXPECT_EQ(ParseKeyword("forestwalk"), kForestwalk);
  EXPECT_FALSE(ParseKeyword("firststrike").has_value());
  EXPECT_EQ(KeywordName(kChangeling), "changeling");
  EXPECT_EQ(ParseColor("Blue"), kBlue);
  EXPECT_FALSE(ParseColor("colorless").has_value());
  EXPECT_EQ(ColorSymbol(kBlack), 'B');
  EXPECT_EQ(ParseZone("graveyard"), Zone::kGraveyard);
  EXPECT_FALSE(ParseZone("none").has_value());
  EXPECT_FALSE(ParseZone("deck").has_value());
  EXPECT_EQ(ParseEdition("M10"), Edition::kM10);
  EXPECT_FALSE(ParseEdition("legacy").has_value());
}

}  // namespace
}  // namespace strata
