#include "engine/layers.h"

#include <algorithm>
#include <bitset>
#include <cstdlib>
#include <limits>

#include "absl/strings/str_cat.h"
#include "engine/saturate.h"

namespace strata {
namespace {

// Steps are an edition's layers and sublayers in application order.
enum StepKind : uint8_t {
  kStepCopy,
  kStepFaceDown,
  kStepControl,
  kStepText,
  kStepType,
  kStepColor,
  kStepAbility,
  kStepPtCda,
  kStepPtSet,
  kStepPtModify,
  kStepCounters,
  kStepSwitch,
  // classic only
  kStepColorAndAbility,
  kStepClassicOther,
  kStepClassicStaticModify,
  kStepNone
};

struct EditionLayout {
  std::vector<StepKind> steps;
  std::vector<std::string> names;
};

const EditionLayout& Layout(Edition e) {
  static const EditionLayout kModern{
      {kStepCopy, kStepFaceDown, kStepControl, kStepText, kStepType, kStepColor, kStepAbility,
       kStepPtCda, kStepPtSet, kStepPtModify, kStepSwitch},
      {"1a", "1b", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d"}};
  static const EditionLayout kM10{
      {kStepCopy, kStepFaceDown, kStepControl, kStepText, kStepType, kStepColor, kStepAbility,
       kStepPtCda, kStepPtSet, kStepPtModify, kStepCounters, kStepSwitch},
      {"1a", "1b", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d", "7e"}};
  static const EditionLayout kClassic{
      {kStepCopy, kStepFaceDown, kStepControl, kStepText, kStepType, kStepColorAndAbility,
       kStepPtCda, kStepClassicOther, kStepCounters, kStepClassicStaticModify, kStepSwitch},
      {"1a", "1b", "2", "3", "4", "5", "6a", "6b", "6c", "6d", "6e"}};
  switch (e) {
    case Edition::kModern:
      return kModern;
    case Edition::kM10:
      return kM10;
    default:
      return kClassic;
  }
}

// Which step a part applies in, per edition (RULES.md L-2).
StepKind StepOf(PartLayer l, bool cda, bool from_static, Edition e) {
  const bool classic = e == Edition::kClassic;
  switch (l) {
    case PartLayer::kCopy:
      return kStepCopy;
    case PartLayer::kFaceDown:
      return kStepFaceDown;
    case PartLayer::kControl:
      return kStepControl;
    case PartLayer::kText:
      return kStepText;
    case PartLayer::kType:
      return kStepType;
    case PartLayer::kColor:
      return classic ? kStepColorAndAbility : kStepColor;
    case PartLayer::kAbility:
      return classic ? kStepColorAndAbility : kStepAbility;
    case PartLayer::kPtSet:
      if (cda) return kStepPtCda;
      return classic ? kStepClassicOther : kStepPtSet;
    case PartLayer::kPtModify:
      if (classic) return from_static ? kStepClassicStaticModify : kStepClassicOther;
      return kStepPtModify;
    case PartLayer::kCounters:
      return e == Edition::kModern ? kStepPtModify : kStepCounters;
    case PartLayer::kPtSwitch:
      return kStepSwitch;
    case PartLayer::kRule:
      return kStepNone;
  }
  return kStepNone;
}

// What a part writes and what an effect reads, as kinds of characteristic; an
// effect can only depend on another whose writes meet its reads.
enum Kind : uint8_t {
  kKType = 1,
  kKColor = 2,
  kKAbility = 4,
  kKControl = 8,
  kKPt = 16,
  kKText = 32,
  kKCopy = 64
};

uint8_t Writes(const Part& p) {
  switch (p.layer) {
    case PartLayer::kCopy:
    case PartLayer::kFaceDown:
      return 0x7F;
    case PartLayer::kControl:
      return kKControl;
    case PartLayer::kText:
      return kKText | kKAbility;
    case PartLayer::kType:
      return kKType | (p.has_set_land_types ? kKAbility : 0);
    case PartLayer::kColor:
      return kKColor;
    case PartLayer::kAbility:
      return kKAbility;
    case PartLayer::kPtSet:
    case PartLayer::kPtModify:
    case PartLayer::kPtSwitch:
    case PartLayer::kCounters:
      return kKPt;
    case PartLayer::kRule:
      return 0;
  }
  return 0;
}

uint8_t FilterReads(const Filter& f) {
  uint8_t r = 0;
  if (f.types || f.not_types || !f.subtypes.empty() || !f.not_subtypes.empty() || f.supertypes ||
      f.not_supertypes)
    r |= kKType;
  if (!f.colors.empty() || !f.not_colors.empty() || f.colorless >= 0) r |= kKColor;
  if (f.keywords || f.not_keywords || f.no_abilities >= 0) r |= kKAbility;
  if (f.controller >= 0) r |= kKControl;
  if (!f.subtypes.empty() || !f.not_subtypes.empty() || !f.colors.empty() || !f.not_colors.empty())
    r |= kKText;
  return r;
}

using ObjSet = std::bitset<kMaxObjects>;

// What a static ability's filters read of it: its object's controller
// ("you"), text changes and entry choice, from the characteristics `chs`.
FilterContext StaticContext(const GameState& s, const Characteristics* chs, ObjId object) {
  FilterContext ctx;
  ctx.source = object;
  ctx.you = chs[object].controller;
  ctx.text = &chs[object];
  ctx.choice = s.obj.choice[object];
  return ctx;
}

// One continuous effect taking part in this computation.
struct Candidate {
  enum Source : uint8_t { kStatic, kRow, kEntryCopy, kFaceDown, kCounters } source = kStatic;
  const EffectTemplate* tmpl = nullptr;
  ObjId object = kNoObj;  // the static's object, the row's source, or the pseudo-effect's object
  int ability_bit = -1;
  int row = -1;
  uint32_t ts = 0;
  bool cda = false;
  bool recount = false;  // a self-counting CDA (SelfCountingCda)
  bool simple = false;   // a simple static (LayerCache::simple)
  bool started = false;
  ObjSet affected;
  // `chars`: the characteristics being computed. A static belongs to the
  // card whose abilities its object has now (a Clone's are the copied
  // card's, L-7), not to the object's own card.
  std::string Name(const CardDb& db, const GameState& s,
                   const std::vector<Characteristics>& chars) const {
    switch (source) {
      case kStatic: {
        CardId id = chars[object].card != kNoCard ? chars[object].card : s.obj.card[object];
        const CardDef& c = db[id];
        if (ability_bit >= 0 && ability_bit < c.AbilityCount()) return c.AbilityName(ability_bit);
        if (ability_bit >= 0) return tmpl->name.empty() ? "a static ability" : tmpl->name;
        return absl::StrCat(c.name, " ", tmpl->name);
      }
      case kRow: {
        const CardDef& c = db[s.effects[row].card];
        return tmpl->name.empty() ? absl::StrCat(c.name, " effect") : tmpl->name;
      }
      case kEntryCopy:
        return absl::StrCat(db[s.obj.card[object]].name, " copy effect");
      case kFaceDown:
        return "face-down";
      case kCounters:
        return absl::StrCat("counters on ", db[s.obj.card[object]].name);
    }
    return "?";
  }
};

// Working memory reused across computations so a warm thread allocates nothing.
struct Scratch {
  std::vector<Characteristics> chars;
  std::vector<Candidate> cands;
  std::vector<int> pending, index;
  std::vector<char> deps, done, affects_known;
  std::vector<std::pair<ObjId, Characteristics>> saved;
  std::vector<int64_t> sig, trial_sig;  // Computer::Signature's, of x before and after a trial
  std::vector<std::bitset<kMaxObjects>> affects;
  std::array<std::vector<ObjId>, kZoneCount> by_zone;
  std::vector<ObjId> live;
};

class Computer {
 public:
  Computer(const CardDb& db, const GameState& s, LayerTrace* trace, Scratch& scratch)
      : db_(db),
        s_(s),
        trace_(trace),
        chars_(scratch.chars),
        cands_(scratch.cands),
        pending_(scratch.pending),
        index_(scratch.index),
        deps_(scratch.deps),
        done_(scratch.done),
        affects_known_(scratch.affects_known),
        saved_(scratch.saved),
        sig_(scratch.sig),
        trial_sig_(scratch.trial_sig),
        affects_(scratch.affects),
        by_zone_(scratch.by_zone),
        live_(scratch.live) {}

  void Run(LayerCache& out, bool with_library) {
    const int n = s_.obj.count;
    chars_.resize(n);
    with_library_ = with_library;
    Gather();
    for (ObjId o : live_) chars_[o] = OwnPrintedCharacteristics(db_, s_, o);
    cands_.clear();
    reach_ = LayerReach{};
    simple_reach_ = LayerReach{};
    simple_count_ = 0;
    // Layer 1 effects are known before anything else: they decide which
    // abilities objects have, and so which static abilities exist.
    for (ObjId o : live_) {
      if (s_.obj.copy[o].card != kNoCard || s_.obj.copy[o].blank) {
        Candidate c;
        c.source = Candidate::kEntryCopy;
        c.object = o;
        c.ts = s_.obj.timestamp[o];
        cands_.push_back(c);
      }
      if (s_.obj.face_down[o]) {
        Candidate c;
        c.source = Candidate::kFaceDown;
        c.object = o;
        c.ts = s_.obj.timestamp[o];
        cands_.push_back(c);
      }
    }
    for (int r = 0; r < static_cast<int>(s_.effects.size()); ++r) {
      const EffectRow& row = s_.effects[r];
      if (!row.active) continue;
      Candidate c;
      c.source = Candidate::kRow;
      c.tmpl = &db_[row.card].continuous[row.tmpl];
      c.row = r;
      c.object = s_.Alive(row.source) ? row.source.id : kNoObj;
      c.ts = row.timestamp;
      cands_.push_back(c);
    }
    const auto& layout = Layout(s_.edition);
    bool statics_added = false;
    for (size_t i = 0; i < layout.steps.size(); ++i) {
      StepKind step = layout.steps[i];
      if (!statics_added && step != kStepCopy && step != kStepFaceDown) {
        AddStaticsAndCounters();
        statics_added = true;
      }
      RunStep(step, layout.names[i]);
    }
    // Entries of skipped objects are stale in chars_ too: nobody reads them.
    out.Fit(n);
    for (ObjId o : live_) out.chars[o] = chars_[o];
    PlayerLayer(out);
    out.tapped_read = tapped_read_;
    out.library_done = with_library;
    out.reach = reach_;
    out.simple = simple_;
    out.simple_count = simple_count_;
    out.simple_reach = simple_reach_;
    out.count = n;
    out.version = s_.version;
    // The self-counting CDAs can be redone alone while nothing else acted
    // on their objects and no other filter could see them (their power and
    // toughness, which a recount changes, would be read). Classic layers
    // apply some type and ability effects after the CDAs, so a count
    // there may have read values that are not final: never.
    bool recountable = s_.edition != Edition::kClassic;
    holders_.ForEach(n, [&](ObjId x) {
      const Characteristics& ch = chars_[x];
      const uint8_t players = static_cast<uint8_t>((ch.controller < 2 ? 1u << ch.controller : 3u) |
                                                   1u << s_.obj.controller[x]);
      const TypeMask types = static_cast<TypeMask>(ch.types | db_[s_.obj.card[x]].types);
      if (others_.Test(x) || reach_.Sees(s_.obj.zone[x], players, types) ||
          simple_reach_.Sees(s_.obj.zone[x], players, types))
        recountable = false;
    });
    out.cda_reach = cda_reach_;
    out.cda_holders = holders_;
    out.recountable = recountable;
    out.recount_version = ~uint64_t{0};
    out.touched = others_;
  }

  // RecountSelfCdas: the holders' entries redone, every other entry as
  // `out` holds it (the caller has put the moved object's there). It works
  // on `out`'s entries in place rather than on a copy of them: only the
  // holders' entries change, each set back to its printed values before
  // anything is applied, as in a copy.
  void Recount(LayerCache& out) {
    const int n = s_.obj.count;
    with_library_ = out.library_done;
    out.Fit(n);
    // Only the zones the counts read are gathered, each when first read
    // (ForEachIn): a count reads the battlefield, and a walk of every
    // object per recount cost as much as the count.
    for (auto& objs : by_zone_) objs.clear();
    gathered_ = 0;
    std::vector<Characteristics>& chars = out.chars;
    cands_.clear();
    out.cda_holders.ForEach(n, [&](ObjId x) {
      if (Skipped(x)) return;
      chars[x] = OwnPrintedCharacteristics(db_, s_, x);
      const CardDef& card = db_[chars[x].card];
      AddStatic(card.statics[0], x, 0, s_.obj.zone[x], true);
    });
    for (StepKind step : Layout(s_.edition).steps)
      for (Candidate& c : cands_)
        if (ActsIn(c, step) && Exists(c, chars)) Apply(c, step, chars);
  }

 private:
  // The objects computed (live_), and by zone.
  void Gather() {
    for (auto& objs : by_zone_) objs.clear();
    live_.clear();
    for (ObjId o = 0; o < s_.obj.count; ++o)
      if (!Skipped(o)) {
        live_.push_back(o);
        by_zone_[static_cast<int>(s_.obj.zone[o])].push_back(o);
      }
    gathered_ = kAllZones;
  }

  // A zone's objects, as Gather finds them, in numbering order (Recount).
  void GatherZone(int z) const {
    std::vector<ObjId>& objs = by_zone_[z];
    if (z == static_cast<int>(Zone::kBattlefield)) {
      s_.battlefield.ForEach(s_.obj.count, [&](ObjId o) { objs.push_back(o); });
    } else {
      for (ObjId o = 0; o < s_.obj.count; ++o)
        if (static_cast<int>(s_.obj.zone[o]) == z && !Skipped(o)) objs.push_back(o);
    }
    gathered_ |= 1u << z;
  }

  // Objects this computation leaves out: none, and without libraries, theirs.
  bool Skipped(ObjId o) const {
    const Zone z = s_.obj.zone[o];
    return z == Zone::kNone || (z == Zone::kLibrary && !with_library_);
  }

  void AddStaticsAndCounters() {
    for (ObjId o : live_) {
      Zone z = s_.obj.zone[o];
      const Characteristics& ch = chars_[o];
      if (!ch.blank && ch.card != kNoCard) {
        const CardDef& card = db_[ch.card];
        const bool recount =
            !card.statics.empty() && card.statics[0].cda && SelfCountingCda(db_, card);
        for (int i = 0; i < static_cast<int>(card.statics.size()); ++i)
          AddStatic(card.statics[i], o, i, z, recount);
        for (const EffectTemplate& t : card.keyword_statics) AddStatic(t, o, -1, z);
      }
      if (s_.obj.p1p1[o] || s_.obj.m1m1[o]) {
        Candidate c;
        c.source = Candidate::kCounters;
        c.object = o;
        c.ts = s_.obj.counter_timestamp[o];
        cands_.push_back(c);
      }
    }
    if (s_.pt_counters) [[unlikely]]
      AddPtCounters();
  }

  // G-8.1: +1/+0 and -0/-2 counters, only in a game that put one on (out of
  // line: the loop above stays as it was for every other game).
  [[gnu::noinline, gnu::cold]] void AddPtCounters() {
    for (ObjId o : live_)
      if (!s_.obj.p1p1[o] && !s_.obj.m1m1[o] && s_.obj.pt[o] != Objects::PtCounters{}) {
        Candidate c;
        c.source = Candidate::kCounters;
        c.object = o;
        c.ts = s_.obj.counter_timestamp[o];
        cands_.push_back(c);
      }
  }

  void AddStatic(const EffectTemplate& t, ObjId o, int bit, Zone z, bool recount = false) {
    if (z != Zone::kBattlefield && !t.cda) return;  // CDAs work in every zone (L-3)
    if (recount) holders_.Set(o);
    Candidate c;
    c.recount = recount;
    c.simple = SimpleStatic(t, bit, recount);
    c.source = Candidate::kStatic;
    c.tmpl = &t;
    c.object = o;
    c.ability_bit = bit;
    c.ts = s_.obj.timestamp[o];
    c.cda = t.cda;
    cands_.push_back(c);
  }

  // An unconditional constant +N/+N from a permanent to the objects its
  // filters name, which read no tapped flag (LayerCache::simple): an object
  // it alone could see changes no entry but its own.
  bool SimpleStatic(const EffectTemplate& t, int bit, bool recount) const {
    if (t.cda || recount || bit < 0 || t.implicit_keyword >= 0 || t.affects.empty() ||
        !t.condition.Always() || t.parts.empty())
      return false;
    for (FilterId f : t.affects)
      if (db_.filter(f).tapped >= 0) return false;
    for (const Part& p : t.parts)
      if (p.layer != PartLayer::kPtModify || (p.has_power && p.power.kind != Value::kConst) ||
          (p.has_toughness && p.toughness.kind != Value::kConst))
        return false;
    return true;
  }

  // The steps a candidate acts in; statics with a `cda` flag are CDAs.
  bool ActsIn(const Candidate& c, StepKind step) const {
    switch (c.source) {
      case Candidate::kEntryCopy:
        return step == kStepCopy;
      case Candidate::kFaceDown:
        return step == kStepFaceDown;
      case Candidate::kCounters:
        return StepOf(PartLayer::kCounters, false, false, s_.edition) == step;
      default:
        break;
    }
    for (const Part& p : c.tmpl->parts)
      if (StepOf(p.layer, c.cda, c.source == Candidate::kStatic, s_.edition) == step) return true;
    return false;
  }

  // The effect's controller ("you"): a static's is its object's current one.
  Player ControllerOf(const Candidate& c, const std::vector<Characteristics>& ch) const {
    if (c.source == Candidate::kRow) return s_.effects[c.row].controller;
    return ch[c.object].controller;
  }

  Word MapWord(const Candidate& c, Word w, const std::vector<Characteristics>& ch,
               int choice_index = 0) const {
    if (w == kChoiceWord) {
      if (c.source == Candidate::kRow) return s_.effects[c.row].choice[choice_index];
      return c.object == kNoObj ? kNoWord : s_.obj.choice[c.object];
    }
    if (c.source == Candidate::kStatic) return ch[c.object].MapWord(w);
    return w;
  }

  FilterContext Context(const Candidate& c, const std::vector<Characteristics>& chs) const {
    if (c.source == Candidate::kStatic) return StaticContext(s_, chs.data(), c.object);
    FilterContext ctx;
    ctx.source = c.object;
    ctx.you = ControllerOf(c, chs);
    if (c.source == Candidate::kRow) ctx.choice = s_.effects[c.row].choice[0];
    return ctx;
  }

  // Every object-walking evaluation of a filter for `c` passes here first
  // (LayerReach): the objects it could match, by zone, type and controller.
  void Reached(const Filter& f, const Candidate& c, const std::vector<Characteristics>& chs) const {
    uint8_t players = 3;
    if (f.controller >= 0) {
      const Player you = ControllerOf(c, chs);
      if (you < 2) players = static_cast<uint8_t>(1u << (f.controller == 0 ? you : 1 - you));
    }
    (c.recount ? cda_reach_ : c.simple ? simple_reach_ : reach_).Add(f.zones, f.types, players);
  }

  bool Match(const Filter& f, ObjId o, const Candidate& c,
             const std::vector<Characteristics>& chs) const {
    if (f.tapped >= 0) tapped_read_.set(o);
    return MatchFilter(s_, chs.data(), f, o, Context(c, chs));
  }

  // Calls `f(o)` for every object in one of `zones` (a filter's: MatchFilter
  // rejects the others first), zone by zone; every caller's result is the
  // same in any order (a set, a count, a yes or no).
  template <typename F>
  void ForEachIn(uint8_t zones, F&& f) const {
    for (int z = 1; z < kZoneCount; ++z)
      if (zones >> z & 1) {
        if (!(gathered_ >> z & 1)) GatherZone(z);
        for (ObjId o : by_zone_[z]) f(o);
      }
  }

  bool AnyMatch(FilterId f, const Candidate& c, const std::vector<Characteristics>& ch) const {
    const Filter& filter = db_.filter(f);
    Reached(filter, c, ch);
    bool any = false;
    ForEachIn(filter.zones, [&](ObjId o) { any = any || Match(filter, o, c, ch); });
    return any;
  }

  bool Exists(const Candidate& c, const std::vector<Characteristics>& ch) const {
    if (c.started || c.source != Candidate::kStatic) return true;
    const Characteristics& sc = ch[c.object];
    if (sc.blank) return false;
    // A tapped artifact's abilities are off (RULES.md T-12): its static
    // abilities stop applying, player effects included. Not its CDAs,
    // which define what it is in every zone (L-3).
    if (!c.cda && Has(sc.types, kArtifact)) {
      tapped_read_.set(c.object);
      if (s_.obj.tapped[c.object]) return false;
    }
    if (c.tmpl->implicit_keyword >= 0) {
      if (!Has(sc.keywords, c.tmpl->implicit_keyword)) return false;
    } else if (!Has(sc.abilities, c.ability_bit)) {
      return false;
    }
    const Condition& cond = c.tmpl->condition;
    if (cond.source_tapped >= 0) {
      tapped_read_.set(c.object);
      if (s_.obj.tapped[c.object] != (cond.source_tapped == 1)) return false;
    }
    if (cond.you_control != kNoFilter && !AnyMatch(cond.you_control, c, ch)) return false;
    // Whose turn it is: a new turn moves the state's version (turn.cc).
    if (cond.your_turn >= 0 && (s_.active == sc.controller) != (cond.your_turn == 1)) return false;
    return true;
  }

  ObjSet AffectedNow(const Candidate& c, const std::vector<Characteristics>& ch) const {
    if (c.started) return c.affected;
    ObjSet set;
    switch (c.source) {
      case Candidate::kEntryCopy:
      case Candidate::kFaceDown:
      case Candidate::kCounters:
        set.set(c.object);
        return set;
      case Candidate::kRow: {
        const EffectRow& row = s_.effects[c.row];
        for (uint32_t i = 0; i < row.set_len; ++i) {
          ObjRef r = s_.effect_sets[row.set_begin + i];
          if (s_.Alive(r) && !Skipped(r.id)) set.set(r.id);
        }
        return set;
      }
      case Candidate::kStatic:
        break;
    }
    if (c.tmpl->affects.empty()) {
      set.set(c.object);
      return set;
    }
    for (FilterId f : c.tmpl->affects) {
      const Filter& filter = db_.filter(f);
      Reached(filter, c, ch);
      ForEachIn(filter.zones, [&](ObjId o) {
        if (!set.test(o) && Match(filter, o, c, ch)) set.set(o);
      });
    }
    return set;
  }

  int CountValue(const Value& v, const Candidate& c, const std::vector<Characteristics>& ch) const {
    int total = 0;
    TypeMask types = 0;
    const Filter& filter = db_.filter(v.filter);
    Reached(filter, c, ch);
    ForEachIn(filter.zones, [&](ObjId o) {
      if (!Match(filter, o, c, ch)) return;
      if (v.kind == Value::kCount)
        ++total;
      else if (v.kind == Value::kSumManaValue)
        total += ch[o].mana_value;
      else
        types |= ch[o].types;
    });
    if (v.kind == Value::kCardTypes) total = std::popcount(static_cast<unsigned>(types));
    return total;
  }

  int Eval(const Value& v, const Candidate& c, ObjId o,
           const std::vector<Characteristics>& ch) const {
    int base = 0;
    const EffectRow* row = c.source == Candidate::kRow ? &s_.effects[c.row] : nullptr;
    switch (v.kind) {
      case Value::kConst:
        return v.constant;
      case Value::kX:
        base = row ? row->x : 0;
        break;
      case Value::kManaValue:
        base = ch[o].mana_value;
        break;
      case Value::kLinkedPower:
      case Value::kLinkedToughness: {
        if (c.object == kNoObj) break;
        ObjRef l = s_.obj.linked[c.object];
        if (!s_.Alive(l)) break;
        others_.Set(l.id);  // its power read: a recount could change it
        base = v.kind == Value::kLinkedPower ? ch[l.id].power : ch[l.id].toughness;
        break;
      }
      case Value::kSourcePower:
      case Value::kSourceToughness:
        if (row)
          base = v.kind == Value::kSourcePower ? row->source_power : row->source_toughness;
        else if (c.object != kNoObj) {
          others_.Set(c.object);
          base = v.kind == Value::kSourcePower ? ch[c.object].power : ch[c.object].toughness;
        }
        break;
      case Value::kCount:
      case Value::kSumManaValue:
      case Value::kCardTypes:
        base = CountValue(v, c, ch);
        break;
      case Value::kEventPower:
      case Value::kEventToughness:
      case Value::kTargetPower:
      case Value::kTargetToughness:
      case Value::kTargetManaValue:
        // A spell's effect reads its first target as the spell began to
        // resolve (Blood Lust), kept in its row; a static ability has none.
        if (row)
          base = v.kind == Value::kTargetPower       ? row->target_power
                 : v.kind == Value::kTargetToughness ? row->target_toughness
                                                     : row->target_mana_value;
        break;
      case Value::kEventAmount:
      case Value::kDiedThisTurn:
      case Value::kDamageThisTurn:
      case Value::kTurnStartUntappedLands:
      case Value::kDiscarded:
      case Value::kRemoved:
      case Value::kDestroyed:
      case Value::kCountersOnSource:
        break;  // only spells and abilities resolving have these
    }
    return Scaled(v, base);
  }

  static int Scaled(const Value& v, int base) { return v.Scale(base); }

  // Whether a part's power and toughness count the same objects (Keldon
  // Warlord's "creatures you control"): then the count is made once. No
  // filter reads power or toughness, so setting the power first can't
  // change it.
  bool CountsAlike(const Part& p) const {
    const Value &pw = p.power, &tg = p.toughness;
    return p.has_power && p.has_toughness && tg.kind == pw.kind &&
           (pw.kind == Value::kCount || pw.kind == Value::kSumManaValue ||
            pw.kind == Value::kCardTypes) &&
           (tg.filter == pw.filter || db_.filter(tg.filter) == db_.filter(pw.filter));
  }

  void ApplyPart(const Part& p, const Candidate& c, ObjId o,
                 std::vector<Characteristics>& chs) const {
    Characteristics& ch = chs[o];
    switch (p.layer) {
      case PartLayer::kCopy: {
        const EffectRow& row = s_.effects[c.row];
        CopyOnto(row.copy, ch);
        break;
      }
      case PartLayer::kControl:
        ch.controller = ControllerOf(c, chs);
        break;
      case PartLayer::kText: {
        const EffectRow& row = s_.effects[c.row];
        Word from = row.choice[0], to = row.choice[1];
        if (from == kNoWord || to == kNoWord) break;
        bool found = false;
        for (int i = 0; i < ch.text_count; ++i) {
          if (ch.text[i].to == from) ch.text[i].to = to;
          if (ch.text[i].from == from) found = true;
        }
        if (!found && ch.text_count < ch.text.size()) ch.text[ch.text_count++] = {from, to};
        RemapKeywords(ch, from, to);
        break;
      }
      case PartLayer::kType: {
        if (p.has_set_types) ch.types = p.set_types;
        ch.types = (ch.types | p.add_types) & ~p.remove_types;
        ch.supertypes = (ch.supertypes | p.add_supertypes) & ~p.remove_supertypes;
        if (p.has_set_creature_types) {
          ch.subtypes &= ~CreatureTypeMask();
          ch.all_creature_types = false;
          for (Word w : p.set_creature_types) {
            Word m = MapWord(c, w, chs);
            if (m < kMaxSubtypes) ch.subtypes.set(m);
          }
        }
        if (p.all_creature_types) ch.all_creature_types = true;
        if (p.has_set_land_types) {
          // Setting a land's basic land type removes its other land types and
          // the abilities of its rules text; it taps for the new types.
          ch.subtypes &= ~LandTypeMask();
          ch.abilities = 0;
          ch.keywords = 0;
          ch.land_mana = 0;
          for (Word w : p.set_land_types) {
            Word m = MapWord(c, w, chs);
            if (m >= kMaxSubtypes) continue;
            ch.subtypes.set(m);
            if (auto col = BasicLandColor(m)) ch.land_mana |= 1u << *col;
          }
        }
        for (Word w : p.add_subtypes) {
          Word m = MapWord(c, w, chs);
          if (m >= kMaxSubtypes) continue;
          ch.subtypes.set(m);
          if (auto col = BasicLandColor(m)) ch.land_mana |= 1u << *col;
        }
        break;
      }
      case PartLayer::kColor: {
        if (p.has_set_colors) {
          ch.colors = 0;
          for (Word w : p.set_colors) {
            Word m = MapWord(c, w, chs);
            if (IsColorWord(m)) ch.colors |= 1u << (m - kColorWordBase);
          }
        }
        for (Word w : p.add_colors) {
          Word m = MapWord(c, w, chs);
          if (IsColorWord(m)) ch.colors |= 1u << (m - kColorWordBase);
        }
        break;
      }
      case PartLayer::kAbility:
        if (p.remove_all_abilities) {
          ch.abilities = 0;
          ch.keywords = 0;
          ch.land_mana = 0;
          ch.granted_count = 0;
          ch.combat_count = 0;
          ch.extra_phase = kNoCard;
        }
        SpareProtection(ch, p, c.object);
        ch.keywords = (ch.keywords | p.add_keywords) & ~p.remove_keywords;
        TidySpared(ch);
        if (p.add_colorless_mana) ch.land_mana |= 0x20;
        if (p.grant_phase >= 0 && ch.granted_count < ch.granted.size()) {
          // A granted phase cost (Energy Flux): the granting card's table holds it.
          CardId from = c.source == Candidate::kRow ? s_.effects[c.row].card : chs[c.object].card;
          ch.granted[ch.granted_count++] = {from, static_cast<uint8_t>(p.grant_phase)};
        }
        if (p.combat_rule >= 0 && ch.combat_count < ch.combat.size()) {
          // A combat rule (T-7.1): the card whose static has it holds it.
          CardId from = c.source == Candidate::kRow ? s_.effects[c.row].card : chs[c.object].card;
          ch.combat[ch.combat_count++] = {from, static_cast<uint8_t>(p.combat_rule)};
        }
        break;
      case PartLayer::kPtSet:
        if (CountsAlike(p)) {
          const int count = CountValue(p.power, c, chs);
          ch.power = SaturatedAdd<int16_t>(0, Scaled(p.power, count));
          ch.toughness = SaturatedAdd<int16_t>(0, Scaled(p.toughness, count));
          break;
        }
        if (p.has_power) ch.power = SaturatedAdd<int16_t>(0, Eval(p.power, c, o, chs));
        if (p.has_toughness) ch.toughness = SaturatedAdd<int16_t>(0, Eval(p.toughness, c, o, chs));
        break;
      case PartLayer::kPtModify:
        if (CountsAlike(p)) {
          const int count = CountValue(p.power, c, chs);
          ch.power = SaturatedAdd(ch.power, Scaled(p.power, count));
          ch.toughness = SaturatedAdd(ch.toughness, Scaled(p.toughness, count));
          break;
        }
        if (p.has_power) ch.power = SaturatedAdd(ch.power, Eval(p.power, c, o, chs));
        if (p.has_toughness)
          ch.toughness = SaturatedAdd(ch.toughness, Eval(p.toughness, c, o, chs));
        break;
      case PartLayer::kPtSwitch:
        std::swap(ch.power, ch.toughness);
        break;
      default:
        break;
    }
  }

  // Protection that doesn't remove its source (the Wards, docs/rules.md
  // T-1.5), before the part's keywords are added: a color the object had no
  // protection from, granted by a part that spares its source, is spared
  // for that source; any other grant of it (a second Ward, a printed or
  // ordinary one) leaves it spared for no one.
  static void SpareProtection(Characteristics& ch, const Part& p, ObjId source) {
    const ColorMask granted = ProtectionColors(p.add_keywords);
    if (!granted) return;
    const ColorMask had = ProtectionColors(ch.keywords);
    for (int col = 0; col < kColorCount; ++col) {
      if (!Has(granted, col)) continue;
      if (p.spares_source && source != kNoObj && !Has(had, col)) {
        ch.prot_spared |= static_cast<ColorMask>(1u << col);
        ch.prot_spared_by[col] = source;
      } else {
        ch.prot_spared &= static_cast<ColorMask>(~(1u << col));
      }
    }
  }

  // A spared color the object no longer has protection from is spared for
  // no one, and its source is forgotten (characteristics compare whole).
  static void TidySpared(Characteristics& ch) {
    ch.prot_spared &= ProtectionColors(ch.keywords);
    for (int col = 0; col < kColorCount; ++col)
      if (!Has(ch.prot_spared, col)) ch.prot_spared_by[col] = 0;
  }

  static void RemapKeywords(Characteristics& ch, Word from, Word to) {
    // Landwalk words are basic land types, protection words are colors.
    for (int col = 0; col < kColorCount; ++col) {
      int walk = kPlainswalk + col;
      if (Has(ch.keywords, walk) && BasicLandSubtype(col) == from) {
        if (auto nc = BasicLandColor(to)) {
          ch.keywords &= ~(KeywordMask{1} << walk);
          ch.keywords |= KeywordMask{1} << (kPlainswalk + *nc);
        }
      }
    }
    KeywordMask moved = 0;
    for (int col = 0; col < kColorCount; ++col) {
      int prot = kProtWhite + col;
      if (Has(ch.keywords, prot) && ColorWord(col) == from && IsColorWord(to)) {
        ch.keywords &= ~(KeywordMask{1} << prot);
        moved |= KeywordMask{1} << (kProtWhite + (to - kColorWordBase));
      }
    }
    ch.keywords |= moved;
    TidySpared(ch);
  }

  void CopyOnto(const CopySpec& spec, Characteristics& ch) const {
    Player ctl = ch.controller;
    auto text_count = ch.text_count;
    auto text = ch.text;
    ch = PrintedCharacteristics(db_, spec, ctl);
    ch.text_count = text_count;
    ch.text = text;
  }

  void ApplyPseudo(const Candidate& c, std::vector<Characteristics>& chs) const {
    ObjId o = c.object;
    switch (c.source) {
      case Candidate::kEntryCopy: {
        CopySpec spec = s_.obj.copy[o];
        CopyOnto(spec, chs[o]);
        break;
      }
      case Candidate::kFaceDown: {
        CopySpec blank;
        blank.blank = true;
        CopyOnto(blank, chs[o]);
        break;
      }
      case Candidate::kCounters: {
        int d = s_.obj.p1p1[o] - s_.obj.m1m1[o];
        int dp = d, dt = d;
        if (s_.pt_counters) [[unlikely]] {  // G-8.1: +1/+0 and -0/-2 counters
          dp += s_.obj.pt[o].p1p0;
          dt -= 2 * s_.obj.pt[o].m0m2;
        }
        chs[o].power = SaturatedAdd(chs[o].power, dp);
        chs[o].toughness = SaturatedAdd(chs[o].toughness, dt);
        break;
      }
      default:
        break;
    }
  }

  void Apply(Candidate& c, StepKind step, std::vector<Characteristics>& chs) const {
    if (!c.started) {
      c.affected = AffectedNow(c, chs);
      c.started = true;
    }
    if (!c.recount)
      for (size_t o = c.affected._Find_first(); o < kMaxObjects; o = c.affected._Find_next(o))
        others_.Set(static_cast<ObjId>(o));
    if (c.source != Candidate::kStatic && c.source != Candidate::kRow) {
      ApplyPseudo(c, chs);
      return;
    }
    for (const Part& p : c.tmpl->parts) {
      if (StepOf(p.layer, c.cda, c.source == Candidate::kStatic, s_.edition) != step) continue;
      for (size_t o = c.affected._Find_first(); o < kMaxObjects; o = c.affected._Find_next(o))
        ApplyPart(p, c, static_cast<ObjId>(o), chs);
    }
  }

  // What an effect is and does right now: existence, affected set and the
  // parameters it would apply with. "How much" it changes (two Mind Bends)
  // is not part of it; what it reads (Ingester's X) is. Written out value by
  // value and compared whole, not hashed: a 64-bit hash of it once made two
  // different signatures equal (Phyrexian Ingester's X of 0 and of -2, board
  // seed 4294974340), and the dependency went unseen.
  void Signature(const Candidate& c, StepKind step, const std::vector<Characteristics>& ch,
                 std::vector<int64_t>& out) const {
    out.clear();
    const bool exists = Exists(c, ch);
    out.push_back(exists);
    if (!exists) return;
    const ObjSet set = AffectedNow(c, ch);
    for (size_t o = set._Find_first(); o < kMaxObjects; o = set._Find_next(o))
      out.push_back(static_cast<int64_t>(o));
    out.push_back(-1);  // the set's end
    if (c.source != Candidate::kStatic && c.source != Candidate::kRow) return;
    out.push_back(ControllerOf(c, ch));
    for (const Part& p : c.tmpl->parts) {
      if (StepOf(p.layer, c.cda, c.source == Candidate::kStatic, s_.edition) != step) continue;
      for (const WordList* l : {&p.add_subtypes, &p.set_creature_types, &p.set_land_types,
                                &p.set_colors, &p.add_colors})
        for (Word w : *l) out.push_back(MapWord(c, w, ch));
      if (p.has_power || p.has_toughness) {
        for (size_t o = set._Find_first(); o < kMaxObjects; o = set._Find_next(o)) {
          if (p.has_power) out.push_back(Eval(p.power, c, static_cast<ObjId>(o), ch));
          if (p.has_toughness) out.push_back(Eval(p.toughness, c, static_cast<ObjId>(o), ch));
        }
      }
    }
  }

  uint8_t WritesOf(const Candidate& c) const {
    if (c.source == Candidate::kCounters) return kKPt;
    if (c.source == Candidate::kEntryCopy || c.source == Candidate::kFaceDown) return 0x7F;
    uint8_t w = 0;
    for (const Part& p : c.tmpl->parts) w |= Writes(p);
    return w;
  }

  // What an effect reads, split into reads of its own source (existence,
  // "you", text-changed words) and reads of other objects (its filter, values).
  struct Reads {
    uint8_t source = 0, others = 0;
  };

  Reads ReadsOf(const Candidate& c) const {
    Reads r;
    if (c.source != Candidate::kStatic && c.source != Candidate::kRow) return r;
    if (c.source == Candidate::kStatic) {
      r.source |= kKControl | kKText;  // "you" is its controller; its words may be changed
      // Does the object still have the ability? A tapped artifact's are off
      // (T-12), so its types count too.
      if (!c.started) r.source |= kKAbility | kKType;
    }
    if (!c.started && c.source == Candidate::kStatic) {
      for (FilterId f : c.tmpl->affects) r.others |= FilterReads(db_.filter(f));
      if (c.tmpl->condition.you_control != kNoFilter)
        r.others |= FilterReads(db_.filter(c.tmpl->condition.you_control)) | kKControl;
    }
    for (const Part& p : c.tmpl->parts) {
      for (const Value* v : {&p.power, &p.toughness}) {
        switch (v->kind) {
          case Value::kLinkedPower:
          case Value::kLinkedToughness:
            r.others |= kKPt;
            break;
          case Value::kSourcePower:
          case Value::kSourceToughness:
            r.source |= kKPt;
            break;
          case Value::kManaValue:
            r.others |= kKCopy;
            break;
          case Value::kCount:
          case Value::kSumManaValue:
          case Value::kCardTypes:
            r.others |= FilterReads(db_.filter(v->filter)) | kKType;
            break;
          default:
            break;
        }
      }
    }
    return r;
  }

  // Does applying `y` change `x` (RULES.md L-6)? Tried on the state itself:
  // the objects y touches are saved, y is applied, x's signature is taken,
  // and the objects are restored.
  bool DependsOn(const Candidate& x, const std::vector<int64_t>& x_sig, const Candidate& y,
                 const ObjSet& y_affects, StepKind step) {
    Candidate ycopy = y;
    ycopy.affected = y_affects;
    ycopy.started = true;
    saved_.clear();
    for (ObjId o = 0; o < s_.obj.count; ++o)
      if (ycopy.affected.test(o)) saved_.push_back({o, chars_[o]});
    Apply(ycopy, step, chars_);
    Signature(x, step, chars_, trial_sig_);
    const bool changed = trial_sig_ != x_sig;
    for (auto& [o, ch] : saved_) chars_[o] = ch;
    return changed;
  }

  void RunStep(StepKind step, const std::string& name) {
    for (int pass = 0; pass < 2; ++pass) {  // CDAs first (L-3)
      pending_.clear();
      for (int i = 0; i < static_cast<int>(cands_.size()); ++i)
        if (cands_[i].cda == (pass == 0) && ActsIn(cands_[i], step)) pending_.push_back(i);
      if (!pending_.empty()) OrderAndApply(step, name);  // most steps have nothing to do
    }
  }

  // Could any effect pending in this step depend on another at all, by
  // kinds alone (what one writes against what the other reads)? When not,
  // the step is plain timestamp order and no trial is ever run.
  bool KindsMayDepend() const {
    const size_t k = pending_.size();
    for (size_t i = 0; i < k; ++i) {
      const Reads xr = ReadsOf(cands_[pending_[i]]);
      for (size_t j = 0; j < k; ++j)
        if (i != j && (WritesOf(cands_[pending_[j]]) & (xr.others | xr.source))) return true;
    }
    return false;
  }

  // The dependency graph among the effects not yet applied or dropped, found
  // by trial on the partial state as it is now (L-6). Returns whether any
  // effect waits on another.
  bool FindDependencies(StepKind step) {
    const size_t k = index_.size();
    deps_.assign(k * k, 0);
    affects_known_.assign(k, 0);  // each affected set is found when first needed
    auto affects = [&](size_t j) -> const ObjSet& {
      if (!affects_known_[j]) affects_[j] = AffectedNow(cands_[index_[j]], chars_);
      affects_known_[j] = 1;
      return affects_[j];
    };
    bool any = false;
    for (size_t i = 0; i < k; ++i) {
      if (done_[i]) continue;
      const Candidate& x = cands_[index_[i]];
      const Reads xr = ReadsOf(x);
      bool have_sig = false;
      for (size_t j = 0; j < k; ++j) {
        if (i == j || done_[j]) continue;
        const Candidate& y = cands_[index_[j]];
        const uint8_t w = WritesOf(y);
        if (!(w & xr.others) &&
            (!(w & xr.source) || x.object == kNoObj || !affects(j).test(x.object)))
          continue;  // the prefilter: y writes nothing x reads of others, nor of its source
        if (!have_sig) Signature(x, step, chars_, sig_), have_sig = true;
        if (DependsOn(x, sig_, y, affects(j), step)) deps_[i * k + j] = 1, any = true;
      }
    }
    return any;
  }

  void OrderAndApply(StepKind step, const std::string& name) {
    const size_t k = pending_.size();
    // Dependencies are found anew before each application, on the partial
    // state the applications so far left (L-6; CR 613.8c: an application
    // can make a pending effect dependent or independent).
    const bool may_depend = k > 1 && KindsMayDepend();
    deps_.assign(k * k, 0);
    // index_[i]: the candidate of graph node i; done_[i]: applied or dropped.
    index_.assign(pending_.begin(), pending_.end());
    done_.assign(k, 0);
    if (may_depend) affects_.resize(k);
    for (size_t left = k; left > 0; --left) {
      // Effects that no longer exist (their source lost the ability) drop out.
      for (size_t i = 0; i < k; ++i) {
        if (done_[i] || Exists(cands_[index_[i]], chars_)) continue;
        done_[i] = 1;
        --left;
        if (trace_)
          trace_->entries.push_back(
              {name, cands_[index_[i]].Name(db_, s_, chars_), cands_[index_[i]].ts, false, true});
      }
      if (left == 0) break;
      const bool any = may_depend && left > 1 && FindDependencies(step);
      auto earlier = [&](size_t a, size_t b) {
        const Candidate& ca = cands_[index_[a]];
        const Candidate& cb = cands_[index_[b]];
        return ca.ts != cb.ts ? ca.ts < cb.ts : index_[a] < index_[b];
      };
      size_t first = k, pick = k;
      for (size_t i = 0; i < k; ++i) {
        if (done_[i]) continue;
        if (first == k || earlier(i, first)) first = i;
        if (!any) continue;
        bool waits = false;
        for (size_t j = 0; j < k && !waits; ++j) waits = !done_[j] && deps_[i * k + j];
        if (!waits && (pick == k || earlier(i, pick))) pick = i;
      }
      if (!any) pick = first;
      if (pick == k) {
        // Every remaining effect waits on another: a loop. Loops are ignored
        // (L-6): the earliest effect that lies on a cycle goes first.
        for (size_t i = 0; i < k; ++i)
          if (!done_[i] && OnCycle(i, k) && (pick == k || earlier(i, pick))) pick = i;
        if (pick == k) pick = first;
      }
      Candidate& c = cands_[index_[pick]];
      if (trace_)
        trace_->entries.push_back({name, c.Name(db_, s_, chars_), c.ts, pick != first, false});
      if (c.simple) {
        if (simple_count_ < LayerCache::kSimpleStatics)
          simple_[simple_count_] = {c.object, static_cast<int8_t>(c.ability_bit)};
        simple_count_ = std::min(simple_count_ + 1, LayerCache::kSimpleStatics + 1);
      }
      Apply(c, step, chars_);
      done_[pick] = 1;
    }
  }

  bool OnCycle(size_t start, size_t k) const {
    std::vector<char> seen(k, 0);
    std::vector<size_t> stack;
    for (size_t j = 0; j < k; ++j)
      if (deps_[start * k + j] && !done_[j]) stack.push_back(j);
    while (!stack.empty()) {
      size_t v = stack.back();
      stack.pop_back();
      if (v == start) return true;
      if (seen[v]) continue;
      seen[v] = 1;
      for (size_t j = 0; j < k; ++j)
        if (deps_[v * k + j] && !done_[j]) stack.push_back(j);
    }
    return false;
  }

  // Layer 8 (L-8): player effects, then game-rule effects, in timestamp
  // order; cost changes go increases, reductions, then setting.
  void PlayerLayer(LayerCache& out) {
    struct RuleEffect {
      uint32_t ts;
      const Part* part;
      Player you;
    };
    std::vector<RuleEffect> rules;
    for (auto& c : cands_) {
      if (c.source != Candidate::kStatic && c.source != Candidate::kRow) continue;
      if (c.source == Candidate::kStatic && s_.obj.zone[c.object] != Zone::kBattlefield) continue;
      if (!Exists(c, chars_)) continue;
      for (const Part& p : c.tmpl->parts)
        if (p.layer == PartLayer::kRule) rules.push_back({c.ts, &p, ControllerOf(c, chars_)});
    }
    std::stable_sort(rules.begin(), rules.end(),
                     [](const RuleEffect& a, const RuleEffect& b) { return a.ts < b.ts; });
    for (Player pl = 0; pl < 2; ++pl) {
      PlayerRules r;
      for (auto& e : rules) {
        bool applies = e.part->players == 2 || (e.part->players == 0) == (pl == e.you);
        if (!applies) continue;
        if (e.part->no_max_hand_size) r.max_hand_size = -1;
        if (e.part->max_hand_size >= 0) r.max_hand_size = e.part->max_hand_size;
        r.cost_increase += e.part->cost_increase;
        r.cost_reduce += e.part->cost_reduce;
        r.cost_min = std::max(r.cost_min, e.part->cost_min);
        r.cant_lose |= e.part->cant_lose;
        r.skip_draw |= e.part->skip_draw;
        r.damage_reduction += e.part->damage_reduction;
        r.any_number_of_lands |= e.part->any_number_of_lands;
        r.life_for_mana |= e.part->life_for_mana;
        r.enter_tapped |= e.part->enter_tapped;
        r.untap_only_one |= e.part->untap_only_one;
      }
      out.rules[pl] = r;
    }
  }

  const CardDb& db_;
  const GameState& s_;
  LayerTrace* trace_;
  std::vector<Characteristics>& chars_;
  std::vector<Candidate>& cands_;
  std::vector<int>& pending_;
  std::vector<int>& index_;
  std::vector<char>& deps_;
  std::vector<char>& done_;
  std::vector<char>& affects_known_;
  std::vector<std::pair<ObjId, Characteristics>>& saved_;
  std::vector<int64_t>&sig_, &trial_sig_;
  std::vector<ObjSet>& affects_;
  std::array<std::vector<ObjId>, kZoneCount>& by_zone_;  // this state's objects by zone
  std::vector<ObjId>& live_;         // the objects computed (not Skipped), in numbering order
  mutable ObjSet tapped_read_;       // objects whose tapped flag was read (LayerCache)
  mutable LayerReach reach_;         // what the filters evaluated could match (LayerCache)
  mutable LayerReach cda_reach_;     // the same, for the self-counting CDAs
  mutable LayerReach simple_reach_;  // the same, for the simple statics
  std::array<LayerCache::SimpleStatic, LayerCache::kSimpleStatics> simple_{};  // applied, in order
  int simple_count_ = 0;
  ObjBits holders_;           // objects with a self-counting CDA
  mutable ObjBits others_;    // objects another effect acted on or read the power of
  bool with_library_ = true;  // false: objects in libraries are left out
  static constexpr unsigned kAllZones = ~0u;
  mutable unsigned gathered_ = kAllZones;  // the zones by_zone_ holds (bit Zone)
};

}  // namespace

namespace {

// MatchFilter's subtypes and colors, the one part that calls out (a word
// an effect changed, Magical Hack): kept out of line, so the rest needs no
// saved registers (it runs a thousand times a game).
[[gnu::noinline]] bool MatchFilterWords(const Characteristics& ch, const Filter& f,
                                        const FilterContext& ctx) {
  auto map = [&](Word w) -> Word {
    if (w == kChoiceWord) return ctx.choice;
    return ctx.text ? ctx.text->MapWord(w) : w;
  };
  if (!f.subtypes.empty()) {
    bool any = false;
    for (Word w : f.subtypes) {
      Word m = map(w);
      if (m < kMaxSubtypes && ch.HasSubtype(m)) any = true;
    }
    if (!any) return false;
  }
  for (Word w : f.not_subtypes) {
    Word m = map(w);
    if (m < kMaxSubtypes && ch.HasSubtype(m)) return false;
  }
  if (!f.colors.empty()) {
    bool any = false;
    for (Word w : f.colors) {
      Word m = map(w);
      if (IsColorWord(m) && Has(ch.colors, m - kColorWordBase)) any = true;
    }
    if (!any) return false;
  }
  for (Word w : f.not_colors) {
    Word m = map(w);
    if (IsColorWord(m) && Has(ch.colors, m - kColorWordBase)) return false;
  }
  return true;
}

}  // namespace

// Every test is a plain condition, so their order is only speed's: the
// cheap ones first, the words last.
bool MatchFilter(const GameState& s, const Characteristics* chs, const Filter& f, ObjId o,
                 const FilterContext& ctx) {
  Zone z = s.obj.zone[o];
  if (!Has(f.zones, static_cast<int>(z))) return false;
  const Characteristics& ch = chs[o];
  ObjId src = ctx.source;
  if (f.self && o != src) return false;
  if (f.other && o == src) return false;
  if (f.enchanted && (src == kNoObj || s.obj.attached_to[src] != o)) return false;
  if (f.controller >= 0) {
    Player ctl = z == Zone::kBattlefield ? ch.controller : s.obj.controller[o];
    if ((ctl == ctx.you) != (f.controller == 0)) return false;
  }
  if (f.owner >= 0 && ((s.obj.owner[o] == ctx.you) != (f.owner == 0))) return false;
  if (f.types && !(ch.types & f.types)) return false;
  if (ch.types & f.not_types) return false;
  if (f.supertypes && !(ch.supertypes & f.supertypes)) return false;
  if (ch.supertypes & f.not_supertypes) return false;
  if (f.colorless >= 0 && (ch.colors == 0) != (f.colorless == 1)) return false;
  if (f.keywords && !(ch.keywords & f.keywords)) return false;
  if (ch.keywords & f.not_keywords) return false;
  if (f.no_abilities >= 0) {
    bool none = ch.abilities == 0 && ch.keywords == 0 && ch.land_mana == 0;
    if (none != (f.no_abilities == 1)) return false;
  }
  if (f.tapped >= 0 && s.obj.tapped[o] != (f.tapped == 1)) return false;
  if (f.face_down >= 0 && s.obj.face_down[o] != (f.face_down == 1)) return false;
  if (f.token >= 0 && s.obj.token[o] != (f.token == 1)) return false;
  if (f.min_power != Filter::kAnyPower && (!ch.IsCreature() || ch.power < f.min_power))
    return false;
  if (f.max_power != Filter::kAnyPower && (!ch.IsCreature() || ch.power > f.max_power))
    return false;
  if (f.name != kNoCard && (ch.blank || ch.card != f.name)) return false;
  if (f.subtypes.empty() && f.not_subtypes.empty() && f.colors.empty() && f.not_colors.empty())
    return true;
  return MatchFilterWords(ch, f, ctx);
}

Characteristics PrintedCharacteristics(const CardDb& db, const CopySpec& spec, Player controller) {
  Characteristics ch;
  ch.controller = controller;
  if (spec.blank || spec.card == kNoCard) {
    // Face down (RULES.md L-1 1b): a 2/2 creature with no name, text,
    // subtypes, mana cost or color.
    ch.blank = true;
    ch.card = spec.card;
    ch.types = 1u << kCreature;
    ch.power = ch.toughness = 2;
    return ch;
  }
  const CardDef& c = db[spec.card];
  ch.card = spec.card;
  ch.mode = spec.mode;
  ch.extra_phase = spec.keep_phase;
  ch.mana_value = c.printed_mana_value;
  ch.colors = spec.has_colors ? spec.colors : c.colors;
  ch.types = c.types;
  ch.supertypes = c.supertypes;
  ch.subtypes = c.subtypes;
  ch.keywords = c.keywords;
  ch.abilities = c.printed_abilities;
  ch.power = static_cast<int16_t>(c.power);
  ch.toughness = static_cast<int16_t>(c.toughness);
  ch.land_mana = c.printed_land_mana;
  if (spec.mode > 0 && spec.mode <= c.enters.modes.size()) {
    const EntryMode& m = c.enters.modes[spec.mode - 1];
    if (m.has_power) ch.power = static_cast<int16_t>(m.power);
    if (m.has_toughness) ch.toughness = static_cast<int16_t>(m.toughness);
    ch.keywords |= m.keywords;
    ch.types |= m.add_types;
    if (m.has_subtypes) ch.subtypes |= m.subtypes;
  }
  return ch;
}

Characteristics OwnPrintedCharacteristics(const CardDb& db, const GameState& s, ObjId o) {
  CopySpec own{s.obj.card[o]};
  if (db[own.card].enters.choose == ChoiceKind::kMode && s.obj.choice[o] != kNoWord)
    own.mode = static_cast<uint8_t>(s.obj.choice[o]);
  return PrintedCharacteristics(db, own, s.obj.controller[o]);
}

// A CDA the cache can redo alone (RecountSelfCdas): its card's only static,
// with no condition, setting its own object's power and toughness to
// constants or counts. Counts read types, colors, controllers, names (no
// filter reads power or toughness); one on tapped flags is left out, as its
// reads are tracked (LayerCache::tapped_read).
bool SelfCountingCda(const CardDb& db, const CardDef& card) {
  if (card.statics.size() != 1 || !card.keyword_statics.empty()) return false;
  const EffectTemplate& t = card.statics[0];
  if (!t.cda || !t.affects.empty() || !t.condition.Always() || t.parts.empty()) return false;
  for (const Part& p : t.parts) {
    if (p.layer != PartLayer::kPtSet) return false;
    for (const Value* v : {&p.power, &p.toughness}) switch (v->kind) {
        case Value::kConst:
          break;
        case Value::kCount:
        case Value::kSumManaValue:
        case Value::kCardTypes:
          if (db.filter(v->filter).tapped >= 0) return false;
          break;
        default:
          return false;
      }
  }
  return true;
}

void ComputeLayers(const CardDb& db, const GameState& s, LayerCache& out, LayerTrace* trace,
                   bool with_library) {
  thread_local Scratch scratch;
  Computer c(db, s, trace, scratch);
  c.Run(out, with_library || trace);  // a trace shows every effect
}

// Only through a value that counts (Context's source), or that takes the
// source's or its linked object's power (Eval); a row's affected set is
// fixed, its controller and choices its own.
bool RowReadsItsSource(const CardDb& db, const EffectRow& r) {
  for (const Part& p : db[r.card].continuous[r.tmpl].parts)
    for (const Value* v : {&p.power, &p.toughness}) switch (v->kind) {
        case Value::kLinkedPower:
        case Value::kLinkedToughness:
        case Value::kSourcePower:
        case Value::kSourceToughness:
        case Value::kCount:
        case Value::kSumManaValue:
        case Value::kCardTypes:
          return true;
        default:
          break;
      }
  return false;
}

bool ApplyRowAlone(const CardDb& db, const GameState& s, LayerCache& cache, int row) {
  if (s.edition == Edition::kClassic) return false;  // its P/T steps order rows with statics
  const EffectRow& r = s.effects[row];
  if (!r.active) return false;
  const EffectTemplate& t = db[r.card].continuous[r.tmpl];
  for (const Part& p : t.parts) {
    if (p.layer != PartLayer::kPtModify) return false;
    for (const Value* v : {&p.power, &p.toughness})
      if (v->kind != Value::kConst && v->kind != Value::kX) return false;
  }
  // The objects it affects as the computation would find them (AffectedNow).
  auto affected = [&](uint32_t i, ObjId& o) {
    const ObjRef ref = s.effect_sets[r.set_begin + i];
    if (!s.Alive(ref)) return false;
    const Zone z = s.obj.zone[ref.id];
    if (z == Zone::kNone || (z == Zone::kLibrary && !cache.library_done)) return false;
    o = ref.id;
    return true;
  };
  ObjId o = kNoObj;
  for (uint32_t i = 0; i < r.set_len; ++i)
    if (affected(i, o) && (cache.touched.Test(o) || cache.cda_holders.Test(o))) return false;
  // As Eval and ApplyPart compute them.
  auto value = [&](const Value& v) {
    if (v.kind == Value::kConst) return v.constant;
    return v.Scale(r.x);
  };
  for (uint32_t i = 0; i < r.set_len; ++i) {
    if (!affected(i, o)) continue;
    Characteristics& ch = cache.chars[o];
    for (const Part& p : t.parts) {
      if (p.has_power) ch.power = SaturatedAdd(ch.power, value(p.power));
      if (p.has_toughness) ch.toughness = SaturatedAdd(ch.toughness, value(p.toughness));
    }
    cache.touched.Set(o);
  }
  return true;
}

bool EntryFromSimpleStatics(const CardDb& db, const GameState& s, LayerCache& cache, ObjId o,
                            const Characteristics& printed) {
  if (cache.simple_count > LayerCache::kSimpleStatics) return false;
  Characteristics& ch = cache.chars[o];
  ch = printed;  // what the filters read of it: nothing else acts on it
  // The computation adds with saturation, in its own order; with every
  // constant and the printed values small, no sum saturates in any order.
  int power = printed.power, toughness = printed.toughness;
  int magnitude = std::max(std::abs(power), std::abs(toughness));
  bool affected = false;
  for (int i = 0; i < cache.simple_count; ++i) {
    const LayerCache::SimpleStatic& st = cache.simple[i];
    const EffectTemplate& t = db[cache.chars[st.object].card].statics[st.index];
    const FilterContext ctx = StaticContext(s, cache.chars.data(), st.object);
    bool matches = false;
    for (FilterId f : t.affects)
      if (MatchFilter(s, cache.chars.data(), db.filter(f), o, ctx)) {
        matches = true;
        break;
      }
    if (!matches) continue;
    affected = true;
    for (const Part& p : t.parts) {
      if (p.has_power) power += p.power.constant;
      if (p.has_toughness) toughness += p.toughness.constant;
      magnitude += std::max(std::abs(p.power.constant), std::abs(p.toughness.constant));
    }
    if (magnitude > std::numeric_limits<int16_t>::max()) return false;
  }
  ch.power = static_cast<int16_t>(power);
  ch.toughness = static_cast<int16_t>(toughness);
  if (affected)
    cache.touched.Set(o);
  else
    cache.touched.Reset(o);
  return true;
}

void RecountSelfCdas(const CardDb& db, const GameState& s, LayerCache& cache) {
  thread_local Scratch scratch;
  Computer c(db, s, nullptr, scratch);
  c.Recount(cache);
}

uint8_t LayerZones(const CardDb& db, CardId card) {
  uint8_t zones = 0;
  auto reach = [&](FilterId f) {
    if (f != kNoFilter) zones |= db.filter(f).zones;
  };
  const CardDef& c = db[card];
  for (const auto* templates : {&c.statics, &c.keyword_statics, &c.continuous})
    for (const EffectTemplate& t : *templates) {
      for (FilterId f : t.affects) reach(f);
      reach(t.condition.you_control);
      for (const Part& p : t.parts)
        for (const Value* v : {&p.power, &p.toughness}) reach(v->filter);
    }
  // The effects a spell or ability makes (rows) fix their objects with the
  // step's filter or the body's targets: the zones those reach are theirs.
  if (c.continuous.empty()) return zones;
  auto steps_reach = [&](auto& self, const std::vector<EffectStep>& steps) -> void {
    for (const EffectStep& st : steps) {
      reach(st.affects);
      self(self, st.delayed);
    }
  };
  auto body_reach = [&](auto& self, const AbilityBody& b) -> void {
    for (const TargetSpec& t : b.targets) reach(t.filter);
    steps_reach(steps_reach, b.steps);
    for (const AbilityBody& m : b.modes) self(self, m);
  };
  body_reach(body_reach, c.spell);
  body_reach(body_reach, c.enters.body);
  for (const ActivatedAbility& a : c.activated) body_reach(body_reach, a.body);
  for (const auto* triggers : {&c.triggers, &c.next_times})
    for (const TriggeredAbility& t : *triggers) body_reach(body_reach, t.body);
  for (const auto* phases : {&c.phase, &c.granted_phase})
    for (const PhaseAbility& p : *phases) body_reach(body_reach, p.body);
  return zones;
}

std::vector<std::string> EditionSteps(Edition e) {
  return Layout(e).names;
}

}  // namespace strata
