#include "sim/shrink.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"
#include "engine/words.h"
#include "sim/scenario.h"

namespace strata {
namespace {

std::string Quote(std::string_view s) {
  return JsonQuote(s);
}

// "Grizzly Bears", 12 -> "grizzly_bears_12": unique, readable, never a card name.
// A token (G-12) has no [[object]]: a step names it "token:NAME", the first
// of that name as the step is taken. An object `g` does not hold yet (made
// after it) has no name there: "object_N", which no scenario knows.
std::string IdOf(const Game& g, ObjId o) {
  if (o >= g.state().obj.count) return absl::StrCat("object_", o);
  if (g.state().obj.token[o]) return absl::StrCat("token:", g.db()[g.state().obj.card[o]].name);
  std::string id;
  for (char c : g.db()[g.state().obj.card[o]].name) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      id += c;
    else if (c >= 'A' && c <= 'Z')
      id += static_cast<char>(c - 'A' + 'a');
    else if (!id.empty() && id.back() != '_')
      id += '_';
  }
  if (!id.empty() && id.back() == '_') id.pop_back();
  return absl::StrCat(id, "_", o);
}

std::string PlayerName(int p) {
  return p ? "B" : "A";
}

// The object whose characteristics a copy choice naming it would copy.
ObjId CopySource(const Game& g, ObjId o) {
  const GameState& s = g.state();
  const CopySpec& want = s.obj.copy[o];
  // Prefer a permanent that is no copy itself (no cycle of copies), then
  // any card printed so, then another copy.
  for (int pass = 0; pass < 3; ++pass)
    for (ObjId x = 0; x < s.obj.count; ++x) {
      if (x == o || (pass != 1 && s.obj.zone[x] != Zone::kBattlefield)) continue;
      if (pass < 2 && s.obj.copy[x].card != kNoCard) continue;
      const Characteristics& ch = g.Chars(x);
      if (ch.card == want.card && ch.mode == want.mode && ch.blank == want.blank) return x;
    }
  return kNoObj;
}

}  // namespace

// ---------------------------------------------------------------- writing

std::string ScenarioSpec::ToToml() const {
  std::string out;
  if (!comment.empty()) absl::StrAppend(&out, comment);
  absl::StrAppend(&out, "name = ", Quote(name), "\n");
  if (!source.empty()) absl::StrAppend(&out, "source = ", Quote(source), "\n");
  absl::StrAppend(&out, "rules = ", Quote(rules), "\nactive = \"", PlayerName(active),
                  "\"\nphase = ", Quote(phase), "\nturn = ", turn,
                  "\nfree_mana = false\nuntil = ", Quote(until), "\n");
  if (!rng.empty()) absl::StrAppend(&out, "rng = ", Quote(rng), "\n");
  for (Player p = 0; p < 2; ++p) {
    absl::StrAppend(&out, "\n[players.", PlayerName(p), "]\nlife = ", life[p], "\n");
    if (poison[p]) absl::StrAppend(&out, "poison = ", poison[p], "\n");
  }
  std::set<std::string> present;
  for (const ScenarioObject& o : objects) present.insert(o.id);
  for (const ScenarioObject& o : objects) {
    absl::StrAppend(&out, "\n[[object]]\nid = ", Quote(o.id), "\ncard = ", Quote(o.card), "\n");
    if (o.owner) absl::StrAppend(&out, "owner = \"B\"\n");
    if (o.controller != o.owner)
      absl::StrAppend(&out, "controller = \"", PlayerName(o.controller), "\"\n");
    if (o.zone != Zone::kBattlefield)
      absl::StrAppend(&out, "zone = ", Quote(ZoneName(o.zone)), "\n");
    if (o.position >= 0) absl::StrAppend(&out, "position = ", o.position, "\n");
    if (o.timestamp >= 0) absl::StrAppend(&out, "timestamp = ", o.timestamp, "\n");
    if (o.tapped) absl::StrAppend(&out, "tapped = true\n");
    if (o.sick) absl::StrAppend(&out, "sick = true\n");
    if (o.face_down) absl::StrAppend(&out, "face_down = true\n");
    if (o.damage) absl::StrAppend(&out, "damage = ", o.damage, "\n");
    if (o.p1p1 || o.m1m1 || o.other || o.p1p0 || o.m0m2) {
      std::vector<std::string> c;
      if (o.p1p1) c.push_back(absl::StrCat("p1p1 = ", o.p1p1));
      if (o.m1m1) c.push_back(absl::StrCat("m1m1 = ", o.m1m1));
      if (o.other) c.push_back(absl::StrCat("other = ", o.other));
      if (o.p1p0) c.push_back(absl::StrCat("p1p0 = ", o.p1p0));  // G-8.1
      if (o.m0m2) c.push_back(absl::StrCat("m0m2 = ", o.m0m2));
      absl::StrAppend(&out, "counters = { ", absl::StrJoin(c, ", "), " }\n");
    }
    if (o.shields) absl::StrAppend(&out, "shields = { regenerate = ", o.shields, " }\n");
    if (!o.attached_to.empty() && present.count(o.attached_to))
      absl::StrAppend(&out, "attached_to = ", Quote(o.attached_to), "\n");
    if (!o.choice.empty() && (o.choice_ref.empty() || present.count(o.choice_ref)))
      absl::StrAppend(&out, "choice = ", o.choice, "\n");
  }
  for (const ScenarioStepSpec& st : steps) {
    absl::StrAppend(&out, "\n[[step]]\nplayer = \"", PlayerName(st.player), "\"\n");
    for (const auto& [k, v] : st.keys) absl::StrAppend(&out, k, " = ", v, "\n");
  }
  return out;
}

absl::StatusOr<ScenarioSpec> BoardOf(const Game& g) {
  if (std::string gap = g.ScenarioGaps(); !gap.empty()) return absl::FailedPreconditionError(gap);
  const GameState& s = g.state();
  const CardDb& db = g.db();
  ScenarioSpec spec;
  spec.rules = std::string(EditionName(s.edition));
  // Stopped at the end of a phase: the scenario starts at the next one.
  spec.turn = s.turn;
  spec.active = s.active;
  Phase next = static_cast<Phase>(static_cast<int>(s.phase) + 1);
  if (s.phase == Phase::kCleanup) {
    next = Phase::kUntap;
    ++spec.turn;
    spec.active = Opponent(s.active);
  }
  spec.phase = std::string(PhaseName(next));
  for (Player p = 0; p < 2; ++p) {
    spec.life[p] = s.players[p].life;
    spec.poison[p] = s.players[p].poison;
  }
  const auto st = g.rng().state();
  spec.rng = absl::StrFormat("%016x %016x %016x %016x", st[0], st[1], st[2], st[3]);
  for (ObjId o = 0; o < s.obj.count; ++o) {
    // A token that left the battlefield has ceased to exist (G-12): no
    // object of the board. (One that exists stops the board: ScenarioGaps.)
    if (s.obj.token[o] && s.obj.zone[o] == Zone::kNone) continue;
    ScenarioObject x;
    x.id = IdOf(g, o);
    x.card = db[s.obj.card[o]].name;
    x.owner = s.obj.owner[o];
    x.controller = s.obj.zone[o] == Zone::kBattlefield ? s.obj.controller[o] : x.owner;
    x.zone = s.obj.zone[o];
    const PlayerState& pl = s.players[x.owner];
    for (const auto* list : {&pl.library, &pl.hand, &pl.graveyard}) {
      auto it = std::find(list->begin(), list->end(), o);
      if (it != list->end()) x.position = static_cast<int>(it - list->begin());
    }
    if (x.zone == Zone::kBattlefield) {
      x.timestamp = s.obj.timestamp[o];
      x.tapped = s.obj.tapped[o];
      x.sick = s.obj.sick[o];
      x.face_down = s.obj.face_down[o];
      x.damage = s.obj.damage[o];
      x.p1p1 = s.obj.p1p1[o];
      x.m1m1 = s.obj.m1m1[o];
      x.other = s.obj.other_counters[o];
      x.p1p0 = s.obj.pt[o].p1p0;
      x.m0m2 = s.obj.pt[o].m0m2;
      x.shields = s.obj.regen_shields[o];
      if (s.obj.attached_to[o] != kNoObj) x.attached_to = IdOf(g, s.obj.attached_to[o]);
      const EntryChoice& e = db[s.obj.card[o]].enters;
      const uint16_t w = s.obj.choice[o];
      switch (e.choose) {
        case ChoiceKind::kCopy:
          if (s.obj.copy[o].card != kNoCard) {
            ObjId from = CopySource(g, o);
            if (from == kNoObj)
              return absl::FailedPreconditionError(
                  absl::StrCat(g.ObjectName(o), " copies a card no object shows"));
            x.choice_ref = IdOf(g, from);
            x.choice = Quote(x.choice_ref);
          }
          break;
        case ChoiceKind::kExile: {
          ObjRef l = s.obj.linked[o];
          if (l.id == kNoObj) break;
          if (!s.Alive(l) || s.obj.zone[l.id] != Zone::kExile)
            return absl::FailedPreconditionError(
                absl::StrCat(g.ObjectName(o), " is linked to an object no longer in exile"));
          x.choice_ref = IdOf(g, l.id);
          x.choice = Quote(x.choice_ref);
          break;
        }
        case ChoiceKind::kMode:
          if (w != kNoWord) x.choice = absl::StrCat(w);
          break;
        case ChoiceKind::kColor:
          if (w != kNoWord && IsColorWord(w)) x.choice = Quote(ColorName(w - kColorWordBase));
          break;
        case ChoiceKind::kCreatureType:
        case ChoiceKind::kBasicLandType:
          if (w != kNoWord) x.choice = Quote(SubtypeName(w));
          break;
        default:
          break;
      }
    }
    spec.objects.push_back(std::move(x));
  }
  return spec;
}

bool AddSteps(const Game& g, const std::vector<Decision>& decisions,
              const std::vector<int>& choices, ScenarioSpec& spec) {
  bool exact = true;  // no step names a token by its name alone
  auto id = [&](ObjId o) {
    exact = exact && o < g.state().obj.count && !g.state().obj.token[o];
    return IdOf(g, o);
  };
  // Steps still being filled by later decisions: an attack's attackers, a
  // declaration of blockers, a phase cost's answer (per player).
  std::array<int, 2> attack{-1, -1}, block{-1, -1}, pay{-1, -1};
  std::array<bool, 2> declaring{};  // attackers are being declared
  for (size_t i = 0; i < decisions.size(); ++i) {
    const Decision& d = decisions[i];
    const Action& a = d.actions[choices[i]];
    const Player p = d.player;
    // A declaration ends at its "done", or, when the last choice left
    // nothing more to declare, at the next other decision.
    for (Player q = 0; q < 2; ++q) {
      if (d.kind != DecisionKind::kBlockers) block[q] = -1;
      if (d.kind != DecisionKind::kAttackers && declaring[q]) attack[q] = -1, declaring[q] = false;
    }
    if (d.kind == DecisionKind::kAttackers) declaring[p] = true;
    ScenarioStepSpec st;
    st.player = p;
    auto object = [&](const char* key, ObjId o) {
      st.keys.push_back({key, Quote(id(o))});
      st.refs.push_back(id(o));
    };
    switch (d.kind) {
      case DecisionKind::kNeutral:
      case DecisionKind::kRespond:
      case DecisionKind::kInterrupt:
      case DecisionKind::kPrevention:
      case DecisionKind::kReaction:
        switch (a.kind) {
          case ActionKind::kCast:
            object("cast", a.object);
            break;
          case ActionKind::kActivate:
            object("activate", a.object);
            st.keys.push_back({"ability", absl::StrCat(a.index + 1)});
            break;
          case ActionKind::kPlayLand:
            object("play_land", a.object);
            break;
          case ActionKind::kAttack:
            st.keys.push_back({"attack", "[]"});
            attack[p] = static_cast<int>(spec.steps.size());
            break;
          case ActionKind::kPhaseEffect:
            if (a.value) {
              st.keys.push_back({"pay", "false"});
              object("for", a.object);
              pay[p] = static_cast<int>(spec.steps.size());
            } else {
              object("handle", a.object);
            }
            break;
          default:
            st.keys.push_back({"pass", "true"});
            break;
        }
        break;
      case DecisionKind::kAttackers:
        if (attack[p] >= 0 && a.kind == ActionKind::kObject) {
          ScenarioStepSpec& at = spec.steps[attack[p]];
          std::string& list = at.keys[0].second;
          list.insert(list.size() - 1,
                      absl::StrCat(list.size() > 2 ? ", " : "", Quote(id(a.object))));
          at.refs.push_back(id(a.object));
        }
        if (a.kind == ActionKind::kDone) attack[p] = -1;
        continue;
      case DecisionKind::kBlockers:
        if (block[p] < 0) {
          st.keys.push_back({"block", "{}"});
          block[p] = static_cast<int>(spec.steps.size());
          spec.steps.push_back(st);
        }
        if (a.kind == ActionKind::kBlock) {
          ScenarioStepSpec& bt = spec.steps[block[p]];
          std::string& table = bt.keys[0].second;
          table.insert(table.size() - 1,
                       absl::StrCat(table.size() > 2 ? ", " : " ", Quote(id(a.object)), " = ",
                                    Quote(id(static_cast<ObjId>(a.value))), " "));
          bt.refs.push_back(id(a.object));
          bt.refs.push_back(id(static_cast<ObjId>(a.value)));
        }
        if (a.kind == ActionKind::kDone) block[p] = -1;
        continue;
      case DecisionKind::kPhaseCost:
        if (pay[p] >= 0)
          spec.steps[pay[p]].keys[0].second = a.kind != ActionKind::kYes ? "false"
                                              : a.value == 1             ? "\"life\""  // T-13.2
                                                                         : "true";
        pay[p] = -1;
        continue;
      case DecisionKind::kOptionalCost:
        st.keys.push_back({"pay", a.kind == ActionKind::kYes ? "true" : "false"});
        break;
      case DecisionKind::kBand:  // T-7.3: a join is a band step of the two bands' first creatures
        if (a.kind != ActionKind::kBand) continue;
        st.keys.push_back({"band", absl::StrCat("[", Quote(id(a.object)), ", ",
                                                Quote(id(static_cast<ObjId>(a.value))), "]")});
        st.refs.push_back(id(a.object));
        st.refs.push_back(id(static_cast<ObjId>(a.value)));
        break;
      default:  // target, X, choice, discard, trigger order: an answer step
        switch (a.kind) {
          case ActionKind::kTargetObject:
          case ActionKind::kObject:
            object("answer", a.object);
            break;
          case ActionKind::kTargetPlayer:
            st.keys.push_back({"answer", Quote(PlayerName(a.value))});
            break;
          case ActionKind::kNumber:
            st.keys.push_back({"answer", absl::StrCat(a.value)});
            break;
          case ActionKind::kWord:
            st.keys.push_back({"answer", Quote(WordName(static_cast<Word>(a.value)))});
            break;
          case ActionKind::kDone:
            st.keys.push_back({"answer", "\"done\""});
            break;
          default:
            st.keys.push_back({"answer", "\"none\""});
            break;
        }
        break;
    }
    spec.steps.push_back(std::move(st));
  }
  return exact;
}

// ---------------------------------------------------------------- describing

std::string DescribeState(const Game& g) {
  const GameState& s = g.state();
  const CardDb& db = g.db();
  std::string out =
      absl::StrCat("turn ", s.turn, " ", S(PhaseName(s.phase)), " active ", PlayerName(s.active),
                   " over ", g.Over(), " winner ", g.Winner(), "\n");
  for (Player p = 0; p < 2; ++p) {
    const PlayerState& pl = s.players[p];
    absl::StrAppend(&out, PlayerName(p), " life ", pl.life, " poison ", pl.poison, " lost ",
                    pl.lost, " pool ", absl::StrJoin(pl.pool, ","), "\n  library ",
                    absl::StrJoin(pl.library, ","), "\n  hand ", absl::StrJoin(pl.hand, ","),
                    "\n  graveyard ", absl::StrJoin(pl.graveyard, ","), "\n");
  }
  // The order of timestamps among permanents and effects in force: only the
  // order is a scenario's to keep.
  std::vector<std::pair<uint32_t, std::string>> order;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] == Zone::kBattlefield)
      order.push_back({s.obj.timestamp[o], absl::StrCat("o", o)});
    const Characteristics& ch = g.Chars(o);
    absl::StrAppend(&out, "o", o, " ", db[s.obj.card[o]].name, " ", S(ZoneName(s.obj.zone[o])),
                    " owner ", s.obj.owner[o]);
    if (s.obj.zone[o] == Zone::kBattlefield)
      absl::StrAppend(&out, " ctl ", ch.controller, " ", ch.power, "/", ch.toughness, " types ",
                      ch.types, " kw ", ch.keywords, " ab ", ch.abilities, " colors ", ch.colors,
                      " tapped ", s.obj.tapped[o], " sick ", g.SummoningSick(o), " dmg ",
                      s.obj.damage[o], " ctr ", s.obj.p1p1[o], ",", s.obj.m1m1[o], ",",
                      s.obj.other_counters[o], " on ", s.obj.attached_to[o], " choice ",
                      s.obj.choice[o], " copy ", s.obj.copy[o].card, " down ", s.obj.face_down[o],
                      " shields ", s.obj.regen_shields[o], " attacking ", g.Attacking(o));
    absl::StrAppend(&out, "\n");
  }
  int in_force = 0;  // effects by their rank among those in force, not their row
  for (size_t r = 0; r < s.effects.size(); ++r) {
    const EffectRow& e = s.effects[r];
    if (!e.active) continue;
    order.push_back({e.timestamp, absl::StrCat("e", in_force++)});
    absl::StrAppend(&out, "effect ", db[e.card].name, " ", e.tmpl, " from o", e.source.id, " x ",
                    e.x, " ctl ", e.controller, " on");
    for (uint32_t i = e.set_begin; i < e.set_begin + e.set_len; ++i)
      absl::StrAppend(&out, " o", s.effect_sets[i].id);
    absl::StrAppend(&out, "\n");
  }
  std::sort(order.begin(), order.end());
  absl::StrAppend(&out, "timestamps");
  for (auto& [t, what] : order) absl::StrAppend(&out, " ", what);
  absl::StrAppend(&out, "\n");
  return out;
}

// ---------------------------------------------------------------- shrinking

bool ScenarioFails(const CardDb& db, const std::string& toml, const std::string& invariant,
                   const ShrinkOptions& opt, std::string* failure) {
  ScenarioOptions so;
  so.extra_name = opt.extra_name;
  so.extra = opt.extra;
  ScenarioResult r = RunScenarioText(db, toml, "shrink.toml", so);
  // Only the invariant: a removal that also breaks the script (a step no
  // longer legal, a target no longer scripted) is not kept.
  bool only = !r.failures.empty();
  for (const std::string& f : r.failures) only &= f.rfind("invariant ", 0) == 0;
  if (failure) {
    *failure = "";
    for (const std::string& f : r.failures)
      if (f.rfind("invariant ", 0) == 0) *failure = f;
    if (failure->empty() && !r.failures.empty()) *failure = r.failures[0];
  }
  return only && r.invariant == invariant;
}

namespace {

// Delta debugging over one kind of part (objects or steps): remove chunks,
// halving them when no chunk can go, while the scenario fails the same way.
template <typename Part, typename Removable>
bool Minimize(std::vector<Part>& parts, Removable removable, const std::function<bool()>& fails,
              int& tries, int budget) {
  bool changed = false;
  size_t n = 2;
  for (;;) {
    std::vector<size_t> can;
    for (size_t i = 0; i < parts.size(); ++i)
      if (removable(parts[i])) can.push_back(i);
    if (can.empty() || tries >= budget) return changed;
    n = std::min(n, can.size());
    const size_t chunk = (can.size() + n - 1) / n;
    bool removed = false;
    for (size_t c = 0; c < can.size() && tries < budget; c += chunk) {
      std::vector<Part> saved = parts;
      std::vector<size_t> drop(can.begin() + static_cast<long>(c),
                               can.begin() + static_cast<long>(std::min(can.size(), c + chunk)));
      for (size_t k = drop.size(); k-- > 0;)
        parts.erase(parts.begin() + static_cast<long>(drop[k]));
      ++tries;
      if (fails()) {
        removed = changed = true;
        n = std::max<size_t>(n - 1, 2);
        break;
      }
      parts = std::move(saved);
    }
    if (removed) continue;
    if (chunk == 1) return changed;
    n = std::min(can.size(), n * 2);
  }
}

int Lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

absl::StatusOr<ShrinkResult> ShrinkFuzzGame(const CardDb& db, const FuzzSetup& setup,
                                            const std::vector<int32_t>& recorded,
                                            const ShrinkOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  // Replay the game with the invariants, as `strata fuzz` played it, noting
  // where each phase ended and the decisions taken.
  Game g(db, FuzzGameOptions(setup, false));
  g.Deal(setup.a, setup.b, setup.first);
  InvariantChecker check;
  if (!opt.extra_name.empty()) check.SetExtra(opt.extra_name, opt.extra);
  check.Begin(g);
  std::vector<Decision> seen;
  std::vector<int> choices;
  struct Start {
    size_t next;  // the first decision after it
    std::unique_ptr<Game> stopped;
  };
  std::deque<Start> starts;  // the latest few phase starts a scenario can say
  for (size_t k = 0;; ++k) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    check.OnDecision(g, d);
    {
      const std::string refused = CheckRefusesUnoffered(g, d, /*compare=*/true);
      check.Record(Invariant::kApply, refused.empty(), refused);
      const std::string why = CheckNumbering(db, g.state());
      check.Record(Invariant::kNumbering, why.empty(), why);
    }
    if (!check.ok() || k >= recorded.size()) break;
    const int choice = recorded[k];
    if (choice < 0 || choice >= static_cast<int>(d.actions.size()))
      return absl::InvalidArgumentError(absl::StrCat("decision ", k, " of the failure file (",
                                                     choice, ") is not one of the ",
                                                     d.actions.size(), " actions offered"));
    // Does the phase end right after this decision? Then its end is a start.
    auto c = std::make_unique<Game>(g);
    c->SetStop(StopAt::kPhaseEnd);
    c->Apply(choice);
    if (c->Advance().kind == DecisionKind::kNone && c->ScenarioGaps().empty()) {
      starts.push_back({k + 1, std::move(c)});
      if (starts.size() > 3) starts.pop_front();
    }
    seen.push_back(d);
    choices.push_back(choice);
    const bool applied = g.Apply(choice);
    check.AfterApply(g, seen.back(), choice, applied);
    if (!check.ok()) break;
  }
  if (check.ok()) check.End(g, false);
  if (check.ok())
    return absl::NotFoundError(
        "every invariant holds in this game as it replays: nothing to shrink");
  ShrinkResult out;
  out.invariant = check.failed_name();
  const int fail_turn = g.state().turn;
  // The latest start that reproduces the failure as a scenario.
  ScenarioSpec spec;
  bool found = false;
  std::string why_not;
  for (auto it = starts.rbegin(); it != starts.rend() && !found; ++it) {
    auto board = BoardOf(*it->stopped);
    if (!board.ok()) continue;
    spec = *board;
    std::vector<Decision> ds(seen.begin() + static_cast<long>(it->next), seen.end());
    std::vector<int> cs(choices.begin() + static_cast<long>(it->next), choices.end());
    // A step that names a token by its name alone (G-12) may pick another
    // of that name: ScenarioFails says whether the script still fails.
    AddSteps(g, ds, cs, spec);
    spec.until = absl::StrCat("turns:", std::max(1, fail_turn - spec.turn + 1));
    ++out.tries;
    found = ScenarioFails(db, spec.ToToml(), out.invariant, opt, &why_not);
  }
  if (!found)
    return absl::FailedPreconditionError(
        absl::StrCat("no scenario from the ", starts.size(), " latest phase starts fails ",
                     out.invariant, starts.empty() ? " (no phase start a scenario can say)" : "",
                     why_not.empty() ? "" : absl::StrCat("; the last one: ", why_not)));
  out.start_turn = spec.turn;
  out.start_phase = spec.phase;
  out.objects_before = static_cast<int>(spec.objects.size());
  out.steps_before = static_cast<int>(spec.steps.size());
  out.lines_before = Lines(spec.ToToml());
  // Shrink: steps and the objects no step names, in turns, while it helps.
  auto fails = [&] { return ScenarioFails(db, spec.ToToml(), out.invariant, opt); };
  for (bool changed = true; changed && out.tries < opt.budget;) {
    std::set<std::string> named;
    for (const auto& st : spec.steps) named.insert(st.refs.begin(), st.refs.end());
    changed = Minimize(
        spec.objects, [&](const ScenarioObject& o) { return !named.count(o.id); }, fails, out.tries,
        opt.budget);
    changed |= Minimize(
        spec.steps, [](const ScenarioStepSpec&) { return true; }, fails, out.tries, opt.budget);
  }
  spec.name = absl::StrCat("fuzz seed ", setup.run_seed, " game ", setup.index, ": ", out.invariant,
                           " (shrunk)");
  spec.source = opt.source;
  spec.comment = absl::StrCat(
      "# Written by `strata fuzz --shrink`: the board at the start of ", spec.phase, " of turn ",
      spec.turn, "\n# of a fuzz game that broke the `", out.invariant,
      "` invariant, and the decisions\n# from there as steps, shrunk while it still fails the same "
      "invariant.\n# `strata scenario THIS_FILE` fails while the bug is there.\n");
  out.toml = spec.ToToml();
  ScenarioFails(db, out.toml, out.invariant, opt, &out.failure);
  out.objects_after = static_cast<int>(spec.objects.size());
  out.steps_after = static_cast<int>(spec.steps.size());
  out.lines_after = Lines(out.toml);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace strata
