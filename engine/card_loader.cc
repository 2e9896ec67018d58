#include "engine/card_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/state.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"

namespace strata {
namespace {

// The longest card name (the longest printed names are under 50 bytes).
constexpr size_t kMaxCardNameBytes = 200;

// Why `name` cannot be a card's name, or "" when it can: deck files, game
// logs and every output name cards by it, so it is printable text on one
// line, without the comment sign of deck files, and of a sane length.
std::string CardNameProblem(const std::string& name) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(name);
  if (trimmed.empty()) return "a card name, not a blank one";
  if (trimmed.size() != name.size()) return "a card name without spaces at its ends";
  if (name.size() > kMaxCardNameBytes)
    return absl::StrCat("a card name of at most ", kMaxCardNameBytes, " bytes, got ", name.size());
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7F)
      return "a card name without control characters (newline, tab, NUL, ESC, ...)";
  if (name.find('#') != std::string::npos)
    return "a card name without '#' (deck files read it as a comment)";
  for (size_t i = 0; i < name.size();) {
    const int n = Utf8SequenceLength(name, i);
    if (n == 0) return "a card name in UTF-8";
    i += n;
  }
  return "";
}

// Compiles one [[card]] table; a mistake throws TomlError, which the caller
// turns into one line of the file's Status.
class CardCompiler {
 public:
  CardCompiler(const std::string& file, CardDb& db) : r_(file), db_(db) {}
  // Where each filter `name` of the file is (filter index, message up to
  // "expected a known card name"): set by the file's loader.
  std::vector<std::pair<size_t, std::string>>* name_sites = nullptr;
  // Compiling the token a create_token step of this card makes (G-12).
  std::string token_of_;

  void Compile(const toml::table& t, CardDef& card) {
    card_ = &card;
    card.file = r_.file();
    card.line = static_cast<int>(t.source().begin.line);
    if (auto* n = t.get("name"); n && n->is_string()) card.name = *n->value<std::string>();
    r_.SetContext(token_of_.empty() ? absl::StrCat("card '", Shown(card.name), "': ")
                                    : absl::StrCat("card '", Shown(token_of_), "': token '",
                                                   Shown(card.name), "': "));
    r_.CheckKeys(t, "card",
                 {"name", "cost", "supertypes", "types", "subtypes", "colors", "power", "toughness",
                  "keywords", "enchant", "equip", "enters", "static", "activated", "trigger",
                  "phase", "spell", "keeps_counters", "enters_tapped"});
    card.name = r_.RequiredString(t, "name");
    if (std::string why = CardNameProblem(card.name); !why.empty())
      r_.Fail(*t.get("name"), "name", why);
    if (auto* n = t.get("keeps_counters")) card.keeps_counters = r_.Bool(*n, "keeps_counters");
    if (auto* c = t.get("cost")) {
      auto cost = ParseManaCost(r_.String(*c, "cost"));
      if (!cost.ok()) r_.Fail(*c, "cost", std::string(cost.status().message()));
      card.cost = *cost;
    }
    for (auto& s : r_.OptionalStrings(t, "types")) {
      auto ty = ParseCardType(s);
      if (!ty)
        r_.Fail(*t.get("types"), "types",
                "a card type (Artifact, Creature, Enchantment, Instant, "
                "Interrupt, Land, Sorcery, Tribal), got '" +
                    s + "'");
      card.types |= 1u << *ty;
    }
    if (card.types == 0) r_.Fail(t, "types", "at least one card type");
    // An instant, interrupt or sorcery is no permanent, and only one of them.
    {
      const TypeMask spells =
          card.types & ((1u << kInstant) | (1u << kInterrupt) | (1u << kSorcery));
      const TypeMask permanents = card.types & ((1u << kArtifact) | (1u << kCreature) |
                                                (1u << kEnchantment) | (1u << kLand));
      if ((spells & (spells - 1)) != 0 || (spells && permanents))
        r_.Fail(*t.get("types"), "types",
                "either permanent types (Artifact, Creature, Enchantment, Land) or one of "
                "Instant, Interrupt and Sorcery, not both");
    }
    for (auto& s : r_.OptionalStrings(t, "supertypes")) {
      auto st = ParseSupertype(s);
      if (!st)
        r_.Fail(*t.get("supertypes"), "supertypes",
                "Basic, Legendary, Snow or World, got '" + s + "'");
      card.supertypes |= 1u << *st;
    }
    for (auto& s : r_.OptionalStrings(t, "subtypes")) {
      auto st = ParseSubtype(s);
      if (!st) r_.Fail(*t.get("subtypes"), "subtypes", "a known subtype, got '" + s + "'");
      card.subtypes.set(*st);
    }
    if (t.contains("colors")) {
      card.colors = 0;
      for (auto& s : r_.OptionalStrings(t, "colors"))
        card.colors |= 1u << Color(*t.get("colors"), "colors", s);
    } else {
      card.colors = card.cost.Colors();
    }
    for (auto& s : r_.OptionalStrings(t, "keywords"))
      card.keywords |= KeywordMask{1} << KeywordOf(*t.get("keywords"), s);
    // T-7.3: banding when attacking is banding in part; both is a mistake.
    if (Has(card.keywords, kBanding) && Has(card.keywords, kBandingWhenAttacking))
      r_.Fail(*t.get("keywords"), "keywords",
              "banding or banding when attacking, not both (banding already bands when attacking)");
    if (auto* n = t.get("enters_tapped")) {
      card.enters_tapped = r_.Bool(*n, "enters_tapped");
      if (card.enters_tapped &&
          (Has(card.types, kInstant) || Has(card.types, kInterrupt) || Has(card.types, kSorcery)))
        r_.Fail(*n, "enters_tapped", "a permanent card (an instant or sorcery never enters)");
    }
    bool creature = Has(card.types, kCreature);
    PowerToughness(t, "power", creature, card.power, card.power_star);
    PowerToughness(t, "toughness", creature, card.toughness, card.toughness_star);
    if (auto* e = t.get("enchant")) {
      card.enchant = FilterOf(*e, "enchant");
      // G-9: an Aura enchants a permanent, or a card in a graveyard that it
      // returns (Animate Dead); it stays on that permanent, so its filter is
      // read on the battlefield from then on. Nothing else: an Aura can't
      // stay on a card in a hand or a library.
      const Filter& f = db_.filters[card.enchant];
      const uint8_t battlefield = 1u << static_cast<int>(Zone::kBattlefield);
      const uint8_t graveyard = 1u << static_cast<int>(Zone::kGraveyard);
      if (f.zones == graveyard) {
        if (f.types != (TypeMask{1} << kCreature))
          r_.Fail(*e, "enchant",
                  "types = [\"Creature\"] for an Aura that enchants a card in a graveyard: "
                  "it returns a creature card (G-9)");
        Filter on = f;
        on.zones = battlefield;
        db_.filters.push_back(std::move(on));
        card.enchant_returned = static_cast<FilterId>(db_.filters.size() - 1);
      } else if (f.zones != battlefield) {
        r_.Fail(*e, "enchant",
                "zones = [\"battlefield\"] (the default) or [\"graveyard\"]: an Aura "
                "enchants a permanent, or a creature card in a graveyard it returns (G-9)");
      }
      if (!card.subtypes.test(*ParseSubtype("Aura"))) card.subtypes.set(*ParseSubtype("Aura"));
    }
    if (auto* e = t.get("equip")) {
      auto cost = ParseManaCost(r_.String(*e, "equip"));
      if (!cost.ok()) r_.Fail(*e, "equip", std::string(cost.status().message()));
      card.has_equip = true;
      card.equip = *cost;
    }
    if (auto* e = t.get("enters")) Enters(r_.Table(*e, "enters"), card.enters);
    // Changeling is a characteristic-defining ability: it compiles to a CDA in
    // the type layer that lasts while the object has the keyword.
    if (Has(card.keywords, kChangeling)) {
      EffectTemplate cda;
      cda.name = "changeling";
      cda.cda = true;
      cda.implicit_keyword = kChangeling;
      Part p;
      p.layer = PartLayer::kType;
      p.all_creature_types = true;
      cda.parts.push_back(p);
      implicit_.push_back(std::move(cda));
    }
    // [card.enters] effects: the X of the spell it was cast as reaches them
    // ("enters with X +1/+1 counters": Rock Hydra, G-8.3), no other X.
    CheckX(card.cost.x_count > 0, "its entry");
    for (auto& st : TableArray(t, "static")) {
      source_pt_at_ = nullptr;  // only the static's own
      card.statics.push_back(Static(*st));
      CheckX(false, "a static ability");
      CheckNoSourcePT(card.statics.back());
    }
    for (auto& a : TableArray(t, "activated")) {
      card.activated.push_back(Activated(*a));
      CheckX(card.activated.back().cost.x_count > 0 || card.activated.back().remove_counters_x,
             "this activated ability");
      CheckNotFree(*a, card.activated.back());
    }
    for (auto& tr : TableArray(t, "trigger")) {
      card.triggers.push_back(Trigger(*tr));
      CheckX(card.triggers.back().optional_cost.x_count > 0, "this triggered ability");
      card.state_triggered |= card.triggers.back().event == EventKind::kState;  // G-16
    }
    for (auto& ph : TableArray(t, "phase")) {
      card.phase.push_back(PhaseOf(*ph, false));
      card.phase_sacrifice |= card.phase.back().sacrifice != kNoFilter;  // T-13.3
      CheckX(card.phase.back().cost.x_count > 0, "this phase ability");
    }
    if (auto* s = t.get("spell")) {
      if (!Has(card.types, kInstant) && !Has(card.types, kSorcery) && !Has(card.types, kInterrupt))
        r_.Fail(*s, "spell", "only instants, interrupts and sorceries have a [card.spell]");
      card.has_spell = true;
      card.spell =
          Body(r_.Table(*s, "spell"), "spell", {"turn", "after_phase", "before_attackers"});
      SpellTime(r_.Table(*s, "spell"), card);
      CheckX(card.cost.x_count > 0, "the spell");
    }
    if (card.AbilityCount() > 32) {
      // Named by the list that went over, at its line (issue 40).
      const char* over = "static";
      for (const char* key : {"static", "activated", "trigger", "phase"})
        if (t.contains(key)) over = key;
      r_.Fail(*t.get(over), over,
              absl::StrCat("at most 32 abilities per card (static, activated, trigger and phase "
                           "together), got ",
                           card.AbilityCount()));
    }
    CheckStar(t, card);
    // Keyword abilities compiled to statics are kept apart: they have no bit
    // in the ability mask and exist while the object has the keyword.
    card.keyword_statics = std::move(implicit_);
    implicit_.clear();
  }

 private:
  // The first `x` value read since the last check, and where (ValueOf).
  const toml::node* x_at_ = nullptr;
  std::string x_key_;
  // The first source_power or source_toughness since the last static.
  const toml::node* source_pt_at_ = nullptr;
  std::string source_pt_key_;
  // Parsing the body of a before trigger on life_change or damage (change_amount).
  bool in_before_life_change_ = false;
  bool in_before_damage_ = false;  // G-8.3: prevent_removed's trigger
  // Parsing the body of a replacement of damage (redirect).
  bool in_instead_damage_ = false;
  // Inside a next_time step's trigger: `source = "chosen"` is allowed (T-4.1).
  bool in_next_time_ = false;
  // T-5.5: parsing an activated ability's body, and the `if_activated`
  // steps read in it.
  bool in_activated_ = false;
  int if_activated_steps_ = 0;
  // The choice of the body whose steps are being read (kSource: a next-time
  // trigger may wait on the source chosen).
  ChoiceKind choose_ = ChoiceKind::kNone;
  // The target specs of the body being read that take players alone, one
  // bit each (G-17: a step's `relative_to` names one of them).
  uint32_t player_specs_ = 0;
  // Parsing the body of a before trigger on a cast or a block (change_target).
  bool in_before_choice_ = false;

  // An `x` value needs an X in the cost of what it belongs to: X is chosen
  // as that is paid; elsewhere it would be a silent 0 (issue 40).
  void CheckX(bool has_x, std::string_view where) {
    const toml::node* at = x_at_;
    x_at_ = nullptr;
    if (at && !has_x)
      r_.Fail(*at, x_key_,
              absl::StrCat("a value other than x: x is the X paid in a cost, and ", S(where),
                           " has no X in its cost"));
  }
  // A static ability whose power or toughness reads its source's own: the
  // value it sets is the value it reads, which the layers cannot settle.
  void CheckNoSourcePT(const EffectTemplate& e) {
    const toml::node* at = source_pt_at_;
    source_pt_at_ = nullptr;
    if (!at) return;
    for (const Part& p : e.parts)
      if (p.layer == PartLayer::kPtSet || p.layer == PartLayer::kPtModify)
        r_.Fail(*at, source_pt_key_,
                "no source_power or source_toughness in a static ability's power or toughness: "
                "it would read the value it sets (an activated or triggered ability's effect "
                "reads it once, as it resolves)");
  }
  // An activated ability with no cost at all can be activated forever: a
  // game would end only by the action cap (issue 40). One limited to N
  // activations a turn (T-5.3: Instill Energy's {0}, "only once each turn")
  // cannot.
  void CheckNotFree(const toml::table& t, const ActivatedAbility& a) {
    const ManaCost& c = a.cost;
    bool colored = false;
    for (auto n : c.colored) colored |= n > 0;
    if (c.generic == 0 && !colored && c.colorless == 0 && c.hybrid.empty() && !a.tap &&
        !a.sacrifice_self && !a.exile_self && a.sacrifice == kNoFilter && a.discard == 0 &&
        a.life == 0 && a.remove_counters == 0 && a.per_turn == 0)
      r_.Fail(t, "cost",
              "a cost (mana other than X, tap = true, sacrifice_self, sacrifice, discard, "
              "life or remove_counters), or a per_turn limit: an ability that costs nothing "
              "could be activated forever");
  }
  // "*" power or toughness needs something that sets it: a characteristic-
  // defining static (cda = true) with a pt_set part, or an entry choice of
  // P/T (Primal Clay).
  void CheckStar(const toml::table& t, const CardDef& card) {
    for (bool power : {true, false}) {
      if (!(power ? card.power_star : card.toughness_star)) continue;
      bool set = false;
      for (const EffectTemplate& e : card.statics)
        for (const Part& p : e.parts)
          set |= e.cda && p.layer == PartLayer::kPtSet && (power ? p.has_power : p.has_toughness);
      for (const EntryMode& m : card.enters.modes) set |= power ? m.has_power : m.has_toughness;
      if (!set) {
        const char* key = power ? "power" : "toughness";
        r_.Fail(*t.get(key), key,
                "an integer, or \"*\" with something that sets it: a [[card.static]] with cda = "
                "true and a pt_set part, or an entry choice of modes with P/T");
      }
    }
  }

  // Every number of a card is an amount, a P/T, a count or a cost the
  // engine keeps in 16-bit fields: ±kMaxCardNumber leaves it room to add
  // several (docs/cards.md "Limits").
  int IntOf(const toml::node& n, std::string_view key, int lo = -kMaxCardNumber,
            int hi = kMaxCardNumber) {
    return r_.Int(n, key, lo, hi);
  }
  // [[card.KEY]] tables, none if absent.
  std::vector<const toml::table*> TableArray(const toml::table& t, std::string_view key) {
    auto* n = t.get(key);
    if (!n) return {};
    return r_.Tables(*n, key, "an array of tables ([[card." + std::string(key) + "]])");
  }
  int Color(const toml::node& n, std::string_view key, const std::string& s) {
    auto c = ParseColor(s);
    if (!c) r_.Fail(n, key, "a color (white, blue, black, red, green), got '" + s + "'");
    return *c;
  }
  int KeywordOf(const toml::node& n, const std::string& s) {
    auto k = ParseKeyword(s);
    if (!k) r_.Fail(n, "keywords", "a keyword (flying, first strike, ...), got '" + s + "'");
    return *k;
  }
  void PowerToughness(const toml::table& t, std::string_view key, bool creature, int& value,
                      bool& star) {
    auto* n = t.get(key);
    if (!n) {
      if (creature) r_.Fail(t, key, "a " + std::string(key) + " for a creature card");
      return;
    }
    if (!creature)
      r_.Fail(*n, key,
              "no " + std::string(key) +
                  ": only a creature card has power and toughness (an effect that animates it "
                  "gives its own, in a part)");
    if (auto s = n->value_exact<std::string>()) {
      if (*s != "*") r_.Fail(*n, key, "an integer or \"*\"");
      star = true;
      return;
    }
    value = IntOf(*n, key);
  }

  WordList Words(const toml::node& n, std::string_view key, bool colors, bool allow_choice) {
    WordList out;
    for (auto& s : r_.Strings(n, key)) {
      if (allow_choice && s == "choice") {
        out.push_back(kChoiceWord);
        continue;
      }
      if (colors) {
        out.push_back(ColorWord(Color(n, key, s)));
      } else {
        auto st = ParseSubtype(s);
        if (!st) r_.Fail(n, key, "a known subtype, got '" + s + "'");
        out.push_back(static_cast<Word>(*st));
      }
    }
    return out;
  }
  TypeMask Types(const toml::node& n, std::string_view key) {
    TypeMask m = 0;
    for (auto& s : r_.Strings(n, key)) {
      auto ty = ParseCardType(s);
      if (!ty) r_.Fail(n, key, "a card type, got '" + s + "'");
      m |= 1u << *ty;
    }
    return m;
  }
  SupertypeMask Supertypes(const toml::node& n, std::string_view key) {
    SupertypeMask m = 0;
    for (auto& s : r_.Strings(n, key)) {
      auto st = ParseSupertype(s);
      if (!st) r_.Fail(n, key, "a supertype, got '" + s + "'");
      m |= 1u << *st;
    }
    return m;
  }
  KeywordMask Keywords(const toml::node& n, std::string_view key) {
    KeywordMask m = 0;
    for (auto& s : r_.Strings(n, key)) m |= KeywordMask{1} << KeywordOf(n, s);
    return m;
  }
  int8_t Relation(const toml::node& n, std::string_view key) {
    auto s = r_.String(n, key);
    if (s == "you") return 0;
    if (s == "opponent") return 1;
    r_.Fail(n, key, "\"you\" or \"opponent\", got '" + s + "'");
  }

  // A key that names one of two words: 0 for the first, 1 for the second.
  int8_t OneOfTwo(const toml::node& n, std::string_view key, std::string_view first,
                  std::string_view second) {
    auto s = r_.String(n, key);
    if (s == first) return 0;
    if (s != second) r_.Fail(n, key, absl::StrCat(S(first), " or ", S(second)));
    return 1;
  }

  // A filter's `combat` (T-7.2): one word or a list of them (any of).
  uint8_t CombatPlaces(const toml::node& n, std::string_view key) {
    static const std::pair<std::string_view, uint8_t> kPlaces[] = {
        {"attacking", Filter::kAttackingCreature},
        {"blocking", Filter::kBlockingCreature},
        {"blocked", Filter::kBlockedCreature},
        {"unblocked", Filter::kUnblockedCreature}};
    std::vector<std::string> words;
    if (n.is_array())
      words = r_.Strings(n, key);
    else
      words.push_back(r_.String(n, key));
    uint8_t bits = 0;
    for (const std::string& w : words) {
      uint8_t bit = 0;
      for (auto& [name, b] : kPlaces)
        if (w == name) bit = b;
      if (!bit) r_.Fail(n, key, "attacking, blocking, blocked or unblocked (or a list of them)");
      bits |= bit;
    }
    if (!bits) r_.Fail(n, key, "attacking, blocking, blocked or unblocked (or a list of them)");
    return bits;
  }

  // Refuses a filter's combat keys where the game can't read them: the
  // layers hold no combat (a static ability's `affects` or condition, a
  // value counted by the layers), and an occurrence's object is read as it
  // last was, without its place in the attack (T-7.2).
  void NoCombatKeys(const toml::node& n, std::string_view key, std::string_view where) {
    const toml::table* t = n.as_table();
    if (!t) return;
    // One pass over the filter's few keys (T-7.2's and T-7.5's).
    for (auto&& [kk, p] : *t) {
      const std::string_view k = kk.str();
      if (k == "combat" || k == "blocking_or_blocked_by" || k == "attacked_this_turn" ||
          k == "since_turn_began" || k == "toughness_below_source_power")
        r_.Fail(p, k,
                absl::StrCat("no ", S(k), " in ", S(where), " (", S(key), "): ",
                             "attacking and blocking creatures are read in targets, "
                             "effects' affects and if, and combat rules"));
    }
  }

  FilterId FilterOf(const toml::node& n, std::string_view key) {
    const toml::table& t = r_.Table(n, key);
    r_.CheckKeys(
        t, "a filter",
        {"self", "other", "enchanted", "controller", "owner", "zones", "types", "not_types",
         "subtypes", "not_subtypes", "supertypes", "not_supertypes", "colors", "not_colors",
         "colorless", "keywords", "not_keywords", "no_abilities", "tapped", "face_down", "token",
         "what", "max", "count", "extra_target_cost", "name", "power_at_least", "power_at_most",
         "combat", "blocking_or_blocked_by", "mana_value",
         // T-7.5: what happened to it this turn
         "attacked_this_turn", "since_turn_began", "toughness_below_source_power"});
    Filter f;
    const toml::node* name_node = nullptr;
    for (auto& [kk, v] : t) {
      std::string k(kk.str());
      if (k == "self")
        f.self = r_.Bool(v, k);
      else if (k == "other")
        f.other = r_.Bool(v, k);
      else if (k == "enchanted")
        f.enchanted = r_.Bool(v, k);
      else if (k == "controller")
        f.controller = Relation(v, k);
      else if (k == "owner")
        f.owner = Relation(v, k);
      else if (k == "zones") {
        f.zones = 0;
        for (auto& s : r_.Strings(v, k)) {
          auto z = ParseZone(s);
          if (!z) r_.Fail(v, k, "zones among battlefield, hand, library, graveyard, exile, stack");
          f.zones |= 1u << static_cast<int>(*z);
        }
      } else if (k == "types")
        f.types = Types(v, k);
      else if (k == "not_types")
        f.not_types = Types(v, k);
      else if (k == "subtypes")
        f.subtypes = Words(v, k, false, true);
      else if (k == "not_subtypes")
        f.not_subtypes = Words(v, k, false, true);
      else if (k == "supertypes")
        f.supertypes = Supertypes(v, k);
      else if (k == "not_supertypes")
        f.not_supertypes = Supertypes(v, k);
      else if (k == "colors")
        f.colors = Words(v, k, true, true);
      else if (k == "not_colors")
        f.not_colors = Words(v, k, true, true);
      else if (k == "colorless")
        f.colorless = r_.Bool(v, k);
      else if (k == "keywords")
        f.keywords = Keywords(v, k);
      else if (k == "not_keywords")
        f.not_keywords = Keywords(v, k);
      else if (k == "no_abilities")
        f.no_abilities = r_.Bool(v, k);
      else if (k == "tapped")
        f.tapped = r_.Bool(v, k);
      else if (k == "face_down")
        f.face_down = r_.Bool(v, k);
      else if (k == "token")
        f.token = r_.Bool(v, k);
      else if (k == "mana_value") {
        // "Target artifact with mana value X" (Detonate): X alone.
        if (r_.String(v, k) != "x") r_.Fail(v, k, "\"x\" (a target with mana value X)");
        f.mana_value_x = true;
        if (!x_at_) x_at_ = &v, x_key_ = std::string(k);
      } else if (k == "power_at_least")
        f.min_power = static_cast<int16_t>(IntOf(v, k, -kMaxCardNumber, kMaxCardNumber));
      else if (k == "power_at_most")
        f.max_power = static_cast<int16_t>(IntOf(v, k, -kMaxCardNumber, kMaxCardNumber));
      else if (k == "name")
        f.name_text = r_.String(v, k), name_node = &v;
      else if (k == "combat")
        f.combat |= CombatPlaces(v, k);
      else if (k == "attacked_this_turn") {
        // T-7.5: "that attacked (didn't attack) this turn": a game dealt
        // this card remembers the attacks (TurnState::attacked).
        f.combat |= r_.Bool(v, k) ? Filter::kAttackedThisTurn : Filter::kNotAttackedThisTurn;
        if (card_) card_->reads_attacks = true;
      } else if (k == "since_turn_began") {
        // T-7.5a: "that its controller has controlled continuously since
        // their most recent turn began".
        if (!r_.Bool(v, k))
          r_.Fail(v, k, "true (controlled since the turn began), or leave it out");
        f.combat |= Filter::kSinceTurnBegan;
      } else if (k == "toughness_below_source_power") {
        // T-7.5c: "with toughness less than <source>'s power" (Stone Giant).
        if (!r_.Bool(v, k))
          r_.Fail(v, k, "true (toughness less than the source's power), or leave it out");
        f.combat |= Filter::kToughnessBelowSourcePower;
      } else if (k == "blocking_or_blocked_by") {
        if (r_.String(v, k) != "self") r_.Fail(v, k, "self");
        f.combat_with_self = true;
      } else if (k == "max" || k == "count" || k == "extra_target_cost") {
        // Target-count keys, read by the ability body.
      } else if (k == "what") {
        auto s = r_.String(v, k);
        if (s == "permanent")
          f.what = TargetWhat::kPermanent;
        else if (s == "creature_or_player")
          f.what = TargetWhat::kCreatureOrPlayer;
        else if (s == "player")
          f.what = TargetWhat::kPlayer;
        else if (s == "spell")
          f.what = TargetWhat::kSpell;
        else if (s == "card")
          f.what = TargetWhat::kCard;
        else
          r_.Fail(v, k, "permanent, creature_or_player, player, spell or card");
      }
    }
    if (f.what == TargetWhat::kSpell) f.zones = 1u << static_cast<int>(Zone::kStack);
    db_.filters.push_back(std::move(f));
    // Names resolve once the file is read: where this one was, for its message.
    if (name_node && name_sites)
      name_sites->emplace_back(db_.filters.size() - 1,
                               r_.Message(*name_node, "name", "a known card name"));
    return static_cast<FilterId>(db_.filters.size() - 1);
  }

  Value ValueOf(const toml::node& n, std::string_view key) {
    Value v;
    if (n.value_exact<int64_t>()) {
      v.constant = IntOf(n, key);
      return v;
    }
    if (auto s = n.value_exact<std::string>()) {
      static const std::pair<std::string_view, Value::Kind> kNames[] = {
          {"x", Value::kX},
          {"mana_value", Value::kManaValue},
          {"linked_power", Value::kLinkedPower},
          {"linked_toughness", Value::kLinkedToughness},
          {"source_power", Value::kSourcePower},
          {"source_toughness", Value::kSourceToughness},
          {"event_power", Value::kEventPower},
          {"event_toughness", Value::kEventToughness},
          {"event_amount", Value::kEventAmount},
          {"target_power", Value::kTargetPower},
          {"target_toughness", Value::kTargetToughness},
          {"target_mana_value", Value::kTargetManaValue},
          {"turn_start_untapped_lands", Value::kTurnStartUntappedLands},
          {"discarded", Value::kDiscarded},
          {"removed", Value::kRemoved},
          {"destroyed", Value::kDestroyed}};
      for (auto& [name, kind] : kNames)
        if (*s == name) {
          v.kind = kind;
          if (kind == Value::kX && !x_at_) x_at_ = &n, x_key_ = std::string(key);
          if (kind == Value::kTurnStartUntappedLands) card_->mana_cards |= CardDef::kTurnStartLands;
          if ((kind == Value::kSourcePower || kind == Value::kSourceToughness) && !source_pt_at_)
            source_pt_at_ = &n, source_pt_key_ = std::string(key);
          return v;
        }
      r_.Fail(n, key,
              "an integer, x, mana_value, linked_power, linked_toughness, source_power, "
              "source_toughness, event_power, event_toughness, event_amount, target_power, "
              "target_toughness, target_mana_value, turn_start_untapped_lands, discarded, removed, "
              "destroyed or a table, got '" +
                  *s + "'");
    }
    if (auto* t = n.as_table()) {
      r_.CheckKeys(
          *t, "a value",
          {"count", "sum_mana_value", "card_types", "died_this_turn", "damage_this_turn",
           "counters", "value", "plus", "times", "divide", "round", "at_least", "at_most"});
      int kinds = 0;
      if (auto* c = t->get("counters")) {
        // G-8.3: "the number of doom counters on it" (Armageddon Clock).
        v.kind = Value::kCountersOnSource;
        v.counter_kind = static_cast<int8_t>(CounterKindOf(r_.String(*c, "counters")));
        ++kinds;
      }
      if (auto* named = t->get("value")) {
        // A named value scaled or bounded: `{ value = "target_toughness", ... }`.
        if (!named->value_exact<std::string>())
          r_.Fail(*named, "value", "a value name (x, target_toughness, ...)");
        Value inner = ValueOf(*named, "value");
        v.kind = inner.kind;
        ++kinds;
      }
      for (auto [name, kind] :
           {std::pair{"count", Value::kCount}, std::pair{"sum_mana_value", Value::kSumManaValue},
            std::pair{"card_types", Value::kCardTypes},
            std::pair{"died_this_turn", Value::kDiedThisTurn},
            std::pair{"damage_this_turn", Value::kDamageThisTurn}}) {
        if (auto* f = t->get(name)) {
          v.kind = kind;
          NoCombatKeys(*f, name, "a value's filter (the layers count it, and hold no combat)");
          v.filter = FilterOf(*f, name);
          if (kind == Value::kDamageThisTurn) card_->tallies_damage = true;
          ++kinds;
        }
      }
      if (kinds != 1)
        r_.Fail(n, key,
                "exactly one of count, sum_mana_value, card_types, died_this_turn, "
                "damage_this_turn, counters, value");
      if (auto* p = t->get("plus")) v.plus = IntOf(*p, "plus");
      if (auto* p = t->get("times")) v.times = IntOf(*p, "times");
      if (auto* p = t->get("divide")) v.divide = IntOf(*p, "divide", 1, kMaxCardNumber);
      if (auto* p = t->get("round")) {
        const std::string r = r_.String(*p, "round");
        if (r != "down" && r != "up") r_.Fail(*p, "round", "\"down\" or \"up\"");
        if (!t->get("divide")) r_.Fail(*p, "round", "a divide to round");
        v.round_up = r == "up";
      }
      if (auto* p = t->get("at_least")) v.at_least = IntOf(*p, "at_least");
      if (auto* p = t->get("at_most")) v.at_most = IntOf(*p, "at_most");
      if (v.at_least > v.at_most) r_.Fail(n, key, "at_least no greater than at_most");
      return v;
    }
    r_.Fail(n, key, "an integer, a value name or a value table");
  }

  Part PartOf(const toml::table& t) {
    Part p;
    auto layer = r_.RequiredString(t, "layer");
    static const std::pair<std::string_view, PartLayer> kLayers[] = {
        {"copy", PartLayer::kCopy},          {"control", PartLayer::kControl},
        {"text", PartLayer::kText},          {"type", PartLayer::kType},
        {"color", PartLayer::kColor},        {"ability", PartLayer::kAbility},
        {"pt_set", PartLayer::kPtSet},       {"pt_modify", PartLayer::kPtModify},
        {"pt_switch", PartLayer::kPtSwitch}, {"rule", PartLayer::kRule}};
    bool found = false;
    for (auto& [name, l] : kLayers)
      if (layer == name) p.layer = l, found = true;
    if (!found)
      r_.Fail(t, "layer",
              "copy, control, text, type, color, ability, pt_set, pt_modify, "
              "pt_switch or rule, got '" +
                  layer + "'");
    switch (p.layer) {
      case PartLayer::kCopy:
        r_.CheckKeys(t, "a copy part", {"layer", "copy_of", "except_colors", "keep_phase"});
        if (auto* n = t.get("except_colors")) {
          p.has_except_colors = true;
          for (auto& c : r_.Strings(*n, "except_colors"))
            p.except_colors |= 1u << Color(*n, "except_colors", c);
        }
        if (auto* n = t.get("keep_phase")) p.keep_phase = r_.Bool(*n, "keep_phase");
        if (auto* n = t.get("copy_of"))
          p.copy_of_target = IntOf(*n, "copy_of");
        else
          r_.Fail(t, "copy_of", "the target number whose copiable values are copied");
        break;
      case PartLayer::kControl:
        r_.CheckKeys(t, "a control part", {"layer"});
        break;
      case PartLayer::kText:
        r_.CheckKeys(t, "a text part", {"layer", "replace_word"});
        if (r_.RequiredString(t, "replace_word") != "choice")
          r_.Fail(t, "replace_word", "\"choice\"");
        p.replace_word_choice = true;
        break;
      case PartLayer::kType:
        r_.CheckKeys(t, "a type part",
                     {"layer", "add_types", "remove_types", "set_types", "add_subtypes",
                      "set_creature_types", "all_creature_types", "set_land_types",
                      "add_supertypes", "remove_supertypes"});
        for (auto& [kk, v] : t) {
          std::string k(kk.str());
          if (k == "add_types")
            p.add_types = Types(v, k);
          else if (k == "remove_types")
            p.remove_types = Types(v, k);
          else if (k == "set_types")
            p.has_set_types = true, p.set_types = Types(v, k);
          else if (k == "add_subtypes")
            p.add_subtypes = Words(v, k, false, true);
          else if (k == "set_creature_types")
            p.has_set_creature_types = true, p.set_creature_types = Words(v, k, false, true);
          else if (k == "all_creature_types")
            p.all_creature_types = r_.Bool(v, k);
          else if (k == "set_land_types")
            p.has_set_land_types = true, p.set_land_types = Words(v, k, false, true);
          else if (k == "add_supertypes")
            p.add_supertypes = Supertypes(v, k);
          else if (k == "remove_supertypes")
            p.remove_supertypes = Supertypes(v, k);
        }
        break;
      case PartLayer::kColor:
        r_.CheckKeys(t, "a color part", {"layer", "set_colors", "add_colors"});
        if (auto* n = t.get("set_colors"))
          p.has_set_colors = true, p.set_colors = Words(*n, "set_colors", true, true);
        if (auto* n = t.get("add_colors")) p.add_colors = Words(*n, "add_colors", true, true);
        break;
      case PartLayer::kAbility:
        r_.CheckKeys(
            t, "an ability part",
            {"layer", "remove_all_abilities", "add_keywords", "remove_keywords", "grant_phase_cost",
             "add_colorless_mana", "blocked_only_by", "not_blocked_by", "cant_block_those",
             "attacks_only_if_defender_controls", "spares_source", "attacks_as_though_haste"});
        CombatRuleOf(t, p);
        if (auto* n = t.get("add_colorless_mana"))
          p.add_colorless_mana = r_.Bool(*n, "add_colorless_mana");
        if (auto* n = t.get("grant_phase_cost")) {
          card_->granted_phase.push_back(PhaseOf(r_.Table(*n, "grant_phase_cost"), true));
          p.grant_phase = static_cast<int>(card_->granted_phase.size() - 1);
        }
        if (auto* n = t.get("remove_all_abilities"))
          p.remove_all_abilities = r_.Bool(*n, "remove_all_abilities");
        if (auto* n = t.get("add_keywords")) p.add_keywords = Keywords(*n, "add_keywords");
        if (auto* n = t.get("remove_keywords")) p.remove_keywords = Keywords(*n, "remove_keywords");
        if (auto* n = t.get("spares_source")) {
          // "This effect doesn't remove Black Ward": only about the
          // protection the part grants (docs/rules.md T-1.5).
          p.spares_source = r_.Bool(*n, "spares_source");
          if (p.spares_source && !(p.add_keywords & ProtectionKeywords()))
            r_.Fail(*n, "spares_source",
                    "a protection keyword in this part's add_keywords (the protection that "
                    "doesn't remove its source)");
        }
        break;
      case PartLayer::kPtSet:
      case PartLayer::kPtModify:
        r_.CheckKeys(t, "a power/toughness part", {"layer", "power", "toughness"});
        if (auto* n = t.get("power")) p.has_power = true, p.power = ValueOf(*n, "power");
        if (auto* n = t.get("toughness"))
          p.has_toughness = true, p.toughness = ValueOf(*n, "toughness");
        if (!p.has_power && !p.has_toughness) r_.Fail(t, "power", "power and/or toughness");
        break;
      case PartLayer::kPtSwitch:
        r_.CheckKeys(t, "a switch part", {"layer"});
        break;
      case PartLayer::kRule:
        r_.CheckKeys(t, "a rule part",
                     {"layer", "max_hand_size", "no_max_hand_size", "spell_cost_increase",
                      "spell_cost_reduce", "spell_cost_min", "players", "cant_lose",
                      "damage_reduction", "skip_draw", "any_number_of_lands", "life_for_mana",
                      "enter_tapped", "untap_only_one"});
        if (auto* n = t.get("untap_only_one")) {
          // T-1.8: "players untap only one land during their untap phase".
          p.untap_only_one = Types(*n, "untap_only_one");
          if (!p.untap_only_one)
            r_.Fail(*n, "untap_only_one", "a non-empty list of card types (Land, Creature, ...)");
          card_->untap_limit = true;
        }
        if (auto* n = t.get("any_number_of_lands"))
          p.any_number_of_lands = r_.Bool(*n, "any_number_of_lands");
        if (auto* n = t.get("life_for_mana")) p.life_for_mana = r_.Bool(*n, "life_for_mana");
        if (auto* n = t.get("enter_tapped")) p.enter_tapped = Types(*n, "enter_tapped");
        if (p.any_number_of_lands || p.life_for_mana || p.enter_tapped)
          card_->mana_cards |= CardDef::kManaRule;
        if (auto* n = t.get("skip_draw")) p.skip_draw = r_.Bool(*n, "skip_draw");
        if (auto* n = t.get("cant_lose")) p.cant_lose = r_.Bool(*n, "cant_lose");
        if (auto* n = t.get("damage_reduction")) p.damage_reduction = IntOf(*n, "damage_reduction");
        if (auto* n = t.get("max_hand_size"))
          p.max_hand_size = IntOf(*n, "max_hand_size", 0, kMaxCardNumber);
        if (auto* n = t.get("no_max_hand_size"))
          p.no_max_hand_size = r_.Bool(*n, "no_max_hand_size");
        if (auto* n = t.get("spell_cost_increase"))
          p.cost_increase = IntOf(*n, "spell_cost_increase");
        if (auto* n = t.get("spell_cost_reduce")) p.cost_reduce = IntOf(*n, "spell_cost_reduce");
        if (auto* n = t.get("spell_cost_min")) p.cost_min = IntOf(*n, "spell_cost_min");
        if (auto* n = t.get("players")) {
          auto s = r_.String(*n, "players");
          if (s == "you")
            p.players = 0;
          else if (s == "opponents")
            p.players = 1;
          else if (s == "all")
            p.players = 2;
          else
            r_.Fail(*n, "players", "you, opponents or all");
        }
        break;
      default:
        break;
    }
    return p;
  }

  void Parts(const toml::table& t, EffectTemplate& e) {
    auto* n = t.get("parts");
    if (!n) r_.Fail(t, "parts", "a list of parts");
    auto* a = n->as_array();
    if (!a || a->empty()) r_.Fail(*n, "parts", "a non-empty list of part tables");
    for (auto& p : *a) e.parts.push_back(PartOf(r_.Table(p, "parts")));
  }

  // An ability part's combat rule (T-7.1), at most one per part: its kind
  // by key, its filters one table or a list of them (a union).
  void CombatRuleOf(const toml::table& t, Part& p) {
    static constexpr std::pair<const char*, CombatRule::Kind> kKeys[] = {
        {"blocked_only_by", CombatRule::kBlockedOnlyBy},
        {"not_blocked_by", CombatRule::kNotBlockedBy},
        {"cant_block_those", CombatRule::kCantBlockThose},
        {"attacks_only_if_defender_controls", CombatRule::kAttacksOnlyIf},
        {"attacks_as_though_haste", CombatRule::kAttacksAsThoughHaste}};
    for (const auto& [key, kind] : kKeys) {
      const toml::node* n = t.get(key);
      if (!n) continue;
      if (p.combat_rule >= 0)
        r_.Fail(*n, key, "one combat rule per part (write another part for this one)");
      CombatRule rule;
      rule.kind = kind;
      if (kind == CombatRule::kAttacksAsThoughHaste) {
        // T-5.6: no filters, "can attack as though it had haste".
        if (!n->is_boolean() || !r_.Bool(*n, key))
          r_.Fail(*n, key, "true (can attack as though it had haste; no filters)");
      } else if (auto* a = n->as_array()) {
        if (a->empty()) r_.Fail(*n, key, "a filter table or a non-empty list of them");
        for (auto& f : *a) rule.filters.push_back(FilterOf(f, key));
      } else {
        rule.filters.push_back(FilterOf(*n, key));
      }
      card_->combat_rules.push_back(std::move(rule));
      p.combat_rule = static_cast<int>(card_->combat_rules.size() - 1);
    }
  }

  void Affects(const toml::node& n, absl::InlinedVector<FilterId, 2>& out) {
    if (auto* a = n.as_array()) {
      for (auto& f : *a) out.push_back(LayerFilterOf(f, "affects"));
    } else {
      out.push_back(LayerFilterOf(n, "affects"));
    }
  }

  // A filter the layers read while they compute power (a static ability's
  // `affects`, a condition): one on power would depend on its own result.
  FilterId LayerFilterOf(const toml::node& n, std::string_view key) {
    NoCombatKeys(n, key, "a static ability's filter (the layers hold no combat)");
    const FilterId id = FilterOf(n, key);
    for (const char* power : {"power_at_least", "power_at_most"})
      if (const toml::node* p = r_.Table(n, key).get(power))
        r_.Fail(*p, power,
                absl::StrCat("no ", power,
                             " in a static ability's filter: the layers compute power "
                             "after they choose what an ability affects (it is taken in "
                             "triggers, targets, effects and combat rules)"));
    return id;
  }

  EffectTemplate Static(const toml::table& t) {
    r_.CheckKeys(t, "a static ability", {"name", "affects", "cda", "condition", "parts"});
    EffectTemplate e;
    e.name = r_.OptionalString(t, "name");
    if (auto* n = t.get("cda")) e.cda = r_.Bool(*n, "cda");
    if (auto* n = t.get("affects")) Affects(*n, e.affects);
    if (auto* n = t.get("condition")) {
      auto& c = r_.Table(*n, "condition");
      r_.CheckKeys(c, "a condition", {"source_tapped", "you_control", "your_turn"});
      if (auto* s = c.get("your_turn")) e.condition.your_turn = r_.Bool(*s, "your_turn");
      if (auto* s = c.get("source_tapped"))
        e.condition.source_tapped = r_.Bool(*s, "source_tapped");
      if (auto* s = c.get("you_control"))
        e.condition.you_control = LayerFilterOf(*s, "you_control");
    }
    Parts(t, e);
    for (const Part& p : e.parts)
      if (p.layer == PartLayer::kCopy || p.layer == PartLayer::kText)
        r_.Fail(t, "parts",
                "no copy or text part in a static ability: those take the targets "
                "and choices of a spell or ability (use them in a continuous effect)");
    return e;
  }

  Ref RefOf(const toml::node& n, std::string_view key) {
    Ref r;
    if (auto i = n.value_exact<int64_t>()) {
      r.kind = Ref::kTarget;
      r.index = static_cast<int>(*i);
      return r;
    }
    auto s = r_.String(n, key);
    if (s == "self")
      r.kind = Ref::kSelf;
    else if (s == "you")
      r.kind = Ref::kYou;
    else if (s == "opponent")
      r.kind = Ref::kOpponent;
    else if (s == "enchanted")
      r.kind = Ref::kEnchanted;
    else if (s == "event_object")
      r.kind = Ref::kEventObject;
    else if (s == "event_controller")
      r.kind = Ref::kEventController;
    else if (s == "target_controller")
      r.kind = Ref::kTargetController;
    else if (s == "event_source_controller")
      r.kind = Ref::kEventSourceController;
    else if (s == "event_enchanted")
      r.kind = Ref::kEventEnchanted;
    else if (s == "each")
      r.kind = Ref::kEachPlayer;
    else
      r_.Fail(n, key,
              "a target number, self, you, opponent, each, enchanted, event_object, "
              "event_enchanted, event_controller or event_source_controller");
    return r;
  }

  std::vector<EffectStep> Steps(const toml::node& n, std::string_view key, int targets) {
    std::vector<EffectStep> out;
    auto* a = n.as_array();
    if (!a) r_.Fail(n, key, "a list of effect tables");
    for (auto& e : *a) {
      out.push_back(Step(r_.Table(e, key), targets));
      // G-9: "for each card discarded" counts this body's discards: a
      // `discarded` value needs a `discard` step before it.
      if (out.back().amount.kind == Value::kDiscarded &&
          std::none_of(out.begin(), out.end() - 1,
                       [](const EffectStep& st) { return st.op == Op::kDiscard; }))
        r_.Fail(e, key,
                "a discard step before the step whose count is discarded (the cards this "
                "resolution's discards put into a graveyard)");
      // G-18: "if destroyed this way" reads this body's destructions: a
      // destroy step before it.
      if (out.back().if_destroyed &&
          std::none_of(out.begin(), out.end() - 1,
                       [](const EffectStep& st) { return st.op == Op::kDestroy; }))
        r_.Fail(*e.as_table()->get("if_destroyed"), "if_destroyed",
                "a destroy step before the step (what this resolution destroyed, docs/rules.md "
                "G-18)");
      // T-8.5: "put into a graveyard this way" reads this body's destroy
      // steps likewise.
      if (out.back().amount.kind == Value::kDestroyed &&
          std::none_of(out.begin(), out.end() - 1,
                       [](const EffectStep& st) { return st.op == Op::kDestroy; }))
        r_.Fail(e, key,
                "a destroy step before the step whose amount is destroyed (the targets this "
                "resolution's destroy steps put into a graveyard)");
      // G-8.3: "if you do" reads this body's removals likewise.
      if (out.back().amount.kind == Value::kRemoved &&
          std::none_of(out.begin(), out.end() - 1,
                       [](const EffectStep& st) { return st.op == Op::kRemoveCounters; }))
        r_.Fail(e, key,
                "a remove_counters step before the step whose amount is removed (the counters "
                "this resolution's removals took)");
    }
    return out;
  }

  EffectStep Step(const toml::table& t, int targets) {
    static const std::pair<std::string_view, Op> kOps[] = {
        {"continuous", Op::kContinuous},
        {"draw", Op::kDraw},
        {"damage", Op::kDamage},
        {"gain_life", Op::kGainLife},
        {"lose_life", Op::kLoseLife},
        {"poison", Op::kPoison},
        {"tap", Op::kTap},
        {"untap", Op::kUntap},
        {"destroy", Op::kDestroy},
        {"exile", Op::kExile},
        {"bounce", Op::kBounce},
        {"regenerate", Op::kRegenerate},
        {"cant_be_regenerated", Op::kCantBeRegenerated},
        {"add_counters", Op::kAddCounters},
        {"remove_counters", Op::kRemoveCounters},
        {"counter_spell", Op::kCounterSpell},
        {"add_mana", Op::kAddMana},
        {"discard", Op::kDiscard},
        {"mill", Op::kMill},
        {"search", Op::kSearch},
        {"discard_hand", Op::kDiscardHand},
        {"shuffle_into_library", Op::kShuffleIn},
        {"extra_turn", Op::kExtraTurn},
        {"delayed", Op::kDelayed},
        {"prevent", Op::kPrevent},
        {"replace_next_draw", Op::kReplaceNextDraw},
        {"sacrifice", Op::kSacrifice},
        {"counter_unless_pay", Op::kCounterUnlessPay},
        {"turn_face_down", Op::kTurnFaceDown},
        {"attach", Op::kAttach},
        {"next_time", Op::kNextTime},
        {"change_amount", Op::kChangeAmount},
        {"redirect", Op::kRedirect},
        {"change_target", Op::kChangeTarget},
        {"prevent_combat_damage", Op::kPreventCombat},
        {"empty_pool", Op::kEmptyPool},
        {"return_to_battlefield", Op::kReturnToBattlefield},
        {"create_token", Op::kCreateToken},
        {"return_from_graveyard", Op::kReturnFromGraveyard},
        {"keep_fewest", Op::kKeepFewest}};
    EffectStep s;
    auto op = r_.RequiredString(t, "do");
    bool found = false;
    for (auto& [name, o] : kOps)
      if (op == name) s.op = o, found = true;
    if (!found)
      r_.Fail(t, "do", "an effect primitive (continuous, draw, damage, ...), got '" + op + "'");
    CheckStepKeys(t, s.op, op);
    if (auto* n = t.get("random")) s.random = r_.Bool(*n, "random");
    if (auto* n = t.get("from")) s.from = FilterOf(*n, "from");
    if (s.op == Op::kSearch) Search(t, s);
    if (s.op == Op::kReturnFromGraveyard) ReturnFromGraveyard(t, s);
    if (s.op == Op::kShuffleIn) ShuffleIn(t, s);
    if (s.op == Op::kKeepFewest) KeepFewest(t, s);
    if (auto* n = t.get("controller_of"))
      s.controller_of = IntOf(*n, "controller_of", 1, std::max(targets, 1));
    if (auto* n = t.get("if")) s.condition = FilterOf(*n, "if");
    if (auto* n = t.get("if_activated")) {
      // T-5.5: only at the top of an activated ability's effects (the times
      // that ability was activated this turn; Activated counts them).
      if (!in_activated_)
        r_.Fail(*n, "if_activated",
                "only on a next_time step of an activated ability (docs/rules.md T-5.5: the "
                "times that ability was activated this turn)");
      s.if_activated = static_cast<int8_t>(IntOf(*n, "if_activated", 1, 9));
      ++if_activated_steps_;
    }
    if (auto* n = t.get("cant_regenerate")) s.cant_regenerate = r_.Bool(*n, "cant_regenerate");
    if (auto* n = t.get("if_destroyed")) {
      // G-18: "if <it> is destroyed this way" (Cosmic Horror); true alone.
      s.if_destroyed = r_.Bool(*n, "if_destroyed");
      if (!s.if_destroyed) r_.Fail(*n, "if_destroyed", "true (or no if_destroyed)");
    }
    if (auto* n = t.get("divide")) s.divide = r_.Bool(*n, "divide");
    if (auto* n = t.get("target")) s.target = RefOf(*n, "target");
    if (auto* n = t.get("player")) s.target = RefOf(*n, "player");
    if (s.target.kind == Ref::kTarget && (s.target.index < 1 || s.target.index > targets))
      r_.Fail(t, "target", absl::StrCat("a target number between 1 and ", targets));
    s.amount.constant = 1;
    if (auto* n = t.get("count")) s.amount = ValueOf(*n, "count");
    if (auto* n = t.get("amount")) s.amount = ValueOf(*n, "amount");
    if (s.op == Op::kAddCounters)  // G-8.2 (CheckStepKeys refuses it elsewhere)
      if (auto* n = t.get("up_to_total"))
        s.up_to_total = static_cast<int16_t>(IntOf(*n, "up_to_total", 1, kMaxCardNumber));
    if (s.op == Op::kRemoveCounters)  // G-8.3 (CheckStepKeys refuses it elsewhere)
      if (auto* n = t.get("prevent")) {
        s.prevent_removed = r_.Bool(*n, "prevent");
        if (s.prevent_removed) card_->mana_cards |= CardDef::kPreventRemoved;
        if (s.prevent_removed && !in_before_damage_)
          r_.Fail(*n, "prevent",
                  "prevent only in a before trigger on damage: each counter removed prevents 1 "
                  "of the damage that trigger waits on (docs/rules.md G-8.3)");
      }
    if (auto* n = t.get("counter")) {
      auto c = r_.String(*n, "counter");
      s.counter_kind = CounterKindOf(c);
      s.counter_name = c;
    }
    if (auto* n = t.get("mana")) {
      auto m = r_.String(*n, "mana");
      if (m == "any")
        s.mana_any = true;
      else if (m == "event")  // the kind the tapped land made (Mana Flare)
        s.mana_event = true;
      else if (m == "opponent_lands")  // a color an opponent's land could make (Fellwar Stone)
        s.mana_opponent_lands = true, card_->mana_cards |= CardDef::kComputedMana;
      else if (m == "C")
        s.mana_colorless = true;
      else if (m == "chosen") {  // the color chosen as it was cast (T-10.2: Black Lotus)
        if (choose_ != ChoiceKind::kColor)
          r_.Fail(*n, "mana", "chosen only on a body with choose = \"color\"");
        s.mana_chosen = true;
      } else {
        for (char ch : m) {
          auto pos = std::string_view("WUBRG").find(ch);
          if (pos == std::string_view::npos)
            r_.Fail(*n, "mana", "W, U, B, R, G, C, any, chosen, event or opponent_lands");
          s.mana_colors |= 1u << pos;
        }
      }
    }
    if (auto* n = t.get("duration")) {
      auto d = r_.String(*n, "duration");
      if (d == "end_of_turn")
        s.duration = Duration::kEndOfTurn;
      else if (d == "permanent")
        s.duration = Duration::kPermanent;
      else if (d == "until_your_next_upkeep" && s.op == Op::kContinuous)
        s.duration = Duration::kUntilYourUpkeep;  // E-6.1
      else if (d == "through_its_controllers_next_turn" && s.op == Op::kContinuous)
        s.duration = Duration::kThroughNextTurn;  // T-7.4
      else if (d == "until_your_next_upkeep" || d == "through_its_controllers_next_turn")
        r_.Fail(*n, "duration",
                absl::StrCat(d,
                             " on a `continuous` step alone (E-6.1, T-7.4: a continuous "
                             "effect that ends as its controller's next upkeep begins, or at "
                             "the end of the affected creature's controller's next turn)"));
      else
        r_.Fail(*n, "duration",
                s.op == Op::kContinuous ? "end_of_turn, permanent, until_your_next_upkeep or "
                                          "through_its_controllers_next_turn"
                                        : "end_of_turn or permanent");
    }
    if (auto* n = t.get("affects")) s.affects = FilterOf(*n, "affects");
    if (s.op == Op::kEmptyPool) {
      if (auto* n = t.get("tap_lands")) s.tap_lands = r_.Bool(*n, "tap_lands");
      if (auto* n = t.get("for_mana")) s.for_mana = r_.Bool(*n, "for_mana");
      if (auto* n = t.get("give")) s.give = r_.Bool(*n, "give");
      if (s.for_mana && !s.tap_lands)
        r_.Fail(t, "for_mana", "tap_lands = true: the lands tapped for mana are the player's");
    }
    if (auto* n = t.get("exclude_target"))
      s.exclude_target = IntOf(*n, "exclude_target", 1, std::max(targets, 1));
    if (auto* n = t.get("relative_to")) {
      // G-17: "all artifacts target player owns" (Hurkyl's Recall): the
      // `affects` filter read from a target player's side.
      if (s.affects == kNoFilter || s.op == Op::kContinuous)
        r_.Fail(*n, "relative_to",
                "an `affects` filter to read from a target player's side, on a step that is "
                "not continuous (docs/rules.md G-17)");
      s.relative_to = IntOf(*n, "relative_to", 1, std::max(targets, 1));
      if (!((player_specs_ >> (s.relative_to - 1)) & 1u))
        r_.Fail(*n, "relative_to",
                "the number of a target spec with what = \"player\" (docs/rules.md G-17)");
    }
    if (s.op == Op::kContinuous) {
      EffectTemplate e;
      e.name = r_.OptionalString(t, "name");
      Parts(t, e);
      for (auto& p : e.parts)
        if (p.layer == PartLayer::kCopy && (p.copy_of_target < 1 || p.copy_of_target > targets))
          r_.Fail(t, "copy_of", absl::StrCat("a target number between 1 and ", targets));
      card_->continuous.push_back(std::move(e));
      s.continuous = static_cast<int>(card_->continuous.size() - 1);
      if (s.target.kind == Ref::kNone && s.affects == kNoFilter)
        r_.Fail(t, "target", "a target, self, or an affects filter for a continuous effect");
    }
    CheckStepRefs(t, s);
    if (s.op == Op::kNextTime) {
      NextTime(t, s);
      // `target = N` binds it to that target; nothing else names objects.
      for (const char* key : {"player", "affects", "if"})
        if (auto* n = t.get(key))
          r_.Fail(*n, key, "nothing: a next_time step waits on its trigger's occurrence");
      if (auto* n = t.get("target"); n && s.target.kind != Ref::kTarget)
        r_.Fail(*n, "target",
                "a target number for next_time: the target it waits on (Disintegrate)");
    }
    if (s.op == Op::kChangeAmount && !in_before_life_change_)
      r_.Fail(t, "do",
              "change_amount only in a before trigger on life_change or damage: it changes the "
              "size of the gain, loss or damage that trigger waits on (E-7)");
    if (s.op == Op::kRedirect && !in_instead_damage_)
      r_.Fail(t, "do",
              "redirect only in a trigger timed instead on damage: it deals the damage that "
              "trigger replaces to another creature or player (E-3 A)");
    if (s.op == Op::kRedirect && (s.affects != kNoFilter || s.target.kind == Ref::kTarget ||
                                  s.target.kind == Ref::kEachPlayer))
      r_.Fail(t, "target",
              "one creature or player for redirect: self, enchanted, event_object, you, "
              "opponent or event_controller");
    if (s.op == Op::kChangeTarget && !in_before_choice_)
      r_.Fail(t, "do",
              "change_target only in a before trigger on cast or block: it changes the targets "
              "a spell was given before it is cast, or the attacker a creature was chosen to "
              "block before it blocks (\"when ... would\", E-1)");
    if (s.op == Op::kChangeTarget && s.from == kNoFilter)
      r_.Fail(t, "from", "a filter: which of the spell's targets (the blocked attacker) change");
    if (s.op == Op::kChangeTarget && (s.affects != kNoFilter || s.target.kind == Ref::kTarget ||
                                      s.target.kind == Ref::kEachPlayer))
      r_.Fail(t, "target",
              "one creature or player for change_target: self, enchanted, event_object, you, "
              "opponent or event_controller");
    if (s.op == Op::kCreateToken) Token(t, s);
    if (s.op == Op::kDelayed) {
      const std::string at(r_.RequiredString(t, "at"));
      if (at == "your_next_main")
        s.delayed_at = 1;  // T-1.7: Mana Drain
      else if (at != "next_upkeep")
        r_.Fail(t, "at", "next_upkeep or your_next_main");
      auto* n = t.get("effects");
      if (!n) r_.Fail(t, "effects", "the delayed effects");
      s.delayed = Steps(*n, "effects", targets);
    }
    return s;
  }

  // G-12: `token`, the created token's definition: a table of a card's
  // keys, compiled as a card of its own (a CardDef with `token` set, no card
  // of the pool), kept in the pool's table so that objects read its printed
  // values as they read a card's. A token creature has no mana cost, is a
  // creature, and makes no choice as it enters.
  void Token(const toml::table& t, EffectStep& s) {
    auto* n = t.get("token");
    if (!n)
      r_.Fail(t, "token",
              "the token's definition: token = { name, colors, types, subtypes, power, "
              "toughness, keywords } (G-12)");
    const toml::table& tt = r_.Table(*n, "token");
    r_.CheckKeys(tt, "a token",
                 {"name", "colors", "types", "subtypes", "power", "toughness", "keywords", "static",
                  "activated", "trigger"});
    const std::vector<std::string> types = r_.OptionalStrings(tt, "types");
    if (std::find(types.begin(), types.end(), "Creature") == types.end())
      r_.Fail(tt, "types", "a token creature: types including \"Creature\" (G-12)");
    if (s.amount.kind == Value::kConst && s.amount.constant < 1)
      r_.Fail(t, "count", "at least one token (G-12)");
    CardDef token;
    CardCompiler sub(r_.file(), db_);
    sub.name_sites = name_sites;
    sub.token_of_ = card_ ? card_->name : std::string();
    sub.Compile(tt, token);
    token.token = true;
    token.Precompute();
    s.token = static_cast<CardId>(db_.cards.size());
    db_.cards.push_back(std::move(token));
    ++db_.token_defs;
  }

  // G-3: `find` (a filter on the searcher's library cards; none: any card)
  // and `to` (hand, or battlefield for lands alone: a permanent put onto
  // the battlefield other than by resolving gets none of the choices it
  // makes as it enters, and only a land makes none).
  void Search(const toml::table& t, EffectStep& s) {
    if (auto* n = t.get("find")) {
      s.from = FilterOf(*n, "find");
      Filter& f = db_.filters[s.from];
      if (r_.Table(*n, "find").contains("zones"))
        r_.Fail(*n, "find", "no zones: a search looks in the searcher's library");
      f.zones = 1u << static_cast<int>(Zone::kLibrary);
    }
    if (auto* n = t.get("to")) {
      const std::string to = r_.String(*n, "to");
      if (to == "battlefield") {
        s.to = Zone::kBattlefield;
        const bool lands = s.from != kNoFilter && db_.filters[s.from].types == (1u << kLand);
        if (!lands)
          r_.Fail(*n, "to",
                  "hand, or battlefield with find = { types = [\"Land\"], ... }: only a land is "
                  "put onto the battlefield by a search (a permanent that enters other than by "
                  "resolving makes none of its entry choices)");
      } else if (to != "hand") {
        r_.Fail(*n, "to", "hand or battlefield");
      }
    }
  }

  // G-9: `find` (a filter on the player's graveyard cards; none: any
  // card): the cards chosen go to the hand.
  void ReturnFromGraveyard(const toml::table& t, EffectStep& s) {
    if (auto* n = t.get("find")) {
      s.from = FilterOf(*n, "find");
      if (r_.Table(*n, "find").contains("zones"))
        r_.Fail(*n, "find", "no zones: the cards are chosen from the player's graveyard");
      db_.filters[s.from].zones = 1u << static_cast<int>(Zone::kGraveyard);
    }
  }

  // G-4: `zones` (hand and/or graveyard, required) and `draw` (a number,
  // or "as_many": the cards that player put in; default 0).
  void ShuffleIn(const toml::table& t, EffectStep& s) {
    const toml::node* z = t.get("zones");
    if (!z) r_.Fail(t, "zones", "the zones shuffled in: [\"hand\"], [\"graveyard\"] or both");
    for (const std::string& name : r_.Strings(*z, "zones")) {
      if (name == "hand")
        s.zones |= 1u << static_cast<int>(Zone::kHand);
      else if (name == "graveyard")
        s.zones |= 1u << static_cast<int>(Zone::kGraveyard);
      else
        r_.Fail(*z, "zones", "hand and/or graveyard, got '" + name + "'");
    }
    if (!s.zones) r_.Fail(*z, "zones", "hand and/or graveyard");
    if (auto* n = t.get("draw")) {
      if (auto text = n->value_exact<std::string>()) {
        if (*text != "as_many") r_.Fail(*n, "draw", "a number of cards, or as_many");
        s.draw = EffectStep::kDrawAsMany;
      } else {
        s.draw = IntOf(*n, "draw", 0, kMaxCardNumber);
      }
    }
  }

  // G-19 (Balance): `find`, a filter on permanents, each player's own
  // counted (no `controller`, no `zones`), or `zones = ["hand"]`: cards in
  // hand; one of the two. Always each player: no target, player or affects.
  void KeepFewest(const toml::table& t, EffectStep& s) {
    for (const char* key : {"target", "player", "affects", "if", "relative_to"})
      if (auto* n = t.get(key))
        r_.Fail(*n, key, "nothing: keep_fewest acts on each player, each keeping their own");
    const toml::node* find = t.get("find");
    const toml::node* zones = t.get("zones");
    if (!find == !zones)
      r_.Fail(t, "find",
              "one of find (a filter on permanents, each player's own counted) or zones = "
              "[\"hand\"] (cards in hand)");
    if (zones) {
      const std::vector<std::string> names = r_.Strings(*zones, "zones");
      if (names != std::vector<std::string>{"hand"})
        r_.Fail(*zones, "zones", "[\"hand\"]: the cards in each player's hand");
      return;
    }
    const toml::table& spec = r_.Table(*find, "find");
    if (spec.contains("zones"))
      r_.Fail(*find, "find", "no zones: the permanents each player controls are counted");
    if (spec.contains("controller"))
      r_.Fail(*find, "find", "no controller: each player counts the permanents they control");
    s.from = FilterOf(*find, "find");
  }

  AbilityBody Body(const toml::table& t, std::string_view what,
                   const std::vector<std::string_view>& extra) {
    std::vector<std::string_view> allowed = {"targets", "choose", "effects", "name", "modes"};
    allowed.insert(allowed.end(), extra.begin(), extra.end());
    r_.CheckKeys(t, what, allowed);
    AbilityBody b;
    if (auto* n = t.get("modes")) {
      // A modal body: each mode has its own targets, choice and effects.
      auto* a = n->as_array();
      if (!a || a->empty()) r_.Fail(*n, "modes", "a non-empty list of mode tables");
      if (t.get("effects") || t.get("targets"))
        r_.Fail(*n, "modes", "either modes or targets and effects, not both");
      for (auto& m : *a) b.modes.push_back(Body(r_.Table(m, "modes"), "a mode", {}));
      for (auto& m : b.modes) b.prevention |= m.prevention;
      return b;
    }
    if (auto* n = t.get("targets")) {
      auto* a = n->as_array();
      if (!a) r_.Fail(*n, "targets", "a list of target filters");
      for (auto& e : *a) {
        TargetSpec ts;
        ts.filter = FilterOf(e, "targets");
        ts.what = db_.filters[ts.filter].what;
        const toml::table& et = r_.Table(e, "targets");
        {
          // G-9: a target is a permanent, a spell, a player, or a card in
          // a graveyard (`zones = ["graveyard"]`: what = "card").
          Filter& f = db_.filters[ts.filter];
          const uint8_t graveyard = 1u << static_cast<int>(Zone::kGraveyard);
          const uint8_t permanents_and_spells =
              1u << static_cast<int>(Zone::kBattlefield) | 1u << static_cast<int>(Zone::kStack);
          if (f.zones == graveyard &&
              (ts.what == TargetWhat::kPermanent || ts.what == TargetWhat::kCard) &&
              !(et.contains("what") && ts.what != TargetWhat::kCard)) {
            f.what = ts.what = TargetWhat::kCard;
          } else if (ts.what == TargetWhat::kCard || (f.zones & ~permanents_and_spells)) {
            r_.Fail(e, "targets",
                    "zones = [\"graveyard\"] alone for a card target (what = \"card\"): a "
                    "target is a permanent, a spell, a player or a card in a graveyard (G-9)");
          }
        }
        if (auto* m = et.get("max")) {
          if (m->is_string()) {
            // T-8.5: "X target creatures": exactly X, chosen as it is cast.
            if (r_.String(*m, "max") != "x")
              r_.Fail(*m, "max", "an integer from 1 to 4, or \"x\" (exactly X targets)");
            if (et.contains("extra_target_cost"))
              r_.Fail(*m, "max", "max = \"x\" with no extra_target_cost: X pays for them");
            ts.x = true;
            ts.min = 0;
            ts.max = 20;                            // X's bound (Game::MaxPayableX)
            if (!x_at_) x_at_ = m, x_key_ = "max";  // refused without an X in the cost
          } else {
            ts.max = IntOf(*m, "max", 1, 4);
          }
        }
        // T-8.2: "two target artifacts": exactly that many, distinct.
        if (auto* m = et.get("count")) {
          if (et.contains("max") || et.contains("extra_target_cost"))
            r_.Fail(*m, "count", "count or max (up to), not both: count is exactly that many");
          if (ts.what != TargetWhat::kPermanent && ts.what != TargetWhat::kCard &&
              ts.what != TargetWhat::kSpell)
            r_.Fail(*m, "count", "objects alone: exactly N targets are N distinct objects");
          ts.min = ts.max = IntOf(*m, "count", 2, 4);
        }
        if (auto* c = et.get("extra_target_cost")) {
          auto cost = ParseManaCost(r_.String(*c, "extra_target_cost"));
          if (!cost.ok()) r_.Fail(*c, "extra_target_cost", std::string(cost.status().message()));
          ts.extra_target_cost = *cost;
        }
        b.targets.push_back(ts);
      }
      // A spell or ability holds 4 targets in all (StackItem::targets); T-8.5's
      // exactly X targets are its only spec, the rest in more_targets.
      int total = 0;
      for (const TargetSpec& ts : b.targets) total += ts.max;
      if (b.targets.size() > 1 && std::any_of(b.targets.begin(), b.targets.end(),
                                              [](const TargetSpec& ts) { return ts.x; }))
        r_.Fail(*n, "targets", "max = \"x\" (exactly X targets) on the body's only target spec");
      if (total > 4 && !b.targets[0].x)
        r_.Fail(*n, "targets",
                absl::StrCat("at most 4 targets in all, each counting its `max`; got ", total));
    }
    if (auto* n = t.get("choose")) b.choose = Choice(*n, "choose");
    const ChoiceKind outer_choose = choose_;
    choose_ = b.choose;
    const char* effects_key = t.contains("penalty") ? "penalty" : "effects";
    auto* e = t.get(effects_key);
    if (!e) r_.Fail(t, effects_key, "a list of effects");
    const uint32_t outer_player_specs = player_specs_;
    player_specs_ = 0;
    for (size_t i = 0; i < b.targets.size(); ++i)
      if (b.targets[i].what == TargetWhat::kPlayer) player_specs_ |= 1u << i;
    b.steps = Steps(*e, effects_key, static_cast<int>(b.targets.size()));
    player_specs_ = outer_player_specs;
    choose_ = outer_choose;
    // What the body does decides when it may be played: regeneration is a
    // reaction to a creature headed to the graveyard, a draw replacement a
    // reaction to a draw, and prevention may be played in prevention steps.
    for (auto& st : b.steps) {
      if (st.op == Op::kRegenerate) b.reaction = Reaction::kDestroy;
      if (st.op == Op::kReplaceNextDraw) b.reaction = Reaction::kDraw;
      if (st.op == Op::kPrevent || st.op == Op::kPreventCombat) b.prevention = true;
      // "The next time (a source of your choice) would deal damage ...
      // instead" is damage prevention too: played in prevention steps (T-4.1).
      if (st.op == Op::kNextTime && st.next_time >= 0 &&
          card_->next_times[st.next_time].chosen_source &&
          card_->next_times[st.next_time].timing == Timing::kInstead &&
          card_->next_times[st.next_time].event == EventKind::kDamage)
        b.prevention = true;
    }
    return b;
  }

  PhaseAbility PhaseOf(const toml::table& t, bool granted) {
    PhaseAbility ph;
    // T-13.3: a sacrifice in place of the mana is a phase cost too.
    const bool cost = t.contains("cost") || t.contains("sacrifice");
    ph.is_cost = cost;
    if (granted && !cost) r_.Fail(t, "cost", "the phase cost that is granted");
    // T-13.1: a phase cost with `effects` in place of `penalty` is paid for
    // what it does ("you may pay {4} during your upkeep to untap it").
    ph.reward = cost && t.contains("effects") && !t.contains("penalty");
    if (cost && t.contains("effects") && t.contains("penalty"))
      r_.Fail(*t.get("effects"), "effects",
              "either penalty (the effects of not paying) or effects (of paying), not both");
    if (cost && !ph.reward && !t.contains("penalty"))
      r_.Fail(t, "penalty", "the effects of not paying (penalty), or of paying (effects, T-13.1)");
    if (!cost && t.contains("penalty"))
      r_.Fail(*t.get("penalty"), "penalty", "a penalty only with cost (a phase cost, T-13)");
    if (granted && ph.reward)
      r_.Fail(*t.get("effects"), "effects",
              "a granted phase cost takes a penalty: granted ones combine into one payment");
    if (ph.reward && t.contains("optional"))
      r_.Fail(*t.get("optional"), "optional",
              "no optional on a phase cost: paying is already a choice (T-13.1)");
    ph.body = Body(t, cost ? "a phase cost" : "a phase effect",
                   {"phase", "whose", "cost", "penalty", "optional", "or_life", "sacrifice"});
    // T-13.3: "sacrifice a creature other than it; if you can't, ..." (Lord
    // of the Pit): a sacrifice in place of the mana, with a penalty, on a
    // phase cost of the card's own, mandatory while a permanent fits.
    if (auto* n = t.get("sacrifice")) {
      if (granted || t.contains("cost") || ph.reward || t.contains("or_life") ||
          t.contains("optional"))
        r_.Fail(*n, "sacrifice",
                "a sacrifice in place of a phase cost's mana, with a penalty, on a card's own "
                "phase cost: no cost, effects, or_life or optional with it (T-13.3)");
      ph.sacrifice = FilterOf(*n, "sacrifice");
    }
    // T-13.2: life paid in place of the mana ("pays {1} or 1 life"), on a
    // phase cost with a penalty of the card's own (granted costs combine
    // into one payment of mana; a paid reward is T-13.1's alone).
    if (auto* n = t.get("or_life")) {
      if (!cost || ph.reward || granted)
        r_.Fail(*n, "or_life",
                "life in place of the mana only on a phase cost of the card's own with a penalty "
                "(T-13.2)");
      ph.or_life = static_cast<int16_t>(IntOf(*n, "or_life", 1, kMaxCardNumber));
    }
    if (auto* n = t.get("optional")) ph.optional = r_.Bool(*n, "optional");
    if (cost && t.contains("cost")) {
      auto c = ParseManaCost(r_.String(*t.get("cost"), "cost"));
      if (!c.ok()) r_.Fail(*t.get("cost"), "cost", std::string(c.status().message()));
      ph.cost = *c;
    }
    ph.name = r_.OptionalString(t, "name");
    auto phase = r_.RequiredString(t, "phase");
    static const std::string_view kPhases[] = {"untap", "upkeep",  "draw",
                                               "main",  "discard", "cleanup"};
    ph.phase = -1;
    for (int i = 0; i < 6; ++i)
      if (phase == kPhases[i]) ph.phase = i;
    if (ph.phase < 0) r_.Fail(t, "phase", "untap, upkeep, draw, main, discard or cleanup");
    if (auto* w = t.get("whose")) {
      auto s = r_.String(*w, "whose");
      if (s == "you")
        ph.whose = 0;
      else if (s == "enchanted_controller")
        ph.whose = 1;
      else if (s == "each")
        ph.whose = 2;
      else
        r_.Fail(*w, "whose", "you, enchanted_controller or each");
      // T-12.1: each player's phase effect is that player's to play; a
      // cost each player would pay for someone else's permanent is none of
      // the pool's.
      if (ph.whose == 2 && (cost || granted))
        r_.Fail(*w, "whose",
                "each only on a phase effect (no cost), played by each player in their phase");
    }
    return ph;
  }

  ChoiceKind Choice(const toml::node& n, std::string_view key) {
    auto s = r_.String(n, key);
    static const std::pair<std::string_view, ChoiceKind> kChoices[] = {
        {"color", ChoiceKind::kColor},
        {"creature_type", ChoiceKind::kCreatureType},
        {"basic_land_type", ChoiceKind::kBasicLandType},
        {"word_pair", ChoiceKind::kWordPair},
        {"creature_type_pair", ChoiceKind::kCreatureTypePair},
        {"copy", ChoiceKind::kCopy},
        {"mode", ChoiceKind::kMode},
        {"exile", ChoiceKind::kExile},
        {"color_pair", ChoiceKind::kColorPair},
        {"land_type_pair", ChoiceKind::kLandTypePair},
        {"source", ChoiceKind::kSource}};
    for (auto& [name, c] : kChoices)
      if (s == name) return c;
    r_.Fail(n, key,
            "color, creature_type, basic_land_type, word_pair, color_pair, land_type_pair, "
            "creature_type_pair, copy, mode, exile or source, got '" +
                s + "'");
  }

  // T-5.2: a spell cast only during a player's turn (`turn = "opponents"`
  // or "yours") and only after a phase of it (`after_phase`): an instant's
  // or an interrupt's (a sorcery is cast in its controller's main phase
  // alone, T-5), after a phase some phase with fast effects follows.
  void SpellTime(const toml::table& t, CardDef& card) {
    const toml::node* turn = t.get("turn");
    const toml::node* after = t.get("after_phase");
    const toml::node* before = t.get("before_attackers");
    if ((turn || after || before) && Has(card.types, kSorcery))
      r_.Fail(turn    ? *turn
              : after ? *after
                      : *before,
              turn    ? "turn"
              : after ? "after_phase"
                      : "before_attackers",
              "nothing on a sorcery: it is cast in its controller's main phase alone (T-5)");
    // T-5.7: "cast this spell only ... before attackers are declared".
    if (before) {
      if (!r_.Bool(*before, "before_attackers"))
        r_.Fail(*before, "before_attackers",
                "true (before attackers are declared), or leave it out");
      if (after)
        r_.Fail(*after, "after_phase",
                "not with before_attackers: write the one limit the card says (T-5.7)");
      card.spell_before_attackers = true;
    }
    if (turn) {
      const std::string w = r_.String(*turn, "turn");
      if (w != "opponents" && w != "yours")
        r_.Fail(*turn, "turn", "opponents or yours (cast only during an opponent's turn, yours)");
      card.spell_turn = w == "opponents" ? 1 : 0;
    }
    if (after) {
      auto phase = ParsePhase(r_.String(*after, "after_phase"));
      if (!phase || *phase == Phase::kDiscard || *phase == Phase::kCleanup)
        r_.Fail(*after, "after_phase",
                "untap, upkeep, draw or main: a phase with fast effects after it (T-1)");
      card.spell_after_phase = static_cast<int8_t>(*phase);
    }
  }

  ActivatedAbility Activated(const toml::table& t) {
    ActivatedAbility a;
    struct Leaving {  // a refusal thrown from the body leaves it too
      bool& in;
      ~Leaving() { in = false; }
    } leaving{in_activated_};
    in_activated_ = true;
    if_activated_steps_ = 0;
    a.body = Body(t, "an activated ability",
                  {"cost", "tap", "discard", "discard_random", "sacrifice_self", "exile_self",
                   "sacrifice", "life", "sorcery", "turn", "phase", "remove_counters", "hand",
                   "per_turn", "since_turn_began", "any_player", "before_attackers"});
    in_activated_ = false;
    // T-5.5: an `if_activated` nested deeper (a mode, a trigger's effects)
    // would read another body's count.
    const int top =
        static_cast<int>(std::count_if(a.body.steps.begin(), a.body.steps.end(),
                                       [](const EffectStep& s) { return s.if_activated > 0; }));
    if (top != if_activated_steps_)
      r_.Fail(t, "if_activated",
              "only on a next_time step of the ability's own effects, not in a mode or a "
              "trigger's effects (docs/rules.md T-5.5)");
    a.counted = top > 0;
    if (auto* n = t.get("sorcery")) a.sorcery = r_.Bool(*n, "sorcery");
    if (auto* n = t.get("turn")) {
      const std::string w = r_.String(*n, "turn");
      if (w != "yours" && w != "opponents")
        r_.Fail(*n, "turn", "yours or opponents (only during your turn, an opponent's: T-5.7)");
      a.only_your_turn = w == "yours";
      a.only_opponents_turn = w == "opponents";
    }
    if (auto* n = t.get("phase")) {
      auto phase = ParsePhase(r_.String(*n, "phase"));
      if (!phase) r_.Fail(*n, "phase", "untap, upkeep, draw, main, discard or cleanup");
      if (*phase == Phase::kUntap || *phase == Phase::kCleanup)
        r_.Fail(*n, "phase", "a phase with fast effects: upkeep, draw, main or discard (T-1)");
      a.only_phase = static_cast<int8_t>(*phase);
    }
    // "Activate only if you have exactly N cards in hand" (T-5.1).
    if (auto* n = t.get("hand")) a.only_hand_size = static_cast<int8_t>(IntOf(*n, "hand", 0, 100));
    // "Activate no more than N times each turn" (T-5.3), "only if you've
    // controlled it continuously since your most recent turn began" (T-5.4).
    if (auto* n = t.get("per_turn")) a.per_turn = static_cast<uint8_t>(IntOf(*n, "per_turn", 1, 9));
    if (auto* n = t.get("since_turn_began")) a.since_turn_began = r_.Bool(*n, "since_turn_began");
    // T-5.7: "activate only ... before attackers are declared" (Nettling Imp).
    if (auto* n = t.get("before_attackers")) {
      if (!r_.Bool(*n, "before_attackers"))
        r_.Fail(*n, "before_attackers", "true (before attackers are declared), or leave it out");
      a.before_attackers = true;
      if (auto* p = t.get("phase"); p && a.only_phase > static_cast<int8_t>(Phase::kMain))
        r_.Fail(*p, "phase",
                "upkeep, draw or main with before_attackers: attackers are declared in the main "
                "phase (T-6), so a later phase is never before them (T-5.7)");
    }
    // G-8.4: "any player may activate this ability" (Armageddon Clock).
    if (auto* n = t.get("any_player")) {
      a.any_player = r_.Bool(*n, "any_player");
      if (a.any_player) card_->mana_cards |= CardDef::kAnyPlayer;
    }
    a.counted = a.counted || a.per_turn > 0;
    a.name = r_.OptionalString(t, "name");
    if (auto* n = t.get("cost")) {
      auto cost = ParseManaCost(r_.String(*n, "cost"));
      if (!cost.ok()) r_.Fail(*n, "cost", std::string(cost.status().message()));
      a.cost = *cost;
    }
    if (auto* n = t.get("tap")) a.tap = r_.Bool(*n, "tap");
    if (auto* n = t.get("discard")) a.discard = IntOf(*n, "discard", 0, kMaxCardNumber);
    if (auto* n = t.get("sacrifice_self")) a.sacrifice_self = r_.Bool(*n, "sacrifice_self");
    if (auto* n = t.get("exile_self")) {
      // T-8.1: "Exile <this>" (Feldon's Cane); it can't also be sacrificed.
      a.exile_self = r_.Bool(*n, "exile_self");
      if (a.exile_self && a.sacrifice_self)
        r_.Fail(*n, "exile_self", "not both: the source is exiled or sacrificed, not both");
    }
    if (auto* n = t.get("sacrifice")) a.sacrifice = FilterOf(*n, "sacrifice");
    if (auto* n = t.get("discard_random")) {
      a.discard_random = r_.Bool(*n, "discard_random");
      if (a.discard_random && a.discard == 0)
        r_.Fail(*n, "discard_random", "a `discard` count for the cards discarded at random");
    }
    if (auto* n = t.get("life")) a.life = IntOf(*n, "life", 0, kMaxCardNumber);
    if (auto* n = t.get("remove_counters")) {
      // "Remove N <kind> counters from it" (docs/rules.md G-8).
      const toml::table* rc = &r_.Table(*n, "remove_counters");
      r_.CheckKeys(*rc, "remove_counters", {"counter", "count"});
      const toml::node* kind = rc->get("counter");
      if (!kind) r_.Fail(*n, "remove_counters", "a `counter` kind (p1p1, m1m1, or any name)");
      const std::string c = r_.String(*kind, "counter");
      a.remove_counter_kind = static_cast<int8_t>(CounterKindOf(c));
      a.remove_counter_name = c;
      a.remove_counters = 1;
      if (const toml::node* count = rc->get("count")) {
        if (count->is_string()) {
          if (r_.String(*count, "count") != "x")
            r_.Fail(*count, "count", "a number, or \"x\" (any number, chosen as X)");
          if (a.cost.x_count > 0)
            r_.Fail(*count, "count", "\"x\" with no {X} in the mana cost (one X a cost)");
          a.remove_counters_x = true;
          a.remove_counters = 0;
        } else {
          a.remove_counters = IntOf(*count, "count", 1, kMaxCardNumber);
        }
      }
    }
    // An ability that adds mana and removes counters is not paid
    // automatically: X is chosen as it is activated, so it is offered and
    // played as an instant (docs/rules.md G-8; the Mana Batteries).
    a.mana_ability = a.remove_counter_kind < 0 && a.body.targets.empty() && !a.body.steps.empty() &&
                     std::all_of(a.body.steps.begin(), a.body.steps.end(),
                                 [](const EffectStep& s) { return s.op == Op::kAddMana; });
    // T-10.2: any other mana ability is offered as an action; its color, if
    // any of several, is chosen as it is activated.
    a.manual_mana = a.mana_ability && !AutomaticManaAbility(a);
    // G-8.4: played as an instant alone (the other player's are listed in
    // batch windows): no interrupt, reaction or prevention body.
    if (a.any_player && (a.body.prevention || a.body.reaction != Reaction::kNone ||
                         a.body.TargetsSpell() || !a.body.modes.empty()))
      r_.Fail(t, "any_player",
              "a body played as an instant alone: no modes, no spell target, no prevention, "
              "regeneration or replaced draw (docs/rules.md G-8.4)");
    if (a.any_player &&
        (a.mana_ability || a.tap || a.sacrifice_self || a.exile_self || a.discard > 0 ||
         a.life > 0 || a.sacrifice != kNoFilter || a.remove_counter_kind >= 0 || a.only_your_turn ||
         a.since_turn_began || a.only_opponents_turn || a.before_attackers))
      r_.Fail(t, "any_player",
              "a mana cost alone, on no mana ability and with no turn or since_turn_began limit "
              "(docs/rules.md G-8.4: the other player pays it; no cost of the permanent's or a "
              "hand's is written for them yet)");
    a.limited = a.per_turn > 0 || a.since_turn_began || a.before_attackers || a.only_opponents_turn;
    if (a.limited && a.mana_ability)
      r_.Fail(t,
              a.per_turn > 0       ? "per_turn"
              : a.since_turn_began ? "since_turn_began"
              : a.before_attackers ? "before_attackers"
                                   : "turn",
              "no such limit on a mana ability (docs/rules.md T-10, T-10.2: the payment taps it, "
              "or it is offered apart from these limits)");
    if (a.manual_mana) {
      card_->mana_cards |= CardDef::kManualMana;
      for (const EffectStep& st : a.body.steps)
        if (st.mana_any || st.mana_event || st.mana_opponent_lands)
          r_.Fail(t, "mana",
                  "one kind of mana on a mana ability offered as an action (a cost beyond {T}, "
                  "docs/rules.md T-10.2): a color, C, or chosen (with choose = \"color\")");
    }
    return a;
  }

  TriggeredAbility Trigger(const toml::table& t,
                           std::initializer_list<std::string_view> extra = {}) {
    TriggeredAbility tr;
    tr.name = r_.OptionalString(t, "name");
    auto timing = r_.RequiredString(t, "timing");
    if (timing == "before")
      tr.timing = Timing::kBefore;
    else if (timing == "when")
      tr.timing = Timing::kWhen;
    else if (timing == "after")
      tr.timing = Timing::kAfter;
    else if (timing == "instead")
      tr.timing = Timing::kInstead;
    else
      r_.Fail(t, "timing", "before, when, after or instead");
    auto* on = t.get("on");
    if (!on) r_.Fail(t, "on", "the occurrence that triggers it");
    On(r_.Table(*on, "on"), tr);
    if (tr.timing == Timing::kBefore && tr.event == EventKind::kResolve)
      r_.Fail(t, "timing",
              "when or after with event resolve: whether an effect resolves (not countered, "
              "not fizzled) is known only as it does (E-2)");
    if (tr.timing == Timing::kBefore && tr.event == EventKind::kPlay)
      r_.Fail(t, "timing",
              "when or after with event play: a card being played is not held for responses "
              "before it (a before trigger on cast resolves before a spell is cast)");
    if (tr.event == EventKind::kState && tr.timing != Timing::kWhen)
      r_.Fail(t, "timing",
              "when with event state: a state trigger triggers when its condition holds "
              "(docs/rules.md G-16)");
    if (tr.event == EventKind::kState && t.contains("optional_cost"))
      r_.Fail(*t.get("optional_cost"), "optional_cost",
              "nothing with event state: a state trigger is not optional (docs/rules.md G-16)");
    if (tr.timing == Timing::kBefore && tr.event == EventKind::kEndOfCombat)
      r_.Fail(t, "timing",
              "when or after with event end_of_combat: \"at end of combat\" is a time point "
              "after the combat damage, with nothing held before it (T-7.2)");
    if (tr.timing == Timing::kInstead) Replacement(t, tr);
    // A draw is a move from the library to the hand: "when" and "after" a
    // zone change see it (recorded as both), but it is held for its "before"
    // responses and replacements as a draw, whose card is not known until
    // it is drawn. Such a trigger would never fire before a draw.
    if ((tr.timing == Timing::kBefore || tr.timing == Timing::kInstead) &&
        tr.event == EventKind::kZoneChange &&
        (tr.from == Zone::kNone || tr.from == Zone::kLibrary) &&
        (tr.to == Zone::kNone || tr.to == Zone::kHand))
      r_.Fail(*on, "on",
              absl::StrCat("a zone change that is never a draw for timing ", timing,
                           " (from a zone other than library, or to one other than hand): a draw "
                           "is held as event draw, its card unknown until drawn"));
    std::vector<std::string_view> keys = {"timing", "on", "optional_cost"};
    keys.insert(keys.end(), extra.begin(), extra.end());
    // Only a before trigger of a life change or damage may change its size (E-7),
    // and only a replacement of damage redirect it.
    const bool outer = in_before_life_change_, outer_redirect = in_instead_damage_,
               outer_choice = in_before_choice_;
    in_before_choice_ = tr.timing == Timing::kBefore &&
                        (tr.event == EventKind::kCast || tr.event == EventKind::kBlock);
    in_before_life_change_ = tr.timing == Timing::kBefore &&
                             (tr.event == EventKind::kLifeChange || tr.event == EventKind::kDamage);
    const bool outer_damage = in_before_damage_;
    in_before_damage_ = tr.timing == Timing::kBefore && tr.event == EventKind::kDamage;
    in_instead_damage_ = tr.timing == Timing::kInstead && tr.event == EventKind::kDamage;
    tr.body = Body(t, "a triggered ability", keys);
    in_before_damage_ = outer_damage;
    in_before_life_change_ = outer;
    in_instead_damage_ = outer_redirect;
    in_before_choice_ = outer_choice;
    if (auto* n = t.get("optional_cost")) {
      auto cost = ParseManaCost(r_.String(*n, "optional_cost"));
      if (!cost.ok()) r_.Fail(*n, "optional_cost", std::string(cost.status().message()));
      tr.has_optional_cost = true;
      tr.optional_cost = *cost;
    }
    // A trigger on a tap for mana that only adds mana, with no target, is a
    // triggered mana ability (docs/rules.md T-10.1): its mana is made as the
    // land is tapped, with the land's own (Mana Flare, Wild Growth).
    tr.mana_trigger =
        tr.for_mana && tr.timing != Timing::kInstead && !tr.has_optional_cost &&
        tr.body.targets.empty() && tr.body.modes.empty() && !tr.body.steps.empty() &&
        std::all_of(tr.body.steps.begin(), tr.body.steps.end(), [](const EffectStep& s) {
          return s.op == Op::kAddMana && s.amount.kind == Value::kConst && !s.mana_opponent_lands &&
                 s.target.kind != Ref::kTarget;
        });
    return tr;
  }

  // A replacement ("instead", E-3 A): of a damage, a life change, a draw,
  // a move, a tap or an untap (the occurrences strata holds for step A); never optional (it
  // applies or not as the occurrence comes, chosen by nobody), and it chooses no
  // targets: it acts on the occurrence (event_object, event_controller,
  // event_amount) or on fixed objects and players.
  void Replacement(const toml::table& t, const TriggeredAbility& tr) {
    if (tr.event != EventKind::kDamage && tr.event != EventKind::kLifeChange &&
        tr.event != EventKind::kDraw && tr.event != EventKind::kZoneChange &&
        tr.event != EventKind::kTap && tr.event != EventKind::kUntap &&
        tr.event != EventKind::kPhaseBegin && tr.event != EventKind::kAttack &&
        tr.event != EventKind::kBlock && tr.event != EventKind::kCast)
      r_.Fail(*t.get("on"), "on",
              "event damage, life_change, draw, zone_change, tap, untap, phase_begin (the phase "
              "is skipped), attack or block (the creature is not declared) or cast (the spell is "
              "not cast) for timing instead: the occurrences held for their replacements; a play "
              "is a cast or a land's move from the hand, each replaced as such (docs/rules.md "
              "E-3)");
    for (const char* key : {"optional_cost", "targets", "modes", "choose"})
      if (auto* n = t.get(key))
        r_.Fail(*n, key,
                "nothing: a replacement is not optional and chooses no targets; it acts on the "
                "occurrence (event_object, event_controller, event_amount)");
  }

  // The occurrence a trigger waits on: `on`'s event, its own keys and a
  // filter on its object.
  void On(const toml::table& o, TriggeredAbility& tr) {
    auto event = r_.RequiredString(o, "event");
    static const std::pair<std::string_view, EventKind> kEvents[] = {
        {"zone_change", EventKind::kZoneChange},
        {"draw", EventKind::kDraw},
        {"cast", EventKind::kCast},
        {"phase_begin", EventKind::kPhaseBegin},
        {"damage", EventKind::kDamage},
        {"play", EventKind::kPlay},
        {"phase_end", EventKind::kPhaseEnd},
        {"life_change", EventKind::kLifeChange},
        {"attack", EventKind::kAttack},
        {"block", EventKind::kBlock},
        {"tap", EventKind::kTap},
        {"untap", EventKind::kUntap},
        {"resolve", EventKind::kResolve},
        {"effects_resolved", EventKind::kEffectsResolved},
        {"attackers_declared", EventKind::kAttackersDeclared},
        {"blockers_declared", EventKind::kBlockersDeclared},
        {"end_of_combat", EventKind::kEndOfCombat},
        {"state", EventKind::kState}};
    bool found = false;
    for (auto& [name, e] : kEvents)
      if (event == name) tr.event = e, found = true;
    if (!found)
      r_.Fail(o, "event",
              "zone_change, draw, cast, phase_begin, phase_end, damage, play, "
              "life_change, attack, block, tap, untap, resolve, effects_resolved, "
              "attackers_declared, blockers_declared, end_of_combat or state");
    // G-16: a state trigger waits on no occurrence: its condition, one of
    // unless_any ("when you control no Islands") and if_any, is all it has.
    if (tr.event == EventKind::kState) {
      for (auto& [kk, v] : o) {
        std::string k(kk.str());
        if (k == "event") continue;
        if (k != "unless_any" && k != "if_any")
          r_.Fail(v, k,
                  "no other key with event state than unless_any or if_any: its condition "
                  "(docs/rules.md G-16)");
        if (tr.unless_any != kNoFilter) r_.Fail(v, k, "one of unless_any and if_any, not both");
        NoCombatKeys(v, k, "a state trigger's condition (read in the state check, not the attack)");
        tr.unless_any = FilterOf(v, k);
        tr.if_any = k == "if_any";
      }
      if (tr.unless_any == kNoFilter)
        r_.Fail(o, "event",
                "unless_any or if_any with event state: the condition that triggers it "
                "(\"when you control no Islands\": unless_any = { subtypes = [\"Island\"], "
                "controller = \"you\" })");
      return;
    }
    // The remaining keys of `on` are the event's own and a filter on its object.
    // Each is refused with an event whose occurrences never carry what it
    // reads: accepted and ignored, it would fire on every occurrence of the
    // kind, or on none (issue 36: a phase on phase_end was read nowhere).
    const EventKind kind = tr.event;
    const bool is_damage = kind == EventKind::kDamage, is_move = kind == EventKind::kZoneChange;
    const bool is_phase = kind == EventKind::kPhaseBegin || kind == EventKind::kPhaseEnd;
    // E-2's time points: nothing happens to an object there.
    const bool time_point = kind == EventKind::kEffectsResolved ||
                            kind == EventKind::kAttackersDeclared ||
                            kind == EventKind::kBlockersDeclared || kind == EventKind::kEndOfCombat;
    const bool has_object = !is_phase && !time_point && kind != EventKind::kLifeChange;
    auto only = [&](const toml::node& v, const std::string& k, bool ok, std::string_view events) {
      if (!ok)
        r_.Fail(v, k, absl::StrCat("no ", k, " with event ", event, ": it applies to ", S(events)));
    };
    toml::table filter;
    for (auto& [kk, v] : o) {
      std::string k(kk.str());
      if (k == "event") continue;
      if (k == "from" || k == "to") {
        only(v, k, is_move, "zone_change");
        auto z = ParseZone(r_.String(v, k));
        if (!z) r_.Fail(v, k, "a zone");
        // Nothing is moved to the stack but a spell cast, whose occurrence
        // is the cast: accepted, such a trigger would never fire.
        if (k == "to" && *z == Zone::kStack)
          r_.Fail(v, k, "a zone other than stack: a spell put on the stack is cast (event cast)");
        (k == "from" ? tr.from : tr.to) = *z;
      } else if (k == "player") {
        // A batch's resolution is no player's (either may have added to it).
        only(v, k, kind != EventKind::kEffectsResolved,
             "every event but effects_resolved (a batch is no one player's)");
        tr.player = Relation(v, k);
      } else if (k == "source") {
        only(v, k, is_damage, "damage");
        // "self"; "chosen" (a next-time trigger: the source chosen as its
        // body was cast); or a filter on the source (T-4.1).
        if (v.as_table()) {
          NoCombatKeys(v, k, "a damage source's filter (read as it is, not in the attack)");
          tr.source_filter = FilterOf(v, k);
        } else {
          const std::string src = r_.String(v, k);
          if (src == "chosen" && in_next_time_)
            tr.chosen_source = true;
          else if (src == "self")
            tr.self_source = true;
          else
            r_.Fail(v, k,
                    "self, a filter on the source, or chosen (in a next_time trigger, with "
                    "choose = \"source\" on its body)");
        }
      } else if (k == "combat") {
        only(v, k, is_damage, "damage");
        tr.combat = r_.Bool(v, k);
      } else if (k == "damaged_by_self") {
        only(v, k, is_move, "zone_change");
        tr.damaged_by_self = r_.Bool(v, k);
        tr.rare_checks = tr.rare_checks || tr.damaged_by_self;
      } else if (k == "if_dealt_damage") {
        // T-4.2: "if <this> dealt damage to an opponent this turn"
        // (Whirling Dervish), read as it would trigger.
        if (r_.String(v, k) != "opponent")
          r_.Fail(v, k, "opponent (if its source dealt damage to an opponent this turn)");
        tr.if_dealt_damage_to_opponent = true;
        tr.rare_checks = true;
        card_->mana_cards |= CardDef::kDealtToPlayer;
        card_->tallies_damage = true;
      } else if (k == "unless_any" || k == "if_any") {
        // G-8.2: an intervening "if" on objects ("if Clockwork Beast attacked
        // or blocked this combat": `if_any = { self = true, combat = [...] }`).
        if (tr.unless_any != kNoFilter) r_.Fail(v, k, "one of unless_any and if_any, not both");
        tr.unless_any = FilterOf(v, k);
        tr.if_any = k == "if_any";
      } else if (k == "if_opponent_controls_more") {
        // G-10: "if an opponent controls more <filter> than you" (Land Tax).
        tr.if_opponent_more = FilterOf(v, k);
        if (db_.filters[tr.if_opponent_more].zones != 1u << static_cast<int>(Zone::kBattlefield))
          r_.Fail(v, k, "a filter on permanents: no zones (what the players control)");
      } else if (k == "if_untapped") {
        // G-10: "if Howling Mine is untapped", read as it would trigger and
        // again as it resolves.
        if (!r_.Bool(v, k))
          r_.Fail(v, k, "true (only while its source is untapped), or leave it out");
        tr.if_untapped = true;
      } else if (k == "source_tapped") {
        // "If Mana Vault is tapped": only while the source is tapped.
        if (!r_.Bool(v, k))
          r_.Fail(v, k, "true (only while its source is tapped), or leave it out");
        tr.source_tapped = true;
      } else if (k == "damage_to") {
        only(v, k, is_damage, "damage");
        tr.damage_to = OneOfTwo(v, k, "player", "creature");
      } else if (k == "change") {
        only(v, k, kind == EventKind::kLifeChange, "life_change");
        tr.life_change = OneOfTwo(v, k, "gain", "loss");
      } else if (k == "for_mana") {
        only(v, k, kind == EventKind::kTap, "tap");
        tr.for_mana = r_.Bool(v, k);
      } else if (k == "not_first_land") {
        only(v, k, kind == EventKind::kPlay, "play");
        tr.not_first_land = r_.Bool(v, k);
      } else if (k == "phase") {
        // A phase's beginning or end; a tap or untap during that phase
        // (every tap and untap occurrence records its phase).
        only(v, k, is_phase || kind == EventKind::kTap || kind == EventKind::kUntap,
             "phase_begin, phase_end, tap and untap");
        tr.phase = r_.String(v, k);
        if (!ParsePhase(tr.phase)) r_.Fail(v, k, "untap, upkeep, draw, main, discard or cleanup");
      } else {
        // A filter on the occurrence's object: an event with none (a
        // phase's beginning or end, a life change) would never match it.
        if (k == "combat" || k == "blocking_or_blocked_by" || k == "attacked_this_turn" ||
            k == "since_turn_began" || k == "toughness_below_source_power")
          r_.Fail(v, k,
                  "no combat keys in on: the occurrence's object is read as it last was, "
                  "not in the attack (T-7.2; they go in targets, affects and if)");
        only(v, k, has_object,
             "events with an object: zone_change, draw, cast, damage, play, attack, block, tap, "
             "untap, resolve (a filter key)");
        filter.insert(k, v);
      }
    }
    if (!filter.empty()) {
      filter.insert("zones",
                    toml::array{"battlefield", "graveyard", "stack", "hand", "library", "exile"});
      // The copied keys have no line: a message names the `on` table's.
      r_.SetFallbackLine(o.source().begin.line);
      struct Reset {
        const TomlReader& r;
        ~Reset() { r.SetFallbackLine(0); }
      } reset{r_};
      tr.filter = FilterOf(filter, "on");
    }
  }

  // "The next time X happens (this turn), ..." (E-6): `trigger` is the
  // delayed trigger as a [[card.trigger]] table, with `or` a second `on`
  // ("the next time A or B": the first of the two fires it); `duration`
  // end_of_turn (the default) or permanent (this game).
  void NextTime(const toml::table& t, EffectStep& s) {
    auto* n = t.get("trigger");
    if (!n) r_.Fail(t, "trigger", "the delayed trigger: a table with timing, on and effects");
    const toml::table& tt = r_.Table(*n, "trigger");
    if (tt.contains("optional_cost"))
      r_.Fail(*tt.get("optional_cost"), "optional_cost",
              "no optional cost on a next-time trigger: its controller armed it");
    const toml::node* outer_x = x_at_;
    x_at_ = nullptr;
    in_next_time_ = true;
    TriggeredAbility tr = Trigger(tt, {"or"});
    in_next_time_ = false;
    if (tr.event == EventKind::kState)
      r_.Fail(tt, "on",
              "an occurrence: a next-time trigger waits for one; a state trigger (event state) "
              "is a permanent's own (docs/rules.md G-16)");
    if (tr.chosen_source && choose_ != ChoiceKind::kSource)
      r_.Fail(tt, "on", "choose = \"source\" on the body that arms a trigger with source = chosen");
    CheckX(false, "a next-time trigger (it is not cast)");
    x_at_ = outer_x;
    // "The next time" is this turn's unless it says otherwise (E-6).
    if (!t.contains("duration")) s.duration = Duration::kEndOfTurn;
    if (auto* o = tt.get("or")) {
      TriggeredAbility alt;
      alt.timing = tr.timing;
      On(r_.Table(*o, "or"), alt);
      card_->next_times.push_back(std::move(alt));
      s.next_time_or = static_cast<int16_t>(card_->next_times.size() - 1);
    }
    card_->next_times.push_back(std::move(tr));
    s.next_time = static_cast<int16_t>(card_->next_times.size() - 1);
  }

  // What a step acts on, by what its operation reads (effects.cc
  // ExecuteStep): some read players alone (a draw), some objects alone (a
  // destruction), some nothing (mana for its controller): a reference of
  // the other kind, an `affects` set or an `if` condition on objects would
  // be accepted and ignored (issue 36: every key the loader accepts is
  // read). A target number may name players or objects: its spec says.
  void CheckStepRefs(const toml::table& t, const EffectStep& s) {
    const Ref::Kind k = s.target.kind;
    const bool object_ref = k == Ref::kSelf || k == Ref::kEnchanted || k == Ref::kEventObject ||
                            k == Ref::kEventEnchanted;
    const bool player_ref = k == Ref::kYou || k == Ref::kOpponent || k == Ref::kEachPlayer ||
                            k == Ref::kEventController || k == Ref::kTargetController ||
                            k == Ref::kEventSourceController;
    const char* ref_key = t.contains("player") ? "player" : "target";
    auto refuse = [&](const char* key, std::string_view why) {
      if (auto* n = t.get(key)) r_.Fail(*n, key, why);
    };
    switch (s.op) {
      case Op::kAddMana:
      case Op::kDelayed:
      case Op::kReplaceNextDraw:
      case Op::kChangeAmount:
        for (const char* key : {"target", "player", "affects", "if"})
          refuse(key,
                 "nothing: this effect acts for its controller (or on the occurrence its "
                 "trigger waits on) alone");
        return;
      case Op::kDraw:
      case Op::kGainLife:
      case Op::kLoseLife:
      case Op::kPoison:
      case Op::kDiscard:
      case Op::kMill:
      case Op::kSearch:
      case Op::kReturnFromGraveyard:
      case Op::kDiscardHand:
      case Op::kShuffleIn:
      case Op::kExtraTurn:
      case Op::kCreateToken:
        if (object_ref) refuse(ref_key, "a player: this effect acts on players");
        refuse("affects", "no affects: this effect acts on players, not on a set of objects");
        refuse("if", "no if: a condition on objects, and this effect acts on players");
        return;
      case Op::kTap:
      case Op::kUntap:
      case Op::kDestroy:
      case Op::kExile:
      case Op::kBounce:
      case Op::kSacrifice:
      case Op::kRegenerate:
      case Op::kCantBeRegenerated:
      case Op::kAddCounters:
      case Op::kRemoveCounters:
      case Op::kCounterSpell:
      case Op::kCounterUnlessPay:
      case Op::kTurnFaceDown:
      case Op::kAttach:
      case Op::kContinuous:
      case Op::kPreventCombat:
      case Op::kReturnToBattlefield:
        if (player_ref) refuse(ref_key, "an object: this effect acts on objects");
        return;
      default:
        return;
    }
  }

  // The keys each operation reads, beyond `do` and the objects it acts on
  // (`target`, `player`, `affects`, `if`): any other is refused, not
  // accepted and ignored (issue 36).
  void CheckStepKeys(const toml::table& t, Op op, std::string_view name) {
    // (`if_destroyed`, G-18: on any step after a destroy step.)
    std::vector<std::string_view> keys = {"do",      "target", "player",
                                          "affects", "if",     "if_destroyed"};
    if (op != Op::kContinuous) keys.push_back("relative_to");  // G-17, with `affects`
    auto add = [&](std::initializer_list<std::string_view> k) {
      keys.insert(keys.end(), k.begin(), k.end());
    };
    switch (op) {
      case Op::kContinuous:
        add({"duration", "parts", "exclude_target", "name", "controller_of"});
        break;
      case Op::kDraw:
      case Op::kMill:
      case Op::kGainLife:
      case Op::kLoseLife:
      case Op::kPoison:
      case Op::kReplaceNextDraw:
      case Op::kCounterUnlessPay:
      case Op::kChangeAmount:
        add({"count", "amount"});
        break;
      case Op::kDamage:
        add({"count", "amount", "cant_regenerate", "divide"});
        break;
      case Op::kDestroy:
        add({"cant_regenerate"});
        break;
      case Op::kAddCounters:
        add({"count", "amount", "counter", "up_to_total"});
        break;
      case Op::kRemoveCounters:
        add({"count", "amount", "counter", "prevent"});
        break;
      case Op::kAddMana:
        add({"count", "amount", "mana"});
        break;
      case Op::kEmptyPool:
        add({"tap_lands", "for_mana", "give"});
        break;
      case Op::kDiscard:
        add({"count", "amount", "random"});
        break;
      case Op::kDelayed:
        add({"at", "effects"});
        break;
      case Op::kPrevent:
        add({"count", "amount", "from"});
        break;
      case Op::kChangeTarget:
        add({"from"});
        break;
      case Op::kSearch:
        add({"count", "amount", "find", "to"});
        break;
      case Op::kReturnFromGraveyard:
        add({"count", "amount", "find"});
        break;
      case Op::kShuffleIn:
        add({"zones", "draw"});
        break;
      case Op::kKeepFewest:
        add({"find", "zones"});
        break;
      case Op::kNextTime:
        add({"trigger", "duration", "if_activated"});
        break;
      case Op::kCreateToken:
        add({"count", "amount", "token"});
        break;
      default:
        break;
    }
    r_.CheckKeys(t, absl::StrCat("a ", S(name), " effect"), keys);
  }

  void Enters(const toml::table& t, EntryChoice& e) {
    r_.CheckKeys(
        t, "enters",
        {"choose", "filter", "optional", "except_colors", "modes", "effects", "keep_phase"});
    if (auto* n = t.get("keep_phase")) e.keep_phase = r_.Bool(*n, "keep_phase");
    if (auto* n = t.get("effects")) {
      // Effects as it enters ("as Ixidron enters, turn ... face down").
      toml::table body;
      body.insert("effects", *n);
      e.body = Body(body, "enters effects", {});
      e.has_effects = true;
    }
    auto* c = t.get("choose");
    if (!c && !e.has_effects) r_.Fail(t, "choose", "what is chosen on entry, or effects");
    if (!c) return;
    e.choose = Choice(*c, "choose");
    if (auto* n = t.get("filter")) e.filter = FilterOf(*n, "filter");
    if (auto* n = t.get("optional")) e.optional = r_.Bool(*n, "optional");
    if (auto* n = t.get("except_colors")) {
      e.has_except_colors = true;
      for (auto& s : r_.Strings(*n, "except_colors"))
        e.except_colors |= 1u << Color(*n, "except_colors", s);
    }
    if ((e.choose == ChoiceKind::kCopy || e.choose == ChoiceKind::kExile) && e.filter == kNoFilter)
      r_.Fail(t, "filter", "a filter for the object chosen on entry");
    for (auto& m : TableArray(t, "modes")) {
      r_.CheckKeys(*m, "an entry mode",
                   {"power", "toughness", "keywords", "subtypes", "add_types"});
      EntryMode mode;
      if (auto* n = m->get("power")) mode.has_power = true, mode.power = IntOf(*n, "power");
      if (auto* n = m->get("toughness"))
        mode.has_toughness = true, mode.toughness = IntOf(*n, "toughness");
      if (auto* n = m->get("keywords")) mode.keywords = Keywords(*n, "keywords");
      if (auto* n = m->get("add_types")) mode.add_types = Types(*n, "add_types");
      if (auto* n = m->get("subtypes")) {
        mode.has_subtypes = true;
        for (auto& s : r_.Strings(*n, "subtypes")) {
          auto st = ParseSubtype(s);
          if (!st) r_.Fail(*n, "subtypes", "a known subtype, got '" + s + "'");
          mode.subtypes.set(*st);
        }
      }
      e.modes.push_back(mode);
    }
    if (e.choose == ChoiceKind::kMode && e.modes.empty())
      r_.Fail(t, "modes", "[[card.enters.modes]] tables for a mode choice");
  }

  TomlReader r_;
  CardDb& db_;
  CardDef* card_ = nullptr;
  std::vector<EffectTemplate> implicit_;
};

}  // namespace

absl::StatusOr<ManaCost> ParseManaCost(std::string_view s) {
  ManaCost c;
  size_t i = 0;
  auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a mana cost like \"3UU\", \"XR\" or \"{W/U}\" (", S(why), "), got '", S(s), "'"));
  };
  auto symbol = [&](std::string_view sym) -> absl::Status {
    if (sym.empty()) return bad("empty symbol");
    if (absl::ascii_isdigit(sym[0])) {
      for (char ch : sym)
        if (!absl::ascii_isdigit(ch)) return bad("bad number");
      int n = 0;
      if (sym.size() > 3 || !absl::SimpleAtoi(std::string(sym), &n)) return bad("number too large");
      c.generic += n;
      return absl::OkStatus();
    }
    if (sym.size() == 3 && sym[1] == '/') {
      auto a = std::string_view("WUBRG").find(sym[0]);
      auto b = std::string_view("WUBRG").find(sym[2]);
      if (a == std::string_view::npos || b == std::string_view::npos) return bad("bad hybrid");
      c.hybrid.push_back(static_cast<ColorMask>((1u << a) | (1u << b)));
      return absl::OkStatus();
    }
    if (sym.size() != 1) return bad("unknown symbol");
    char ch = sym[0];
    if (ch == 'X')
      ++c.x_count;
    else if (ch == 'C')
      ++c.colorless;
    else {
      auto pos = std::string_view("WUBRG").find(ch);
      if (pos == std::string_view::npos) return bad(absl::StrCat("unknown symbol '", S(sym), "'"));
      ++c.colored[pos];
    }
    return absl::OkStatus();
  };
  // The mana value is kept in 8 bits (and no cost needs more).
  auto too_much = [&] {
    int total = c.generic + c.colorless + c.x_count + static_cast<int>(c.hybrid.size());
    for (int n : c.colored) total += n;
    return total > kMaxManaValue;
  };
  while (i < s.size()) {
    if (too_much()) break;
    if (s[i] == '{') {
      auto end = s.find('}', i);
      if (end == std::string_view::npos) return bad("unclosed brace");
      if (auto st = symbol(s.substr(i + 1, end - i - 1)); !st.ok()) return st;
      i = end + 1;
    } else if (absl::ascii_isdigit(s[i])) {
      size_t j = i;
      while (j < s.size() && absl::ascii_isdigit(s[j])) ++j;
      if (auto st = symbol(s.substr(i, j - i)); !st.ok()) return st;
      i = j;
    } else {
      if (auto st = symbol(s.substr(i, 1)); !st.ok()) return st;
      ++i;
    }
  }
  if (too_much())
    return bad(absl::StrCat("at most ", kMaxManaValue, " mana symbols and generic mana"));
  return c;
}

// Set while LoadCards reads its files: it indexes the pool once, after the
// last (CardDb::IndexHot).
static thread_local bool defer_index = false;

absl::Status LoadCardsFromString(std::string_view text, const std::string& file, CardDb& db,
                                 const CardLoadOptions& options) {
  auto parsed = ParseToml(text, file);
  if (!parsed.ok()) return parsed.status();
  const toml::table& doc = *parsed;
  if (doc.empty())
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": empty card file: expected [[card]] tables"));
  std::vector<std::string> errors;
  std::vector<std::pair<size_t, std::string>> name_sites;  // CardCompiler::name_sites
  const TomlReader top(file);
  for (auto& [k, v] : doc) {
    if (k.str() != "card")
      errors.push_back(top.Message(v, k.str(), "only [[card]] tables at the top level"));
  }
  auto* cards = doc.get("card");
  if (cards && !cards->is_array_of_tables())
    errors.push_back(top.Message(*cards, "card", "[[card]] tables"));
  if (cards && cards->is_array_of_tables()) {
    for (auto& node : *cards->as_array()) {
      CardDef card;
      CardCompiler compiler(file, db);
      compiler.name_sites = &name_sites;
      try {
        compiler.Compile(*node.as_table(), card);
        std::string lower = absl::AsciiStrToLower(std::string(card.name));
        if (auto it = db.by_name.find(lower); it != db.by_name.end()) {
          CardDef& first = db.cards[it->second];
          const bool same_file = first.file == file;
          if (options.replace_existing && !same_file) {
            if (options.replaced)
              options.replaced->push_back(absl::StrCat(card.name, ": ", file, ":", card.line,
                                                       " replaces ", first.file, ":", first.line));
            card.Precompute();
            first = std::move(card);
            continue;
          }
          errors.push_back(
              absl::StrCat(file, ":", card.line, ": card '", card.name,
                           "': key 'name': expected a unique name; already "
                           "defined at ",
                           first.file, ":", first.line,
                           same_file ? "" : " (--override: the later one replaces it)"));
          continue;
        }
        db.by_name[lower] = static_cast<CardId>(db.cards.size());
        card.Precompute();
        db.cards.push_back(std::move(card));
      } catch (const TomlError& e) {
        errors.push_back(e.message);
      }
    }
  }
  // Names in filters refer to cards: resolve them now that the file is read.
  // Each message names the file, line and card of the filter (issue 40).
  for (auto& [index, where] : name_sites) {
    Filter& f = db.filters[index];
    if (f.name_text.empty() || f.name != kNoCard) continue;
    f.name = db.Find(f.name_text);
    if (f.name == kNoCard)
      errors.push_back(absl::StrCat(where, ", got '", Shown(f.name_text), "' (",
                                    db.ClosestNote(f.name_text), ")"));
  }
  for (auto& f : db.filters)
    if (!f.name_text.empty() && f.name == kNoCard) f.name = db.Find(f.name_text);
  // LoadCards indexes once, after its last file: a pass over the whole pool
  // after each of its files cost as much as loading a file's cards.
  if (!defer_index) db.IndexHot();
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  return absl::OkStatus();
}

absl::Status LoadCardFile(const std::string& path, CardDb& db, const CardLoadOptions& options) {
  auto text = ReadInputFile(path, "card");
  if (!text.ok()) return text.status();
  return LoadCardsFromString(*text, path, db, options);
}

absl::Status LoadCards(const std::vector<std::string>& paths, CardDb& db,
                       const CardLoadOptions& options) {
  struct Deferred {
    Deferred() { defer_index = true; }
    ~Deferred() { defer_index = false; }
  };
  std::vector<std::string> errors;
  std::set<std::string> read;  // canonical paths of the files read
  for (auto& p : paths) {
    std::vector<std::string> files;
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.path().extension() == ".toml") files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
      if (files.empty()) errors.push_back(absl::StrCat(p, ": no *.toml card files found"));
    } else {
      files.push_back(p);
    }
    for (auto& f : files) {
      auto canonical = std::filesystem::weakly_canonical(f, ec);
      if (!read.insert(ec ? f : canonical.string()).second) continue;
      Deferred deferred;
      if (auto st = LoadCardFile(f, db, options); !st.ok())
        errors.push_back(std::string(st.message()));
    }
  }
  db.IndexHot();
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  return absl::OkStatus();
}

}  // namespace strata
