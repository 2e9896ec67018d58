#include "sim/cards_command.h"

#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace strata {
namespace {

std::string PT(const CardDef& c) {
  if (!Has(c.types, kCreature)) return "";
  return absl::StrCat(c.power_star ? "*" : absl::StrCat(c.power), "/",
                      c.toughness_star ? "*" : absl::StrCat(c.toughness));
}

std::string Parts(const std::vector<Part>& parts) {
  std::vector<std::string> out;
  for (auto& p : parts) out.emplace_back(std::string(PartLayerName(p.layer)));
  return absl::StrJoin(out, " + ");
}

}  // namespace

std::string CheckCardFilter(const CardFilter& f) {
  for (char ch : f.colors)
    if (std::string("WUBRGC").find(absl::ascii_toupper(ch)) == std::string::npos)
      return absl::StrCat("--color: expected colour letters W, U, B, R, G or C (colourless), got '",
                          f.colors, "'");
  if (f.type.find_first_of(" -") != std::string::npos)
    return absl::StrCat(
        "--type: expected one word of a type line (creature, instant, goblin...), "
        "got '",
        f.type, "'");
  return "";
}

namespace {

bool Matches(const CardDef& c, const CardFilter& f) {
  if (!f.name.empty() &&
      absl::AsciiStrToLower(c.name).find(absl::AsciiStrToLower(f.name)) == std::string::npos)
    return false;
  if (!f.type.empty()) {
    bool found = false;
    for (absl::string_view word :
         absl::StrSplit(c.TypeLine(), absl::ByAnyChar(" -"), absl::SkipEmpty()))
      found |= absl::EqualsIgnoreCase(word, f.type);
    if (!found) return false;
  }
  if (!f.colors.empty()) {
    bool found = false;
    for (char ch : f.colors) {
      const char up = absl::ascii_toupper(ch);
      if (up == 'C') {
        found |= c.colors == 0;
      } else {
        for (int k = 0; k < kColorCount; ++k)
          if (ColorSymbol(k) == up && Has(c.colors, k)) found = true;
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

void PrintCardTable(const CardDb& db, const CardFilter& filter) {
  std::printf("%-32s %-18s %-44s %s\n", "name", "cost", "type line", "P/T");
  size_t shown = 0;
  for (auto& c : db.cards) {
    if (!Matches(c, filter)) continue;
    ++shown;
    std::printf("%-32s %-18s %-44s %s\n", c.name.c_str(),
                Has(c.types, kLand) && c.cost.Empty() ? "" : c.cost.ToString().c_str(),
                c.TypeLine().c_str(), PT(c).c_str());
  }
  if (shown == db.cards.size())
    std::printf("%zu cards\n", db.cards.size());
  else
    std::printf("%zu of %zu cards\n", shown, db.cards.size());
}

bool PrintCard(const CardDb& db, const std::string& name) {
  CardId id = db.Find(name);
  if (id == kNoCard) return false;
  const CardDef& c = db[id];
  std::printf("%s   %s\n", c.name.c_str(),
              Has(c.types, kLand) && c.cost.Empty() ? "" : c.cost.ToString().c_str());
  std::printf("  defined at  %s:%d\n", c.file.c_str(), c.line);
  std::printf("  type line   %s\n", c.TypeLine().c_str());
  std::vector<std::string> colors;
  for (int i = 0; i < kColorCount; ++i)
    if (Has(c.colors, i)) colors.emplace_back(std::string(ColorName(i)));
  std::printf("  colors      %s\n",
              colors.empty() ? "colorless" : absl::StrJoin(colors, ", ").c_str());
  std::printf("  mana value  %d\n", c.cost.ManaValue());
  if (Has(c.types, kCreature)) std::printf("  P/T         %s\n", PT(c).c_str());
  std::vector<std::string> kws;
  for (int k = 0; k < kKeywordCount; ++k)
    if (Has(c.keywords, k)) kws.emplace_back(std::string(KeywordName(k)));
  if (!kws.empty()) std::printf("  keywords    %s\n", absl::StrJoin(kws, ", ").c_str());
  for (size_t i = 0; i < c.statics.size(); ++i)
    std::printf("  static %zu    %s%s%s (layers: %s)\n", i + 1, c.statics[i].cda ? "CDA " : "",
                c.statics[i].name.c_str(), c.statics[i].name.empty() ? "" : " ",
                Parts(c.statics[i].parts).c_str());
  for (size_t i = 0; i < c.activated.size(); ++i)
    std::printf("  activated %zu %s%s, %zu target(s), %zu effect(s)\n", i + 1,
                c.activated[i].mana_ability ? "mana ability " : "",
                c.activated[i].cost.Empty() ? (c.activated[i].tap ? "{T}" : "free")
                                            : c.activated[i].cost.ToString().c_str(),
                c.activated[i].body.targets.size(), c.activated[i].body.steps.size());
  for (size_t i = 0; i < c.triggers.size(); ++i)
    std::printf("  trigger %zu   %s\n", i + 1,
                c.AbilityName(c.TriggerBit(static_cast<int>(i))).c_str());
  auto body = [](const AbilityBody& b) {
    std::string when = b.reaction == Reaction::kDestroy ? ", a reaction to destruction"
                       : b.reaction == Reaction::kDraw  ? ", a reaction to a draw"
                       : b.prevention                   ? ", prevents damage"
                       : b.TargetsSpell()               ? ", an interrupt against a spell"
                                                        : "";
    return absl::StrCat(b.targets.size(), " target(s), ", b.steps.size(), " effect(s)", when);
  };
  if (c.has_spell) {
    if (c.spell.modes.empty()) std::printf("  spell       %s\n", body(c.spell).c_str());
    for (size_t m = 0; m < c.spell.modes.size(); ++m)
      std::printf("  mode %zu      %s\n", m + 1, body(c.spell.modes[m]).c_str());
  }
  for (size_t i = 0; i < c.phase.size(); ++i)
    std::printf("  phase %zu     %s during %s%s\n", i + 1,
                c.phase[i].is_cost ? ("cost " + c.phase[i].cost.ToString()).c_str() : "effect",
                c.phase[i].phase == 1 ? "upkeep" : "a phase",
                c.phase[i].whose == 1 ? " of the enchanted permanent's controller" : "");
  for (size_t i = 0; i < c.granted_phase.size(); ++i)
    std::printf("  grants      phase cost %s to others\n",
                c.granted_phase[i].cost.ToString().c_str());
  for (size_t i = 0; i < c.continuous.size(); ++i)
    std::printf("  effect %zu    %s\n", i + 1, Parts(c.continuous[i].parts).c_str());
  if (c.enters.choose != ChoiceKind::kNone) std::printf("  enters      with a choice\n");
  return true;
}

}  // namespace strata
