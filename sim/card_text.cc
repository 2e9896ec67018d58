#include "sim/card_text.h"

#include <bit>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "engine/state.h"
#include "engine/strings.h"

namespace strata {
namespace {

std::string Lower(std::string_view s) {
  return absl::AsciiStrToLower(std::string(s));
}

std::string Capital(std::string s) {
  if (!s.empty()) s[0] = absl::ascii_toupper(s[0]);
  return s;
}

std::string A(const std::string& noun) {
  if (noun.empty()) return noun;
  return (std::string("aeiouAEIOU").find(noun[0]) != std::string::npos ? "an " : "a ") + noun;
}

std::string Plural(const std::string& noun) {
  if (noun.empty()) return noun;
  if (noun.back() == 'y') return noun.substr(0, noun.size() - 1) + "ies";
  if (noun.back() == 's') return noun + "es";
  return noun + "s";
}

std::string WordText(strata::Word w) {
  return w == kChoiceWord ? "the chosen one" : WordName(w);
}

std::string Or(const std::vector<std::string>& v) {
  if (v.size() <= 1) return v.empty() ? "" : v[0];
  return absl::StrCat(absl::StrJoin(v.begin(), v.end() - 1, ", "), " or ", v.back());
}
std::string And(const std::vector<std::string>& v) {
  if (v.size() <= 1) return v.empty() ? "" : v[0];
  return absl::StrCat(absl::StrJoin(v.begin(), v.end() - 1, ", "), " and ", v.back());
}

std::string Keywords(KeywordMask k) {
  std::vector<std::string> out;
  for (int i = 0; i < kKeywordCount; ++i)
    if (k & (KeywordMask{1} << i)) out.push_back(std::string(KeywordName(i)));
  return And(out);
}

std::string Types(TypeMask t) {
  std::vector<std::string> out;
  for (int i = 0; i < kCardTypeCount; ++i)
    if (Has(t, i)) out.push_back(Lower(CardTypeName(i)));
  return out.empty() ? "" : absl::StrJoin(out, " ");
}
// A filter's types match an object of any of them: "artifact, creature or
// land".
std::string AnyOfTypes(TypeMask t) {
  std::vector<std::string> out;
  for (int i = 0; i < kCardTypeCount; ++i)
    if (Has(t, i)) out.push_back(Lower(CardTypeName(i)));
  return Or(out);
}

struct Writer {
  const CardDb& db;
  const CardDef& card;
  // What "self" names: the card, or, inside an ability it grants to other
  // permanents (The Tabernacle at Pendrell Vale's, Energy Flux's upkeep
  // costs), the permanent that has it.
  mutable const char* self_name = nullptr;
  // T-12.2: in a phase effect of the enchanted permanent's controller's
  // phase, "you" is that player, who plays it (Cursed Land).
  mutable const char* you_name = nullptr;

  // "white creature you control", "nonbasic lands", "spell".
  std::string Filter(FilterId id, bool plural, TargetWhat what = TargetWhat::kPermanent,
                     bool bare = false) const {
    if (id == kNoFilter) {
      std::string noun = what == TargetWhat::kSpell              ? "spell"
                         : what == TargetWhat::kCard             ? "card"
                         : what == TargetWhat::kPlayer           ? "player"
                         : what == TargetWhat::kCreatureOrPlayer ? "creature or player"
                                                                 : "permanent";
      return plural ? Plural(noun) : noun;
    }
    const strata::Filter& f = db.filter(id);
    if (f.self) return card.name;
    if (f.enchanted && f.types == 0 && f.not_types == 0) return "the enchanted permanent";
    if (f.enchanted) plural = false;  // one object: "the enchanted noncreature permanent"
    std::vector<std::string> adj;
    if (f.other) adj.push_back("other");
    if (f.enchanted) adj.push_back("the enchanted");
    if (f.tapped == 1) adj.push_back("tapped");
    if (f.tapped == 0) adj.push_back("untapped");
    if (f.face_down == 1) adj.push_back("face-down");
    if (f.token == 1) adj.push_back("token");
    if (f.colorless == 1) adj.push_back("colorless");
    if (f.combat & strata::Filter::kCombatPlaces) {  // T-7.2: "attacking or blocking", "unblocked"
      std::vector<std::string> places;
      if (f.combat & strata::Filter::kAttackingCreature) places.push_back("attacking");
      if (f.combat & strata::Filter::kBlockingCreature) places.push_back("blocking");
      if (f.combat & strata::Filter::kBlockedCreature) places.push_back("blocked");
      if (f.combat & strata::Filter::kUnblockedCreature) places.push_back("unblocked");
      adj.push_back(Or(places));
    }
    std::vector<std::string> colors;
    for (Word w : f.colors) colors.push_back(WordText(w));
    if (!colors.empty()) adj.push_back(Or(colors));
    for (Word w : f.not_colors) adj.push_back("non" + WordText(w));
    for (int i = 0; i < kSupertypeCount; ++i) {
      if (Has(f.supertypes, i)) adj.push_back(Lower(SupertypeName(i)));
      if (Has(f.not_supertypes, i)) adj.push_back("non" + Lower(SupertypeName(i)));
    }
    for (int i = 0; i < kCardTypeCount; ++i)
      if (Has(f.not_types, i)) adj.push_back("non" + Lower(CardTypeName(i)));
    std::vector<std::string> subtypes;
    for (Word w : f.subtypes) subtypes.push_back(WordText(w));
    for (Word w : f.not_subtypes) adj.push_back("non-" + WordText(w));
    std::string noun = AnyOfTypes(f.types);
    // An `if` condition: "red", not "red permanent".
    if (bare && noun.empty() && subtypes.empty() && !adj.empty()) return absl::StrJoin(adj, " ");
    const uint8_t hand_only = 1u << static_cast<int>(Zone::kHand);
    // Cards in a hand, a library or a graveyard are cards, not permanents.
    const bool off_battlefield = f.zones != 0 &&
                                 !(f.zones & (1u << static_cast<int>(Zone::kBattlefield))) &&
                                 !(f.zones & (1u << static_cast<int>(Zone::kStack)));
    if (noun.empty())
      noun = f.what == TargetWhat::kSpell              ? "spell"
             : f.what == TargetWhat::kCard             ? "card"
             : f.what == TargetWhat::kCreatureOrPlayer ? "creature or player"
             : what == TargetWhat::kSpell              ? "spell"
             : off_battlefield                         ? "card"
                                                       : "permanent";
    // Land types name permanents alone: "target Mountain", "X target Mountains".
    bool land_types = !subtypes.empty() && noun == "permanent";
    for (Word w : f.subtypes)
      land_types &=
          w < kMaxSubtypes && SubtypeKindOf(w) == SubtypeKind::kLand && WordName(w).back() != 's';
    if (land_types)
      noun = Or(subtypes);
    else if (!subtypes.empty())
      noun = absl::StrCat(Or(subtypes), " ", noun);
    if (f.what == TargetWhat::kSpell && noun != "spell") noun += " spell";
    if (plural) noun = noun == "creature or player" ? "creatures and/or players" : Plural(noun);
    std::string out = absl::StrJoin(adj, " ");
    out += out.empty() ? noun : " " + noun;
    if (f.keywords) out += " with " + Keywords(f.keywords);
    if (f.not_keywords) out += " without " + Keywords(f.not_keywords);
    if (f.no_abilities == 1) out += " with no abilities";
    if (f.min_power != strata::Filter::kAnyPower)
      out += absl::StrCat(" with power ", f.min_power, " or greater");
    if (f.max_power != strata::Filter::kAnyPower)
      out += absl::StrCat(" with power ", f.max_power, " or less");
    if (f.mana_value_x) out += " with mana value X";  // T-8, T-8.3
    if (f.name != kNoCard) out += " named " + db[f.name].name;
    if (f.combat_with_self) out += " blocking or blocked by " + card.name;
    if (f.controller == 0) out += " you control";
    if (f.controller == 1) out += plural ? " your opponents control" : " an opponent controls";
    // "Cards in your hand" (Black Vise, Storm World), not "cards you own in hand".
    if (f.zones == hand_only && f.owner >= 0 && !bare)
      return out + (f.owner == 0 ? " in your hand" : " in an opponent's hand");
    if (f.owner == 0) out += " you own";
    if (f.owner == 1) out += " an opponent owns";
    out += History(f, plural);
    const uint8_t battlefield = 1u << static_cast<int>(Zone::kBattlefield);
    const uint8_t stack = 1u << static_cast<int>(Zone::kStack);
    uint8_t all = 0;
    for (int z = 1; z < kZoneCount; ++z) all |= 1u << z;
    if (f.zones != battlefield && (f.zones & all) != all && !bare &&
        !(f.zones == stack && (f.what == TargetWhat::kSpell || what == TargetWhat::kSpell))) {
      std::vector<std::string> zones;
      for (int z = 1; z < kZoneCount; ++z)
        if (f.zones & (1u << z)) zones.push_back(std::string(ZoneName(static_cast<Zone>(z))));
      out += " in " + Or(zones);
    }
    return out;
  }

  // T-7.5, T-7.5a, T-7.5c: what happened to it this turn, after whose it is.
  std::string History(const strata::Filter& f, bool plural) const {
    std::string out;
    if (f.combat & strata::Filter::kToughnessBelowSourcePower)
      out += " with toughness less than " + card.name + "'s power";
    std::vector<std::string> that;
    if (f.combat & strata::Filter::kAttackedThisTurn) that.push_back("attacked this turn");
    if (f.combat & strata::Filter::kNotAttackedThisTurn) that.push_back("didn't attack this turn");
    if (f.combat & strata::Filter::kSinceTurnBegan)
      that.push_back(std::string(plural ? "their" : "its") +
                     " controller has controlled continuously since their most recent turn began");
    if (!that.empty()) out += " that " + absl::StrJoin(that, " and that ");
    return out;
  }

  // An `if` on the objects a step acts on: "if it didn't attack this turn".
  std::string IfIts(FilterId id) const {
    const strata::Filter& f = db.filter(id);
    strata::Filter rest = f;
    rest.combat &= strata::Filter::kCombatPlaces;
    if (rest == strata::Filter{} && f.combat) {
      std::string h = History(f, false);  // " that ..."
      return " if it" + h.substr(std::string_view(" that ").size() - 1);
    }
    // A keyword alone: "if it has flying" (Winter Blast).
    const std::string c = Filter(id, false, TargetWhat::kPermanent, /*bare=*/true);
    constexpr std::string_view kWith = "permanent with ";
    return c.starts_with(kWith) ? " if it has " + c.substr(kWith.size()) : " if it's " + c;
  }

  std::string Target(const TargetSpec& t) const {
    std::string what;
    switch (t.what) {
      case TargetWhat::kCreatureOrPlayer:
        what = t.filter != kNoFilter ? Filter(t.filter, t.max > 1, t.what)
               : t.max > 1           ? "creatures and/or players"
                                     : "creature or player";
        break;
      case TargetWhat::kPlayer:
        what = "player";
        break;
      default:
        what = Filter(t.filter, t.max > 1, t.what);
    }
    if (t.x) return "X target " + what;  // T-8.5: exactly X
    if (t.min > 1) {                     // T-8.2: exactly that many
      static constexpr const char* kNumbers[] = {"", "", "two", "three", "four"};
      return absl::StrCat(kNumbers[std::min(t.min, 4)], " target ", what);
    }
    if (t.max > 1) {
      std::string out = absl::StrCat("one to ", t.max, " target ", what);
      if (!t.extra_target_cost.Empty())
        out +=
            absl::StrCat(" (", t.extra_target_cost.ToString(), " more for each beyond the first)");
      return out;
    }
    return "target " + what;
  }

  // A count of things: "that many" counters, not "that much".
  static std::string Many(const Value& v, const std::string& amount) {
    return v.kind == Value::kEventAmount && amount == "that much" ? "that many" : amount;
  }

  // A counter kind as a card says it: "+1/+1", "-1/-1", or its name.
  static std::string CounterName(int kind, const std::string& name) {
    return kind == 0      ? "+1/+1"
           : kind == 1    ? "-1/-1"
           : kind == 3    ? "+1/+0"
           : kind == 4    ? "-0/-2"  // G-8.1
           : name.empty() ? "other"
                          : name;
  }

  std::string Val(const Value& v) const {
    std::string base;
    switch (v.kind) {
      case Value::kConst:
        return absl::StrCat(v.constant * v.times + v.plus);
      case Value::kX:
        base = "X";
        break;
      case Value::kManaValue:
        base = "its mana value";
        break;
      case Value::kLinkedPower:
        base = "the exiled card's power";
        break;
      case Value::kLinkedToughness:
        base = "the exiled card's toughness";
        break;
      case Value::kSourcePower:
        base = card.name + "'s power";
        break;
      case Value::kSourceToughness:
        base = card.name + "'s toughness";
        break;
      case Value::kCount:
        base = "the number of " + Filter(v.filter, true);
        break;
      case Value::kSumManaValue:
        base = "the total mana value of " + Filter(v.filter, true);
        break;
      case Value::kCardTypes:
        base = "the number of card types among " + Filter(v.filter, true);
        break;
      case Value::kEventPower:
        base = "that creature's power";
        break;
      case Value::kEventToughness:
        base = "that creature's toughness";
        break;
      case Value::kEventAmount:
        base = "that much";
        break;
      case Value::kTargetPower:
        base = "the target's power";
        break;
      case Value::kTargetToughness:
        base = "the target's toughness";
        break;
      case Value::kTargetManaValue:
        base = "the target's mana value";
        break;
      case Value::kTurnStartUntappedLands:
        base = "the number of untapped lands they controlled at the beginning of this turn";
        break;
      case Value::kDiscarded:
        base = "the number of cards discarded this way";
        break;
      case Value::kRemoved:
        base = "the number of counters removed this way";
        break;
      case Value::kDestroyed:
        base = "the number of its targets put into a graveyard this way";
        break;
      case Value::kCountersOnSource:
        base = "the number of counters on it";
        break;
      case Value::kDiedThisTurn:
        base =
            "the number of " + Filter(v.filter, true) + " put into a graveyard from play this turn";
        break;
      case Value::kDamageThisTurn:
        base = "the damage dealt to you this turn";
        if (v.filter != kNoFilter && db.filter(v.filter).types)
          base += " by " + Lower(Plural(Types(db.filter(v.filter).types)));
        break;
    }
    if (v.times == -1 && v.plus > 0) {
      // Storm World: "4 minus the number of cards in that player's hand".
      base = absl::StrCat(v.plus, " minus ", base);
    } else {
      if (v.times != 1) base = absl::StrCat(v.times, " times ", base);
      if (v.plus > 0) base = absl::StrCat(base, " plus ", v.plus);
    }
    if (v.plus < 0) base = absl::StrCat(base, " minus ", -v.plus);
    if (v.divide > 1)
      base = absl::StrCat(base, ", divided by ", v.divide,
                          v.round_up ? " rounded up" : " rounded down");
    if (v.at_least != std::numeric_limits<int>::min())
      base = absl::StrCat(base, ", at least ", v.at_least);
    if (v.at_most != std::numeric_limits<int>::max())
      base = absl::StrCat(base, ", at most ", v.at_most);
    return base;
  }

  std::string Ref(const AbilityBody& b, const strata::Ref& r) const {
    switch (r.kind) {
      case strata::Ref::kTarget:
        if (r.index >= 1 && r.index <= static_cast<int>(b.targets.size()))
          return Target(b.targets[r.index - 1]);
        return "the target";
      case strata::Ref::kSelf:
        return self_name ? self_name : card.name;
      case strata::Ref::kYou:
        return you_name ? you_name : "you";
      case strata::Ref::kOpponent:
        return "your opponent";
      case strata::Ref::kEnchanted:
        return "the enchanted permanent";
      case strata::Ref::kEventObject:
        return "that object";
      case strata::Ref::kEventController:
        return "its controller";
      case strata::Ref::kEachPlayer:
        return "each player";
      case strata::Ref::kTargetController:
        return "the target's controller";
      case strata::Ref::kEventSourceController:
        return "that source's controller";
      case strata::Ref::kEventEnchanted:
        return "the permanent it was attached to";
      case strata::Ref::kNone:
        return "";
    }
    return "";
  }

  // A combat rule (docs/rules.md T-7.1): "can't be blocked except by Walls
  // or creatures with flying".
  std::string CombatRuleText(const CombatRule& r, bool plural) const {
    // Blockers and attackers are creatures: "artifact creatures", "Wall
    // creatures" read better than "artifacts", "Wall permanents".
    std::vector<std::string> f;
    for (FilterId id : r.filters) {
      std::string text = Filter(id, true);
      if (r.kind != CombatRule::kAttacksOnlyIf) {
        if (absl::StrContains(text, "permanents"))
          text = absl::StrReplaceAll(text, {{"permanents", "creatures"}});
        else if (absl::StrContains(text, "artifacts"))
          text = absl::StrReplaceAll(text, {{"artifacts", "artifact creatures"}});
      }
      f.push_back(text);
    }
    switch (r.kind) {
      case CombatRule::kBlockedOnlyBy:
        return "can't be blocked except by " + Or(f);
      case CombatRule::kNotBlockedBy:
        return "can't be blocked by " + Or(f);
      case CombatRule::kCantBlockThose:
        return "can't block " + Or(f);
      case CombatRule::kAttacksOnlyIf:
        return absl::StrCat(plural ? "attack" : "attacks",
                            " only while the defending player controls ", Or(f));
      case CombatRule::kAttacksAsThoughHaste:  // T-5.6
        return plural ? "can attack as though they had haste" : "can attack as though it had haste";
    }
    return "";
  }

  // What the parts of a continuous effect do to `who` (plural: verbs agree).
  std::string Effect(const EffectTemplate& e, const std::string& who, bool plural) const {
    auto verb = [&](const char* many, const char* one) { return plural ? many : one; };
    std::vector<std::string> does;
    for (const Part& p : e.parts) {
      switch (p.layer) {
        case PartLayer::kPtModify: {
          auto sign = [&](const Value& v) {
            std::string s = Val(v);
            return v.kind == Value::kConst && v.constant * v.times + v.plus >= 0 ? "+" + s : s;
          };
          does.push_back(absl::StrCat(verb("get", "gets"), " ", p.has_power ? sign(p.power) : "+0",
                                      "/", p.has_toughness ? sign(p.toughness) : "+0"));
          break;
        }
        case PartLayer::kPtSet:
          if (p.has_power && p.has_toughness && p.power.kind != Value::kConst &&
              Val(p.power) == Val(p.toughness)) {
            does.push_back(absl::StrCat(verb("have", "has"),
                                        " base power and toughness each equal to ", Val(p.power)));
            break;
          }
          does.push_back(absl::StrCat(verb("have", "has"), " base power and toughness ",
                                      p.has_power ? Val(p.power) : "unchanged", "/",
                                      p.has_toughness ? Val(p.toughness) : "unchanged"));
          break;
        case PartLayer::kPtSwitch:
          does.push_back(verb("switch power and toughness", "switches power and toughness"));
          break;
        case PartLayer::kAbility:
          if (p.remove_all_abilities)
            does.push_back(absl::StrCat(verb("lose", "loses"), " all abilities"));
          if (p.add_keywords)
            does.push_back(absl::StrCat(
                verb("gain", "gains"), " ", Keywords(p.add_keywords),
                p.spares_source ? absl::StrCat(" (this effect doesn't remove ", card.name, ")")
                                : ""));
          if (p.remove_keywords)
            does.push_back(absl::StrCat(verb("lose", "loses"), " ", Keywords(p.remove_keywords)));
          if (p.add_colorless_mana)
            does.push_back(absl::StrCat(verb("have", "has"), " \"{T}: Add {C}\""));
          if (p.grant_phase >= 0 && p.grant_phase < static_cast<int>(card.granted_phase.size())) {
            self_name = "this permanent";
            does.push_back(absl::StrCat(verb("have", "has"), " \"",
                                        Phase(card.granted_phase[p.grant_phase], "your"), "\""));
            self_name = nullptr;
          }
          if (p.combat_rule >= 0 && p.combat_rule < static_cast<int>(card.combat_rules.size()))
            does.push_back(CombatRuleText(card.combat_rules[p.combat_rule], plural));
          break;
        case PartLayer::kType: {
          std::vector<std::string> t;
          if (p.has_set_types)
            t.push_back(absl::StrCat(verb("are", "is"), " ", Types(p.set_types)));
          if (p.add_types)
            t.push_back(absl::StrCat(
                verb("are", "is"), " ", plural ? Types(p.add_types) : A(Types(p.add_types)),
                plural ? " in addition to their other types" : " in addition to its other types"));
          if (p.remove_types)
            t.push_back(absl::StrCat(verb("are", "is"), " no longer ", Types(p.remove_types)));
          std::vector<std::string> words;
          for (Word w : p.add_subtypes) words.push_back(WordText(w));
          if (!words.empty()) t.push_back(absl::StrCat(verb("are", "is"), " also ", And(words)));
          words.clear();
          for (Word w : p.set_land_types) words.push_back(WordText(w));
          if (p.has_set_land_types)
            t.push_back(words.empty() ? absl::StrCat(verb("have", "has"), " no land type")
                                      : absl::StrCat(verb("are", "is"), " ", And(words)));
          words.clear();
          for (Word w : p.set_creature_types) words.push_back(WordText(w));
          if (p.has_set_creature_types)
            t.push_back(words.empty() ? absl::StrCat(verb("have", "has"), " no creature type")
                                      : absl::StrCat(verb("are", "is"), " ", And(words)));
          if (p.all_creature_types)
            t.push_back(absl::StrCat(verb("are", "is"), " every creature type"));
          if (t.empty()) t.push_back("change types");
          for (auto& s : t) does.push_back(s);
          break;
        }
        case PartLayer::kColor: {
          std::vector<std::string> c;
          for (Word w : p.set_colors) c.push_back(WordText(w));
          if (p.has_set_colors)
            does.push_back(absl::StrCat(verb("are", "is"), " ", c.empty() ? "colorless" : And(c)));
          c.clear();
          for (Word w : p.add_colors) c.push_back(WordText(w));
          if (!c.empty()) does.push_back(absl::StrCat(verb("are", "is"), " also ", And(c)));
          break;
        }
        case PartLayer::kControl:
          does.push_back(absl::StrCat(verb("are", "is"), " controlled by the effect's controller"));
          break;
        case PartLayer::kCopy:
          does.push_back(absl::StrCat(verb("become", "becomes"), " a copy of ",
                                      p.copy_of_target > 0 ? "the target" : "the chosen object"));
          break;
        case PartLayer::kFaceDown:
          does.push_back(absl::StrCat(verb("are", "is"), " a face-down 2/2 creature"));
          break;
        case PartLayer::kText:
          does.push_back("has its text changed (a chosen word replaced)");
          break;
        case PartLayer::kCounters:
          does.push_back("count its counters");
          break;
        case PartLayer::kRule: {
          const std::string players = p.players == 0   ? "you"
                                      : p.players == 1 ? "your opponents"
                                                       : "each player";
          std::vector<std::string> r;
          if (p.max_hand_size >= 0)
            r.push_back(absl::StrCat("maximum hand size is ", p.max_hand_size));
          if (p.no_max_hand_size) r.push_back("no maximum hand size");
          if (p.cost_increase)
            r.push_back(absl::StrCat("spells cost {", p.cost_increase, "} more"));
          if (p.cost_reduce) r.push_back(absl::StrCat("spells cost {", p.cost_reduce, "} less"));
          if (p.cant_lose) r.push_back("can't lose the game");
          if (p.skip_draw) r.push_back("skips the draw of the draw phase");
          if (p.damage_reduction)
            r.push_back(absl::StrCat("damage dealt is reduced by ", p.damage_reduction));
          // T-10.1's rules, as their cards say them when they are alone.
          std::vector<std::string> mana;
          if (p.any_number_of_lands)
            mana.push_back(p.players == 0 ? "You may play any number of lands on each of your turns"
                                          : "may play any number of lands on each of their turns");
          if (p.life_for_mana)
            mana.push_back(p.players == 0 ? "Any time you could activate a mana ability, you may "
                                            "pay 1 life. If you do, add {C}"
                                          : "any time they could activate a mana ability, may "
                                            "pay 1 life to add {C}");
          if (p.enter_tapped) {
            std::vector<std::string> kinds;
            for (int i = 0; i < kCardTypeCount; ++i)
              if (Has(p.enter_tapped, i)) kinds.push_back(Plural(Lower(CardTypeName(i))));
            mana.push_back(Capital(And(kinds)) +
                           (p.players == 1   ? " played by your opponents"
                            : p.players == 0 ? " you play"
                                             : "") +
                           " enter the battlefield tapped");
          }
          if (r.empty() && mana.size() == 1 && (p.players == 0 || p.enter_tapped)) return mana[0];
          r.insert(r.end(), mana.begin(), mana.end());
          if (p.untap_only_one) {  // T-1.8 (Winter Orb)
            std::vector<std::string> kinds;
            for (int i = 0; i < kCardTypeCount; ++i)
              if (Has(p.untap_only_one, i)) kinds.push_back(Lower(CardTypeName(i)));
            r.push_back(absl::StrCat("untaps only one ", absl::StrJoin(kinds, " and one "),
                                     " during their untap phase"));
          }
          if (r.empty()) r.push_back("a game rule changes");
          return Capital(absl::StrCat("for ", players, ": ", And(r)));
        }
      }
    }
    std::string out = absl::StrCat(who, " ", And(does));
    if (e.condition.source_tapped == 1) out += " as long as " + card.name + " is tapped";
    if (e.condition.source_tapped == 0) out += " as long as " + card.name + " is untapped";
    if (e.condition.you_control != kNoFilter)
      out += " as long as you control a " + Filter(e.condition.you_control, false);
    return out;
  }

  std::string Step(const AbilityBody& b, const EffectStep& s) const {
    const bool each = s.affects != kNoFilter;
    std::string who = each ? "each " + Filter(s.affects, false) : Ref(b, s.target);
    if (each && s.target.kind == strata::Ref::kEachPlayer) who += " and each player";
    // G-17: a sweep read from a target player's side (Hurkyl's Recall).
    if (each && s.relative_to > 0)
      who = absl::StrReplaceAll(
          who, {{" you own", " target player owns"}, {" you control", " target player controls"}});
    const std::string amount = Val(s.amount);
    const bool constant = s.amount.kind == Value::kConst || s.amount.kind == Value::kX;
    const bool one = s.amount.kind == Value::kConst && amount == "1";
    std::string out;
    switch (s.op) {
      case Op::kContinuous:
        if (s.continuous >= 0 && s.continuous < static_cast<int>(card.continuous.size()))
          out = Effect(card.continuous[s.continuous], each ? Filter(s.affects, true) : who, each);
        else
          out = "a continuous effect on " + who;
        if (s.duration == Duration::kEndOfTurn) {
          if (out.rfind("Any time you could", 0) == 0)  // Channel (T-10.1)
            out = "Until end of turn, any" + out.substr(3);
          else
            out += " until end of turn";
        }
        if (s.duration == Duration::kUntilYourUpkeep) out = "until your next upkeep, " + out;
        if (s.duration == Duration::kThroughNextTurn)  // T-7.4
          out += " through its controller's next turn";
        break;
      case Op::kDraw:
        out = who.empty() || who == "you"
                  ? absl::StrCat("draw ", amount, one ? " card" : " cards")
                  : absl::StrCat(who, " draws ", amount, one ? " card" : " cards");
        if (out.rfind("draw 1 card", 0) == 0) out = "draw a card";
        break;
      case Op::kDamage:
        out = absl::StrCat(card.name, " deals ", amount, " damage ",
                           s.divide ? "divided evenly (rounded down) among " : "to ", who);
        if (s.amount.kind == Value::kTurnStartUntappedLands)  // Power Surge (T-10.1)
          out = absl::StrCat(card.name, " deals X damage to ", who, ", where X is ", amount);
        else if (!constant && s.amount.kind != Value::kEventAmount && !s.divide)
          out = absl::StrCat(card.name, " deals damage equal to ", amount, " to ", who);
        if (s.cant_regenerate)
          out += "; a creature dealt damage this way can't be regenerated this turn";
        break;
      case Op::kGainLife:
        out = absl::StrCat(who.empty() || who == "you" ? "you gain" : who + " gains", " ",
                           constant ? amount + " life" : "life equal to " + amount);
        break;
      case Op::kLoseLife:
        out = absl::StrCat(who.empty() || who == "you" ? "you lose" : who + " loses", " ",
                           constant ? amount + " life" : "life equal to " + amount);
        break;
      case Op::kPoison:
        out = absl::StrCat(who.empty() || who == "you" ? "you get" : who + " gets", " ",
                           constant ? amount : "X", " poison counter",
                           constant && amount == "1" ? "" : "s");
        break;
      case Op::kTap:
        out = "tap " + who;
        break;
      case Op::kUntap:
        out = "untap " + who;
        break;
      case Op::kDestroy:
        out = "destroy " + who;
        if (s.cant_regenerate) out += "; it can't be regenerated";
        break;
      case Op::kExile:
        out = "exile " + who;
        break;
      case Op::kBounce:
        out = "return " + who + " to its owner's hand";
        break;
      case Op::kReturnToBattlefield:
        out = "return " + who + " to the battlefield under its owner's control";
        break;
      case Op::kRegenerate:
        out = "regenerate " + who;
        break;
      case Op::kCantBeRegenerated:
        out = who + " can't be regenerated this turn";
        break;
      case Op::kAddCounters:
        if (s.amount.kind != Value::kConst && s.amount.at_most == 1 && s.amount.times == 1 &&
            s.amount.plus == 0 && s.amount.divide == 1) {
          // A number bounded at one is a condition: "if a creature died
          // this turn, put a counter" (Osai Vultures).
          Value unbounded = s.amount;
          unbounded.at_most = std::numeric_limits<int>::max();
          out = absl::StrCat("if ", Val(unbounded), " is 1 or more, put a ",
                             CounterName(s.counter_kind, s.counter_name), " counter on ", who);
          break;
        }
        if (s.up_to_total) {  // G-8.2 (Clockwork Beast)
          const std::string kind = CounterName(s.counter_kind, s.counter_name);
          out = absl::StrCat("put up to ", amount, " ", kind, " counters on ", who,
                             ". This ability can't cause the total number of ", kind,
                             " counters on ", who, " to be greater than ", s.up_to_total);
          break;
        }
        out = absl::StrCat("put ", one ? "a" : Many(s.amount, amount), " ",
                           CounterName(s.counter_kind, s.counter_name),
                           one ? " counter on " : " counters on ", who);
        break;
      case Op::kRemoveCounters:  // G-8.2
        out = absl::StrCat("remove ", one ? "a" : Many(s.amount, amount), " ",
                           CounterName(s.counter_kind, s.counter_name),
                           one ? " counter from " : " counters from ", who);
        if (s.prevent_removed) out += " and prevent that much of that damage";  // G-8.3
        break;
      case Op::kCounterSpell:
        out = "counter " + who;
        break;
      case Op::kAddMana: {
        std::string mana;
        if (s.mana_event) {
          out = "that player adds one mana of any type that land produced";
          break;
        } else if (s.mana_opponent_lands) {
          mana = "one mana of any color that a land an opponent controls could produce";
        } else if (s.mana_chosen) {
          mana = "mana of the chosen color";
        } else if (s.mana_any) {
          mana = "mana of any one color";
        } else if (s.mana_colorless) {
          mana = "{C}";
        } else {
          std::vector<std::string> c;
          for (int k = 0; k < kColorCount; ++k)
            if (Has(s.mana_colors, k))
              c.push_back(absl::StrCat("{", std::string(1, ColorSymbol(k)), "}"));
          mana = Or(c);
        }
        out = one || (s.amount.kind == Value::kConst && s.amount.constant == 0) ? "add " + mana
              : constant ? absl::StrCat("add ", amount, " ", mana)
                         : absl::StrCat("add an amount of ", mana, " equal to ", amount);
        break;
      }
      case Op::kEmptyPool: {
        const std::string w = who.empty() || who == "you" ? "you" : who;
        const std::string verb_s = w == "you" ? "" : "s";
        if (s.for_mana)
          out = absl::StrCat(w, " activate", verb_s, " a mana ability of each land ",
                             w == "you" ? "you control" : "they control", ". Then ");
        else if (s.tap_lands)
          out = absl::StrCat("tap all lands ", w, " control", verb_s, " and ");
        out += absl::StrCat(w == "you" ? "you lose" : (s.tap_lands ? "that player" : w) + " loses",
                            " all unspent mana");
        if (s.give) out += ", and you add the mana lost this way";
        break;
      }
      case Op::kDiscard:
        out = absl::StrCat(who.empty() || who == "you" ? "you discard" : who + " discards", " ",
                           amount, one ? " card" : " cards", s.random ? " at random" : "");
        break;
      case Op::kMill:
        out = absl::StrCat(who.empty() || who == "you" ? "you put" : who + " puts", " the top ",
                           one ? "card" : amount + " cards", " of ",
                           who.empty() || who == "you" ? "your" : "their", " library into ",
                           who.empty() || who == "you" ? "your" : "their", " graveyard");
        break;
      case Op::kDiscardHand:
        out = who.empty() || who == "you" ? "you discard your hand" : who + " discards their hand";
        break;
      case Op::kShuffleIn: {
        const bool you = who.empty() || who == "you";
        const bool hand = s.zones & (1u << static_cast<int>(Zone::kHand));
        const bool graveyard = s.zones & (1u << static_cast<int>(Zone::kGraveyard));
        const std::string their = you ? "your" : "their";
        std::string what = hand && graveyard ? their + " hand and graveyard"
                           : hand            ? "the cards from " + their + " hand"
                                             : their + " graveyard";
        out = absl::StrCat(you ? "you shuffle " : who + " shuffles ", what, " into ", their,
                           " library");
        if (s.draw == EffectStep::kDrawAsMany)
          absl::StrAppend(&out, ", then ", you ? "draw" : "draws", " that many cards");
        else if (s.draw > 0)
          absl::StrAppend(&out, ", then ", you ? "draw " : "draws ", s.draw,
                          s.draw == 1 ? " card" : " cards");
        break;
      }
      case Op::kKeepFewest:
        // G-19: Balance, in its own words.
        if (s.from == kNoFilter) {
          out =
              "each player discards cards until they have as many in hand as the player with "
              "the fewest";
        } else {
          const std::string kinds = Filter(s.from, true, TargetWhat::kPermanent, /*bare=*/true);
          out = absl::StrCat("each player chooses a number of ", kinds,
                             " they control equal to the number of ", kinds,
                             " controlled by the player who controls the fewest, then sacrifices "
                             "the rest");
        }
        break;
      case Op::kSearch: {
        // "search your library for up to two basic land cards, put them
        // onto the battlefield, then shuffle"
        const bool you = who.empty() || who == "you";
        std::string what = s.from == kNoFilter
                               ? "card"
                               : Filter(s.from, false, TargetWhat::kCard, /*bare=*/true) + " card";
        if (what == "card card") what = "card";
        out = absl::StrCat(you ? "you search your" : who + " searches their", " library for ",
                           one ? (what[0] == 'a' || what[0] == 'e' || what[0] == 'i' ||
                                          what[0] == 'o' || what[0] == 'u'
                                      ? "an "
                                      : "a ")
                               : absl::StrCat("up to ", amount, " "),
                           one ? what : what + "s", ", put ", one ? "it" : "them",
                           s.to == Zone::kBattlefield ? " onto the battlefield"
                           : you                      ? " into your hand"
                                                      : " into their hand",
                           ", then ", you ? "shuffle" : "shuffles");
        break;
      }
      case Op::kReturnFromGraveyard: {
        // "return a card from your graveyard to your hand for each card
        // discarded" (G-9: Recall)
        const bool you = who.empty() || who == "you";
        std::string what = s.from == kNoFilter
                               ? "card"
                               : Filter(s.from, false, TargetWhat::kCard, /*bare=*/true) + " card";
        if (what == "card card") what = "card";
        out = absl::StrCat(
            you ? "you return " : who + " returns ",
            s.amount.kind == Value::kDiscarded ? "a " + what
            : one                              ? "a " + what
                                               : amount + " " + what + "s",
            " from ", you ? "your" : "their", " graveyard to ", you ? "your" : "their", " hand",
            s.amount.kind == Value::kDiscarded ? " for each card discarded this way" : "");
        break;
      }
      case Op::kDelayed: {
        std::vector<std::string> later;
        for (const EffectStep& d : s.delayed) later.push_back(Step(b, d));
        out = (s.delayed_at == 1 ? "at the beginning of your next main phase: "
                                 : "later this turn (a delayed effect): ") +
              And(later);
        break;
      }
      case Op::kCreateToken: {
        // G-12: "create two 1/1 red Goblin creature tokens named Goblin".
        if (s.token == kNoCard || s.token >= db.cards.size()) {
          out = "create a token";
          break;
        }
        const CardDef& t = db[s.token];
        std::vector<std::string> words;
        std::vector<std::string> colors;
        for (int c = 0; c < kColorCount; ++c)
          if (t.colors >> c & 1) colors.push_back(std::string(ColorName(c)));
        words.push_back(absl::StrCat(t.power, "/", t.toughness));
        words.push_back(colors.empty() ? "colorless" : And(colors));
        for (size_t st = 0; st < t.subtypes.size(); ++st)
          if (t.subtypes.test(st)) words.push_back(std::string(SubtypeName(static_cast<int>(st))));
        words.push_back(Types(t.types));
        std::string what = absl::StrJoin(words, " ");
        what += one ? " token named " : " tokens named ";
        what += t.name;
        std::vector<std::string> with;
        if (t.keywords) with.push_back(Keywords(t.keywords));
        std::vector<std::string> text = CardRulesText(db, t);
        if (t.keywords && !text.empty()) text.erase(text.begin());  // the keywords, said above
        for (std::string line : text) {
          if (!line.empty() && line.back() == '.') line.pop_back();  // the sentence ends after
          with.push_back("\"" + line + "\"");
        }
        if (!with.empty()) what += " with " + And(with);
        const std::string n = one ? "a" : amount;
        out = who.empty() || who == "you" ? absl::StrCat("create ", n, " ", what)
                                          : absl::StrCat(who, " creates ", n, " ", what);
        break;
      }
      case Op::kExtraTurn:
        out = who.empty() || who == "you" ? "you take an extra turn after this one"
                                          : who + " takes an extra turn after this one";
        break;
      case Op::kPrevent:
        out = absl::StrCat("prevent the next ", amount, " damage that would be dealt to ", who,
                           " this turn");
        if (s.from != kNoFilter)
          out +=
              " by a " + Filter(s.from, false, TargetWhat::kPermanent, /*bare=*/true) + " source";
        break;
      case Op::kPreventCombat:
        out = s.target.kind == Ref::kNone && s.affects == kNoFilter
                  ? std::string("prevent all combat damage that would be dealt this turn")
                  : absl::StrCat("prevent all combat damage that would be dealt to and by ", who,
                                 " this turn");
        break;
      case Op::kReplaceNextDraw:
        out = absl::StrCat(
            "the next time you would draw this turn, look at the top ", amount,
            " cards of your library instead, put one into your hand and the rest on the bottom");
        break;
      case Op::kSacrifice:
        out = who == card.name ? "sacrifice " + who : who + " is sacrificed";
        break;
      case Op::kCounterUnlessPay:
        out = absl::StrCat("counter ", who, " unless its controller pays {", amount, "}");
        break;
      case Op::kNextTime:
        out = NextTime(s);
        break;
      case Op::kChangeAmount:
        out = absl::StrCat(s.amount.kind == Value::kConst && s.amount.constant < 0
                               ? "reduce that gain or loss by " + amount.substr(1)
                               : "increase that gain or loss by " + amount);
        break;
      case Op::kChangeTarget:
        out = "change that spell's targets that are " + Filter(s.from, true) + " to " + who;
        break;
      case Op::kRedirect:
        out = "that damage is dealt to " + who + " instead";
        break;
      case Op::kTurnFaceDown:
        out = "turn " + who + " face down";
        break;
      case Op::kAttach:
        out = "attach " + card.name + " to " + who;
        break;
    }
    if (s.condition != kNoFilter) out += IfIts(s.condition);
    // G-18: "if Cosmic Horror is destroyed this way, it deals 7 damage".
    if (s.if_destroyed) out = "if it was destroyed this way, " + out;
    return out;
  }

  std::string Body(const AbilityBody& b) const {
    if (!b.modes.empty()) {
      std::vector<std::string> modes;
      for (const AbilityBody& m : b.modes) modes.push_back(Body(m));
      return "Choose one: " + absl::StrJoin(modes, "; or ");
    }
    std::vector<std::string> steps;
    for (const EffectStep& s : b.steps) steps.push_back(Step(b, s));
    std::string out = Capital(absl::StrJoin(steps, ", then "));
    if (b.reaction == Reaction::kDestroy) out += " (played as it would be destroyed)";
    if (b.reaction == Reaction::kDraw) out += " (played as you would draw)";
    return out;
  }

  // A body after a comma: "Destroy ..." becomes "destroy ...", but a name
  // that starts it stays as it is.
  std::string Uncapital(const std::string& body) const {
    if (body.empty() || body.rfind(card.name, 0) == 0) return body;
    return Lower(body.substr(0, 1)) + body.substr(1);
  }

  std::string Phase(const PhaseAbility& p, const std::string& whose) const {
    const std::string phase = std::string(PhaseName(static_cast<strata::Phase>(p.phase)));
    const std::string owner = p.whose == 1   ? "the enchanted permanent's controller's"
                              : p.whose == 2 ? "each player's"
                                             : whose;
    if (p.whose == 2 && !p.is_cost && !p.reward) {
      // T-12.1: the player whose phase it is plays it (The Abyss).
      std::string body =
          absl::StrReplaceAll(Uncapital(Body(p.body)), {{" you control", " that player controls"}});
      return absl::StrCat("At the beginning of each player's ", phase, ", ",
                          p.optional ? "that player may: " : "", body,
                          " (that player chooses the targets)");
    }
    if (p.reward)  // T-13.1: paid for what it does
      return absl::StrCat("During ", owner, " ", phase, ", ", p.whose == 1 ? "that player" : "you",
                          " may pay ", p.cost.ToString(), ". If ",
                          p.whose == 1 ? "they do" : "you do", ", ", Uncapital(Body(p.body)));
    if (p.is_cost && p.sacrifice != kNoFilter) {
      // T-13.3 (Lord of the Pit): "a creature other than Lord of the Pit".
      std::string what = Filter(p.sacrifice, false);
      std::string other;
      if (db.filter(p.sacrifice).other && what.rfind("other ", 0) == 0) {
        what = what.substr(6);
        other = " other than " + card.name;
      }
      return absl::StrCat("At the beginning of ", owner, " ", phase, ", sacrifice ", A(what),
                          " you control", other, ". If you can't: ", Body(p.body));
    }
    if (p.is_cost) {
      // T-12.2, T-13.2: the enchanted permanent's controller pays (Erosion:
      // "{1} or 1 life").
      if (p.whose == 1) you_name = "that player";
      std::string body = Body(p.body);
      you_name = nullptr;
      const std::string pay = p.or_life
                                  ? absl::StrCat(p.cost.ToString(), " or ", p.or_life, " life")
                                  : p.cost.ToString();
      return absl::StrCat("At the beginning of ", owner, " ", phase, ", ",
                          p.whose == 1 ? "that player pays " : "pay ", pay, ", or: ", body);
    }
    if (p.whose == 1) you_name = "that player";
    std::string body = Uncapital(Body(p.body));
    you_name = nullptr;
    return absl::StrCat("At the beginning of ", owner, " ", phase, ", ",
                        p.optional ? "you may: " : "", body);
  }

  std::string Trigger(const TriggeredAbility& t) const {
    std::string when = When(t);
    // A replacement with nothing in the occurrence's place: it does not
    // happen ("doesn't untap during your untap step").
    if (t.timing == Timing::kInstead && t.body.steps.empty() && t.body.modes.empty())
      return WouldNot(t);
    std::string body = Uncapital(Body(t.body));
    // T-10.1: a triggered mana ability's mana is the tapping player's; the
    // player of a tap for mana or of a phase is "that player".
    if (t.mana_trigger && body.rfind("add ", 0) == 0)
      body = "its controller adds an additional " + body.substr(4);
    // So are the player dealt damage (Hypnotic Specter, Marsh Viper: G-11)
    // and the player who draws (Underworld Dreams).
    const bool player_dealt_damage =
        t.event == EventKind::kDamage && t.damage_to == 0 && t.filter == kNoFilter;
    if (t.for_mana || t.event == EventKind::kPhaseBegin || t.event == EventKind::kDraw ||
        player_dealt_damage) {
      body = absl::StrReplaceAll(body, {{" its controller", " that player"}});
      if (player_dealt_damage && body.rfind("its controller", 0) == 0)
        body = "that player" + body.substr(14);
    }
    // E-5.1: the controller of another object that moved, by its one type
    // ("that land's controller": Ankh of Mishra).
    if (t.event == EventKind::kZoneChange && t.filter != kNoFilter && !db.filter(t.filter).self &&
        std::popcount(db.filter(t.filter).types) == 1)
      body = absl::StrReplaceAll(
          body, {{" its controller",
                  absl::StrCat(" that ", Types(db.filter(t.filter).types), "'s controller")}});
    if (t.has_optional_cost)
      body = absl::StrCat("you may pay ", t.optional_cost.ToString(), "; if you do, ", body);
    return absl::StrCat(when, ", ", body);
  }

  // "If X would become untapped ..., it doesn't": a replacement with
  // nothing in the occurrence's place.
  std::string WouldNot(const TriggeredAbility& t) const {
    TriggeredAbility plain = t;
    plain.timing = Timing::kAfter;
    std::string core = When(plain);
    // A phase's beginning replaced: the phase is skipped (Stasis).
    constexpr std::string_view kBeginning = "At the beginning of ";
    if (t.event == EventKind::kPhaseBegin && core.rfind(kBeginning, 0) == 0) {
      std::string phase = core.substr(kBeginning.size());
      phase[0] = absl::ascii_toupper(static_cast<unsigned char>(phase[0]));
      return phase + " phase is skipped";
    }
    if (core.rfind("Whenever ", 0) != 0) return "Instead of \"" + Uncapital(core) + "\", nothing";
    core = core.substr(9);
    for (auto [from, to] :
         {std::pair{" becomes ", " would become "}, std::pair{" is ", " would be "},
          std::pair{" draws ", " would draw "}, std::pair{" deals ", " would deal "},
          std::pair{" moves", " would move"}, std::pair{" enters", " would enter"}})
      if (auto at = core.find(from); at != std::string::npos)
        return "If " + core.replace(at, std::string_view(from).size(), to) + ", it doesn't";
    return "Instead of \"" + core + "\", nothing";
  }

  // "the next time A (or B) this turn, ..." (E-6).
  std::string NextTime(const EffectStep& s) const {
    // Bound to a target (Disintegrate): it waits on that object alone.
    const std::string bound =
        s.target.kind == Ref::kTarget ? absl::StrCat("target ", s.target.index) : "";
    auto next = [&](int16_t i) {
      std::string w = When(card.next_times[i], bound);
      for (auto [from, to] :
           {std::pair{"Whenever ", "the next time "}, std::pair{"Before ", "before the next time "},
            std::pair{"At the beginning of each ", "at the next beginning of "},
            std::pair{"Before the beginning of each ", "before the next beginning of "},
            std::pair{"At the end of each ", "at the next end of "},
            std::pair{"Before the end of each ", "before the next end of "},
            std::pair{"Instead of \"", "instead of the next time \""}})
        if (w.rfind(from, 0) == 0) return to + w.substr(std::string_view(from).size());
      return w;
    };
    if (s.next_time < 0 || s.next_time >= static_cast<int>(card.next_times.size()))
      return "a next-time effect";
    std::string out = next(s.next_time);
    if (s.next_time_or >= 0) out += " or " + next(s.next_time_or);
    // T-5.5: Dragon Whelp's "if this ability has been activated four or
    // more times this turn".
    if (s.if_activated > 0) {
      static constexpr const char* kTimes[] = {"",     "once or more", "two",   "three", "four",
                                               "five", "six",          "seven", "eight", "nine"};
      out = absl::StrCat("if this ability has been activated ", kTimes[s.if_activated],
                         s.if_activated > 1 ? " or more times" : "", " this turn, ", out);
    }
    out += s.duration == Duration::kEndOfTurn ? " this turn" : " this game";
    return absl::StrCat(out, ", ", Uncapital(Body(card.next_times[s.next_time].body)));
  }

  std::string When(const TriggeredAbility& t, const std::string& bound = "") const {
    // A tap, untap, attack or block of anyone's (no filter) is of a
    // permanent, not the card's own.
    const bool permanent_event = t.event == EventKind::kTap || t.event == EventKind::kUntap ||
                                 t.event == EventKind::kAttack || t.event == EventKind::kBlock;
    std::string who = t.filter != kNoFilter ? Filter(t.filter, false)
                      : permanent_event     ? std::string("permanent")
                                            : card.name;
    if ((t.filter != kNoFilter && !db.filter(t.filter).self && who.rfind("the ", 0) != 0) ||
        (t.filter == kNoFilter && permanent_event))
      who = A(who);
    if (!bound.empty()) who = "the object chosen as " + bound;
    // Whose permanent: `player` is its controller for these events.
    if (permanent_event && t.player >= 0 && (t.filter == kNoFilter || !db.filter(t.filter).self))
      who += t.player == 0 ? " you control" : " an opponent controls";
    const std::string player = t.player == 0 ? "you" : t.player == 1 ? "an opponent" : "a player";
    std::string when;
    switch (t.event) {
      case EventKind::kZoneChange:
        if (t.from == Zone::kBattlefield && t.to == Zone::kGraveyard)
          when = "Whenever " + who + " is put into a graveyard from play";
        else if (t.to == Zone::kBattlefield)
          when = "Whenever " + who + " enters the battlefield";
        else
          when = absl::StrCat("Whenever ", who, " moves", t.from != Zone::kNone ? " from " : "",
                              t.from != Zone::kNone ? std::string(ZoneName(t.from)) : "",
                              t.to != Zone::kNone ? " to " : "",
                              t.to != Zone::kNone ? std::string(ZoneName(t.to)) : "");
        if (t.damaged_by_self) when += " after " + card.name + " dealt it damage this turn";
        break;
      case EventKind::kDraw:
        when = "Whenever " + player + " draws a card";
        break;
      case EventKind::kCast:
        when = "Whenever " + player + (t.player == 0 ? " cast " : " casts ") +
               (t.filter == kNoFilter ? "a spell" : A(Filter(t.filter, false, TargetWhat::kSpell)));
        break;
      case EventKind::kPhaseBegin:
        when = std::string("At the beginning of ") +
               (t.player == 0   ? "your "
                : t.player == 1 ? "each opponent's "
                                : "each ") +
               (t.phase.empty() ? "phase" : t.phase);
        break;
      case EventKind::kPhaseEnd:
        when = "At the end of each " + (t.phase.empty() ? "phase" : t.phase);
        break;
      case EventKind::kDamage: {
        if (t.filter != kNoFilter && t.damage_to != 0 && t.source_filter == kNoFilter &&
            !t.chosen_source && bound.empty()) {
          // On the object dealt damage: "Whenever Fungusaur is dealt damage" (G-8).
          when = absl::StrCat("Whenever ", who, " is dealt ", t.combat ? "combat " : "", "damage",
                              t.self_source ? " by " + card.name : "");
          break;
        }
        // T-4.1: the source may be a filter ("a creature", "the enchanted
        // creature") or the one chosen; what is dealt damage, a filter or a
        // player.
        std::string source = t.self_source ? card.name : "a source";
        if (t.source_filter != kNoFilter)
          source = db.filter(t.source_filter).enchanted ? "the enchanted creature"
                                                        : A(Filter(t.source_filter, false));
        if (t.chosen_source) source = "the source of your choice";
        std::string to = t.damage_to == 0   ? " to a player"
                         : t.damage_to == 1 ? " to a creature"
                                            : "";
        if (t.filter != kNoFilter || !bound.empty())
          to = " to " + (!bound.empty()                  ? "the object chosen as " + bound
                         : db.filter(t.filter).self      ? card.name
                         : db.filter(t.filter).enchanted ? std::string("the enchanted creature")
                                                         : A(Filter(t.filter, false)));
        else if (t.player == 0)
          to = " to you";
        else if (t.player == 1)
          to = " to an opponent";
        when =
            absl::StrCat("Whenever ", source, " deals ", t.combat ? "combat " : "", "damage", to);
        break;
      }
      case EventKind::kPlay:
        when = "Whenever " + player + (t.player == 0 ? " play " : " plays ") + who;
        if (t.not_first_land)
          when += absl::StrCat(", if it wasn't the first land ", t.player == 0 ? "you" : "they",
                               " played this turn");
        break;
      case EventKind::kLifeChange:
        when = "Whenever " + player +
               (t.life_change == 0   ? (t.player == 0 ? " gain" : " gains")
                : t.life_change == 1 ? (t.player == 0 ? " lose" : " loses")
                                     : "'s life total changes");
        if (t.life_change >= 0) when += " life";
        break;
      case EventKind::kAttack:
        when = "Whenever " + who + " attacks";
        break;
      case EventKind::kBlock:
        when = "Whenever " + who + " blocks";
        break;
      case EventKind::kTap:
        // T-10.1: "Whenever a player taps a land for mana".
        if (t.for_mana && who.rfind("a ", 0) == 0)
          when = "Whenever a player taps " + who + " for mana";
        else
          when = "Whenever " + who + (t.for_mana ? " is tapped for mana" : " becomes tapped");
        break;
      case EventKind::kUntap:
        when = "Whenever " + who + " becomes untapped";
        break;
      case EventKind::kResolve:
        when = "Whenever " +
               (t.filter == kNoFilter ? std::string("an effect")
                                      : A(Filter(t.filter, false, TargetWhat::kSpell))) +
               (t.player == 0   ? " you control"
                : t.player == 1 ? " an opponent controls"
                                : "") +
               " resolves";
        break;
      // E-2's time points, as "At ..." (a time point, needing nothing to
      // happen): "Before the ..." reads them before.
      case EventKind::kEffectsResolved:
        when = "At the time point after a batch of effects resolves";
        break;
      case EventKind::kAttackersDeclared:
        when = std::string("At the time point after attackers are declared") +
               (t.player == 0   ? " in your attack"
                : t.player == 1 ? " in an opponent's attack"
                                : "");
        break;
      case EventKind::kBlockersDeclared:
        when = std::string("At the time point after blockers are declared") +
               (t.player == 0   ? " against an opponent's attack"
                : t.player == 1 ? " against your attack"
                                : "");
        break;
      case EventKind::kState:  // G-16: a state trigger
        when = t.if_any ? "When there is " + A(Filter(t.unless_any, false))
                        : "When there are no " + Filter(t.unless_any, true);
        break;
      case EventKind::kEndOfCombat:
        when = std::string("At end of combat") + (t.player == 0   ? " in your attack"
                                                  : t.player == 1 ? " in an opponent's attack"
                                                                  : "");
        break;
    }
    // "Before" such a time point: before the batch resolves, before the
    // declarations.
    const std::string time_point = "At the time point after ";
    if (t.timing == Timing::kBefore && when.rfind(time_point, 0) == 0)
      when = "Before " + when.substr(time_point.size());
    if ((t.event == EventKind::kTap || t.event == EventKind::kUntap) && !t.phase.empty())
      when += " during " + A(t.phase) + " phase";
    // A response timed before its occurrence (E-1) says so.
    if (t.timing == Timing::kBefore) {
      if (when.rfind("Whenever ", 0) == 0) when = "Before " + when.substr(9);
      if (when.rfind("At the ", 0) == 0) when = "Before the " + when.substr(7);
    }
    // A replacement (E-3 A): "If ... would ..., instead ...".
    if (t.timing == Timing::kInstead)
      when = "Instead of \"" +
             (when.rfind("Whenever ", 0) == 0 ? when.substr(9) : Uncapital(when)) + "\"";
    if (t.event == EventKind::kState) {
      // G-16: its condition is its event, said above.
    } else if (t.unless_any != kNoFilter && t.if_any) {  // G-8.2
      const strata::Filter& f = db.filter(t.unless_any);
      strata::Filter rest = f;
      rest.self = false;
      rest.combat = 0;
      rest.combat &= strata::Filter::kCombatPlaces;
      if (f.self && rest == strata::Filter{} && (f.combat & ~strata::Filter::kCombatPlaces) &&
          !(f.combat & strata::Filter::kCombatPlaces)) {
        // T-7.5: "if Erg Raiders didn't attack this turn ... unless it came
        // under your control this turn".
        std::vector<std::string> ifs;
        if (f.combat & strata::Filter::kAttackedThisTurn) ifs.push_back("attacked this turn");
        if (f.combat & strata::Filter::kNotAttackedThisTurn)
          ifs.push_back("didn't attack this turn");
        if (f.combat & strata::Filter::kSinceTurnBegan)
          ifs.push_back("its controller has controlled it since their most recent turn began");
        when += absl::StrCat(", if ", card.name, " ", absl::StrJoin(ifs, " and "));
      } else if (f.self && rest == strata::Filter{} && f.combat)
        when += absl::StrCat(
            ", if ", card.name, " ",
            f.combat == (strata::Filter::kAttackingCreature | strata::Filter::kBlockingCreature)
                ? "attacked or blocked"
            : f.combat == strata::Filter::kAttackingCreature ? "attacked"
                                                             : "is " + Filter(t.unless_any, false),
            " this combat");
      else
        when += ", if there is " + A(Filter(t.unless_any, false));
    } else if (t.unless_any != kNoFilter) {
      when += ", if there are no " + Filter(t.unless_any, true);
    }
    if (t.if_opponent_more != kNoFilter)
      when += ", if an opponent controls more " + Filter(t.if_opponent_more, true) + " than you";
    if (t.source_tapped) when += absl::StrCat(", if ", card.name, " is tapped");  // T-12
    if (t.if_untapped) when += absl::StrCat(", if ", card.name, " is untapped");  // G-10
    if (t.if_dealt_damage_to_opponent)                                            // T-4.2
      when += absl::StrCat(", if ", card.name, " dealt damage to an opponent this turn");
    return when;
  }

  std::string Activated(const ActivatedAbility& a) const {
    std::vector<std::string> cost;
    if (!a.cost.Empty()) cost.push_back(a.cost.ToString());
    if (a.tap) cost.push_back("{T}");
    if (a.sacrifice_self) cost.push_back("Sacrifice " + card.name);
    if (a.exile_self) cost.push_back("Exile " + card.name);
    if (a.sacrifice != kNoFilter) cost.push_back("Sacrifice " + A(Filter(a.sacrifice, false)));
    if (a.discard > 0)
      cost.push_back(absl::StrCat("Discard ", a.discard, a.discard == 1 ? " card" : " cards",
                                  a.discard_random ? " at random" : ""));
    if (a.life > 0) cost.push_back(absl::StrCat("Pay ", a.life, " life"));
    if (a.remove_counter_kind >= 0) {
      const std::string kind = CounterName(a.remove_counter_kind, a.remove_counter_name);
      cost.push_back(
          a.remove_counters_x      ? absl::StrCat("Remove X ", kind, " counters from ", card.name)
          : a.remove_counters == 1 ? absl::StrCat("Remove a ", kind, " counter from ", card.name)
                                   : absl::StrCat("Remove ", a.remove_counters, " ", kind,
                                                  " counters from ", card.name));
    }
    if (cost.empty()) cost.push_back("{0}");
    std::string out = absl::StrCat(absl::StrJoin(cost, ", "), ": ", Body(a.body));
    if (a.sorcery) out += ". Activate only as a sorcery";
    if (a.only_your_turn || a.only_phase >= 0) {
      const std::string when =
          a.only_phase >= 0 ? std::string(PhaseName(static_cast<strata::Phase>(a.only_phase)))
                            : std::string("turn");
      out += std::string(". Activate only during ") + (a.only_your_turn ? "your " : "any ") + when;
      if (a.per_turn == 1) out += " and only once each turn";
    }
    // T-5.3, T-5.4.
    if (a.per_turn == 1 && !(a.only_your_turn || a.only_phase >= 0))
      out += ". Activate only once each turn";
    if (a.per_turn > 1)
      out += absl::StrCat(". Activate no more than ",
                          a.per_turn == 2   ? std::string("twice")
                          : a.per_turn == 3 ? std::string("three times")
                                            : absl::StrCat(a.per_turn, " times"),
                          " each turn");
    if (a.since_turn_began)
      out += absl::StrCat(". Activate only if you've controlled ", card.name,
                          " continuously since your most recent turn began");
    if (a.only_opponents_turn || a.before_attackers)  // T-5.7
      out +=
          absl::StrCat(". Activate only", a.only_opponents_turn ? " during an opponent's turn" : "",
                       a.only_opponents_turn && a.before_attackers ? "," : "",
                       a.before_attackers ? " before attackers are declared" : "");
    if (a.any_player) out += ". Any player may activate this ability";  // G-8.4
    return out;
  }
};

std::string Sentence(std::string s) {
  if (s.empty()) return s;
  s = Capital(s);
  if (s.back() != '.') s += '.';
  return s;
}

}  // namespace

std::vector<std::string> CardRulesText(const CardDb& db, const CardDef& c) {
  const Writer w{db, c};
  std::vector<std::string> out;
  if (c.keywords) {
    std::vector<std::string> k;
    for (int i = 0; i < kKeywordCount; ++i)
      if (c.keywords & (KeywordMask{1} << i)) k.push_back(std::string(KeywordName(i)));
    out.push_back(Sentence(absl::StrJoin(k, ", ")));
  }
  if (c.enchant != kNoFilter) out.push_back(Sentence("Enchant " + w.Filter(c.enchant, false)));
  if (c.has_equip) out.push_back(Sentence("Equip " + c.equip.ToString()));
  if (c.enters_tapped) out.push_back(Sentence(c.name + " enters the battlefield tapped"));
  if (c.enters.choose != ChoiceKind::kNone || c.enters.has_effects) {
    std::string s = "As " + c.name + " enters the battlefield, ";
    s += c.enters.choose == ChoiceKind::kColor           ? "choose a color"
         : c.enters.choose == ChoiceKind::kCreatureType  ? "choose a creature type"
         : c.enters.choose == ChoiceKind::kBasicLandType ? "choose a basic land type"
         : c.enters.choose == ChoiceKind::kCopy
             ? "it may become a copy of a " + w.Filter(c.enters.filter, false)
         : c.enters.choose == ChoiceKind::kMode  ? "choose how it enters"
         : c.enters.choose == ChoiceKind::kExile ? "exile a " + w.Filter(c.enters.filter, false)
         : c.enters.choose == ChoiceKind::kNone  ? ""
                                                 : "make a choice";
    if (c.enters.has_effects)
      s += (c.enters.choose == ChoiceKind::kNone ? "" : "; ") + w.Uncapital(w.Body(c.enters.body));
    // Counters put on it as it enters alone: "enters with" (G-8: Triskelion).
    const auto& st = c.enters.body.steps;
    if (c.enters.choose == ChoiceKind::kNone && st.size() == 1 && st[0].op == Op::kAddCounters &&
        st[0].target.kind == Ref::kSelf &&
        (st[0].amount.kind == Value::kConst || st[0].amount.kind == Value::kX) &&
        c.enters.body.targets.empty()) {
      const bool x = st[0].amount.kind == Value::kX;  // G-8.3: Rock Hydra
      const int n = x ? 2 : st[0].amount.constant;
      const std::string kind = st[0].counter_kind == 0   ? "+1/+1"
                               : st[0].counter_kind == 1 ? "-1/-1"
                               : st[0].counter_kind == 3 ? "+1/+0"
                               : st[0].counter_kind == 4 ? "-0/-2"  // G-8.1
                                                         : st[0].counter_name;
      s = absl::StrCat(c.name, " enters the battlefield with ",
                       x        ? "X"
                       : n == 1 ? "a"
                                : absl::StrCat(n),
                       " ", kind, n == 1 ? " counter" : " counters", " on it");
    }
    out.push_back(Sentence(s));
  }
  for (const EffectTemplate& e : c.statics) {
    std::vector<std::string> who;
    bool plural = !e.affects.empty();
    for (FilterId f : e.affects) {
      who.push_back(w.Filter(f, true));
      if (db.filter(f).enchanted || db.filter(f).self) plural = false;
    }
    out.push_back(Sentence(w.Effect(e, who.empty() ? c.name : And(who), plural)));
  }
  for (const ActivatedAbility& a : c.activated) out.push_back(Sentence(w.Activated(a)));
  for (const TriggeredAbility& t : c.triggers) out.push_back(Sentence(w.Trigger(t)));
  for (const PhaseAbility& p : c.phase) out.push_back(Sentence(w.Phase(p, "your")));
  if (c.has_spell && c.SpellTimeLimited()) {  // T-5.2 (Reset)
    std::string limit = "Cast this spell only";
    if (c.spell_turn >= 0 || !c.spell_before_attackers)
      limit += c.spell_turn == 1   ? " during an opponent's turn"
               : c.spell_turn == 0 ? " during your turn"
                                   : " during a turn";
    if (c.spell_before_attackers)  // T-5.7 (Siren's Call)
      limit +=
          c.spell_turn >= 0 ? ", before attackers are declared" : " before attackers are declared";
    if (c.spell_after_phase >= 0)
      limit += " after the " +
               std::string(PhaseName(static_cast<strata::Phase>(c.spell_after_phase))) + " phase";
    out.push_back(Sentence(limit));
  }
  if (c.has_spell) {
    std::string s = w.Body(c.spell);
    if (c.spell.TargetsSpell()) s += " (an interrupt against a spell)";
    out.push_back(Sentence(s));
  }
  return out;
}

}  // namespace strata
