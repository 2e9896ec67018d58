#include <algorithm>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/card.h"
#include "engine/layers.h"
#include "engine/strings.h"

namespace strata {

// A computed number (docs/rules.md G-5, G-6): one rule for a resolving
// body (Game::Amount) and the layers (Eval), so both read a card alike.
int Value::Scale(int base) const {
  long long n = static_cast<long long>(base) * times + plus;
  if (divide > 1) {
    // C++ division truncates toward zero: floor or ceil it as the card says.
    const long long q = n / divide;
    const bool inexact = n % divide != 0;
    n = q + (inexact && round_up && n > 0) - (inexact && !round_up && n < 0);
  }
  n = std::clamp<long long>(n, at_least, at_most);
  return static_cast<int>(std::clamp<long long>(n, std::numeric_limits<int32_t>::min(),
                                                std::numeric_limits<int32_t>::max()));
}

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
  dealt.assign(cards.size(), Dealt{});
  for (size_t i = 0; i < cards.size(); ++i) {
    const CardDef& c = cards[i];
    Dealt& d = dealt[i];
    d.layer_zones = LayerZones(*this, static_cast<CardId>(i));
    d.phase = !c.phase.empty() || !c.granted_phase.empty();
    d.attack_owed = GivesKeyword(c, kAttacksEachTurn);
    d.banding = GivesKeyword(c, kBanding) || GivesKeyword(c, kBandingWhenAttacking);
    for (const EffectTemplate& t : c.statics) d.your_turn |= t.condition.your_turn >= 0;
    d.linking = c.enters.choose == ChoiceKind::kExile;
    d.untap_limit = c.untap_limit;
    d.attack_memory = c.reads_attacks;
    constexpr SupertypeMask kUnique = (1u << kLegendary) | (1u << kWorld);
    d.unique = (c.supertypes & kUnique) != 0;
    for (const auto* templates : {&c.statics, &c.keyword_statics, &c.continuous})
      for (const EffectTemplate& t : *templates)
        for (const Part& p : t.parts) d.unique |= (p.add_supertypes & kUnique) != 0;
    d.tapped_enchant_filter = c.enchant != kNoFilter && filter(c.enchant).tapped >= 0;
    for (const auto* table : {&c.triggers, &c.next_times})
      for (const TriggeredAbility& tr : *table) {
        if (tr.event == EventKind::kState) {  // G-16: no occurrence sets it off
          d.state_trigger = true;
          continue;
        }
        d.listened[static_cast<int>(tr.timing)] |= uint32_t{1} << static_cast<int>(tr.event);
        d.mana_tap |= tr.for_mana;
        d.mana_trigger |= tr.mana_trigger;
      }
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
    if (!a.mana_ability)
      ability_windows |= BodyWindows(a.body);
    else if (a.manual_mana)
      ability_windows = 0xFF;  // T-10.2: wherever its controller may play something
  printed_mana_value = static_cast<int8_t>(cost.ManaValue());
  printed_abilities = AllAbilitiesMask();
  printed_land_mana = 0;
  for (int col = 0; col < kColorCount; ++col)
    if (subtypes.test(BasicLandSubtype(col))) printed_land_mana |= 1u << col;
}

bool GivesKeyword(const CardDef& c, int keyword) {
  if (Has(c.keywords, keyword)) return true;
  for (const auto* templates : {&c.statics, &c.keyword_statics, &c.continuous})
    for (const EffectTemplate& t : *templates)
      for (const Part& p : t.parts)
        if (Has(p.add_keywords, keyword)) return true;
  return false;
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
  if (it != by_name.end()) return it->second;
  // Another spelling of a known name: a scan, as only a miss gets here
  // (a decklist or a scenario being read, never a game).
  const std::string folded = FoldCardName(name);
  if (folded.empty()) return kNoCard;
  for (size_t i = 0; i < cards.size(); ++i)  // a token's definition is no card (G-12)
    if (!cards[i].token && FoldCardName(cards[i].name) == folded) return static_cast<CardId>(i);
  return kNoCard;
}

namespace {

// What one Unicode code point of a name is written as once folded, for the
// letters and signs decklist tools write in card names; "" keeps it.
// Latin-1's accented letters lose their accents, ligatures are spelt out,
// typographic apostrophes, quotes and dashes become ASCII ones.
std::string_view FoldedCodePoint(uint32_t c) {
  if ((c >= 0xC0 && c <= 0xC5) || (c >= 0xE0 && c <= 0xE5)) return "a";
  if (c == 0xC6 || c == 0xE6) return "ae";
  if (c == 0xC7 || c == 0xE7) return "c";
  if ((c >= 0xC8 && c <= 0xCB) || (c >= 0xE8 && c <= 0xEB)) return "e";
  if ((c >= 0xCC && c <= 0xCF) || (c >= 0xEC && c <= 0xEF)) return "i";
  if (c == 0xD0 || c == 0xF0) return "d";
  if (c == 0xD1 || c == 0xF1) return "n";
  if ((c >= 0xD2 && c <= 0xD6) || c == 0xD8 || (c >= 0xF2 && c <= 0xF6) || c == 0xF8) return "o";
  if ((c >= 0xD9 && c <= 0xDC) || (c >= 0xF9 && c <= 0xFC)) return "u";
  if (c == 0xDD || c == 0xFD || c == 0xFF) return "y";
  if (c == 0xDE || c == 0xFE) return "th";
  if (c == 0xDF) return "ss";
  if (c == 0x152 || c == 0x153) return "oe";
  if (c == 0xA0) return " ";
  if (c == 0x2018 || c == 0x2019 || c == 0x201B || c == 0x2032 || c == 0x02BC || c == 0xB4 ||
      c == '`')
    return "'";
  if (c == 0x201C || c == 0x201D) return "\"";
  if (c >= 0x2010 && c <= 0x2015) return "-";
  return "";
}

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

// A folded name's words: split at spaces, hyphens, slashes and commas.
std::vector<std::string> Words(const std::string& folded) {
  std::vector<std::string> words;
  std::string w;
  for (char ch : folded) {
    if (ch == ' ' || ch == '-' || ch == '/' || ch == ',') {
      if (!w.empty()) words.push_back(w);
      w.clear();
    } else {
      w += ch;
    }
  }
  if (!w.empty()) words.push_back(w);
  return words;
}

// How far a name is from what was typed, 0 for the same words: each typed
// word's distance to the nearest word of the name, as a share of the
// longer one's letters, averaged over the typed words; a small cost for
// each word of the name that no typed word matched, so `Bolt` ranks a
// card called `Bolt` before `Lightning Bolt`.
double WordDistance(const std::vector<std::string>& typed, const std::vector<std::string>& name) {
  if (typed.empty() || name.empty()) return 1.0;
  double sum = 0;
  std::vector<bool> used(name.size(), false);
  for (const std::string& t : typed) {
    double best = 1.0;
    size_t best_k = 0;
    for (size_t k = 0; k < name.size(); ++k) {
      const double longer = static_cast<double>(std::max(t.size(), name[k].size()));
      // The lengths' difference bounds the distance from below: a word that
      // can't beat the best is not measured (a 1 MB name took 24 s).
      const double gap = static_cast<double>(std::max(t.size(), name[k].size()) -
                                             std::min(t.size(), name[k].size()));
      if (gap / longer >= best) continue;
      const double d = static_cast<double>(EditDistance(t, name[k])) / longer;
      if (d < best) best = d, best_k = k;
    }
    sum += best;
    if (best < 0.5) used[best_k] = true;
  }
  const double unmatched = static_cast<double>(std::count(used.begin(), used.end(), false));
  return sum / static_cast<double>(typed.size()) + 0.02 * unmatched;
}

}  // namespace

std::string FoldCardName(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size();) {
    const unsigned char b = static_cast<unsigned char>(name[i]);
    uint32_t c = b;
    size_t len = 1;
    if (b >= 0xC0 && b < 0xE0 && i + 1 < name.size()) {
      c = ((b & 0x1Fu) << 6) | (static_cast<unsigned char>(name[i + 1]) & 0x3Fu), len = 2;
    } else if (b >= 0xE0 && b < 0xF0 && i + 2 < name.size()) {
      c = ((b & 0x0Fu) << 12) | ((static_cast<unsigned char>(name[i + 1]) & 0x3Fu) << 6) |
          (static_cast<unsigned char>(name[i + 2]) & 0x3Fu),
      len = 3;
    }
    std::string_view folded = FoldedCodePoint(c);
    if (!folded.empty())
      out += folded;
    else if (c < 0x80)
      out += absl::ascii_tolower(static_cast<char>(c));
    else
      out += name.substr(i, len);
    i += len;
  }
  // Spaces collapsed and a split card's separator made one `/`.
  std::string tidy;
  for (size_t i = 0; i < out.size(); ++i) {
    const char ch = out[i] == '\t' ? ' ' : out[i];
    if (ch == '/') {
      while (!tidy.empty() && tidy.back() == ' ') tidy.pop_back();
      if (!tidy.empty() && tidy.back() == '/') continue;
      tidy += '/';
      continue;
    }
    if (ch == ' ' && (tidy.empty() || tidy.back() == ' ' || tidy.back() == '/')) continue;
    tidy += ch;
  }
  while (!tidy.empty() && tidy.back() == ' ') tidy.pop_back();
  return tidy;
}

std::vector<std::string> CardDb::Closest(std::string_view name, int n) const {
  const std::string folded = FoldCardName(name);
  // Nothing much longer than every card's name is a misspelling of one
  // (and measuring it against each is quadratic in its length).
  size_t longest = 0;
  for (auto& c : cards) longest = std::max(longest, c.name.size());
  if (folded.size() > 3 * longest) return {};
  const std::vector<std::string> typed = Words(folded);
  std::vector<std::pair<std::pair<double, int>, std::string>> scored;
  for (auto& c : cards) {
    if (c.token) continue;  // a token's definition is no card (G-12)
    const std::string other = FoldCardName(c.name);
    const double words = WordDistance(typed, Words(other));
    // The letters' distance is at least the lengths' difference: measured
    // only when it could make the name near or order a near one.
    const size_t gap =
        std::max(folded.size(), other.size()) - std::min(folded.size(), other.size());
    if (words > 0.34 && 3 * gap > other.size()) continue;
    const int letters = EditDistance(folded, other);
    // Near enough to be a misspelling: its words a third or less wrong, or
    // the whole name off by a third or less of its letters.
    const bool near = words <= 0.34 || 3 * letters <= static_cast<int>(other.size());
    if (near) scored.push_back({{words, letters}, c.name});
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (int i = 0; i < n && i < static_cast<int>(scored.size()); ++i)
    out.push_back(scored[i].second);
  return out;
}

CardId CardDb::FindAlias(std::string_view name) const {
  auto it = aliases.find(FoldCardName(name));
  return it == aliases.end() ? kNoCard : it->second;
}

std::string CardDb::AliasNote(std::string_view name, CardId id) const {
  return absl::StrCat("'", Shown(name), "' is an old spelling of '", cards[id].name,
                      "'; loaded as that");
}

std::string CardDb::ClosestNote(std::string_view name) const {
  std::vector<std::string> close = Closest(name);
  if (close.empty())
    return absl::StrCat("no card of the pool of ", PoolSize(),
                        " has a name close to it; `strata cards list --name TEXT` searches it");
  return absl::StrCat("closest: ", absl::StrJoin(close, ", "));
}

}  // namespace strata
