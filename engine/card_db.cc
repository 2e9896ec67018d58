#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/card.h"

namespace strata {

int ManaCost::ManaValue() const {
  int v = generic + colorless + static_cast<int>(hybrid.size());
  for (auto c : colored) v += c;
  return v;
}

ColorMask ManaCost::Colors() const {
  ColorMask m = 0;
  for (int c = 0; c < kColorCount; ++c)
    if (colored[c]) m |= 1u << c;
  for (auto h : hybrid) m |= h;
  return m;
}

bool ManaCost::Empty() const {
  return ManaValue() == 0 && x_count == 0;
}

std::string ManaCost::ToString() const {
  std::string s;
  for (int i = 0; i < x_count; ++i) s += "{X}";
  if (generic || (ManaValue() == 0 && x_count == 0)) s += absl::StrCat("{", generic, "}");
  for (auto h : hybrid) {
    std::string sym;
    for (int c = 0; c < kColorCount; ++c)
      if (Has(h, c))
        sym += sym.empty() ? std::string(1, ColorSymbol(c))
                           : absl::StrCat("/", std::string(1, ColorSymbol(c)));
    s += "{" + sym + "}";
  }
  for (int i = 0; i < colorless; ++i) s += "{C}";
  for (int c = 0; c < kColorCount; ++c)
    for (int i = 0; i < colored[c]; ++i)
      s += absl::StrCat("{", std::string(1, ColorSymbol(c)), "}");
  return s;
}

std::string_view PartLayerName(PartLayer l) {
  static constexpr std::string_view kNames[] = {"copy",      "face_down", "control",  "text",
                                                "type",      "color",     "ability",  "pt_set",
                                                "pt_modify", "pt_switch", "counters", "rule"};
  return kNames[static_cast<int>(l)];
}

uint8_t BodyWindows(const AbilityBody& b) {
  uint8_t windows = 0;
  if (!b.modes.empty()) {
    for (const AbilityBody& mode : b.modes) windows |= BodyWindows(mode);
    return windows;
  }
  if (b.reaction == Reaction::kNone && !b.TargetsSpell()) windows |= WindowBit(0, Reaction::kNone);
  if (b.TargetsSpell()) windows |= WindowBit(1, Reaction::kNone);
  if (b.prevention) windows |= WindowBit(2, Reaction::kNone);
  if (b.reaction != Reaction::kNone) windows |= WindowBit(2, b.reaction);
  return windows;
}

void CardDb::IndexHot() {
  hot.resize(cards.size());
  for (size_t i = 0; i < cards.size(); ++i) {
    const ManaCost& c = cards[i].cost;
    int symbols = c.generic + c.colorless + static_cast<int>(c.hybrid.size());
    for (uint8_t n : c.colored) symbols += n;
    hot[i] = Hot{cards[i].spell_windows, cards[i].enchant != kNoFilter,
                 Has(cards[i].types, kInstant) || Has(cards[i].types, kInterrupt),
                 static_cast<uint8_t>(std::clamp(symbols, 0, 255))};
  }
}

void CardDef::Precompute() {
  // A land is played, never cast; a permanent spell without a body only
  // starts a batch (Game::CanStart).
  spell_windows = Has(types, kLand) ? 0
                  : has_spell       ? BodyWindows(spell)
                                    : WindowBit(0, Reaction::kNone);
  ability_windows = 0;
  for (const ActivatedAbility& a : activated)
    if (!a.mana_ability) ability_windows |= BodyWindows(a.body);
  printed_mana_value = static_cast<int8_t>(cost.ManaValue());
  printed_abilities = AllAbilitiesMask();
  printed_land_mana = 0;
  for (int col = 0; col < kColorCount; ++col)
    if (subtypes.test(BasicLandSubtype(col))) printed_land_mana |= 1u << col;
}

uint32_t CardDef::AllAbilitiesMask() const {
  int n = AbilityCount();
  return n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
}

std::string CardDef::AbilityName(int bit) const {
  int s = static_cast<int>(statics.size()), a = static_cast<int>(activated.size()),
      t = static_cast<int>(triggers.size());
  std::string name;
  if (bit < s)
    name = statics[bit].name;
  else if (bit < s + a)
    name = activated[bit - s].name;
  else if (bit < s + a + t)
    name = triggers[bit - s - a].name;
  else
    name = phase[bit - s - a - t].name;
  if (!name.empty()) return name;
  if (bit < s) return absl::StrCat(this->name, " static ", bit + 1);
  if (bit < s + a) return absl::StrCat(this->name, " activated ", bit - s + 1);
  if (bit < s + a + t) return absl::StrCat(this->name, " trigger ", bit - s - a + 1);
  return absl::StrCat(this->name, " phase ", bit - s - a - t + 1);
}

std::string CardDef::TypeLine() const {
  std::vector<std::string> parts;
  for (int t = 0; t < kSupertypeCount; ++t)
    if (Has(supertypes, t)) parts.emplace_back(std::string(SupertypeName(t)));
  for (int t = 0; t < kCardTypeCount; ++t)
    if (Has(types, t)) parts.emplace_back(std::string(CardTypeName(t)));
  std::string line = absl::StrJoin(parts, " ");
  std::vector<std::string> subs;
  for (int i = 0; i < SubtypeCount(); ++i)
    if (subtypes.test(i)) subs.emplace_back(std::string(SubtypeName(i)));
  if (Has(keywords, kChangeling)) subs.insert(subs.begin(), "(all creature types)");
  if (!subs.empty()) line += " - " + absl::StrJoin(subs, " ");
  return line;
}

CardId CardDb::Find(std::string_view name) const {
  auto it = by_name.find(absl::AsciiStrToLower(std::string(name)));
  return it == by_name.end() ? kNoCard : it->second;
}

namespace {
int EditDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int sub = prev[j - 1] + (absl::ascii_tolower(a[i - 1]) != absl::ascii_tolower(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::vector<std::string> CardDb::Closest(std::string_view name, int n) const {
  std::vector<std::pair<int, std::string>> scored;
  for (auto& c : cards) scored.emplace_back(EditDistance(name, c.name), c.name);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (int i = 0; i < n && i < static_cast<int>(scored.size()); ++i)
    out.push_back(scored[i].second);
  return out;
}

}  // namespace strata
