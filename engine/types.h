// Small value types shared by the whole engine: players, zones, colors, card
// types, supertypes, keywords and the layer editions. Everything here is a
// plain integer or bitmask so the game state stays a flat, copyable value.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

using ObjId = uint16_t;
inline constexpr ObjId kNoObj = 0xFFFF;
// Every object of a game exists from its set-up (a game creates none later),
// and the state holds them in fixed arrays of this size: loaders refuse
// anything bigger (decks, scenarios) before a game starts.
inline constexpr int kMaxObjects = 512;
// A game holds both decks' main parts, so each may have half the objects.
inline constexpr int kMaxDeckCards = kMaxObjects / 2;
// The ranges of the numbers that card, deck and scenario files give
// (docs/cards.md "Limits"). The engine keeps damage, counters, P/T, X and
// amounts in 16-bit fields (to 32,767) and life in an int: inputs stay well
// inside, so that adding several of them still fits.
inline constexpr int kMaxCardNumber = 1000;       // any integer of a card, either sign
inline constexpr int kMaxManaValue = 100;         // symbols and generic mana of one cost (8 bits)
inline constexpr int kMaxScenarioAmount = 10000;  // damage, counters, X and numbers of a scenario
inline constexpr int kMaxLife = 1000000;          // a life total, either sign
inline constexpr int kPoisonToLose = 10;          // poison counters that lose (G-11)
inline constexpr int kMaxTurn = 10000;            // a scenario's turn, and N of `turns:N`
using CardId = uint16_t;
inline constexpr CardId kNoCard = 0xFFFF;

using Player = uint8_t;  // 0 = A, 1 = B
inline constexpr Player kNoPlayer = 0xFF;
inline Player Opponent(Player p) {
  return static_cast<Player>(1 - p);
}

enum class Zone : uint8_t { kNone, kLibrary, kHand, kBattlefield, kGraveyard, kExile, kStack };
inline constexpr int kZoneCount = 7;
std::string_view ZoneName(Zone z);
std::optional<Zone> ParseZone(std::string_view s);

// Colors as a 5-bit mask in WUBRG order.
using ColorMask = uint8_t;
enum Color : uint8_t { kWhite, kBlue, kBlack, kRed, kGreen };
inline constexpr int kColorCount = 5;
std::string_view ColorName(int c);  // "white"
char ColorSymbol(int c);            // 'W'
std::optional<int> ParseColor(std::string_view s);

using TypeMask = uint16_t;
enum CardType : uint8_t {
  kArtifact,
  kCreature,
  kEnchantment,
  kInstant,
  kInterrupt,
  kLand,
  kSorcery,
  kTribal,
  kCardTypeCount
};
std::string_view CardTypeName(int t);
std::optional<int> ParseCardType(std::string_view s);

using SupertypeMask = uint8_t;
enum Supertype : uint8_t { kBasic, kLegendary, kSnow, kWorld, kSupertypeCount };
std::string_view SupertypeName(int t);
std::optional<int> ParseSupertype(std::string_view s);

// Keywords. Landwalk and protection carry a word (a land type or a color),
// which text-changing effects (layer 3) can rewrite, so each variant is its
// own bit and the text layer remaps bits.
using KeywordMask = uint64_t;
enum Keyword : uint8_t {
  kFlying,
  kFirstStrike,
  kTrample,
  kVigilance,
  kHaste,
  kReach,
  kDefender,
  kShroud,
  kFlash,
  kChangeling,
  kDoubleStrike,
  kLifelink,
  kDeathtouch,
  kMenace,
  kPlainswalk,
  kIslandwalk,
  kSwampwalk,
  kMountainwalk,
  kForestwalk,
  kProtWhite,
  kProtBlue,
  kProtBlack,
  kProtRed,
  kProtGreen,
  // Combat restrictions and requirements of the classic sets (T-7.1):
  // "can't be blocked", "can't attack", "can't block", "attacks each turn
  // if able" (Juggernaut), "all creatures able to block it do so" (Lure),
  // "can attack as though it didn't have defender" (Animate Wall).
  kUnblockable,
  kCantAttack,
  kCantBlock,
  kAttacksEachTurn,
  kLure,
  kAttacksDespiteDefender,
  kKeywordCount
};
std::string_view KeywordName(int k);
std::optional<int> ParseKeyword(std::string_view s);

// The three layer editions of RULES.md L-2.
enum class Edition : uint8_t { kClassic, kM10, kModern };
std::string_view EditionName(Edition e);
std::optional<Edition> ParseEdition(std::string_view s);

template <typename Mask>
inline bool Has(Mask m, int bit) {
  return (m >> bit) & 1;
}

// The five protection keywords, from white to green (color order).
inline constexpr KeywordMask ProtectionKeywords() {
  return KeywordMask{0x1F} << kProtWhite;
}
// The colors a keyword mask has protection from, as a color mask.
inline constexpr uint8_t ProtectionColors(KeywordMask k) {
  return static_cast<uint8_t>((k >> kProtWhite) & 0x1F);
}

}  // namespace strata
