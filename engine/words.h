// The game's vocabulary of subtypes (creature, land, artifact and
// enchantment types). Subtypes are small integers so an object's subtypes
// are one fixed bitset; text-changing effects (RULES.md layer 3) rewrite
// "words", which are either a subtype or a color.
#pragma once

#include <bitset>
#include <optional>
#include <string_view>

#include "engine/types.h"

namespace strata {

inline constexpr int kMaxSubtypes = 384;
using SubtypeSet = std::bitset<kMaxSubtypes>;

enum class SubtypeKind : uint8_t { kCreature, kLand, kArtifact, kEnchantment };

int SubtypeCount();
std::string_view SubtypeName(int id);
SubtypeKind SubtypeKindOf(int id);
std::optional<int> ParseSubtype(std::string_view s);
std::optional<int> ParseCreatureType(std::string_view s);
const SubtypeSet& CreatureTypeMask();
const SubtypeSet& LandTypeMask();
// Basic land types: Plains, Island, Swamp, Mountain, Forest, in WUBRG order.
int BasicLandSubtype(int color);
std::optional<int> BasicLandColor(int subtype);

// A word that text changes act on: a subtype (0..kMaxSubtypes-1) or a color
// (kColorWordBase + color).
using Word = uint16_t;
inline constexpr Word kColorWordBase = 1000;
inline constexpr Word kNoWord = 0xFFFF;
inline Word ColorWord(int c) {
  return static_cast<Word>(kColorWordBase + c);
}
inline bool IsColorWord(Word w) {
  return w >= kColorWordBase && w < kColorWordBase + kColorCount;
}
std::optional<Word> ParseWord(std::string_view s);
std::string WordName(Word w);

}  // namespace strata
