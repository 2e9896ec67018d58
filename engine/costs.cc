// Costs (RULES.md T-10, L-8, T-8): mana sources and automatic payment
// (mana abilities are not interrupted), a spell's total cost after cost
// effects, and "counter it unless its controller pays N" (the kUnlessPay frame).
// Scenarios: tests/scenarios/t10_*, l8_*, t8_power_sink_*.

#include <atomic>
#include <bit>

#include "engine/game_internal.h"

namespace strata {

bool Game::HasManaAbility(ObjId o) const {
  const Characteristics& ch = Chars(o);
  if (ch.land_mana) return true;
  if (ch.blank || ch.card == kNoCard) return false;
  const CardDef& card = (*db_)[ch.card];
  for (int i = 0; i < static_cast<int>(card.activated.size()); ++i)
    if (card.activated[i].mana_ability && Has(ch.abilities, card.ActivatedBit(i))) return true;
  return false;
}

void Game::ManaSources(Player p, ObjId excluding, std::vector<ManaSource>& sources) const {
  sources.clear();
  const GameState& s = state_;
  // Lands first, so creatures stay untapped when they are not needed: one
  // walk over the permanents that make mana, the other sources kept aside
  // and put behind.
  thread_local std::vector<ManaSource> others;  // no allocation once warm
  others.clear();
  ActivatablePermanents().mana[p].ForEach(s.obj.count, [&](ObjId o) {
    if (s.obj.tapped[o] || o == excluding) return;
    const Characteristics& ch = PermanentChars(o);
    if (ch.IsCreature() && SummoningSick(o)) return;  // only a creature is ever sick
    // T-13: not before its phase cost is handled.
    if (!turn_.phase_todo.empty() && PhaseCostPending(o)) return;
    ManaSource made;
    MakesMana(*db_, ch, made);
    // T-10.1: a color a land an opponent controls could make (Fellwar
    // Stone); none while they control no such land.
    if (turn_.computed_mana_cards && made.colors == 0 && !made.colorless) [[unlikely]] {
      made.colors = OpponentLandColors(ch.controller);
      if (made.colors == 0) return;
    }
    made.object = o;
    auto& to = Has(ch.types, kLand) ? sources : others;
    to.push_back(made);
    if (made.amount > 1) [[unlikely]]
      to.insert(to.end(), made.amount - 1, made);  // one entry per mana it makes
    // T-10.1: the mana triggered mana abilities add as it is tapped, with
    // its own (Mana Flare, Wild Growth), one entry each beside its own.
    if (turn_.mana_trigger_cards && Has(ch.types, kLand)) [[unlikely]]
      ManaTriggerEntries(o, made, &to);
  });
  sources.insert(sources.end(), others.begin(), others.end());
  // T-10.1: Channel's "pay 1 life: add {C}", one entry (object none) per
  // life above 1: the automatic payment never pays its player's last life.
  if (turn_.mana_rule_cards && Rules(p).life_for_mana) [[unlikely]] {
    const int n = std::clamp(s.players[p].life - 1, 0, 20);
    sources.insert(sources.end(), n, ManaSource{kNoObj, 0, true, 1});
  }
}

void Game::NoteManaCard(const CardDef& card) {
  turn_.mana_rule_cards |= (card.mana_cards & CardDef::kManaRule) != 0;
  turn_.computed_mana_cards |= (card.mana_cards & CardDef::kComputedMana) != 0;
  turn_.turn_start_lands_cards |= (card.mana_cards & CardDef::kTurnStartLands) != 0;
  turn_.manual_mana_cards |= (card.mana_cards & CardDef::kManualMana) != 0;
  turn_.any_player_cards |= (card.mana_cards & CardDef::kAnyPlayer) != 0;           // G-8.4
  turn_.dealt_to_player_cards |= (card.mana_cards & CardDef::kDealtToPlayer) != 0;  // T-4.2
}

int Game::ManaTriggerEntries(ObjId o, const ManaSource& made, std::vector<ManaSource>* to,
                             std::vector<std::pair<CardId, int>>* fired) const {
  const GameState& s = state_;
  const Player owner_of_tap = Chars(o).controller;
  int n = 0;
  ActivatablePermanents().triggering.ForEach(s.obj.count, [&](ObjId t) {
    const Characteristics& ch = Chars(t);
    if (ch.blank || ch.card == kNoCard) return;
    if (Has(ch.types, kArtifact) && s.obj.tapped[t]) return;  // off while tapped (T-12)
    const CardDef& card = (*db_)[ch.card];
    for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i) {
      const TriggeredAbility& tr = card.triggers[i];
      if (!tr.mana_trigger || !Has(ch.abilities, card.TriggerBit(i))) continue;
      if (tr.player >= 0 && (owner_of_tap == ch.controller) != (tr.player == 0)) continue;
      if (!tr.phase.empty() && tr.phase != PhaseName(s.phase)) continue;
      if (tr.filter != kNoFilter &&
          !Matches(tr.filter, o, ContextFor(t, ch.controller, s.obj.choice[t])))
        continue;
      if (fired) fired->push_back({ch.card, card.TriggerBit(i)});
      for (const EffectStep& st : tr.body.steps) {
        ManaSource m = made;
        m.object = o;
        m.amount = 1;
        if (!st.mana_event) {
          m.colors = static_cast<ColorMask>(st.mana_any ? 0x1F : st.mana_colors);
          m.colorless = st.mana_colorless;
        }
        for (int k = 0; k < st.amount.constant; ++k) {
          ++n;
          if (to) to->push_back(m);
        }
      }
    }
  });
  return n;
}

void Game::NoteManaAbilityUsed(ObjId o) {
  const Characteristics& ch = Chars(o);
  if (ch.land_mana || ch.card == kNoCard) return;  // a land type's ability is no card's
  const CardDef& card = (*db_)[ch.card];
  for (int k = 0; k < static_cast<int>(card.activated.size()); ++k)
    if (card.activated[k].mana_ability) {
      Used(ch.card, card.ActivatedBit(k));
      return;
    }
}

void Game::NoteManaTriggersUsed(ObjId land, const ManaSource& made) {
  if (!trace_.usage || !turn_.mana_trigger_cards) return;
  thread_local std::vector<std::pair<CardId, int>> fired;
  fired.clear();
  ManaTriggerEntries(land, made, nullptr, &fired);
  for (auto [card, bit] : fired) Used(card, bit);
}

int Game::ManaOnTapExtraCounted(ObjId o, ColorMask* colors) const {
  ManaSource made;
  if (!MakesMana(*db_, Chars(o), made)) return 0;
  thread_local std::vector<ManaSource> extra;
  extra.clear();
  const int n = ManaTriggerEntries(o, made, &extra);
  for (const ManaSource& m : extra) *colors |= m.colors;
  return n;
}

ColorMask Game::OpponentLandColors(Player p) const {
  ColorMask colors = 0;
  state_.ForEachPermanent([&](ObjId o) {
    const Characteristics& ch = Chars(o);
    if (ch.controller == p || !Has(ch.types, kLand)) return;
    ManaSource made;
    if (MakesMana(*db_, ch, made)) colors |= made.colors;
  });
  return colors;
}

void Game::TapForMana(ObjId o) {
  tapping_for_mana_ = true;
  Tap(o, true);
  tapping_for_mana_ = false;
}

// Drain Power (T-10.1): each untapped land of player p with a mana ability
// is tapped for mana, one at a time; its mana (the first color it can make)
// and that of triggered mana abilities (Mana Flare) go to p's pool.
void Game::TapLandsForMana(Player p) {
  thread_local std::vector<ObjId> lands;
  lands.clear();
  state_.ForEachPermanent([&](ObjId o) {
    const Characteristics& ch = Chars(o);
    if (ch.controller == p && Has(ch.types, kLand) && !state_.obj.tapped[o]) lands.push_back(o);
  });
  std::vector<ManaSource> made_all;
  for (ObjId o : lands) {
    ManaSource made;
    if (state_.obj.tapped[o] || !MakesMana(*db_, Chars(o), made)) continue;
    made.object = o;
    made_all.assign(made.amount, made);
    if (turn_.mana_trigger_cards) ManaTriggerEntries(o, made, &made_all);
    NoteManaTriggersUsed(o, made);  // as it is untapped, as Pay counts
    TapForMana(o);
    for (const ManaSource& m : made_all) {
      const int c = m.colorless ? 5 : std::countr_zero(static_cast<unsigned>(m.colors | 0x20));
      state_.players[p].pool[c] = SaturatedAdd(state_.players[p].pool[c], 1);
    }
    Note(LogKind::kMana, p, o, kNoObj, 1,
         [&] { return std::string(absl::StrCat(Who(p), " taps ", ObjectName(o), " for mana")); });
  }
}

bool Game::ManaOf(const Characteristics& ch, ManaSource& made) const {
  return MakesMana(*db_, ch, made);
}

// Whether player p's kept supply is still what a count would find: nothing
// it reads moved. A pending phase cost (T-13) keeps its source out until
// handled, so with any pending the supply is counted each time.
bool Game::KeptManaGood(Player p) const {
  const KeptMana& k = kept_mana_[p];
  return k.version == state_.version && k.epoch == mana_epoch_ &&
         k.supply.pool == state_.players[p].pool && turn_.phase_todo.empty() &&
         !turn_.mana_rule_cards && !turn_.computed_mana_cards;  // T-10.1: life, others' lands
}

// A number no count of any game's supply has had: each thread takes its
// own range (2^40 counts) from a shared counter, once.
static uint64_t NewManaStamp() {
  static std::atomic<uint64_t> ranges{0};
  thread_local uint64_t next = (ranges.fetch_add(1) + 1) << 40;
  return next++;
}

const ManaSupply& Game::KeptSupply(Player p) const {
  KeptMana& k = kept_mana_[p];
  if (!KeptManaGood(p)) {
    ManaSources(p, kNoObj, k.sources);
    CountSupply(state_.players[p].pool, k.sources, k.supply);
    k.version = state_.version;
    k.epoch = mana_epoch_;
    k.stamp = NewManaStamp();
  } else if (opt_.checked_layers && layer_mismatch_.empty()) {
    layer_mismatch_ = CheckKeptMana(p);
  }
  k.supply.sources = &k.sources;  // a copied game's own, not the original's
  return k.supply;
}

std::string Game::CheckKeptMana(Player p) const {
  if (!KeptManaGood(p)) return "";  // not taken as good: the next CanPay counts again
  static thread_local std::vector<ManaSource> fresh;
  ManaSources(p, kNoObj, fresh);
  const std::vector<ManaSource>& kept = kept_mana_[p].sources;
  if (fresh == kept) return "";
  return absl::StrCat("kept mana sources of player ", p ? "B" : "A", " (", kept.size(),
                      ") differ from a fresh count (", fresh.size(), ")");
}

bool Game::CanPay(Player p, const ManaCost& cost, int x, ObjId excluding) const {
  // The sources excluding one are the supply's without it (ManaSources
  // only skips it), so the kept supply serves abilities that tap their
  // source too.
  return PaymentExists(cost, x, KeptSupply(p), excluding);
}

bool Game::Pay(Player p, const ManaCost& cost, int x, ObjId excluding) {
  // Buffers kept per thread (no allocation once warm): tapping below only
  // records occurrences, it never pays another cost.
  static thread_local std::vector<ManaSource> sources;
  static thread_local std::vector<int> tap;
  ManaSources(p, excluding, sources);
  std::array<int, 6> after;
  if (!PlanPayment(cost, x, state_.players[p].pool, sources, &tap, &after)) return false;
  if (turn_.mana_trigger_cards || turn_.mana_rule_cards) [[unlikely]]
    return PayWith(p, sources, tap, after);
  // Mana abilities are not interrupted (T-10): they add mana at once. A
  // source of N mana is N entries: tapped once, the mana its payment did
  // not use goes to the pool (Sol Ring for {1}: one {C} left, burnt at the
  // phase's end unless spent). `tap` is in the sources' order, so a
  // source's entries are side by side.
  for (size_t k = 0; k < tap.size(); ++k) {
    const int i = tap[k];
    if (k > 0 && sources[tap[k - 1]].object == sources[i].object) continue;
    int used = 0;
    for (size_t j = k; j < tap.size() && sources[tap[j]].object == sources[i].object; ++j) ++used;
    if (const int left = sources[i].amount - used; left > 0) {
      const int c =
          sources[i].colorless ? 5 : std::countr_zero(static_cast<unsigned>(sources[i].colors));
      after[c] = SaturatedAdd(after[c], left);
    }
    // Its use is counted as it was untapped: tapped, an artifact's
    // abilities are off (T-12), and with them the mana it makes may go.
    if (trace_.usage) [[unlikely]]
      NoteManaAbilityUsed(sources[i].object);
    if (turn_.mana_tap_cards) [[unlikely]]
      TapForMana(sources[i].object);  // T-10.1: triggers see a tap for mana
    else
      Tap(sources[i].object, true);
    Note(LogKind::kMana, p, sources[i].object, kNoObj, 1, [&] {
      return std::string(
          absl::StrCat(Who(p), " taps ", ObjectName(sources[i].object), " for mana"));
    });
  }
  state_.players[p].pool = after;
  return true;
}

// Pay's way in a game with triggered mana abilities or Channel (T-10.1):
// a permanent's entries may make different kinds of mana (Wild Growth's {G}
// on a Mountain), so what a tapped permanent's unused entries make goes to
// the pool entry by entry; the life entries (object none) are paid in life.
bool Game::PayWith(Player p, const std::vector<ManaSource>& sources, const std::vector<int>& tap,
                   std::array<int, 6> after) {
  thread_local std::vector<char> used;
  used.assign(sources.size(), 0);
  for (int i : tap) used[i] = 1;
  int life = 0;
  for (size_t i = 0; i < sources.size();) {
    size_t j = i;
    int n = 0;
    for (; j < sources.size() && sources[j].object == sources[i].object; ++j) n += used[j];
    const ObjId o = sources[i].object;
    if (n > 0 && o == kNoObj) {
      life += n;
    } else if (n > 0) {
      for (size_t k = i; k < j; ++k) {
        if (used[k]) continue;
        const int c = sources[k].colorless
                          ? 5
                          : std::countr_zero(static_cast<unsigned>(sources[k].colors | 0x20));
        after[c] = SaturatedAdd(after[c], 1);
      }
      if (trace_.usage) [[unlikely]] {
        NoteManaAbilityUsed(o);  // as Pay counts its use: before the tap
        ManaSource made;
        if (Has(Chars(o).types, kLand) && MakesMana(*db_, Chars(o), made))
          NoteManaTriggersUsed(o, made);
      }
      if (turn_.mana_tap_cards)
        TapForMana(o);
      else
        Tap(o, true);
      Note(LogKind::kMana, p, o, kNoObj, 1,
           [&] { return std::string(absl::StrCat(Who(p), " taps ", ObjectName(o), " for mana")); });
    }
    i = j;
  }
  state_.players[p].pool = after;
  if (life > 0) {
    Note(LogKind::kMana, p, kNoObj, kNoObj, life,
         [&] { return std::string(absl::StrCat(Who(p), " pays ", life, " life for mana")); });
    LoseLife(p, life);
  }
  return true;
}

ManaCost Game::TotalCost(const StackItem& item) const {
  const CardDef& card = (*db_)[item.body_card];
  ManaCost c;
  switch (item.from) {
    case BodySource::kSpell:
      c = card.cost;
      break;
    case BodySource::kActivated:
      c = card.activated[item.ability].cost;
      break;
    default:
      return c;
  }
  if (const AbilityBody* b = ModeBody(item)) {
    // Extra targets cost extra (Fireball).
    int extra = -1;
    // (T-8.5: exactly X targets have no extra cost, and only they pass 4.)
    for (int i = 0; i < std::min<int>(item.target_count, 4); ++i) extra += item.target_slot[i] == 0;
    if (!b->targets.empty() && extra > 0) AddCost(c, b->targets[0].extra_target_cost, extra);
  }
  if (item.from != BodySource::kSpell) return c;
  // L-8: increases, then reductions, then setting a minimum.
  const PlayerRules& r = Rules(item.controller);
  c.generic += r.cost_increase;
  c.generic = std::max(0, c.generic - r.cost_reduce);
  int total = c.ManaValue() + c.x_count * item.x;
  if (total < r.cost_min) c.generic += r.cost_min - total;
  return c;
}

const ManaCost& Game::ProbeSpellCost(const StackItem& probe, ManaCost& scratch) const {
  const PlayerRules& r = Rules(probe.controller);
  // Extra targets cost from the second on: a probe has none chosen.
  if (probe.target_count < 2 && r.PrintedCosts()) return (*db_)[probe.body_card].cost;
  scratch = TotalCost(probe);
  return scratch;
}

// "Counter target spell unless its controller pays N" (Power Sink): the
// spell's controller decides (the frame: UnlessPayFrame).
void Game::RunUnlessPay(Frame& f) {
  const ObjId card = f.unless_pay.card;
  const int32_t amount = f.unless_pay.amount;
  if (state_.obj.zone[card] != Zone::kStack ||
      state_.obj.incarnation[card] != f.unless_pay.incarnation) {
    timing_.frames.pop_back();
    return;
  }
  Player p = state_.obj.controller[card];
  ManaCost cost;
  cost.generic = amount;
  timing_.decision.actions.clear();
  if (opt_.free_mana || CanPay(p, cost, 0, kNoObj))
    timing_.decision.actions.push_back({ActionKind::kYes, card, 0, amount});
  timing_.decision.actions.push_back({ActionKind::kNo, card, 0, amount});
  Decide(DecisionKind::kOptionalCost, p);
}

void Game::ApplyUnlessPay(Frame& /*f*/, const Action& a) {
  timing_.frames.pop_back();
  if (a.kind == ActionKind::kYes) {
    ManaCost cost;
    cost.generic = a.value;
    if (!opt_.free_mana) Pay(timing_.decision.player, cost, 0, kNoObj);
    return;
  }
  // Not paid: countered, and its controller taps all lands with mana
  // abilities and loses all unspent mana (Power Sink).
  // The taps are an effect's, held like one (E-1, E-3).
  CounterSpell(a.object);
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& lands = borrowed.v;
  for (ObjId o = 0; o < state_.obj.count; ++o)
    if (state_.obj.zone[o] == Zone::kBattlefield &&
        Chars(o).controller == timing_.decision.player && Has(Chars(o).types, kLand) &&
        HasManaAbility(o))
      lands.push_back(o);
  EffectTaps(lands, /*tapped=*/true);
  state_.players[timing_.decision.player].pool = {};
  Audit(AuditPoint::kUnlessPayRefused, timing_.decision.player);
}

}  // namespace strata
