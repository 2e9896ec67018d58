#include "engine/types.h"

#include "absl/strings/ascii.h"

namespace strata {
namespace {

template <size_t N>
std::optional<int> Find(const std::string_view (&names)[N], std::string_view s) {
  std::string lower = absl::AsciiStrToLower(std::string(s));
  for (size_t i = 0; i < N; ++i)
    if (absl::AsciiStrToLower(std::string(names[i])) == lower) return static_cast<int>(i);
  return std::nullopt;
}

constexpr std::string_view kZoneNames[] = {"none",      "library", "hand", "battlefield",
                                           "graveyard", "exile",   "stack"};
constexpr std::string_view kColorNames[] = {"white", "blue", "black", "red", "green"};
constexpr std::string_view kTypeNames[] = {"Artifact",  "Creature", "Enchantment", "Instant",
                                           "Interrupt", "Land",     "Sorcery",     "Tribal"};
constexpr std::string_view kSupertypeNames[] = {"Basic", "Legendary", "Snow", "World"};
constexpr std::string_view kKeywordNames[] = {"flying",
                                              "first strike",
                                              "trample",
                                              "vigilance",
                                              "haste",
                                              "reach",
                                              "defender",
                                              "shroud",
                                              "flash",
                                              "changeling",
                                              "double strike",
                                              "lifelink",
                                              "deathtouch",
                                              "menace",
                                              "plainswalk",
                                              "islandwalk",
                                              "swampwalk",
                                              "mountainwalk",
                                              "forestwalk",
                                              "protection from white",
                                              "protection from blue",
                                              "protection from black",
                                              "protection from red",
                                              "protection from green",
                                              "unblockable",
                                              "can't attack",
                                              "can't block",
                                              "attacks each turn if able",
                                              "lure",
                                              "attacks despite defender",
                                              "banding",
                                              "banding when attacking"};
static_assert(std::size(kKeywordNames) == kKeywordCount);
constexpr std::string_view kEditionNames[] = {"classic", "m10", "modern"};

}  // namespace

std::string_view ZoneName(Zone z) {
  return kZoneNames[static_cast<int>(z)];
}
std::optional<Zone> ParseZone(std::string_view s) {
  auto i = Find(kZoneNames, s);
  if (!i || *i == 0) return std::nullopt;
  return static_cast<Zone>(*i);
}
std::string_view ColorName(int c) {
  return kColorNames[c];
}
char ColorSymbol(int c) {
  return "WUBRG"[c];
}
std::optional<int> ParseColor(std::string_view s) {
  return Find(kColorNames, s);
}
std::string_view CardTypeName(int t) {
  return kTypeNames[t];
}
std::optional<int> ParseCardType(std::string_view s) {
  return Find(kTypeNames, s);
}
std::string_view SupertypeName(int t) {
  return kSupertypeNames[t];
}
std::optional<int> ParseSupertype(std::string_view s) {
  return Find(kSupertypeNames, s);
}
std::string_view KeywordName(int k) {
  return kKeywordNames[k];
}
std::optional<int> ParseKeyword(std::string_view s) {
  return Find(kKeywordNames, s);
}
std::string_view EditionName(Edition e) {
  return kEditionNames[static_cast<int>(e)];
}
std::optional<Edition> ParseEdition(std::string_view s) {
  auto i = Find(kEditionNames, s);
  if (!i) return std::nullopt;
  return static_cast<Edition>(*i);
}

}  // namespace strata
