#include "tests/support/random_board.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/layers.h"
#include "engine/state.h"
#include "engine/words.h"

namespace strata {
namespace {

// A continuous template of the pool (CardDef::continuous) and the choice its
// spell or ability asks for.
struct TemplateRef {
  CardId card;
  int16_t tmpl;
  ChoiceKind choose;
};

void ScanSteps(const std::vector<EffectStep>& steps, ChoiceKind choose, CardId card,
               std::vector<TemplateRef>& out, std::vector<char>& seen) {
  for (const EffectStep& st : steps) {
    if (st.op == Op::kContinuous && st.continuous >= 0 &&
        st.continuous < static_cast<int>(seen.size()) && !seen[st.continuous]) {
      seen[st.continuous] = 1;
      out.push_back({card, static_cast<int16_t>(st.continuous), choose});
    }
    ScanSteps(st.delayed, choose, card, out, seen);
  }
}

std::vector<TemplateRef> PoolTemplates(const CardDb& db) {
  std::vector<TemplateRef> out;
  for (size_t c = 0; c < db.cards.size(); ++c) {
    const CardDef& card = db.cards[c];
    if (card.continuous.empty()) continue;
    CardId id = static_cast<CardId>(c);
    std::vector<char> seen(card.continuous.size(), 0);
    ScanSteps(card.spell.steps, card.spell.choose, id, out, seen);
    for (const ActivatedAbility& a : card.activated)
      ScanSteps(a.body.steps, a.body.choose, id, out, seen);
    for (const TriggeredAbility& t : card.triggers)
      ScanSteps(t.body.steps, t.body.choose, id, out, seen);
    // Templates no step names still get rows, with no choice.
    for (size_t t = 0; t < card.continuous.size(); ++t)
      if (!seen[t]) out.push_back({id, static_cast<int16_t>(t), ChoiceKind::kNone});
  }
  return out;
}

const std::vector<Word>& CreatureTypes() {
  static const std::vector<Word> types = [] {
    std::vector<Word> v;
    for (int t = 0; t < SubtypeCount(); ++t)
      if (SubtypeKindOf(t) == SubtypeKind::kCreature) v.push_back(static_cast<Word>(t));
    return v;
  }();
  return types;
}

Word RandomCreatureType(BoardRng& rng) {
  const auto& types = CreatureTypes();
  return types.empty() ? kNoWord : types[rng.Below(static_cast<int>(types.size()))];
}

Word RandomColorWord(BoardRng& rng) {
  return ColorWord(rng.Below(kColorCount));
}
Word RandomLandType(BoardRng& rng) {
  return static_cast<Word>(BasicLandSubtype(rng.Below(kColorCount)));
}

// Two words of one kind for a text change (or a pair choice).
std::pair<Word, Word> RandomWordPair(BoardRng& rng, bool creature_types) {
  int kind = creature_types ? 2 : rng.Below(2);
  auto pick = [&] {
    if (kind == 0) return RandomColorWord(rng);
    if (kind == 1) return RandomLandType(rng);
    return RandomCreatureType(rng);
  };
  Word a = pick(), b = pick();
  if (rng.Chance(0.8))
    for (int i = 0; i < 4 && a == b; ++i) b = pick();
  return {a, b};
}

Word RandomChoiceWord(ChoiceKind k, BoardRng& rng) {
  switch (k) {
    case ChoiceKind::kColor:
      return RandomColorWord(rng);
    case ChoiceKind::kCreatureType:
      return RandomCreatureType(rng);
    case ChoiceKind::kBasicLandType:
      return RandomLandType(rng);
    case ChoiceKind::kWordPair:
      return RandomWordPair(rng, false).first;
    case ChoiceKind::kCreatureTypePair:
      return RandomCreatureType(rng);
    default:
      return kNoWord;
  }
}

bool IsPermanentCard(const CardDef& c) {
  return !(Has(c.types, kInstant) || Has(c.types, kSorcery) || Has(c.types, kInterrupt));
}

std::vector<ObjId> InZone(const GameState& s, Zone z) {
  std::vector<ObjId> v;
  for (ObjId o = 0; o < s.obj.count; ++o)
    if (s.obj.zone[o] == z) v.push_back(o);
  return v;
}

template <typename T>
T PickFrom(const std::vector<T>& v, BoardRng& rng) {
  return v[rng.Below(static_cast<int>(v.size()))];
}

// A random object, usually a permanent.
ObjId RandomObject(const Game& g, BoardRng& rng, double battlefield = 0.8) {
  const GameState& s = g.state();
  if (rng.Chance(battlefield)) {
    auto bf = InZone(s, Zone::kBattlefield);
    if (!bf.empty()) return PickFrom(bf, rng);
  }
  return static_cast<ObjId>(rng.Below(s.obj.count));
}

// The copiable values of a random creature on the battlefield (current
// characteristics, L-7), or of any other permanent if there is no creature.
bool RandomCopySpec(const Game& g, BoardRng& rng, ObjId exclude, FilterId filter, CopySpec& out) {
  const GameState& s = g.state();
  std::vector<ObjId> creatures, any;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (o == exclude || s.obj.zone[o] != Zone::kBattlefield) continue;
    any.push_back(o);
    const Characteristics& ch = g.Chars(o);
    bool ok = ch.IsCreature();
    if (filter != kNoFilter) {
      FilterContext ctx;
      ctx.source = exclude;
      ctx.you = exclude != kNoObj ? g.Chars(exclude).controller : Player{0};
      ok = g.Matches(filter, o, ctx);
    }
    if (ok) creatures.push_back(o);
  }
  const std::vector<ObjId>& from = !creatures.empty() ? creatures : any;
  if (from.empty()) return false;
  const Characteristics& ch = g.Chars(PickFrom(from, rng));
  out = CopySpec{ch.card, ch.mode, ch.blank};
  return true;
}

// Makes the entry choice of a permanent (CardDef::enters), as FinishEntry would.
void MakeEntryChoice(Game& g, BoardRng& rng, ObjId o) {
  const CardDef& card = g.db()[g.state().obj.card[o]];
  const EntryChoice& e = card.enters;
  switch (e.choose) {
    case ChoiceKind::kNone:
      return;
    case ChoiceKind::kCopy: {
      if (e.optional && rng.Chance(0.15)) return;
      CopySpec spec;
      if (!RandomCopySpec(g, rng, o, e.filter, spec)) return;
      if (e.has_except_colors) {
        spec.has_colors = true;
        spec.colors = e.except_colors;
      }
      g.MutableState().obj.copy[o] = spec;
      return;
    }
    case ChoiceKind::kExile: {
      if (e.optional && rng.Chance(0.15)) return;
      auto exiled = InZone(g.state(), Zone::kExile);
      if (exiled.empty()) return;
      GameState& s = g.MutableState();
      s.obj.linked[o] = s.Ref(PickFrom(exiled, rng));
      return;
    }
    case ChoiceKind::kMode:
      if (e.modes.empty()) return;
      g.MutableState().obj.choice[o] =
          static_cast<uint16_t>(rng.Between(1, static_cast<int>(e.modes.size())));
      return;
    default:
      g.MutableState().obj.choice[o] = RandomChoiceWord(e.choose, rng);
      return;
  }
}

// Attaches an Aura to a random permanent its enchant filter allows (any
// other permanent if none does).
void AttachRandomly(Game& g, BoardRng& rng, ObjId aura) {
  const GameState& s = g.state();
  const CardDef& card = g.db()[s.obj.card[aura]];
  std::vector<ObjId> legal, any;
  FilterContext ctx;
  ctx.source = aura;
  ctx.you = g.Chars(aura).controller;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (o == aura || s.obj.zone[o] != Zone::kBattlefield) continue;
    any.push_back(o);
    if (card.enchant == kNoFilter || g.Matches(card.enchant, o, ctx)) legal.push_back(o);
  }
  if (!legal.empty() && rng.Chance(0.9))
    g.Attach(aura, PickFrom(legal, rng));
  else if (!any.empty())
    g.Attach(aura, PickFrom(any, rng));
}

Zone RandomOtherZone(BoardRng& rng) {
  int r = rng.Below(100);
  if (r < 35) return Zone::kGraveyard;
  if (r < 60) return Zone::kExile;
  if (r < 85) return Zone::kHand;
  return Zone::kLibrary;
}

// Sets up a permanent just put onto the battlefield: controller, tapped,
// counters, face-down, token.
void RandomizePermanent(Game& g, BoardRng& rng, ObjId o, const RandomBoardOptions& opt) {
  if (rng.Chance(opt.other_controller)) {
    GameState& s = g.MutableState();
    s.obj.controller[o] = Opponent(s.obj.owner[o]);
  }
  if (rng.Chance(opt.tapped)) g.SetTapped(o, true);
  if (rng.Chance(opt.counters)) {
    int kind = rng.Below(2);
    g.AddCounters(o, kind, rng.Between(1, 3));
    if (rng.Chance(0.3)) g.AddCounters(o, 1 - kind, rng.Between(1, 2));
  }
  if (rng.Chance(opt.face_down)) {
    GameState& s = g.MutableState();
    s.obj.face_down[o] = true;
    s.obj.timestamp[o] = s.NewTimestamp();  // L-4: turned face down
  }
  if (rng.Chance(0.05)) g.MutableState().obj.token[o] = true;
}

}  // namespace

std::string_view MutationKindName(MutationKind k) {
  static constexpr std::string_view kNames[] = {
      "move", "tap", "counters", "attach", "add_effect", "end_effect", "control", "face_down"};
  return kNames[static_cast<int>(k)];
}

int AddRandomEffectRow(Game& g, BoardRng& rng, double stale_ref) {
  const std::vector<TemplateRef> templates = PoolTemplates(g.db());
  if (templates.empty()) return -1;
  const TemplateRef& t = PickFrom(templates, rng);
  const EffectTemplate& tmpl = g.db()[t.card].continuous[t.tmpl];
  const GameState& s = g.state();
  EffectRow row;
  row.card = t.card;
  row.tmpl = t.tmpl;
  row.controller = static_cast<Player>(rng.Below(2));
  row.duration = rng.Chance(0.5) ? Duration::kEndOfTurn : Duration::kPermanent;
  row.x = static_cast<int16_t>(rng.Between(0, 5));

  // The source: usually an object with the template's card (the spell, now
  // in a graveyard, or the permanent whose ability made it).
  std::vector<ObjId> same;
  for (ObjId o = 0; o < s.obj.count; ++o)
    if (s.obj.card[o] == t.card) same.push_back(o);
  if (!same.empty() && rng.Chance(0.7))
    row.source = s.Ref(PickFrom(same, rng));
  else if (s.obj.count > 0 && rng.Chance(0.5))
    row.source = s.Ref(RandomObject(g, rng, 0.5));
  if (row.source.id != kNoObj && row.source.incarnation > 0 && rng.Chance(stale_ref))
    --row.source.incarnation;
  if (s.Alive(row.source)) {
    const Characteristics& ch = g.Chars(row.source.id);
    row.source_power = ch.power;
    row.source_toughness = ch.toughness;
  } else {
    row.source_power = static_cast<int16_t>(rng.Between(0, 6));
    row.source_toughness = static_cast<int16_t>(rng.Between(0, 6));
  }

  // Choices: the ability's, and a word pair for any text change.
  bool text = false, copy = false;
  for (const Part& p : tmpl.parts) {
    text |= p.layer == PartLayer::kText;
    copy |= p.layer == PartLayer::kCopy;
  }
  if (text || t.choose == ChoiceKind::kWordPair || t.choose == ChoiceKind::kCreatureTypePair) {
    auto [a, b] = RandomWordPair(rng, t.choose == ChoiceKind::kCreatureTypePair);
    row.choice = {a, b};
  } else if (t.choose != ChoiceKind::kNone) {
    row.choice[0] = RandomChoiceWord(t.choose, rng);
  }
  if (copy) RandomCopySpec(g, rng, kNoObj, kNoFilter, row.copy);

  // Timestamp: usually a fresh one, sometimes an earlier one (the effect was
  // created before some of the objects).
  if (rng.Chance(0.3) && s.next_timestamp > 1)
    row.timestamp = static_cast<uint32_t>(rng.Between(1, static_cast<int>(s.next_timestamp - 1)));

  // The affected set, fixed as on resolution: one target, or many.
  std::vector<ObjRef> set;
  if (s.obj.count > 0) {
    if (rng.Chance(0.65)) {
      set.push_back(s.Ref(RandomObject(g, rng, 0.9)));
    } else {
      for (ObjId o = 0; o < s.obj.count; ++o) {
        double p = s.obj.zone[o] == Zone::kBattlefield ? 0.5 : 0.1;
        if (rng.Chance(p)) set.push_back(s.Ref(o));
      }
    }
    for (ObjRef& r : set)
      if (r.incarnation > 0 && rng.Chance(stale_ref)) --r.incarnation;
  }
  g.AddEffectRow(row, set);
  return static_cast<int>(g.state().effects.size()) - 1;
}

Game MakeRandomBoard(const CardDb& db, uint64_t seed, const RandomBoardOptions& opt) {
  BoardRng rng(seed);
  GameOptions go;
  go.edition = opt.edition ? *opt.edition : static_cast<Edition>(rng.Below(3));
  go.checked_layers = opt.checked_layers;
  Game g(db, go);
  g.StartAt(Phase::kMain, static_cast<Player>(rng.Below(2)), rng.Between(1, 6));
  if (db.cards.empty()) return g;

  const int permanents = std::clamp(opt.permanents, 0, kMaxObjects);
  const int others =
      std::clamp(opt.others < 0 ? permanents / 4 : opt.others, 0, kMaxObjects - permanents);
  std::vector<CardId> permanent_cards;
  for (size_t c = 0; c < db.cards.size(); ++c)
    if (db.InPool(static_cast<CardId>(c)) && IsPermanentCard(db.cards[c]))
      permanent_cards.push_back(static_cast<CardId>(c));
  if (permanent_cards.empty())
    for (size_t c = 0; c < db.cards.size(); ++c) permanent_cards.push_back(static_cast<CardId>(c));

  // Zones, shuffled: objects are created (and so timestamped) in random order.
  std::vector<Zone> zones(permanents, Zone::kBattlefield);
  for (int i = 0; i < others; ++i) zones.push_back(RandomOtherZone(rng));
  for (int i = static_cast<int>(zones.size()) - 1; i > 0; --i)
    std::swap(zones[i], zones[rng.Below(i + 1)]);
  for (Zone z : zones) {
    // Permanents come from the permanent cards; other zones from the whole pool.
    CardId card = z == Zone::kBattlefield
                      ? PickFrom(permanent_cards, rng)
                      : static_cast<CardId>(rng.Below(static_cast<int>(db.cards.size())));
    // A token's definition (G-12) is no card: a token is made, never dealt.
    if (!db.InPool(card)) card = PickFrom(permanent_cards, rng);
    g.AddObject(card, static_cast<Player>(rng.Below(2)), z);
  }

  // Flags, counters and entry choices, object by object in random order.
  const int n = g.state().obj.count;
  std::vector<ObjId> order(n);
  for (int i = 0; i < n; ++i) order[i] = static_cast<ObjId>(i);
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[rng.Below(i + 1)]);
  for (ObjId o : order) {
    if (g.state().obj.zone[o] == Zone::kBattlefield) {
      RandomizePermanent(g, rng, o, opt);
    } else if (rng.Chance(0.05)) {
      g.AddCounters(o, 0, rng.Between(1, 2));  // counters that stay on a card (Skullbriar)
    }
  }
  for (ObjId o : order)
    if (g.state().obj.zone[o] == Zone::kBattlefield) MakeEntryChoice(g, rng, o);
  for (ObjId o : order) {
    if (g.state().obj.zone[o] != Zone::kBattlefield) continue;
    if (db[g.state().obj.card[o]].enchant != kNoFilter && rng.Chance(0.9))
      AttachRandomly(g, rng, o);
  }
  for (int i = 0; i < opt.effects; ++i) AddRandomEffectRow(g, rng, opt.stale_ref);
  return g;
}

Mutation ApplyRandomMutation(Game& g, BoardRng& rng) {
  Mutation m;
  m.kind = static_cast<MutationKind>(rng.Below(static_cast<int>(MutationKind::kCount)));
  const GameState& s = g.state();
  const CardDb& db = g.db();
  auto name = [&](ObjId o) { return absl::StrCat(db[s.obj.card[o]].name, "#", o); };

  if (m.kind == MutationKind::kAttach) {
    std::vector<ObjId> auras;
    for (ObjId o = 0; o < s.obj.count; ++o)
      if (s.obj.zone[o] == Zone::kBattlefield && db[s.obj.card[o]].enchant != kNoFilter)
        auras.push_back(o);
    if (auras.empty()) {
      m.kind = MutationKind::kMove;
    } else {
      ObjId aura = PickFrom(auras, rng);
      m.object = aura;
      if (rng.Chance(0.1)) {
        g.Attach(aura, kNoObj);
        m.what = absl::StrCat("detach ", name(aura));
      } else {
        ObjId before = s.obj.attached_to[aura];
        AttachRandomly(g, rng, aura);
        if (s.obj.attached_to[aura] == before && before != kNoObj)
          g.Attach(aura, before);  // reattach
        ObjId to = s.obj.attached_to[aura];
        m.what = absl::StrCat("attach ", name(aura), " to ", to == kNoObj ? "nothing" : name(to));
        if (to == kNoObj) g.Attach(aura, kNoObj);  // nothing to attach to: still a new timestamp
      }
      return m;
    }
  }
  if (m.kind == MutationKind::kEndEffect) {
    std::vector<int> active;
    for (int r = 0; r < static_cast<int>(s.effects.size()); ++r)
      if (s.effects[r].active) active.push_back(r);
    if (active.empty()) {
      m.kind = MutationKind::kAddEffect;
    } else {
      int r = PickFrom(active, rng);
      g.EndEffect(r);
      m.what = absl::StrCat("end effect row ", r, " (", db[s.effects[r].card].name, ")");
      return m;
    }
  }
  if (m.kind == MutationKind::kAddEffect) {
    int r = AddRandomEffectRow(g, rng);
    if (r >= 0) {
      m.what = absl::StrCat("add effect row ", r, " (", db[s.effects[r].card].name, " template ",
                            s.effects[r].tmpl, ", ", s.effects[r].set_len, " affected)");
      return m;
    }
    m.kind = MutationKind::kTap;
  }
  if (m.kind == MutationKind::kFaceDown) {
    auto bf = InZone(s, Zone::kBattlefield);
    if (bf.empty()) {
      m.kind = MutationKind::kTap;
    } else {
      ObjId o = PickFrom(bf, rng);
      GameState& ms = g.MutableState();
      ms.obj.face_down[o] = !ms.obj.face_down[o];
      ms.obj.timestamp[o] = ms.NewTimestamp();  // L-4: turned face up or down
      m.object = o;
      m.what = absl::StrCat("turn ", name(o), ms.obj.face_down[o] ? " face down" : " face up");
      return m;
    }
  }

  ObjId o = RandomObject(g, rng);
  m.object = o;
  switch (m.kind) {
    case MutationKind::kMove: {
      Zone from = s.obj.zone[o];
      static constexpr Zone kZones[] = {Zone::kLibrary, Zone::kHand, Zone::kBattlefield,
                                        Zone::kGraveyard, Zone::kExile};
      Zone to = from;
      while (to == from) to = kZones[rng.Below(5)];
      // Moving onto the battlefield is the common case for a changing board.
      if (from != Zone::kBattlefield && rng.Chance(0.4)) to = Zone::kBattlefield;
      g.MoveTo(o, to, s.obj.owner[o]);
      m.what = absl::StrCat("move ", name(o), " from ", std::string(ZoneName(from)), " to ",
                            std::string(ZoneName(to)));
      if (to == Zone::kBattlefield) {
        if (rng.Chance(0.3)) {
          GameState& ms = g.MutableState();
          ms.obj.controller[o] = Opponent(ms.obj.owner[o]);
        }
        MakeEntryChoice(g, rng, o);
        if (db[s.obj.card[o]].enchant != kNoFilter) AttachRandomly(g, rng, o);
      }
      break;
    }
    case MutationKind::kTap:
      g.SetTapped(o, !s.obj.tapped[o]);
      m.what = absl::StrCat(s.obj.tapped[o] ? "tap " : "untap ", name(o));
      break;
    case MutationKind::kCounters: {
      int kind = rng.Below(2);
      int have = kind == 0 ? s.obj.p1p1[o] : s.obj.m1m1[o];
      int n = have > 0 && rng.Chance(0.3) ? -1 : rng.Between(1, 3);
      g.AddCounters(o, kind, n);
      m.what = absl::StrCat(n > 0 ? "add " : "remove ", n > 0 ? n : -n,
                            kind == 0 ? " +1/+1" : " -1/-1", " counter(s) on ", name(o));
      break;
    }
    case MutationKind::kControl: {
      GameState& ms = g.MutableState();
      ms.obj.controller[o] = Opponent(ms.obj.controller[o]);
      m.what = absl::StrCat("base controller of ", name(o), " becomes ", ms.obj.controller[o]);
      break;
    }
    default:
      g.SetTapped(o, !s.obj.tapped[o]);
      m.kind = MutationKind::kTap;
      m.what = absl::StrCat(s.obj.tapped[o] ? "tap " : "untap ", name(o));
      break;
  }
  return m;
}

}  // namespace strata
