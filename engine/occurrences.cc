// Occurrences (RULES.md E-1, E-5, E-7) and the state check (T-1.5).
// Everything that happens in a game is recorded as an occurrence: "before"
// responses are collected before it happens, "when" and "after" ones as it
// happens (E-1); objects that one effect or one state check moves leave
// together and each sees the others go, with last known values (E-5); a gain
// or loss of zero is none (E-7). The state check removes what it must and
// ends the game when a player lost.
// Scenarios: tests/scenarios/e5_*, t1_state_check_*, t1_life_*, t1_both_*.

#include "engine/game_internal.h"

namespace strata {

Occurrence Game::OccurrenceOf(EventKind kind, Player p, ObjId o) const {
  Occurrence e;
  FillOccurrence(e, kind, p, o);
  return e;
}

void Game::FillOccurrence(Occurrence& e, EventKind kind, Player p, ObjId o) const {
  e.kind = kind;
  e.player = p;
  e.object = o;
  if (o != kNoObj) {
    e.last = Chars(o);
    e.incarnation = state_.obj.incarnation[o];
  }
}

int Game::Record(const Occurrence& e) {
  const int index = EventEnd();
  occ_.events.push_back(e);
  if (occ_.events.back().group < 0) occ_.events.back().group = index;  // an occurrence of its own
  return index;
}

// An occurrence is read again only by the triggers it set off: while one
// is queued (E-4) or its item is on a batch, being cast or resolving, or
// waits for the next upkeep, together with the rest of its group (E-5).
// Every other one is settled: its triggers were collected as it happened,
// and an invariant checker saw it at the decision now answered. Dropping
// the settled ones keeps the log, which every copy of the game carries (mc
// copies one per rollout), at the few occurrences still in play instead of
// the thousand of a long game. Numbers stay: Event(n) is occurrence n.
void Game::DropSettledOccurrences() {
  int keep = EventEnd();
  auto need = [&](int event) {
    if (event >= occ_.first_event) keep = std::min(keep, Event(event).group);
  };
  auto need_item = [&](int32_t item) {
    if (item >= 0 && item < static_cast<int>(stack_.items.size())) need(stack_.items[item].event);
  };
  for (const QueuedTrigger& q : occ_.queued) need(q.event);
  for (int i : stack_.batch) need_item(i);
  for (int i : stack_.ibatch) need_item(i);
  for (const Frame& f : timing_.frames) {
    if (f.kind == FrameKind::kCast) need_item(f.cast.item);
    if (f.kind == FrameKind::kInterrupts) need_item(f.interrupts.item);
    if (f.kind == FrameKind::kResolve) need_item(f.resolve.item);
    if (f.kind == FrameKind::kTriggers) need_item(f.triggers.item);
    // A phase's end whose "when" triggers resolve, or whose mana burn is
    // held (E-1): its "after" ones come next.
    if (f.kind == FrameKind::kPhase && (f.pc == PhaseFrame::kBurn || f.pc == PhaseFrame::kBurnt))
      need(f.phase.ended);
    // A prevention step's damage, a destruction's or an effect's moves, by
    // their step-A records, once replaced.
    if (f.kind == FrameKind::kPrevention && f.pc == PreventionFrame::kReplaced)
      need(f.prevention.instead_begin);
    if (f.kind == FrameKind::kDestroy && f.pc == DestroyFrame::kReplaced)
      need(f.destroy.instead_begin);
    if (f.kind == FrameKind::kOccur && f.pc == OccurFrame::kReplaced) need(f.occur.amount);
    // A phase's beginning, once its replacements happened (`ended` holds
    // their step-A record until the phase ends).
    if (f.kind == FrameKind::kPhase && f.pc == PhaseFrame::kSkipping) need(f.phase.ended);
    // A permanent spell's entry, once its replacements happened.
    if (f.kind == FrameKind::kResolve && f.pc == ResolveFrame::kEnterReplaced)
      need(f.resolve.next_step);
    // A spell's cast, once its replacements happened.
    if (f.kind == FrameKind::kCast && f.pc == CastFrame::kCastReplaced) need(f.cast.instead_record);
    // An attacker's tap, once its replacements happened.
    if (f.kind == FrameKind::kAttack && (f.attack.holding == AttackFrame::kTapInstead ||
                                         f.attack.holding == AttackFrame::kDeclareInstead))
      need(f.attack.tap_record);
  }
  for (const auto& delayed : stack_.next_upkeep) need(delayed.first.event);
  for (const auto& delayed : stack_.next_main) need(delayed.first.event);
  if (keep == occ_.first_event) return;
  occ_.events.erase(occ_.events.begin(), occ_.events.begin() + (keep - occ_.first_event));
  occ_.first_event = keep;
}

// "When" responses come at the occurrence, "after" ones right behind them (E-1).
void Game::Happened(int event) {
  Audit(AuditPoint::kHappening, event);
  CollectTriggers(event, Timing::kWhen);
  CollectTriggers(event, Timing::kAfter);
}

// "Before" responses: collected before the occurrence happens (E-1). The
// record exists for them alone (the life invariant skips it, and a queued
// trigger is what refers back to it), so a game no card of which responds
// before this kind of occurrence records nothing: the log, copied with the
// game, grows half as fast.
void Game::Before(const Occurrence& e) {
  if (!ListensBefore(e.kind)) return;
  int ev = Record(e);
  Event(ev).before = true;
  CollectTriggers(ev, Timing::kBefore);
}

bool Game::InsteadNow(Occurrence e) {
  if (!ListensInstead(e.kind)) return false;
  const int first = static_cast<int>(occ_.queued.size());
  e.before = true;
  e.instead = true;
  e.held = true;
  CollectTriggers(Record(e), Timing::kInstead);
  return TriggersNow(first);
}

// A replacement resolves in a kResolve frame of its own item while its
// effects happen (a life change or draw it makes is held above it).
bool Game::Replacing(ObjId source, CardId card, int ability) const {
  for (const Frame& f : timing_.frames) {
    if (f.kind != FrameKind::kResolve) continue;
    const StackItem& item = stack_.items[f.resolve.item];
    if (item.from == BodySource::kTrigger && item.source == source && item.body_card == card &&
        item.ability == ability)
      return true;
  }
  return false;
}

// The prevention step whose step-A records hold the replaced damage: the
// damage is the same occurrence, dealt to `to` (E-3 A), and no other
// replacement applies to it. A record of it as it now stands is made for
// the invariant replaced_never_happens.
void Game::RedirectHeldDamage(const StackItem& item, Target to) {
  if (item.event < 0) return;
  for (auto it = timing_.frames.rbegin(); it != timing_.frames.rend(); ++it) {
    if (it->kind != FrameKind::kPrevention || it->pc != PreventionFrame::kReplaced) continue;
    const int i = it->prevention.damage_begin + (item.event - it->prevention.instead_begin);
    if (item.event < it->prevention.instead_begin || i >= static_cast<int>(damage_.pending.size()))
      continue;
    PendingDamage& d = damage_.pending[i];
    if (d.replaced) return;  // one redirection for one damage
    d.to = to;
    d.replaced = true;
    Occurrence e = Event(item.event);
    e.player = to.kind == Target::kPlayer ? to.player : Chars(to.obj.id).controller;
    e.object = to.kind == Target::kObject ? to.obj.id : kNoObj;
    if (e.object != kNoObj) {
      e.last = Chars(e.object);
      e.incarnation = state_.obj.incarnation[e.object];
    }
    e.replaced = false;
    e.group = -1;
    Record(e);
    Note(LogKind::kInfo, kNoPlayer, d.source, kNoObj, d.amount, [&] {
      return absl::StrCat(d.amount, " damage is dealt to ",
                          e.object != kNoObj ? ObjectName(e.object) : Who(e.player), " instead");
    });
    return;
  }
}

// E-3 A for objects about to move to `to` together, or to be tapped or
// untapped together (kind), refs[begin, end) (with `shields`, destroyed:
// each one's regeneration shield is queued with the replacements of its
// move, for the active player to order): a step-A record of each (an
// empty one for a move, tap or untap that no longer happens: the object is
// gone or already there, so that refs[begin + i]'s record is the first + i),
// and the replacements of the ones that still happen. True when some
// apply: they happen now.
bool Game::InsteadOfEach(EventKind kind, const std::vector<ObjRef>& refs, int begin, int end,
                         Zone to, bool shields) {
  const int first = static_cast<int>(occ_.queued.size());
  const int group = EventEnd();
  const bool move = kind == EventKind::kZoneChange, tapped = kind == EventKind::kTap;
  for (int i = begin; i < end; ++i) {
    const ObjRef r = refs[i];
    const bool alive = state_.Alive(r) && (state_.obj.zone[r.id] != Zone::kNone ||
                                           state_.obj.token[r.id]);  // a token being made (G-12)
    const bool happens = alive && (move ? state_.obj.zone[r.id] != to
                                        : state_.obj.zone[r.id] == Zone::kBattlefield &&
                                              state_.obj.tapped[r.id] != tapped);
    Occurrence e;
    e.kind = kind;
    if (happens && move) e = LeaveOccurrence(r.id, to);
    if (happens && !move) {
      FillOccurrence(e, kind, Chars(r.id).controller, r.id);
      e.phase = state_.phase;
    }
    e.before = e.instead = e.held = true;
    e.group = group;
    const int record = Record(e);
    const auto own = static_cast<std::ptrdiff_t>(occ_.queued.size());
    if (happens) CollectTriggers(record, Timing::kInstead);
    // A destruction's move: the regeneration shield on the creature is one
    // more way to replace it, ordered with the others; offered first, as
    // the shield applied before the replacements until they were ordered.
    if (happens && shields && Shielded(r.id)) {
      QueuedTrigger q;
      q.source = r.id;
      q.card = Chars(r.id).card;
      q.controller = Chars(r.id).controller;
      q.event = record;
      q.shield = true;
      occ_.queued.insert(occ_.queued.begin() + own, q);
    }
  }
  return TriggersNow(first);
}

// A move, tap or untap a replacement took does not happen (E-3 A): its ref
// is emptied. After a move, the state check looks again: a replacement may
// leave the object where it was, with its lethal damage or 0 toughness
// (Test Martyr's Vow).
void Game::DropReplaced(EventKind kind, std::vector<ObjRef>& refs, int begin, int end,
                        int instead_begin) {
  for (int i = begin; i < end; ++i)
    if (TakenAtStepA(instead_begin + (i - begin))) {
      refs[i] = ObjRef{};
      if (kind == EventKind::kZoneChange) StateCheckInputChanged();
    }
}

void Game::ZoneChange(ObjId o, Zone to) {
  LeaveTogether(&o, 1, to);
}

// Object o's move to `to`, as it is about to happen.
Occurrence Game::LeaveOccurrence(ObjId o, Zone to) const {
  Occurrence e;
  e.kind = EventKind::kZoneChange;
  e.object = o;
  e.from = state_.obj.zone[o];
  e.to = to;
  // A token being made (G-12) is in no zone, where no layer reaches: its
  // printed values are what it is before it enters.
  e.last = e.from == Zone::kNone ? OwnPrintedCharacteristics(*db_, state_, o) : Chars(o);
  e.player = e.from == Zone::kBattlefield ? e.last.controller : state_.obj.owner[o];
  e.attached_to = state_.obj.attached_to[o];
  if (e.attached_to != kNoObj) e.attached_incarnation = state_.obj.incarnation[e.attached_to];
  e.was_tapped = state_.obj.tapped[o];
  e.incarnation = state_.obj.incarnation[o];  // "before" responses see it still there
  return e;
}

// "Before" responses to objects about to leave together (E-1, E-5): one
// group, whose triggers the active player orders as one.
void Game::BeforeLeaving(const ObjId* objs, int n, Zone to, bool held) {
  if (n <= 0 || !ListensBefore(EventKind::kZoneChange)) return;
  const int group = EventEnd();
  for (int i = 0; i < n; ++i) {
    Occurrence e = LeaveOccurrence(objs[i], to);
    e.group = group;
    e.before = true;
    e.held = held;
    Record(e);
  }
  for (int ev = group; ev < group + n; ++ev) CollectTriggers(ev, Timing::kBefore);
}

// Does an occurrence a "before" trigger waits on still happen (E-3: an
// earlier response can make it impossible; then nothing responds to it)?
// A move whose object is no longer where it was, as it was, nor where the
// move took it, no longer happens (a creature returned to its owner's hand
// before it is destroyed).
// A tap or untap no longer happens once its object left the battlefield
// (is a new object) or was turned that way meanwhile, unless it has
// happened (then it is the tapped or untapped permanent it was); damage to
// a creature no longer happens once the creature left.
bool Game::StillHappens(const Occurrence& e) const {
  if (!e.before || e.object == kNoObj) return true;
  const ObjId o = e.object;
  const uint16_t now = state_.obj.incarnation[o];
  if (e.kind == EventKind::kTap || e.kind == EventKind::kUntap || e.kind == EventKind::kDamage)
    return now == e.incarnation && state_.obj.zone[o] == Zone::kBattlefield;
  // An attacker or blocker chosen is no longer declared once it left or
  // was tapped (DeclareHeld).
  if (e.kind == EventKind::kAttack || e.kind == EventKind::kBlock)
    return now == e.incarnation && state_.obj.zone[o] == Zone::kBattlefield &&
           !state_.obj.tapped[o];
  // A spell no longer on the stack as it was is not cast (E-3).
  if (e.kind == EventKind::kCast) return now == e.incarnation && state_.obj.zone[o] == Zone::kStack;
  if (e.kind != EventKind::kZoneChange) return true;
  return (now == e.incarnation && state_.obj.zone[o] == e.from) ||
         (now == static_cast<uint16_t>(e.incarnation + 1) && state_.obj.zone[o] == e.to);
}

// GainLife and LoseLife alone decide that a change of zero is none (E-7);
// a held one needs the same test, as there is nothing to hold.
void Game::EffectLifeChange(Player p, int amount) {
  if (!Holds(EventKind::kLifeChange)) {
    if (amount >= 0)
      GainLife(p, amount);
    else
      LoseLife(p, -amount);
    return;
  }
  if (amount == 0) return;
  Push(Frame::NewOccur(EventKind::kLifeChange, p, amount, 0, 0, Zone::kNone));
}

void Game::EffectTaps(const std::vector<ObjId>& objs, bool tapped, bool replaceable) {
  const EventKind kind = tapped ? EventKind::kTap : EventKind::kUntap;
  if (replaceable ? !Holds(kind) : !ListensBefore(kind)) {
    for (ObjId o : objs) Tap(o, tapped, /*before_done=*/false, replaceable);
    return;
  }
  const auto begin = static_cast<int32_t>(occ_.moving.size());
  for (ObjId o : objs)
    if (state_.obj.tapped[o] != tapped) occ_.moving.push_back(state_.Ref(o));
  const auto end = static_cast<int32_t>(occ_.moving.size());
  if (end <= begin) return;
  // Not replaceable: no step A, marked by an amount of -1 (RunOccur).
  Push(Frame::NewOccur(kind, kNoPlayer, replaceable ? 0 : -1, begin, end, Zone::kNone));
  if (!replaceable) timing_.frames.back().pc = OccurFrame::kBefore;
}

bool Game::HoldUntapStep() {
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& objs = borrowed.v;
  const bool limited = !turn_.untap_kept.empty();  // T-1.8
  state_.ForEachPermanent([&](ObjId o) {
    if (Chars(o).controller == state_.active && state_.obj.tapped[o] && !(limited && UntapKept(o)))
      objs.push_back(o);
  });
  const size_t frames = timing_.frames.size();
  EffectTaps(objs, /*tapped=*/false);
  return timing_.frames.size() > frames;
}

void Game::EffectMove(const ObjId* objs, int n, Zone to) {
  if (n <= 0) return;
  if (!Holds(EventKind::kZoneChange)) {
    LeaveTogether(objs, n, to);
    return;
  }
  const auto begin = static_cast<int32_t>(occ_.moving.size());
  for (int i = 0; i < n; ++i) occ_.moving.push_back(state_.Ref(objs[i]));
  Push(Frame::NewOccur(EventKind::kZoneChange, kNoPlayer, 0, begin,
                       static_cast<int32_t>(occ_.moving.size()), to));
}

// An effect's occurrence held at its time point (the frame: OccurFrame).
// kBefore: its "before" responses are recorded and happen now, inside the
// resolution that made it (E-1, E-3 B). kHappen: it happens, to what is
// still as it was: an object a "before" response moved away (a new object
// now) is not tapped, untapped or moved (E-3: its occurrence no longer
// happens). Moves still leave together (E-5).
void Game::RunOccur(Frame& f) {
  const OccurFrame o = f.occur;
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& objs = borrowed.v;
  auto still = [&] {
    objs.clear();
    for (int i = o.begin; i < o.end; ++i) {
      const ObjRef r = occ_.moving[i];
      // (In no zone: a token being made, G-12, which the move puts there.)
      if (state_.Alive(r) && (state_.obj.zone[r.id] != Zone::kNone || state_.obj.token[r.id]) &&
          (o.kind != EventKind::kZoneChange ? state_.obj.zone[r.id] == Zone::kBattlefield
                                            : state_.obj.zone[r.id] != o.to))
        objs.push_back(r.id);
    }
  };
  if (f.pc == OccurFrame::kInstead) {
    // E-3 A: a life change, a move, a tap or an untap replaced does not
    // happen, and nothing responds to it before or after.
    f.pc = OccurFrame::kBefore;
    if (o.kind != EventKind::kLifeChange && ListensInstead(o.kind)) {
      f.pc = OccurFrame::kReplaced;  // first: a frame pushed can move `f`
      f.occur.amount = EventEnd();   // its step-A records
      if (InsteadOfEach(o.kind, occ_.moving, o.begin, o.end, o.to)) return;
    }
    if (o.kind == EventKind::kLifeChange) {
      Occurrence e = OccurrenceOf(EventKind::kLifeChange, o.player, kNoObj);
      e.amount = o.amount;
      e.phase = state_.phase;
      // Set first: InsteadNow may push a frame, which can move `f`.
      f.pc = OccurFrame::kGone;
      if (InsteadNow(e)) return;
      f.pc = OccurFrame::kBefore;
    }
  }
  if (f.pc == OccurFrame::kGone) {
    timing_.frames.pop_back();
    return;
  }
  if (f.pc == OccurFrame::kReplaced) {
    f.pc = OccurFrame::kBefore;
    DropReplaced(o.kind, occ_.moving, o.begin, o.end, f.occur.amount);
  }
  // (A life change held for its replacements alone has no "before" step.)
  if (f.pc == OccurFrame::kBefore &&
      (o.kind != EventKind::kLifeChange || ListensBefore(EventKind::kLifeChange))) {
    f.pc = OccurFrame::kHappen;
    const int first = static_cast<int>(occ_.queued.size());
    if (o.kind == EventKind::kLifeChange) {
      Occurrence e = OccurrenceOf(EventKind::kLifeChange, o.player, kNoObj);
      e.amount = o.amount;
      e.phase = state_.phase;
      f.occur.begin = EventEnd();  // its before-record, which change_amount finds it by
      f.occur.end = 0;
      e.held = true;
      Before(e);
    } else if (o.kind == EventKind::kZoneChange) {
      still();
      BeforeLeaving(objs.data(), static_cast<int>(objs.size()), o.to, /*held=*/true);
    } else {
      still();
      for (ObjId x : objs) {
        Occurrence e = OccurrenceOf(o.kind, Chars(x).controller, x);
        e.phase = state_.phase;
        e.held = true;
        Before(e);
      }
    }
    if (TriggersNow(first)) return;
  }
  timing_.frames.pop_back();
  if (o.kind == EventKind::kLifeChange) {
    // Its size with every before response's change (E-7), all applied
    // together: a gain or loss brought to zero or below is none.
    const int size = std::max(0, SaturatedAdd<int32_t>(std::abs(o.amount), o.end));
    if (o.amount > 0)
      GainLife(o.player, size, /*before_done=*/true);
    else
      LoseLife(o.player, size, /*before_done=*/true);
    return;
  }
  still();
  Replaced(UsageStats::kNoLongerHappened, o.end - o.begin - static_cast<int>(objs.size()));
  occ_.moving.resize(o.begin);
  switch (o.kind) {
    case EventKind::kZoneChange:
      LeaveTogether(objs.data(), static_cast<int>(objs.size()), o.to, /*before_done=*/true);
      // The state check that made it goes on until it finds nothing (T-1.5).
      if (o.then == OccurFrame::kLandPlayed) LandPlayed(objs.empty() ? kNoObj : objs[0]);
      if (o.then != OccurFrame::kNothing) CheckState();
      return;
    default:
      for (ObjId x : objs)
        Tap(x, o.kind == EventKind::kTap, /*before_done=*/true, /*replaced_first=*/o.amount >= 0);
      return;
  }
}

// A land played has entered the battlefield (T-6): the play's occurrence.
// (A land whose move a replacement took did not enter: nothing was played.)
// Kismet (T-10.1): a permanent its controller played enters tapped when a
// rule says so for its types; no tap happens (as for enters_tapped, G-7).
void Game::EnterTappedByRule(ObjId o) {
  const Characteristics& ch = Chars(o);
  if (ch.controller < 2 && (Rules(ch.controller).enter_tapped & ch.types) && !state_.obj.tapped[o])
    SetTapped(o, true);
}

void Game::LandPlayed(ObjId land) {
  if (land == kNoObj || state_.obj.zone[land] != Zone::kBattlefield) return;
  if (turn_.mana_rule_cards) [[unlikely]]
    EnterTappedByRule(land);
  if (Observed(EventKind::kPlay))
    Happened(Record(OccurrenceOf(EventKind::kPlay, state_.obj.owner[land], land)));
}

// E-7: "increase (or reduce) the gain (or loss, or damage) by N",
// resolving as a before trigger of a held life change or of a damage at the
// end of its prevention step: it changes the size that change or damage
// will have. A trigger of one not held (it has happened) changes nothing.
void Game::ChangeHeldAmount(const StackItem& item, int by) {
  if (item.event < 0) return;
  for (auto it = timing_.frames.rbegin(); it != timing_.frames.rend(); ++it) {
    // A damage of a prevention step whose before triggers resolve.
    if (it->kind == FrameKind::kPrevention && it->pc == PreventionFrame::kDeal) {
      const int i = it->prevention.damage_begin + (item.event - it->prevention.before_begin);
      if (item.event < it->prevention.before_begin || i >= static_cast<int>(damage_.pending.size()))
        continue;
      PendingDamage& d = damage_.pending[i];
      d.change = SaturatedAdd<int32_t>(d.change, by);
      Replaced(UsageStats::kAmountChanged);
      Note(LogKind::kInfo, kNoPlayer, d.source, kNoObj, by, [&] {
        return absl::StrCat("the pending damage ", by >= 0 ? "grows by " : "shrinks by ",
                            std::abs(by));
      });
      return;
    }
    if (it->kind != FrameKind::kOccur || it->occur.kind != EventKind::kLifeChange ||
        it->occur.begin != item.event)
      continue;
    it->occur.end = SaturatedAdd<int32_t>(it->occur.end, by);
    Replaced(UsageStats::kAmountChanged);
    Note(LogKind::kInfo, it->occur.player, kNoObj, kNoObj, by, [&] {
      return absl::StrCat("the pending life ", it->occur.amount > 0 ? "gain" : "loss",
                          by >= 0 ? " grows by " : " shrinks by ", std::abs(by));
    });
    return;
  }
}

void Game::LeaveTogether(const ObjId* objs, int n, Zone to, bool before_done, Player under) {
  if (n <= 0) return;
  thread_local std::vector<Occurrence> buffer;
  Borrowed<Occurrence> borrowed(buffer);
  std::vector<Occurrence>& moves = borrowed.v;
  for (int i = 0; i < n; ++i) moves.push_back(LeaveOccurrence(objs[i], to));
  if (!before_done) BeforeLeaving(objs, n, to, /*held=*/false);
  for (const Occurrence& e : moves) {
    Note(LogKind::kZoneChange, kNoPlayer, e.object, kNoObj, static_cast<int>(to), [&] {
      if (e.from == Zone::kNone)  // G-12: a token being made
        return absl::StrCat(ObjectName(e.object), ", a token, is put onto the ", S(ZoneName(to)));
      return std::string(absl::StrCat(ObjectName(e.object), " moves from ", S(ZoneName(e.from)),
                                      " to ", S(ZoneName(to))));
    });
    MoveTo(e.object, to, state_.obj.owner[e.object]);
    // "Under your control" (G-9: Animate Dead): set as it arrives.
    if (to == Zone::kBattlefield && under != kNoPlayer) SetControllerOnEntry(e.object, under);
  }
  // Only now, with every object moved, do the occurrences happen: a
  // trigger of one of them sees all the others leave too (E-5).
  const int group = EventEnd();
  for (Occurrence& e : moves) {
    e.incarnation = state_.obj.incarnation[e.object];
    e.group = group;
    // E-5.1: an entry is seen as it entered: the permanent, under the
    // player it entered under (Animate Dead's creature is its caster's).
    if (to == Zone::kBattlefield && state_.obj.zone[e.object] == Zone::kBattlefield) {
      e.last = Chars(e.object);
      e.player = e.last.controller;
    }
    if (e.from == Zone::kBattlefield && to == Zone::kGraveyard)
      occ_.died_this_turn.push_back(e.last.card);
    e.held = before_done && ListensInstead(EventKind::kZoneChange);  // through its step A
    Record(e);
  }
  Audit(AuditPoint::kLeftTogether, n);
  for (int ev = group; ev < group + n; ++ev) Happened(ev);
  Audit(AuditPoint::kGroupTriggered, n);
  // A permanent an effect put onto the battlefield (G-9: Resurrection; a
  // land found by a search makes none) makes its entry choices as it enters.
  if (to == Zone::kBattlefield)
    for (const Occurrence& e : moves)
      if (state_.obj.zone[e.object] == Zone::kBattlefield &&
          state_.obj.incarnation[e.object] == e.incarnation)
        StartEntry(e.object, state_.obj.controller[e.object]);
  // What was attached to an object that left play is attached to nothing
  // (after the triggers above looked at it): the object that may come back
  // is a new one, and an Aura must not follow it.
  for (const Occurrence& e : moves) {
    if (e.from != Zone::kBattlefield) continue;
    // A scan without a branch first (the compiler makes it wide): most
    // objects leaving play have nothing attached.
    const ObjId* attached = state_.obj.attached_to.data();
    bool any = false;
    for (ObjId x = 0; x < state_.obj.count; ++x) any |= attached[x] == e.object;
    if (!any) continue;
    for (ObjId x = 0; x < state_.obj.count; ++x)
      if (state_.obj.attached_to[x] == e.object) {
        state_.obj.attached_to[x] = kNoObj;
        state_.Touch();
      }
  }
}

// Was the occurrence's object dealt damage this turn by `source` (Sengir
// Vampire)? Both as the objects they were before the occurrence: a creature
// that left and came back is a new object (RULES.md "Game and objects").
bool Game::DamagedBy(const Occurrence& e, ObjId source, const Occurrence* source_left) const {
  auto before = [&](ObjId o, const Occurrence* left) {
    return left ? ObjRef{o, static_cast<uint16_t>(left->incarnation - 1)} : state_.Ref(o);
  };
  const ObjRef creature = e.kind == EventKind::kZoneChange
                              ? ObjRef{e.object, static_cast<uint16_t>(e.incarnation - 1)}
                              : state_.Ref(e.object);
  return std::find(occ_.damaged_by.begin(), occ_.damaged_by.end(),
                   std::pair{creature, before(source, source_left)}) != occ_.damaged_by.end();
}

void Game::DealDamage(const PendingDamage& d) {
  Occurrence e;
  e.kind = EventKind::kDamage;
  e.source = d.source;
  e.amount = d.amount;
  e.combat = d.combat;
  e.player = d.to.kind == Target::kPlayer ? d.to.player : kNoPlayer;
  e.object = d.to.kind == Target::kObject ? d.to.obj.id : kNoObj;
  if (e.object != kNoObj && state_.Alive(d.to.obj)) e.last = Chars(e.object);
  // (Its replacements and "before" responses came at the end of its
  // prevention step: InsteadOfDamage, BeforeDamage.)
  e.held = ListensInstead(EventKind::kDamage);
  if (d.to.kind == Target::kPlayer) {
    e.player = d.to.player;
    state_.players[d.to.player].life = LifeAfter(state_.players[d.to.player].life, -d.amount);
    if (turn_.tally_damage) [[unlikely]] {
      occ_.damage_taken.push_back(
          {d.to.player, d.amount, d.source != kNoObj ? Chars(d.source).types : TypeMask{0}});
      if (turn_.dealt_to_player_cards && d.source != kNoObj)  // T-4.2
        occ_.dealt_to_players.push_back({state_.Ref(d.source), d.to.player});
    }
    NoteLifeLow(d.to.player);
    Note(LogKind::kDamage, d.to.player, d.source, kNoObj, d.amount, [&] {
      return std::string(
          absl::StrCat(ObjectName(d.source), " deals ", d.amount, " damage to ", Who(d.to.player)));
    });
  } else {
    ObjId o = d.to.obj.id;
    if (!state_.Alive(d.to.obj) || state_.obj.zone[o] != Zone::kBattlefield) return;
    e.object = o;
    e.player = Chars(o).controller;
    e.last = Chars(o);
    e.incarnation = state_.obj.incarnation[o];
    state_.obj.damage[o] = SaturatedAdd(state_.obj.damage[o], d.amount);
    StateCheckInputChanged();
    if (d.source != kNoObj) occ_.damaged_by.push_back({state_.Ref(o), state_.Ref(d.source)});
    if (d.cant_regenerate) damage_.no_regen[o] = true;
    Note(LogKind::kDamage, kNoPlayer, d.source, o, d.amount, [&] {
      return std::string(
          absl::StrCat(ObjectName(d.source), " deals ", d.amount, " damage to ", ObjectName(o)));
    });
  }
  int ev = Record(e);
  Happened(ev);
}

// A simple occurrence: recorded, and "after" triggers collected (E-1).
void Game::RecordOccurrence(EventKind kind, Player p, ObjId o, int amount, bool before_done,
                            bool replaced_first) {
  auto fill = [&](Occurrence& e) {
    FillOccurrence(e, kind, p, o);
    e.amount = amount;
    e.phase = state_.phase;
    e.for_mana = tapping_for_mana_;  // T-10.1: set only around a tap for mana
  };
  if (!before_done && ListensBefore(kind)) {
    Occurrence e;
    fill(e);
    Before(e);
  }
  // Built in the log, not copied there: this runs for every tap and untap.
  const int index = EventEnd();
  Occurrence& e = occ_.events.emplace_back();
  fill(e);
  e.group = index;                                                 // an occurrence of its own
  e.held = before_done && replaced_first && ListensInstead(kind);  // through its step A (E-3)
  Happened(index);
}

void Game::Tap(ObjId o, bool tapped, bool before_done, bool replaced_first) {
  if (state_.obj.tapped[o] == tapped) return;
  SetTapped(o, tapped);
  Occur(tapped ? EventKind::kTap : EventKind::kUntap, Chars(o).controller, o, 0, before_done,
        replaced_first);
}

void Game::GainLife(Player p, int n, bool before_done) {
  if (n <= 0) return;  // E-7: a gain reduced to zero is no gain
  state_.players[p].life = LifeAfter(state_.players[p].life, n);
  Occur(EventKind::kLifeChange, p, kNoObj, n, before_done);
  Note(LogKind::kLife, p, kNoObj, kNoObj, n,
       [&] { return std::string(absl::StrCat(Who(p), " gains ", n, " life")); });
}

void Game::LoseLife(Player p, int n, bool before_done) {
  if (n <= 0) return;
  state_.players[p].life = LifeAfter(state_.players[p].life, -n);
  NoteLifeLow(p);
  Occur(EventKind::kLifeChange, p, kNoObj, -n, before_done);
  Note(LogKind::kLife, p, kNoObj, kNoObj, -n,
       [&] { return std::string(absl::StrCat(Who(p), " loses ", n, " life")); });
}

void Game::Lose(Player p, EndReason why) {
  state_.players[p].lost = true;
  if (timing_.end_reason == EndReason::kNone || timing_.end_reason == why)
    timing_.end_reason = why;
  else
    timing_.end_reason = EndReason::kBoth;
}

void Game::EndGame(int winner, EndReason why) {
  if (timing_.over) return;
  timing_.over = true;
  timing_.winner = winner;
  if (why != EndReason::kNone) timing_.end_reason = why;
  Note(LogKind::kGameOver, kNoPlayer, kNoObj, kNoObj, winner, [&] {
    return std::string(absl::StrCat("game over: ",
                                    winner < 0    ? "draw"
                                    : winner == 0 ? "A wins"
                                                  : "B wins",
                                    " (", S(EndReasonName(timing_.end_reason)), ")"));
  });
}

// Inline, and only used in this file: the state check asks it of every
// permanent, nearly all of them no Aura (out of line it cost 1% a game).
inline bool Game::AttachedLegally(ObjId o) const {
  if (!db_->HotOf(state_.obj.card[o]).enchants) return true;
  const CardDef& card = (*db_)[state_.obj.card[o]];
  // G-9: an Aura that returned a card from a graveyard enchants it on the
  // battlefield (Animate Dead).
  const FilterId enchant =
      card.enchant_returned != kNoFilter ? card.enchant_returned : card.enchant;
  const ObjId to = state_.obj.attached_to[o];
  return to != kNoObj && state_.obj.zone[to] == Zone::kBattlefield &&
         Matches(enchant, to, ContextFor(o, Chars(o).controller, state_.obj.choice[o])) &&
         !RepelledByProtection(o, to);
}

// Protection's "can't be enchanted by" (docs/rules.md T-1.5): an Aura of a
// color the object it is on has protection from is on an illegal object,
// unless that protection is granted by the Aura itself with "this effect
// doesn't remove" it (the Wards: Characteristics::prot_spared).
bool Game::RepelledByProtection(ObjId aura, ObjId on) const {
  const Characteristics& to = Chars(on);
  const ColorMask hit = Chars(aura).colors & ProtectionColors(to.keywords);
  if (!hit) return false;
  for (int col = 0; col < kColorCount; ++col)
    if (Has(hit, col) && !(Has(to.prot_spared, col) && to.prot_spared_by[col] == aura)) return true;
  return false;
}

// State check: 0 toughness puts a creature into the graveyard, lethal damage
// destroys it (regeneration may replace that), Auras on illegal objects go
// to the graveyard, and a player who lost ends the game. What one check
// finds leaves together (E-5); a change of control is noted for T-7.
void Game::RunStateCheck() {
  // Nothing it reads changed since a check that found nothing to do: most
  // checks, which then skip the walk and its buffer.
  const bool unchanged =
      occ_.clean_version == state_.version && occ_.clean_inputs == occ_.check_inputs;
  if (!unchanged) {
    // G-16: a state trigger is queued as the check finds its condition
    // holding (it happens once nothing resolves, E-4).
    if (turn_.state_trigger_cards) [[unlikely]]
      QueueStateTriggers();
    thread_local std::vector<ObjId> buffer;
    Borrowed<ObjId> borrowed(buffer);
    std::vector<ObjId>& leaving = borrowed.v;
    // In a game with replacements of moves or "before" responses to them,
    // what the check puts into the graveyard is held at its time point like
    // an effect's move (E-1, E-3): a frame, after which the check goes on.
    const bool held_moves = Holds(EventKind::kZoneChange);
    thread_local std::vector<ObjId> unique_losers;
    for (int guard = 0; guard < 16; ++guard) {
      leaving.clear();
      const int destroy_begin = static_cast<int>(occ_.destroying.size());
      // G-13, G-14: the legends and World permanents the rules put into the
      // graveyard, found before the walk so that they leave as 0 toughness
      // does, never also destroyed for lethal damage.
      const bool unique = turn_.unique_cards;
      if (unique) [[unlikely]]
        UniqueRuleLosers(unique_losers, held_moves);
      // The walk is built twice, with and without the tests of held moves
      // and the unique rules: most games have neither, and the walk runs
      // at every check that finds something changed.
      auto walk = [&](auto rare) {
        constexpr bool kRare = decltype(rare)::value;
        state_.ForEachPermanent([&](ObjId o) {
          const Characteristics& ch = PermanentChars(o);
          if (turn_.control_seen[o] != ch.controller) {
            // Came under another player's control: summoning sick (T-7).
            if (turn_.control_seen[o] != kNoPlayer) state_.obj.sick[o] = true;
            turn_.control_seen[o] = ch.controller;
            ++mana_epoch_;
          }
          // What simply leaves comes first: 0 toughness, or an Aura on
          // nothing legal (an animated Aura with lethal damage too goes to the
          // graveyard, unregenerable, even while its destruction is under way).
          // An object already held on its way out (its move's replacements or
          // "before" responses happen now) is not sent again.
          if (kRare && held_moves && BeingMoved(o)) return;
          if (ch.IsCreature() && ch.toughness <= 0) {
            Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
              return std::string(absl::StrCat(ObjectName(o), " has toughness ", ch.toughness));
            });
            leaving.push_back(o);
            return;
          }
          if (!AttachedLegally(o)) {
            Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
              return std::string(absl::StrCat(ObjectName(o), " is not attached to a legal object"));
            });
            leaving.push_back(o);
            return;
          }
          if (kRare && unique && std::binary_search(unique_losers.begin(), unique_losers.end(), o))
              [[unlikely]] {
            Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
              return std::string(absl::StrCat(ObjectName(o), Has(ch.supertypes, kLegendary)
                                                                 ? " goes by the legend rule"
                                                                 : " goes by the world rule"));
            });
            leaving.push_back(o);
            return;
          }
          if (ch.IsCreature() && state_.obj.damage[o] >= ch.toughness && !BeingDestroyed(o)) {
            occ_.destroying.push_back(state_.Ref(o));
            StateCheckInputChanged();
          }
        });
      };
      if (unique || held_moves) [[unlikely]]
        walk(std::true_type{});
      else
        walk(std::false_type{});
      if (static_cast<int>(occ_.destroying.size()) > destroy_begin)
        Push(Frame::NewDestroy(destroy_begin, static_cast<int32_t>(occ_.destroying.size()),
                               /*lethal=*/true));
      if (leaving.empty()) {
        if (guard == 0 && static_cast<int>(occ_.destroying.size()) == destroy_begin) {
          occ_.clean_version = state_.version;
          occ_.clean_inputs = occ_.check_inputs;
        }
        break;
      }
      if (held_moves) {
        EffectMove(leaving.data(), static_cast<int>(leaving.size()), Zone::kGraveyard);
        timing_.frames.back().occur.then = OccurFrame::kCheckState;
        break;
      }
      LeaveTogether(leaving.data(), static_cast<int>(leaving.size()), Zone::kGraveyard);
    }
  }
  if (opt_.check_invariants && invariant_failure_.empty()) {
    // Invariant "state_check": nothing the check should have removed survives it.
    std::string left = StateCheckLeftovers();
    if (!left.empty()) invariant_failure_ = "state_check: " + left;
  }
  Audit(AuditPoint::kStateChecked);
  // A player who can't lose (Platinum Angel) doesn't.
  for (Player p = 0; p < 2; ++p)
    if (state_.players[p].lost && Rules(p).cant_lose) state_.players[p].lost = false;
  bool a = state_.players[0].lost, b = state_.players[1].lost;
  if (a || b) EndGame(a && b ? -1 : a ? 1 : 0, EndReason::kNone);
}

// G-16: "when you control no Islands, sacrifice it". Each permanent's
// state trigger whose condition holds (no object matches its `unless_any`,
// or some matches its `if_any`, read from the permanent: "you" is its
// controller) triggers, unless it is queued or being played already: it
// triggers once, and again only after it was played if the condition
// still holds then. A tapped artifact's is off (T-12), as every trigger.
void Game::QueueStateTriggers() {
  state_.ForEachPermanent([&](ObjId o) {
    const Characteristics& ch = PermanentChars(o);
    if (ch.blank || ch.card == kNoCard) return;
    const CardDef& card = (*db_)[ch.card];
    if (!card.state_triggered) return;
    if (Has(ch.types, kArtifact) && state_.obj.tapped[o]) return;
    for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i) {
      const TriggeredAbility& tr = card.triggers[i];
      if (tr.event != EventKind::kState || !Has(ch.abilities, card.TriggerBit(i))) continue;
      bool pending = false;
      for (const QueuedTrigger& q : occ_.queued)
        pending |= q.source == o && q.card == ch.card && q.index == i && !q.next_time && !q.shield;
      for (const Frame& f : timing_.frames) {
        if (f.kind != FrameKind::kCast && f.kind != FrameKind::kResolve) continue;
        const StackItem& it =
            stack_.items[f.kind == FrameKind::kCast ? f.cast.item : f.resolve.item];
        pending |= it.from == BodySource::kTrigger && it.source == o && it.body_card == ch.card &&
                   it.ability == i;
      }
      if (pending) continue;
      if (!AnyConditionHolds(tr, o, ch.controller)) continue;
      occ_.queued.push_back(QueuedTrigger{o, ch.card, static_cast<int16_t>(i), ch.controller, -1});
      Note(LogKind::kTrigger, ch.controller, o, kNoObj, 0, [&] {
        return std::string(absl::StrCat(card.AbilityName(card.TriggerBit(i)), " triggers"));
      });
    }
  });
}

std::string Game::StateCheckLeftovers() const {
  for (ObjId o = 0; o < state_.obj.count; ++o) {
    if (state_.obj.zone[o] != Zone::kBattlefield) continue;
    if (BeingMoved(o)) continue;  // held: its move comes (RunStateCheck)
    const Characteristics& ch = Chars(o);
    if (!AttachedLegally(o))
      return absl::StrCat(ObjectName(o), " is not attached to a legal object after a state check");
    if (ch.IsCreature() &&
        (ch.toughness <= 0 || (state_.obj.damage[o] >= ch.toughness && !BeingDestroyed(o))))
      return absl::StrCat(ObjectName(o), " (", ch.power, "/", ch.toughness, ", damage ",
                          state_.obj.damage[o], ") survived a state check");
  }
  if (turn_.unique_cards) {
    std::vector<ObjId> losers;
    UniqueRuleLosers(losers, /*held_moves=*/true);
    if (!losers.empty())
      return absl::StrCat(ObjectName(losers[0]),
                          " survived a state check beside another legend of its name or "
                          "another World permanent");
  }
  return "";
}

}  // namespace strata
