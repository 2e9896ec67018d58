#include "engine/reference_layers.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/game.h"

namespace strata {
namespace {

// a + b within T's range: the engine keeps P/T in 16 bits and a value read
// from the game in 32, and a sum past either range stays at its end.
template <typename T>
T Clamped(long long v) {
  if (v < std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
  if (v > std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

// Printed values, from the card data (L-1): a card's, or what a copy effect
// or the face-down rule says (L-7).
Characteristics StartingValues(const CardDb& db, const CopySpec& what, Player controller) {
  Characteristics v;
  v.controller = controller;
  if (what.blank || what.card == kNoCard) {
    // A face-down object is a nameless, colorless 2/2 creature with no text.
    v.blank = true;
    v.card = what.card;
    v.types = static_cast<TypeMask>(1u << kCreature);
    v.power = 2;
    v.toughness = 2;
    return v;
  }
  const CardDef& card = db.cards[what.card];
  v.card = what.card;
  v.mode = what.mode;
  v.extra_phase = what.keep_phase;
  v.mana_value = card.printed_mana_value;
  v.colors = what.has_colors ? what.colors : card.colors;
  v.types = card.types;
  v.supertypes = card.supertypes;
  v.subtypes = card.subtypes;
  v.keywords = card.keywords;
  v.abilities = card.printed_abilities;
  v.land_mana = card.printed_land_mana;
  v.power = static_cast<int16_t>(card.power);
  v.toughness = static_cast<int16_t>(card.toughness);
  const int modes = static_cast<int>(card.enters.modes.size());
  if (what.mode >= 1 && what.mode <= modes) {
    const EntryMode& chosen = card.enters.modes[what.mode - 1];
    if (chosen.has_power) v.power = static_cast<int16_t>(chosen.power);
    if (chosen.has_toughness) v.toughness = static_cast<int16_t>(chosen.toughness);
    v.keywords |= chosen.keywords;
    v.types |= chosen.add_types;
    if (chosen.has_subtypes) v.subtypes |= chosen.subtypes;
  }
  return v;
}

// Which sublayer a part belongs in, per edition (L-2): a name and a test on
// the part's layer, whether its effect is a CDA and whether it comes from a
// static ability.
struct Sublayer {
  const char* name;
  bool (*holds)(PartLayer layer, bool cda, bool from_static);
};

const std::vector<Sublayer>& SublayersOf(Edition e) {
  using L = PartLayer;
  static const std::vector<Sublayer> kFirstFour = {
      {"1a", [](L l, bool, bool) { return l == L::kCopy; }},
      {"1b", [](L l, bool, bool) { return l == L::kFaceDown; }},
      {"2", [](L l, bool, bool) { return l == L::kControl; }},
      {"3", [](L l, bool, bool) { return l == L::kText; }},
      {"4", [](L l, bool, bool) { return l == L::kType; }},
  };
  auto with = [](std::vector<Sublayer> rest) {
    std::vector<Sublayer> all = kFirstFour;
    all.insert(all.end(), rest.begin(), rest.end());
    return all;
  };
  static const std::vector<Sublayer> kModern = with({
      {"5", [](L l, bool, bool) { return l == L::kColor; }},
      {"6", [](L l, bool, bool) { return l == L::kAbility; }},
      {"7a", [](L l, bool cda, bool) { return l == L::kPtSet && cda; }},
      {"7b", [](L l, bool cda, bool) { return l == L::kPtSet && !cda; }},
      {"7c", [](L l, bool, bool) { return l == L::kPtModify || l == L::kCounters; }},
      {"7d", [](L l, bool, bool) { return l == L::kPtSwitch; }},
  });
  static const std::vector<Sublayer> kM10 = with({
      {"5", [](L l, bool, bool) { return l == L::kColor; }},
      {"6", [](L l, bool, bool) { return l == L::kAbility; }},
      {"7a", [](L l, bool cda, bool) { return l == L::kPtSet && cda; }},
      {"7b", [](L l, bool cda, bool) { return l == L::kPtSet && !cda; }},
      {"7c", [](L l, bool, bool) { return l == L::kPtModify; }},
      {"7d", [](L l, bool, bool) { return l == L::kCounters; }},
      {"7e", [](L l, bool, bool) { return l == L::kPtSwitch; }},
  });
  static const std::vector<Sublayer> kClassic = with({
      {"5", [](L l, bool, bool) { return l == L::kColor || l == L::kAbility; }},
      {"6a", [](L l, bool cda, bool) { return l == L::kPtSet && cda; }},
      {"6b",
       [](L l, bool cda, bool from_static) {
         return (l == L::kPtSet && !cda) || (l == L::kPtModify && !from_static);
       }},
      {"6c", [](L l, bool, bool) { return l == L::kCounters; }},
      {"6d", [](L l, bool, bool from_static) { return l == L::kPtModify && from_static; }},
      {"6e", [](L l, bool, bool) { return l == L::kPtSwitch; }},
  });
  switch (e) {
    case Edition::kModern:
      return kModern;
    case Edition::kM10:
      return kM10;
    case Edition::kClassic:
      break;
  }
  return kClassic;
}

using Chars = std::vector<Characteristics>;
using ObjList = std::vector<ObjId>;  // sorted, no repeats

// One continuous effect of this computation: a static ability of an object,
// a row made by a resolved spell or ability, or one of the rules' own
// effects (an entry copy, the face-down rule, an object's counters).
struct RefEffect {
  enum Origin : uint8_t { kEntryCopy, kFaceDown, kRow, kStatic, kCounters } origin = kStatic;
  const EffectTemplate* tmpl = nullptr;
  ObjId object = kNoObj;  // a static's object, a row's living source, a rules effect's object
  int row = -1;
  int ability = -1;  // a static's ability number on its card; -1 for a keyword's (changeling)
  uint32_t timestamp = 0;
  bool cda = false;
  // Timestamp, then the order of creation for equal ones.
  std::tuple<uint32_t, int, int, int> order;
  bool started = false;
  ObjList locked;  // the affected objects, fixed as it first applies (L-5)
};

// What an effect is right now, for the dependency test (L-6): whether it
// exists, what it applies to, who "you" is, the words and the numbers it
// would use. How much it changes is not part of it.
struct WhatItIs {
  bool exists = false;
  ObjList affected;
  Player you = 0;
  std::vector<Word> words;
  std::vector<int> numbers;
  bool operator==(const WhatItIs&) const = default;
};

// Who evaluates a filter: its source object, its "you", whose text changes
// apply to its words, and the word chosen for it.
struct Asker {
  ObjId source = kNoObj;
  Player you = 0;
  const Characteristics* words_of = nullptr;
  Word choice = kNoWord;
};

class Evaluator {
 public:
  Evaluator(const CardDb& db, const GameState& s, const ReferenceOptions& options)
      : db_(db), s_(s), record_(options.record_effects), timing_(options.dependencies) {}

  ReferenceResult Run() {
    const int n = s_.obj.count;
    ReferenceResult out;
    out.computed.assign(n, false);
    if (record_) out.applied.assign(n, {});
    chars_.assign(n, Characteristics{});
    for (ObjId o = 0; o < n; ++o) {
      if (s_.obj.zone[o] == Zone::kNone) continue;
      out.computed[o] = true;
      objects_.push_back(o);
      by_zone_[static_cast<int>(s_.obj.zone[o])].push_back(o);
      chars_[o] = StartingValues(db_, OwnCopiable(o), s_.obj.controller[o]);
    }
    // The effects known before layer 1: copy effects, face-down, rows.
    for (ObjId o : objects_) {
      if (s_.obj.copy[o].card != kNoCard || s_.obj.copy[o].blank)
        AddRulesEffect(RefEffect::kEntryCopy, o, s_.obj.timestamp[o], 0);
      if (s_.obj.face_down[o]) AddRulesEffect(RefEffect::kFaceDown, o, s_.obj.timestamp[o], 1);
    }
    for (int r = 0; r < static_cast<int>(s_.effects.size()); ++r) {
      const EffectRow& row = s_.effects[r];
      if (!row.active) continue;
      RefEffect e;
      e.origin = RefEffect::kRow;
      e.tmpl = &db_.cards[row.card].continuous[row.tmpl];
      e.row = r;
      e.object = s_.Alive(row.source) ? row.source.id : kNoObj;
      e.timestamp = row.timestamp;
      e.cda = false;  // a CDA is part of its object: a resolved effect is none
      e.order = {row.timestamp, 1, r, 0};
      effects_.push_back(e);
    }
    const std::vector<Sublayer>& sublayers = SublayersOf(s_.edition);
    for (size_t i = 0; i < sublayers.size(); ++i) {
      // Which static abilities exist is known once the copiable values are
      // (after layer 1): a Clone has the abilities of what it copies.
      if (i == 2) AddStaticsAndCounters();
      for (bool cda_pass : {true, false}) RunSublayer(sublayers[i], cda_pass, out);
    }
    PlayersAndRules(out);
    out.chars = std::move(chars_);
    return out;
  }

 private:
  CopySpec OwnCopiable(ObjId o) const {
    CopySpec own;
    own.card = s_.obj.card[o];
    const CardDef& card = db_.cards[own.card];
    if (card.enters.choose == ChoiceKind::kMode && s_.obj.choice[o] != kNoWord)
      own.mode = static_cast<uint8_t>(s_.obj.choice[o]);
    return own;
  }

  void AddRulesEffect(RefEffect::Origin origin, ObjId o, uint32_t ts, int sub) {
    RefEffect e;
    e.origin = origin;
    e.object = o;
    e.timestamp = ts;
    e.order = {ts, origin == RefEffect::kCounters ? 2 : 0, o, sub};
    effects_.push_back(e);
  }

  void AddStaticsAndCounters() {
    for (ObjId o : objects_) {
      const Characteristics& v = chars_[o];
      const bool on_battlefield = s_.obj.zone[o] == Zone::kBattlefield;
      if (!v.blank && v.card != kNoCard) {
        const CardDef& card = db_.cards[v.card];
        const int printed = static_cast<int>(card.statics.size());
        for (int i = 0; i < printed + static_cast<int>(card.keyword_statics.size()); ++i) {
          const EffectTemplate& t =
              i < printed ? card.statics[i] : card.keyword_statics[i - printed];
          if (!on_battlefield && !t.cda) continue;  // only CDAs work in other zones (L-3)
          RefEffect e;
          e.origin = RefEffect::kStatic;
          e.tmpl = &t;
          e.object = o;
          e.ability = i < printed ? i : -1;
          e.timestamp = s_.obj.timestamp[o];
          e.cda = t.cda;
          e.order = {e.timestamp, 2, o, i};
          effects_.push_back(e);
        }
      }
      if (s_.obj.p1p1[o] != 0 || s_.obj.m1m1[o] != 0 || s_.obj.pt[o].p1p0 != 0 ||
          s_.obj.pt[o].m0m2 != 0)  // G-8.1
        AddRulesEffect(RefEffect::kCounters, o, s_.obj.counter_timestamp[o], 100000);
    }
  }

  // The layers an effect has parts in: a rules effect has one.
  bool HasPartIn(const RefEffect& e, const Sublayer& sub) const {
    switch (e.origin) {
      case RefEffect::kEntryCopy:
        return sub.holds(PartLayer::kCopy, false, false);
      case RefEffect::kFaceDown:
        return sub.holds(PartLayer::kFaceDown, false, false);
      case RefEffect::kCounters:
        return sub.holds(PartLayer::kCounters, false, false);
      default:
        break;
    }
    for (const Part& p : e.tmpl->parts)
      if (PartIn(e, p, sub)) return true;
    return false;
  }
  bool PartIn(const RefEffect& e, const Part& p, const Sublayer& sub) const {
    return sub.holds(p.layer, e.cda, e.origin == RefEffect::kStatic);
  }

  Player You(const RefEffect& e, const Chars& ch) const {
    if (e.origin == RefEffect::kRow) return s_.effects[e.row].controller;
    return ch[e.object].controller;
  }

  Asker AskerOf(const RefEffect& e, const Chars& ch) const {
    Asker a;
    a.source = e.object;
    a.you = You(e, ch);
    if (e.origin == RefEffect::kStatic) {
      a.words_of = &ch[e.object];
      a.choice = s_.obj.choice[e.object];
    } else if (e.origin == RefEffect::kRow) {
      a.choice = s_.effects[e.row].choice[0];
    }
    return a;
  }

  static Word ThroughText(const Characteristics* v, Word w) {
    if (v == nullptr) return w;
    for (int i = 0; i < v->text_count; ++i)
      if (v->text[i].from == w) return v->text[i].to;
    return w;
  }

  // A word of an effect's part as it reads now: the effect's choice, or the
  // word after its source's text changes (statics only).
  Word WordOf(const RefEffect& e, Word w, const Chars& ch) const {
    if (w == kChoiceWord) {
      if (e.origin == RefEffect::kRow) return s_.effects[e.row].choice[0];
      return e.object == kNoObj ? kNoWord : s_.obj.choice[e.object];
    }
    return e.origin == RefEffect::kStatic ? ThroughText(&ch[e.object], w) : w;
  }

  static bool HasSubtypeNow(const Characteristics& v, Word st) {
    if (st >= kMaxSubtypes) return false;
    if (v.subtypes.test(st)) return true;
    return v.all_creature_types && CreatureTypeMask().test(st);
  }
  static bool HasColorWord(const Characteristics& v, Word w) {
    return IsColorWord(w) && ((v.colors >> (w - kColorWordBase)) & 1);
  }

  // Does object o, as computed so far, match filter f asked by `a`?
  bool Matches(const Filter& f, ObjId o, const Asker& a, const Chars& ch) const {
    const Zone zone = s_.obj.zone[o];
    if (!((f.zones >> static_cast<int>(zone)) & 1)) return false;
    const Characteristics& v = ch[o];
    auto word = [&](Word w) { return w == kChoiceWord ? a.choice : ThroughText(a.words_of, w); };
    if (f.self && o != a.source) return false;
    if (f.other && o == a.source) return false;
    if (f.enchanted && (a.source == kNoObj || s_.obj.attached_to[a.source] != o)) return false;
    if (f.controller >= 0) {
      // Off the battlefield no control effect applies: the base controller.
      const Player ctl = zone == Zone::kBattlefield ? v.controller : s_.obj.controller[o];
      const bool yours = ctl == a.you;
      if (yours != (f.controller == 0)) return false;
    }
    if (f.owner >= 0 && (s_.obj.owner[o] == a.you) != (f.owner == 0)) return false;
    if (f.types != 0 && (v.types & f.types) == 0) return false;
    if ((v.types & f.not_types) != 0) return false;
    if (!f.subtypes.empty() && std::none_of(f.subtypes.begin(), f.subtypes.end(),
                                            [&](Word w) { return HasSubtypeNow(v, word(w)); }))
      return false;
    for (Word w : f.not_subtypes)
      if (HasSubtypeNow(v, word(w))) return false;
    if (f.supertypes != 0 && (v.supertypes & f.supertypes) == 0) return false;
    if ((v.supertypes & f.not_supertypes) != 0) return false;
    if (!f.colors.empty() && std::none_of(f.colors.begin(), f.colors.end(),
                                          [&](Word w) { return HasColorWord(v, word(w)); }))
      return false;
    for (Word w : f.not_colors)
      if (HasColorWord(v, word(w))) return false;
    if (f.colorless >= 0 && (v.colors == 0) != (f.colorless == 1)) return false;
    if (f.keywords != 0 && (v.keywords & f.keywords) == 0) return false;
    if ((v.keywords & f.not_keywords) != 0) return false;
    if (f.no_abilities >= 0) {
      const bool none = v.abilities == 0 && v.keywords == 0 && v.land_mana == 0;
      if (none != (f.no_abilities == 1)) return false;
    }
    if (f.tapped >= 0 && s_.obj.tapped[o] != (f.tapped == 1)) return false;
    if (f.face_down >= 0 && s_.obj.face_down[o] != (f.face_down == 1)) return false;
    if (f.token >= 0 && s_.obj.token[o] != (f.token == 1)) return false;
    if (f.min_power != Filter::kAnyPower && (!v.IsCreature() || v.power < f.min_power))
      return false;
    if (f.max_power != Filter::kAnyPower && (!v.IsCreature() || v.power > f.max_power))
      return false;
    if (f.name != kNoCard && (v.blank || v.card != f.name)) return false;
    return true;
  }

  // The objects in `zones` (bit Zone), in numbering order.
  ObjList InZones(uint8_t zones) const {
    ObjList in;
    for (int z = 0; z < kZoneCount; ++z)
      if ((zones >> z) & 1) in.insert(in.end(), by_zone_[z].begin(), by_zone_[z].end());
    std::sort(in.begin(), in.end());
    return in;
  }

  ObjList AllMatching(FilterId id, const Asker& a, const Chars& ch) const {
    ObjList found;
    const Filter& f = db_.filters[id];
    for (ObjId o : InZones(f.zones))
      if (Matches(f, o, a, ch)) found.push_back(o);
    return found;
  }

  // Does the effect exist now (L-5, L-6)? A started effect keeps applying;
  // a static needs its object to have the ability (and, unless a CDA, not
  // to be a tapped artifact) and its condition to hold.
  bool Exists(const RefEffect& e, const Chars& ch) const {
    if (e.origin != RefEffect::kStatic || e.started) return true;
    const Characteristics& v = ch[e.object];
    if (v.blank) return false;
    if (!e.cda && (v.types >> kArtifact & 1) && s_.obj.tapped[e.object]) return false;
    if (e.tmpl->implicit_keyword >= 0) {
      if (!((v.keywords >> e.tmpl->implicit_keyword) & 1)) return false;
    } else if (!((v.abilities >> e.ability) & 1)) {
      return false;
    }
    const Condition& cond = e.tmpl->condition;
    if (cond.source_tapped >= 0 && s_.obj.tapped[e.object] != (cond.source_tapped == 1))
      return false;
    if (cond.you_control != kNoFilter && AllMatching(cond.you_control, AskerOf(e, ch), ch).empty())
      return false;
    if (cond.your_turn >= 0 && (s_.active == v.controller) != (cond.your_turn == 1)) return false;
    return true;
  }

  ObjList Affected(const RefEffect& e, const Chars& ch) const {
    if (e.started) return e.locked;
    switch (e.origin) {
      case RefEffect::kEntryCopy:
      case RefEffect::kFaceDown:
      case RefEffect::kCounters:
        return {e.object};
      case RefEffect::kRow: {
        const EffectRow& row = s_.effects[e.row];
        ObjList set;
        for (uint32_t i = 0; i < row.set_len; ++i) {
          const ObjRef r = s_.effect_sets[row.set_begin + i];
          if (s_.Alive(r)) set.push_back(r.id);
        }
        std::sort(set.begin(), set.end());
        set.erase(std::unique(set.begin(), set.end()), set.end());
        return set;
      }
      case RefEffect::kStatic:
        break;
    }
    if (e.tmpl->affects.empty()) return {e.object};
    const Asker a = AskerOf(e, ch);
    uint8_t zones = 0;
    for (FilterId f : e.tmpl->affects) zones |= db_.filters[f].zones;
    ObjList set;
    for (ObjId o : InZones(zones))
      for (FilterId f : e.tmpl->affects)
        if (Matches(db_.filters[f], o, a, ch)) {
          set.push_back(o);
          break;
        }
    return set;
  }

  int Number(const Value& v, const RefEffect& e, ObjId o, const Chars& ch) const {
    if (v.kind == Value::kConst) return v.constant;
    const EffectRow* row = e.origin == RefEffect::kRow ? &s_.effects[e.row] : nullptr;
    long long read = 0;
    switch (v.kind) {
      case Value::kX:
        read = row ? row->x : 0;
        break;
      case Value::kManaValue:
        read = ch[o].mana_value;
        break;
      case Value::kLinkedPower:
      case Value::kLinkedToughness:
        if (e.object != kNoObj && s_.Alive(s_.obj.linked[e.object])) {
          const Characteristics& l = ch[s_.obj.linked[e.object].id];
          read = v.kind == Value::kLinkedPower ? l.power : l.toughness;
        }
        break;
      case Value::kSourcePower:
      case Value::kSourceToughness:
        if (row != nullptr)
          read = v.kind == Value::kSourcePower ? row->source_power : row->source_toughness;
        else if (e.object != kNoObj)
          read = v.kind == Value::kSourcePower ? ch[e.object].power : ch[e.object].toughness;
        break;
      case Value::kCount:
      case Value::kSumManaValue:
      case Value::kCardTypes: {
        const ObjList found = AllMatching(v.filter, AskerOf(e, ch), ch);
        if (v.kind == Value::kCount) {
          read = static_cast<long long>(found.size());
        } else if (v.kind == Value::kSumManaValue) {
          for (ObjId x : found) read += ch[x].mana_value;
        } else {
          unsigned types = 0;
          for (ObjId x : found) types |= ch[x].types;
          read = std::popcount(types);
        }
        break;
      }
      case Value::kTargetPower:
      case Value::kTargetToughness:
      case Value::kTargetManaValue:
        // A spell's effect keeps its first target's values of its resolution.
        if (row != nullptr)
          read = v.kind == Value::kTargetPower       ? row->target_power
                 : v.kind == Value::kTargetToughness ? row->target_toughness
                                                     : row->target_mana_value;
        break;
      default:
        break;  // values of a resolution (event): no continuous effect has them
    }
    return v.Scale(static_cast<int>(Clamped<int32_t>(read)));
  }

  // A copy effect: the copiable values replace the object's, which keeps
  // its controller and text changes.
  void BecomeCopy(Characteristics& v, const CopySpec& what) const {
    Characteristics copy = StartingValues(db_, what, v.controller);
    copy.text_count = v.text_count;
    copy.text = v.text;
    v = copy;
  }

  static void RewriteKeywordWords(Characteristics& v, Word from, Word to) {
    // Landwalk carries a basic land type, protection a color.
    for (int c = 0; c < kColorCount; ++c) {
      const int walk = kPlainswalk + c;
      if (!((v.keywords >> walk) & 1) || BasicLandSubtype(c) != from) continue;
      if (const auto to_color = BasicLandColor(to)) {
        v.keywords &= ~(KeywordMask{1} << walk);
        v.keywords |= KeywordMask{1} << (kPlainswalk + *to_color);
      }
    }
    KeywordMask gained = 0;
    for (int c = 0; c < kColorCount; ++c) {
      const int prot = kProtWhite + c;
      if (!((v.keywords >> prot) & 1) || ColorWord(c) != from || !IsColorWord(to)) continue;
      v.keywords &= ~(KeywordMask{1} << prot);
      gained |= KeywordMask{1} << (kProtWhite + (to - kColorWordBase));
    }
    v.keywords |= gained;
    ForgetLostSpares(v);
  }

  // Spared protection lasts only while the protection does; a color not
  // spared names no source.
  static void ForgetLostSpares(Characteristics& v) {
    for (int c = 0; c < kColorCount; ++c) {
      const bool keeps = ((v.prot_spared >> c) & 1) && ((v.keywords >> (kProtWhite + c)) & 1);
      if (keeps) continue;
      v.prot_spared = static_cast<ColorMask>(v.prot_spared & ~(1u << c));
      v.prot_spared_by[c] = 0;
    }
  }

  void GiveSubtype(Characteristics& v, Word st) const {
    if (st >= kMaxSubtypes) return;
    v.subtypes.set(st);
    if (const auto color = BasicLandColor(st)) v.land_mana |= static_cast<ColorMask>(1u << *color);
  }

  void ApplyPart(const RefEffect& e, const Part& p, ObjId o, Chars& ch) const {
    switch (p.layer) {
      case PartLayer::kCopy:
        BecomeCopy(ch[o], s_.effects[e.row].copy);
        return;
      case PartLayer::kFaceDown:
        return;  // the face-down rule is a rules effect, not a part
      case PartLayer::kControl: {
        const Player you = You(e, ch);
        ch[o].controller = you;
        return;
      }
      case PartLayer::kText: {
        if (e.origin != RefEffect::kRow) return;
        const Word from = s_.effects[e.row].choice[0], to = s_.effects[e.row].choice[1];
        if (from == kNoWord || to == kNoWord) return;
        Characteristics& v = ch[o];
        bool already = false;
        for (int i = 0; i < v.text_count; ++i) {
          if (v.text[i].to == from) v.text[i].to = to;  // a word changed before reads on
          if (v.text[i].from == from) already = true;
        }
        if (!already && v.text_count < static_cast<int>(v.text.size()))
          v.text[v.text_count++] = WordChange{from, to};
        RewriteKeywordWords(v, from, to);
        return;
      }
      case PartLayer::kType: {
        std::vector<Word> creature_types, land_types, added;
        for (Word w : p.set_creature_types) creature_types.push_back(WordOf(e, w, ch));
        for (Word w : p.set_land_types) land_types.push_back(WordOf(e, w, ch));
        for (Word w : p.add_subtypes) added.push_back(WordOf(e, w, ch));
        Characteristics& v = ch[o];
        if (p.has_set_types) v.types = p.set_types;
        v.types = static_cast<TypeMask>((v.types | p.add_types) & ~p.remove_types);
        v.supertypes =
            static_cast<SupertypeMask>((v.supertypes | p.add_supertypes) & ~p.remove_supertypes);
        if (p.has_set_creature_types) {
          v.subtypes &= ~CreatureTypeMask();
          v.all_creature_types = false;
          for (Word w : creature_types)
            if (w < kMaxSubtypes) v.subtypes.set(w);
        }
        if (p.all_creature_types) v.all_creature_types = true;
        if (p.has_set_land_types) {
          // Judgement call 2 (docs/layers.md): a land whose basic land type
          // is set loses its other land types and its rules-text abilities.
          v.subtypes &= ~LandTypeMask();
          v.abilities = 0;
          v.keywords = 0;
          v.land_mana = 0;
          for (Word w : land_types) GiveSubtype(v, w);
        }
        for (Word w : added) GiveSubtype(v, w);
        return;
      }
      case PartLayer::kColor: {
        ColorMask set = 0, add = 0;
        for (Word w : p.set_colors)
          if (IsColorWord(WordOf(e, w, ch))) set |= 1u << (WordOf(e, w, ch) - kColorWordBase);
        for (Word w : p.add_colors)
          if (IsColorWord(WordOf(e, w, ch))) add |= 1u << (WordOf(e, w, ch) - kColorWordBase);
        Characteristics& v = ch[o];
        if (p.has_set_colors) v.colors = set;
        v.colors |= add;
        return;
      }
      case PartLayer::kAbility: {
        const CardId granter =
            e.origin == RefEffect::kRow ? s_.effects[e.row].card : ch[e.object].card;
        Characteristics& v = ch[o];
        if (p.remove_all_abilities) {
          v.abilities = 0;
          v.keywords = 0;
          v.land_mana = 0;
          v.granted_count = 0;
          v.combat_count = 0;
          v.extra_phase = kNoCard;
        }
        // Protection that doesn't remove its source (docs/rules.md T-1.5):
        // spared for this effect's object only where the object had no such
        // protection before and no other part grants it.
        for (int c = 0; c < kColorCount; ++c) {
          const KeywordMask prot = KeywordMask{1} << (kProtWhite + c);
          if (!(p.add_keywords & prot)) continue;
          const bool fresh = !(v.keywords & prot);
          if (p.spares_source && fresh && e.object != kNoObj) {
            v.prot_spared = static_cast<ColorMask>(v.prot_spared | (1u << c));
            v.prot_spared_by[c] = e.object;
          } else {
            v.prot_spared = static_cast<ColorMask>(v.prot_spared & ~(1u << c));
          }
        }
        v.keywords = (v.keywords | p.add_keywords) & ~p.remove_keywords;
        ForgetLostSpares(v);
        if (p.add_colorless_mana) v.land_mana |= 1u << kColorCount;
        if (p.grant_phase >= 0 && v.granted_count < v.granted.size())
          v.granted[v.granted_count++] = GrantedPhase{granter, static_cast<uint8_t>(p.grant_phase)};
        if (p.combat_rule >= 0 && v.combat_count < v.combat.size())
          v.combat[v.combat_count++] = GrantedPhase{granter, static_cast<uint8_t>(p.combat_rule)};
        return;
      }
      case PartLayer::kPtSet:
        if (p.has_power) ch[o].power = Clamped<int16_t>(Number(p.power, e, o, ch));
        if (p.has_toughness) ch[o].toughness = Clamped<int16_t>(Number(p.toughness, e, o, ch));
        return;
      case PartLayer::kPtModify:
        if (p.has_power)
          ch[o].power =
              Clamped<int16_t>(ch[o].power + static_cast<long long>(Number(p.power, e, o, ch)));
        if (p.has_toughness)
          ch[o].toughness = Clamped<int16_t>(ch[o].toughness +
                                             static_cast<long long>(Number(p.toughness, e, o, ch)));
        return;
      case PartLayer::kPtSwitch:
        std::swap(ch[o].power, ch[o].toughness);
        return;
      case PartLayer::kCounters:
      case PartLayer::kRule:
        return;
    }
  }

  // Applies the effect's parts of this sublayer to `affected`.
  void ApplyTo(const RefEffect& e, const Sublayer& sub, const ObjList& affected, Chars& ch) const {
    switch (e.origin) {
      case RefEffect::kEntryCopy:
        BecomeCopy(ch[e.object], s_.obj.copy[e.object]);
        return;
      case RefEffect::kFaceDown: {
        CopySpec blank;
        blank.blank = true;
        BecomeCopy(ch[e.object], blank);
        return;
      }
      case RefEffect::kCounters: {
        const int net = s_.obj.p1p1[e.object] - s_.obj.m1m1[e.object];
        const Objects::PtCounters& pt = s_.obj.pt[e.object];  // G-8.1
        ch[e.object].power = Clamped<int16_t>(ch[e.object].power + net + pt.p1p0);
        ch[e.object].toughness = Clamped<int16_t>(ch[e.object].toughness + net - 2 * pt.m0m2);
        return;
      }
      default:
        break;
    }
    for (const Part& p : e.tmpl->parts) {
      if (!PartIn(e, p, sub)) continue;
      for (ObjId o : affected) ApplyPart(e, p, o, ch);
    }
  }

  WhatItIs Describe(const RefEffect& e, const Sublayer& sub, const Chars& ch) const {
    WhatItIs d;
    d.exists = Exists(e, ch);
    if (!d.exists) return d;
    d.affected = Affected(e, ch);
    if (e.origin != RefEffect::kStatic && e.origin != RefEffect::kRow) return d;
    d.you = You(e, ch);
    for (const Part& p : e.tmpl->parts) {
      if (!PartIn(e, p, sub)) continue;
      for (const WordList* words : {&p.add_subtypes, &p.set_creature_types, &p.set_land_types,
                                    &p.set_colors, &p.add_colors})
        for (Word w : *words) d.words.push_back(WordOf(e, w, ch));
      for (ObjId o : d.affected) {
        if (p.has_power) d.numbers.push_back(Number(p.power, e, o, ch));
        if (p.has_toughness) d.numbers.push_back(Number(p.toughness, e, o, ch));
      }
    }
    return d;
  }

  // Can nothing change what `x` is in this sublayer? A rules effect always
  // applies to its own object the same way; a row has its objects and its
  // controller fixed, so only the numbers it reads could change.
  bool Fixed(const RefEffect& x, const Sublayer& sub) const {
    if (x.origin != RefEffect::kStatic && x.origin != RefEffect::kRow) return true;
    if (x.origin == RefEffect::kStatic) return false;
    for (const Part& p : x.tmpl->parts) {
      if (!PartIn(x, p, sub)) continue;
      for (const Value* v : {&p.power, &p.toughness})
        if (v->kind != Value::kConst && v->kind != Value::kX) return false;
    }
    return true;
  }

  // Does x read a power or toughness in this sublayer (a linked card's, its
  // source's)? No filter and no condition reads them (Filter has no such
  // field), so an effect that changes only powers and toughnesses can change
  // what x is only through such a number.
  bool ReadsPt(const RefEffect& x, const Sublayer& sub) const {
    if (x.origin != RefEffect::kStatic && x.origin != RefEffect::kRow) return false;
    for (const Part& p : x.tmpl->parts) {
      if (!PartIn(x, p, sub)) continue;
      for (const Value* v : {&p.power, &p.toughness})
        if (v->kind == Value::kLinkedPower || v->kind == Value::kLinkedToughness ||
            v->kind == Value::kSourcePower || v->kind == Value::kSourceToughness)
          return true;
    }
    return false;
  }

  static bool SameButPt(Characteristics a, const Characteristics& b) {
    a.power = b.power;
    a.toughness = b.toughness;
    return a == b;
  }

  std::string NameOf(const RefEffect& e) const {
    switch (e.origin) {
      case RefEffect::kEntryCopy:
        return absl::StrCat(db_.cards[s_.obj.card[e.object]].name, " copy effect");
      case RefEffect::kFaceDown:
        return absl::StrCat("face-down ", db_.cards[s_.obj.card[e.object]].name);
      case RefEffect::kCounters:
        return absl::StrCat("counters on ", db_.cards[s_.obj.card[e.object]].name);
      case RefEffect::kRow:
        return absl::StrCat(db_.cards[s_.effects[e.row].card].name, " effect (row ", e.row, ")");
      case RefEffect::kStatic: {
        const CardId card = chars_[e.object].card;
        const std::string owner =
            absl::StrCat(card == kNoCard ? "?" : db_.cards[card].name, "#", e.object);
        if (e.ability < 0) return absl::StrCat(owner, " ", e.tmpl->name);
        return absl::StrCat(owner, " static ", e.ability + 1);
      }
    }
    return "?";
  }

  void RunSublayer(const Sublayer& sub, bool cda_pass, ReferenceResult& out) {
    std::vector<size_t> pending;
    for (size_t i = 0; i < effects_.size(); ++i)
      if (effects_[i].cda == cda_pass && HasPartIn(effects_[i], sub)) pending.push_back(i);
    std::vector<size_t> first;  // the effects the dependencies were found among
    std::vector<std::vector<bool>> first_waits;
    bool last_changed = true;
    while (!pending.empty()) {
      // Effects whose source lost the ability (or whose condition fails)
      // before they started never apply.
      std::erase_if(pending, [&](size_t i) { return !Exists(effects_[i], chars_); });
      const size_t k = pending.size();
      if (k == 0) break;
      // waits[a][b]: pending[a] depends on pending[b].
      // An application that changed no characteristic leaves every
      // dependency as it was: what the others are is read from them alone.
      if (first.empty() || (timing_ == DependencyTiming::kAfterEachEffect && last_changed)) {
        first = pending;
        first_waits = Dependencies(pending, sub);
      }
      std::vector<std::vector<bool>> waits(k, std::vector<bool>(k, false));
      for (size_t a = 0; a < k; ++a)
        for (size_t b = 0; b < k; ++b)
          waits[a][b] = first_waits[PositionIn(first, pending[a])][PositionIn(first, pending[b])];
      auto older = [&](size_t a, size_t b) {
        return effects_[pending[a]].order < effects_[pending[b]].order;
      };
      size_t pick = k, oldest = 0;
      for (size_t a = 0; a < k; ++a) {
        if (older(a, oldest)) oldest = a;
        if (std::find(waits[a].begin(), waits[a].end(), true) != waits[a].end()) continue;
        if (pick == k || older(a, pick)) pick = a;
      }
      if (pick == k) {
        // Everything waits: a dependency loop, which the rules ignore; the
        // oldest effect on a cycle goes first.
        for (size_t a = 0; a < k; ++a)
          if (OnCycle(waits, a) && (pick == k || older(a, pick))) pick = a;
        if (pick == k) pick = oldest;
      }
      RefEffect& e = effects_[pending[pick]];
      if (!e.started) {
        e.locked = Affected(e, chars_);
        e.started = true;
      }
      if (record_)
        for (ObjId o : e.locked)
          out.applied[o].push_back(absl::StrCat(sub.name, ": ", NameOf(e), " (timestamp ",
                                                e.timestamp, ")",
                                                pick != oldest ? " by dependency" : ""));
      before_.clear();
      for (ObjId o : e.locked) before_.push_back(chars_[o]);
      ApplyTo(e, sub, e.locked, chars_);
      last_changed = false;
      for (size_t i = 0; i < e.locked.size() && !last_changed; ++i)
        last_changed = !(chars_[e.locked[i]] == before_[i]);
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(pick));
    }
  }

  // d[a][b]: effect `among[a]` depends on `among[b]` now (L-6): applying
  // among[b] to the characteristics as they stand would change what
  // among[a] is. Tried on the state itself, which is restored after.
  std::vector<std::vector<bool>> Dependencies(const std::vector<size_t>& among,
                                              const Sublayer& sub) {
    const size_t k = among.size();
    std::vector<std::vector<bool>> d(k, std::vector<bool>(k, false));
    if (k < 2) return d;
    std::vector<WhatItIs> now(k);
    std::vector<bool> can_change(k), reads_pt(k);
    for (size_t a = 0; a < k; ++a) {
      const RefEffect& x = effects_[among[a]];
      can_change[a] = !Fixed(x, sub);
      reads_pt[a] = ReadsPt(x, sub);
      if (can_change[a]) now[a] = Describe(x, sub, chars_);
    }
    if (std::none_of(can_change.begin(), can_change.end(), [](bool c) { return c; })) return d;
    for (size_t b = 0; b < k; ++b) {
      const RefEffect& y = effects_[among[b]];
      const ObjList y_set = Affected(y, chars_);
      if (y_set.empty()) continue;
      std::vector<Characteristics> before;
      for (ObjId o : y_set) before.push_back(chars_[o]);
      ApplyTo(y, sub, y_set, chars_);
      bool changed = false, only_pt = true;
      for (size_t i = 0; i < y_set.size(); ++i) {
        if (chars_[y_set[i]] == before[i]) continue;
        changed = true;
        if (!SameButPt(chars_[y_set[i]], before[i])) only_pt = false;
      }
      if (changed)  // an effect that changes nothing has nothing depend on it
        for (size_t a = 0; a < k; ++a) {
          if (a == b || !can_change[a] || (only_pt && !reads_pt[a])) continue;
          d[a][b] = !(Describe(effects_[among[a]], sub, chars_) == now[a]);
        }
      for (size_t i = 0; i < y_set.size(); ++i) chars_[y_set[i]] = before[i];
    }
    return d;
  }
  static size_t PositionIn(const std::vector<size_t>& list, size_t effect) {
    return static_cast<size_t>(std::find(list.begin(), list.end(), effect) - list.begin());
  }

  static bool OnCycle(const std::vector<std::vector<bool>>& waits, size_t start) {
    std::vector<bool> seen(waits.size(), false);
    std::vector<size_t> todo;
    for (size_t b = 0; b < waits.size(); ++b)
      if (waits[start][b]) todo.push_back(b);
    while (!todo.empty()) {
      const size_t v = todo.back();
      todo.pop_back();
      if (v == start) return true;
      if (seen[v]) continue;
      seen[v] = true;
      for (size_t b = 0; b < waits.size(); ++b)
        if (waits[v][b]) todo.push_back(b);
    }
    return false;
  }

  // L-8: player effects and game-rule effects, after the objects, in
  // timestamp order, without dependency.
  void PlayersAndRules(ReferenceResult& out) const {
    std::vector<const RefEffect*> with_rules;
    for (const RefEffect& e : effects_) {
      if (e.origin != RefEffect::kStatic && e.origin != RefEffect::kRow) continue;
      if (e.origin == RefEffect::kStatic && s_.obj.zone[e.object] != Zone::kBattlefield) continue;
      if (!std::any_of(e.tmpl->parts.begin(), e.tmpl->parts.end(),
                       [](const Part& p) { return p.layer == PartLayer::kRule; }))
        continue;
      if (Exists(e, chars_)) with_rules.push_back(&e);
    }
    std::sort(with_rules.begin(), with_rules.end(),
              [](const RefEffect* a, const RefEffect* b) { return a->order < b->order; });
    for (Player pl = 0; pl < 2; ++pl) {
      PlayerRules r;
      int increases = 0, reductions = 0, minimum = 0;
      for (const RefEffect* e : with_rules) {
        const Player you = You(*e, chars_);
        for (const Part& p : e->tmpl->parts) {
          if (p.layer != PartLayer::kRule) continue;
          const bool to_pl =
              p.players == 2 || (p.players == 0 && pl == you) || (p.players == 1 && pl != you);
          if (!to_pl) continue;
          if (p.no_max_hand_size) r.max_hand_size = -1;  // the latest wins
          if (p.max_hand_size >= 0) r.max_hand_size = p.max_hand_size;
          increases += p.cost_increase;
          reductions += p.cost_reduce;
          minimum = std::max(minimum, p.cost_min);
          if (p.cant_lose) r.cant_lose = true;
          if (p.skip_draw) r.skip_draw = true;
          r.damage_reduction += p.damage_reduction;
          if (p.any_number_of_lands) r.any_number_of_lands = true;
          if (p.life_for_mana) r.life_for_mana = true;
          r.enter_tapped |= p.enter_tapped;
          r.untap_only_one |= p.untap_only_one;
        }
      }
      r.cost_increase = increases;
      r.cost_reduce = reductions;
      r.cost_min = minimum;
      out.rules[pl] = r;
    }
  }

  const CardDb& db_;
  const GameState& s_;
  const bool record_;
  const DependencyTiming timing_;
  ObjList objects_;  // the objects in a zone, in numbering order
  std::array<ObjList, kZoneCount> by_zone_;
  Chars chars_;  // the characteristics as computed so far
  std::vector<RefEffect> effects_;
  std::vector<Characteristics> before_;  // RunSublayer: the affected objects before an application
};

// Masks and fields as words for messages.
std::string MaskNames(uint64_t mask, int count, std::string_view (*name)(int)) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i)
    if ((mask >> i) & 1) names.emplace_back(name(i));
  return names.empty() ? "none" : absl::StrJoin(names, " ");
}

std::string SubtypeNames(const Characteristics& v) {
  std::vector<std::string> names;
  for (int i = 0; i < SubtypeCount() && i < kMaxSubtypes; ++i)
    if (v.subtypes.test(i)) names.emplace_back(SubtypeName(i));
  return names.empty() ? "none" : absl::StrJoin(names, " ");
}

std::string TextNames(const Characteristics& v) {
  std::vector<std::string> changes;
  for (int i = 0; i < v.text_count; ++i)
    changes.push_back(absl::StrCat(WordName(v.text[i].from), "->", WordName(v.text[i].to)));
  return changes.empty() ? "none" : absl::StrJoin(changes, " ");
}

std::string GrantedNames(const Characteristics& v) {
  std::vector<std::string> g;
  for (int i = 0; i < v.granted_count; ++i)
    g.push_back(absl::StrCat(v.granted[i].card, ":", v.granted[i].index));
  std::vector<std::string> c;
  for (int i = 0; i < v.combat_count; ++i)
    c.push_back(absl::StrCat(v.combat[i].card, ":", v.combat[i].index));
  return absl::StrCat("[", absl::StrJoin(g, " "), "] extra_phase ", v.extra_phase, " combat [",
                      absl::StrJoin(c, " "), "]");
}

// The first characteristic that differs: "power: engine 3, reference 2".
std::string FirstDifference(const Characteristics& engine, const Characteristics& ref) {
  auto say = [](const char* field, const auto& a, const auto& b) {
    return absl::StrCat(field, ": engine ", a, ", reference ", b);
  };
  if (engine.card != ref.card) return say("card", engine.card, ref.card);
  if (engine.mode != ref.mode) return say("mode", engine.mode, ref.mode);
  if (engine.blank != ref.blank) return say("face-down blank", engine.blank, ref.blank);
  if (engine.mana_value != ref.mana_value)
    return say("mana value", engine.mana_value, ref.mana_value);
  if (engine.controller != ref.controller)
    return say("controller", engine.controller, ref.controller);
  if (engine.text_count != ref.text_count || engine.text != ref.text)
    return say("text changes", TextNames(engine), TextNames(ref));
  if (engine.types != ref.types)
    return say("types", MaskNames(engine.types, kCardTypeCount, CardTypeName),
               MaskNames(ref.types, kCardTypeCount, CardTypeName));
  if (engine.supertypes != ref.supertypes)
    return say("supertypes", MaskNames(engine.supertypes, kSupertypeCount, SupertypeName),
               MaskNames(ref.supertypes, kSupertypeCount, SupertypeName));
  if (engine.subtypes != ref.subtypes)
    return say("subtypes", SubtypeNames(engine), SubtypeNames(ref));
  if (engine.all_creature_types != ref.all_creature_types)
    return say("all creature types", engine.all_creature_types, ref.all_creature_types);
  if (engine.colors != ref.colors)
    return say("colors", MaskNames(engine.colors, kColorCount, ColorName),
               MaskNames(ref.colors, kColorCount, ColorName));
  if (engine.keywords != ref.keywords)
    return say("keywords", MaskNames(engine.keywords, kKeywordCount, KeywordName),
               MaskNames(ref.keywords, kKeywordCount, KeywordName));
  if (engine.abilities != ref.abilities)
    return say("abilities (mask)", engine.abilities, ref.abilities);
  if (engine.land_mana != ref.land_mana)
    return say("land mana (mask)", engine.land_mana, ref.land_mana);
  if (engine.power != ref.power) return say("power", engine.power, ref.power);
  if (engine.toughness != ref.toughness) return say("toughness", engine.toughness, ref.toughness);
  return say("granted phase abilities and combat rules", GrantedNames(engine), GrantedNames(ref));
}

std::string RulesDifference(const PlayerRules& engine, const PlayerRules& ref) {
  auto say = [](const char* field, int a, int b) {
    return absl::StrCat(field, ": engine ", a, ", reference ", b);
  };
  if (engine.max_hand_size != ref.max_hand_size)
    return say("max hand size", engine.max_hand_size, ref.max_hand_size);
  if (engine.cost_increase != ref.cost_increase)
    return say("cost increase", engine.cost_increase, ref.cost_increase);
  if (engine.cost_reduce != ref.cost_reduce)
    return say("cost reduction", engine.cost_reduce, ref.cost_reduce);
  if (engine.cost_min != ref.cost_min) return say("cost minimum", engine.cost_min, ref.cost_min);
  if (engine.cant_lose != ref.cant_lose) return say("can't lose", engine.cant_lose, ref.cant_lose);
  if (engine.skip_draw != ref.skip_draw) return say("skip draw", engine.skip_draw, ref.skip_draw);
  if (engine.any_number_of_lands != ref.any_number_of_lands)
    return say("any number of lands", engine.any_number_of_lands, ref.any_number_of_lands);
  if (engine.life_for_mana != ref.life_for_mana)
    return say("life for mana", engine.life_for_mana, ref.life_for_mana);
  if (engine.enter_tapped != ref.enter_tapped)
    return say("enter tapped", engine.enter_tapped, ref.enter_tapped);
  if (engine.untap_only_one != ref.untap_only_one)
    return say("untap only one", engine.untap_only_one, ref.untap_only_one);
  return say("damage reduction", engine.damage_reduction, ref.damage_reduction);
}

// Compares what `engine_of(o)` answers for the objects `compared` lets
// through, then the rules.
template <typename EngineChars, typename EngineRules, typename Compared>
std::string Compare(const CardDb& db, const GameState& s, const ReferenceOptions& options,
                    EngineChars engine_of, EngineRules rules_of, Compared compared) {
  const ReferenceResult ref = ReferenceLayers(db, s, options);
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (!ref.computed[o] || !compared(o)) continue;
    const Characteristics& engine = engine_of(o);
    if (engine == ref.chars[o]) continue;
    ReferenceOptions traced_options = options;
    traced_options.record_effects = true;
    const ReferenceResult traced = ReferenceLayers(db, s, traced_options);
    const std::vector<std::string>& applied = traced.applied[o];
    return absl::StrCat(
        "object ", o, " (", db.cards[s.obj.card[o]].name, ", ",
        std::string(ZoneName(s.obj.zone[o])), ", ", std::string(EditionName(s.edition)), ") ",
        FirstDifference(engine, ref.chars[o]),
        "; effects applied: ", applied.empty() ? "none" : absl::StrJoin(applied, "; "));
  }
  for (Player p = 0; p < 2; ++p)
    if (!(rules_of(p) == ref.rules[p]))
      return absl::StrCat("rules of player ", p ? "B" : "A", " ",
                          RulesDifference(rules_of(p), ref.rules[p]));
  return "";
}

}  // namespace

ReferenceResult ReferenceLayers(const CardDb& db, const GameState& s,
                                const ReferenceOptions& options) {
  return Evaluator(db, s, options).Run();
}

std::string CompareWithReference(const CardDb& db, const GameState& s,
                                 const LayerCache& engine_cache, const ReferenceOptions& options) {
  return Compare(
      db, s, options, [&](ObjId o) -> const Characteristics& { return engine_cache.chars[o]; },
      [&](Player p) -> const PlayerRules& { return engine_cache.rules[p]; },
      [&](ObjId o) {
        return o < engine_cache.count &&
               (engine_cache.library_done || s.obj.zone[o] != Zone::kLibrary);
      });
}

std::string CheckGameAgainstReference(const Game& g, const ReferenceOptions& options) {
  return Compare(
      g.db(), g.state(), options, [&](ObjId o) -> const Characteristics& { return g.Chars(o); },
      [&](Player p) -> const PlayerRules& { return g.Rules(p); }, [](ObjId) { return true; });
}

namespace {
// What the layers read that ReferenceCheck watches besides the version.
// Each word goes through a full 64-bit mix (SplitMix64's finalizer): a
// plain xor-multiply of whole words makes structured inputs collide (one
// did in Computer::Signature, the layers' dependency test), and a collision
// here would skip a comparison.
uint64_t LayerInputsHash(const GameState& s) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) {
    uint64_t z = (h ^ v) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    h = z ^ (z >> 31);
  };
  mix(s.version);
  mix(static_cast<uint64_t>(s.obj.count));
  for (ObjId o = 0; o < s.obj.count; ++o) {
    mix(static_cast<uint64_t>(s.obj.zone[o]) | uint64_t{s.obj.controller[o]} << 8 |
        uint64_t{s.obj.tapped[o]} << 16 | uint64_t{s.obj.face_down[o]} << 17 |
        uint64_t{s.obj.attached_to[o]} << 24 | uint64_t{s.obj.incarnation[o]} << 40);
    mix(static_cast<uint16_t>(s.obj.p1p1[o]) |
        static_cast<uint32_t>(static_cast<uint16_t>(s.obj.m1m1[o])) << 16 |
        uint64_t{static_cast<uint16_t>(s.obj.pt[o].p1p0)} << 32 |
        uint64_t{static_cast<uint16_t>(s.obj.pt[o].m0m2)} << 48);
  }
  mix(s.effects.size());
  for (const EffectRow& r : s.effects) mix(r.active);
  return h;
}
}  // namespace

std::function<std::string(const Game&, bool*)> ReferenceCheck(const ReferenceOptions& options) {
  return [options, last = uint64_t{0}, seen = false](const Game& g,
                                                     bool* compared) mutable -> std::string {
    const uint64_t now = LayerInputsHash(g.state());
    if (compared) *compared = !(seen && now == last);
    if (seen && now == last) return "";
    seen = true;
    last = now;
    return CheckGameAgainstReference(g, options);
  };
}

}  // namespace strata
