#include "sim/cards_command.h"

#include <cstdio>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "sim/card_pool.h"
#include "sim/card_text.h"
#include "sim/exit_codes.h"

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

std::string CheckCardFilter(CardFilter& f) {
  // Colour names ("red", "white,blue", "colorless") read as their letters.
  static constexpr std::pair<const char*, char> kNames[] = {
      {"white", 'W'}, {"blue", 'U'},      {"black", 'B'},     {"red", 'R'},
      {"green", 'G'}, {"colorless", 'C'}, {"colourless", 'C'}};
  const bool letters_only = f.colors.find_first_not_of("WUBRGCwubrgc") == std::string::npos;
  if (!letters_only) {
    std::string letters;
    for (absl::string_view word :
         absl::StrSplit(f.colors, absl::ByAnyChar(", "), absl::SkipEmpty())) {
      const auto* it = absl::c_find_if(
          kNames, [&](const auto& n) { return absl::EqualsIgnoreCase(word, n.first); });
      if (it == std::end(kNames))
        return absl::StrCat(
            "--color: expected colour letters W, U, B, R, G or C (colourless), or colour names "
            "(white, blue, black, red, green, colorless), got '",
            f.colors, "'");
      letters += it->second;
    }
    f.colors = letters;
  }
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
    if (c.token || !Matches(c, filter)) continue;  // a token's definition is no card (G-12)
    ++shown;
    std::printf("%-32s %-18s %-44s %s\n", c.name.c_str(),
                Has(c.types, kLand) && c.cost.Empty() ? "" : c.cost.ToString().c_str(),
                c.TypeLine().c_str(), PT(c).c_str());
  }
  if (shown == db.PoolSize())
    std::printf("%zu cards\n", db.PoolSize());
  else
    std::printf("%zu of %zu cards\n", shown, db.PoolSize());
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
  // The rules, one sentence per ability (sim/card_text.h).
  const std::vector<std::string> rules = CardRulesText(db, c);
  for (size_t i = 0; i < rules.size(); ++i)
    std::printf("  %-11s %s\n", i == 0 ? "rules" : "", rules[i].c_str());
  if (rules.empty()) std::printf("  rules       none (no abilities)\n");
  // How the statics are layered (RULES.md L-).
  for (size_t i = 0; i < c.statics.size(); ++i)
    std::printf("  static %zu    %s%s%s (layers: %s)\n", i + 1, c.statics[i].cda ? "CDA " : "",
                c.statics[i].name.c_str(), c.statics[i].name.empty() ? "" : " ",
                Parts(c.statics[i].parts).c_str());
  return true;
}

int RunCardsCheck(const std::vector<std::string>& pool_paths, bool override_cards) {
  CardDb db;
  // Cards that do not load are what the check finds.
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitFailed;
  std::printf("ok: %zu cards\n", db.PoolSize());
  return 0;
}

int RunCardsList(CardFilter filter, const std::vector<std::string>& pool_paths,
                 bool override_cards) {
  if (auto bad = CheckCardFilter(filter); !bad.empty()) return BadInput(bad);
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitBadInput;
  PrintCardTable(db, filter);
  return 0;
}

int RunCardsShow(const std::vector<std::string>& names, bool all,
                 const std::vector<std::string>& pool_paths, bool override_cards) {
  if (all == !names.empty())
    return BadInput(all ? "cards show: give card names or --all, not both"
                        : "cards show: give a card name (or several, or --all)");
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitBadInput;
  // Every name is checked before any card is printed: a list with a typo
  // fails whole, each unknown name with its own message.
  int unknown = 0;
  for (const std::string& name : names) {
    if (db.Find(name) != kNoCard) continue;
    std::fprintf(stderr, "unknown card '%s' (%s)\n", name.c_str(), db.ClosestNote(name).c_str());
    ++unknown;
  }
  if (unknown > 0) return kExitBadInput;
  std::vector<std::string> shown = names;
  if (all)
    for (const CardDef& c : db.cards)
      if (!c.token) shown.push_back(c.name);
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i > 0) std::printf("\n");
    PrintCard(db, shown[i]);
  }
  return 0;
}

}  // namespace strata
