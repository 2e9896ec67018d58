#include "sim/scenario.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"
#include "policies/scripted.h"

namespace strata {
namespace {

// The shared reader (engine/toml_reader.h) and the words of a scenario:
// players A and B, cards by their names in the database.
class Loader : public TomlReader {
 public:
  Loader(const CardDb& db, const std::string& file) : TomlReader(file), db_(db), file_(file) {}

  Player PlayerOf(const toml::node& n, std::string_view key) const {
    auto s = String(n, key);
    if (s == "A") return 0;
    if (s == "B") return 1;
    Fail(n, key, "\"A\" or \"B\", got '" + s + "'");
  }
  CardId Card(const toml::node& n, std::string_view key, const std::string& name) const {
    CardId c = db_.Find(name);
    if (c == kNoCard && (c = db_.FindAlias(name)) != kNoCard)
      std::fprintf(stderr, "%s:%d: %s\n", file_.c_str(), static_cast<int>(n.source().begin.line),
                   db_.AliasNote(name, c).c_str());
    if (c == kNoCard)
      Fail(n, key,
           absl::StrCat("a card name from the card database, got '", name, "' (",
                        db_.ClosestNote(name), ")"));
    return c;
  }

 private:
  const CardDb& db_;
  std::string file_;
};

std::string Lower(std::string_view s) {
  return absl::AsciiStrToLower(std::string(s));
}

std::string SetString(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return "[" + absl::StrJoin(v, ", ") + "]";
}

std::string ListString(const std::vector<std::string>& v) {
  return "[" + absl::StrJoin(v, ", ") + "]";
}

// regen_shields is 8 bits; no board needs more.
constexpr int kMaxShields = 100;

class Runner {
 public:
  Runner(const CardDb& db, const std::string& file, const ScenarioOptions& opt)
      : db_(db), L_(db, file), opt_(opt) {}

  // Stops after setting up the board: the scenario's position.
  void PositionOnly() { position_only_ = true; }
  std::unique_ptr<Game> TakeGame() { return std::move(game_); }

  void Run(const toml::table& doc, ScenarioResult& result) {
    L_.CheckKeys(doc, "a scenario",
                 {"name", "source", "rules", "active", "phase", "turn", "free_mana", "until",
                  "seed", "rng", "players", "object", "step", "expect"});
    result.name = std::filesystem::path(result.file).stem().string();
    if (auto* n = doc.get("name")) result.name = L_.String(*n, "name");
    GameOptions go;
    go.checked_layers = opt_.checked_layers;
    // The engine's own state-check invariant is recorded only when asked for.
    go.check_invariants = opt_.checked_layers;
    go.log = opt_.log;
    go.free_mana = true;
    if (auto* n = doc.get("rules")) {
      auto e = ParseEdition(L_.String(*n, "rules"));
      if (!e) L_.Fail(*n, "rules", "classic, m10 or modern");
      go.edition = *e;
    }
    if (auto* n = doc.get("free_mana")) go.free_mana = L_.Bool(*n, "free_mana");
    Player active = 0;
    if (auto* n = doc.get("active")) active = L_.PlayerOf(*n, "active");
    Phase phase = Phase::kMain;
    if (auto* n = doc.get("phase")) {
      auto p = ParsePhase(L_.String(*n, "phase"));
      if (!p) L_.Fail(*n, "phase", "untap, upkeep, draw, main, discard or cleanup");
      phase = *p;
    }
    int turn = 1;
    if (auto* n = doc.get("turn")) turn = L_.Int(*n, "turn", 1, kMaxTurn);
    StopAt until = StopAt::kNeutral;
    int until_turns = 0;
    if (auto* n = doc.get("until")) {
      auto u = L_.String(*n, "until");
      if (u == "resolved")
        until = StopAt::kNeutral;
      else if (u == "end_of_phase")
        until = StopAt::kPhaseEnd;
      else if (u == "end_of_turn")
        until = StopAt::kTurnEnd;
      else if (u.rfind("turns:", 0) == 0 && absl::SimpleAtoi(u.substr(6), &until_turns) &&
               until_turns > 0 && until_turns <= kMaxTurn)
        until = StopAt::kTurn;
      else
        L_.Fail(*n, "until",
                absl::StrCat("resolved, end_of_phase, end_of_turn or turns:N with N between 1 "
                             "and ",
                             kMaxTurn));
    }
    if (auto* n = doc.get("seed")) L_.Int64(*n, "seed", 0);  // a seed is no negative number
    if (auto* n = doc.get("source")) L_.String(*n, "source");

    game_ = std::make_unique<Game>(db_, go);
    Game& g = *game_;
    if (auto* n = doc.get("rng")) {
      // strata extension: the generator's exact state, four hex words (what
      // `strata fuzz --shrink` writes, so random discards go the same way).
      std::vector<std::string> words = absl::StrSplit(L_.String(*n, "rng"), ' ', absl::SkipEmpty());
      std::array<uint64_t, 4> state{};
      bool ok = words.size() == 4;
      for (size_t i = 0; ok && i < 4; ++i) ok = absl::SimpleHexAtoi(words[i], &state[i]);
      if (!ok || state == std::array<uint64_t, 4>{})
        L_.Fail(*n, "rng", "four hexadecimal words, not all zero (a generator state)");
      Rng rng;
      rng.set_state(state);
      g.SetRng(rng);
    }
    // Players: life, hand, library (top first), graveyard.
    if (auto* n = doc.get("players")) {
      auto* t = n->as_table();
      if (!t) L_.Fail(*n, "players", "[players.A] and [players.B] tables");
      for (auto& [k, v] : *t) {
        if (k.str() != "A" && k.str() != "B") L_.Fail(v, k.str(), "A or B");
        Player p = k.str() == "A" ? 0 : 1;
        const toml::table* pt = &L_.Table(v, k.str());
        L_.CheckKeys(*pt, "a player", {"life", "poison", "hand", "library", "graveyard"});
        if (auto* l = pt->get("life")) g.SetLifeTotal(p, L_.Int(*l, "life", -kMaxLife, kMaxLife));
        if (auto* n = pt->get("poison"))
          g.SetPoisonCounters(p, L_.Int(*n, "poison", 0, kMaxScenarioAmount));
        for (auto [key, zone] :
             {std::pair{"library", Zone::kLibrary}, std::pair{"hand", Zone::kHand},
              std::pair{"graveyard", Zone::kGraveyard}}) {
          if (auto* l = pt->get(key))
            for (auto& name : L_.Strings(*l, key)) Add(*l, key, L_.Card(*l, key, name), p, zone);
        }
      }
    }
    // Objects, in listing order: later ones get later timestamps (L-4).
    struct Pending {
      ObjId o;
      const toml::table* t;
    };
    std::vector<Pending> pending;
    std::vector<std::pair<int64_t, ObjId>> stamped;  // `timestamp` keys
    std::map<ObjId, int> position;                   // `position` keys
    if (auto* n = doc.get("object")) {
      for (const toml::table* t : L_.Tables(*n, "object", "[[object]] tables")) {
        L_.CheckKeys(
            *t, "an object",
            {"id", "card", "owner", "controller", "zone", "counters", "tapped", "sick", "damage",
             "attached_to", "choice", "face_down", "shields", "timestamp", "position"});
        auto* c = t->get("card");
        if (!c) L_.Fail(*t, "card", "the object's card name");
        std::string name = L_.String(*c, "card");
        CardId card = L_.Card(*c, "card", name);
        Player owner = 0;
        if (auto* x = t->get("owner")) owner = L_.PlayerOf(*x, "owner");
        Zone zone = Zone::kBattlefield;
        if (auto* x = t->get("zone")) {
          auto z = ParseZone(L_.String(*x, "zone"));
          if (!z || *z == Zone::kStack)
            L_.Fail(*x, "zone", "battlefield, hand, graveyard, library or exile");
          zone = *z;
        }
        // An instant, interrupt or sorcery is never a permanent (issue 40).
        const TypeMask types = db_[card].types;
        if (zone == Zone::kBattlefield &&
            (Has(types, kInstant) || Has(types, kInterrupt) || Has(types, kSorcery)))
          L_.Fail(t->get("zone") ? *t->get("zone") : *c, "zone",
                  absl::StrCat("hand, graveyard, library or exile for '", name,
                               "': an instant, interrupt or sorcery is no permanent, so it is "
                               "never on the battlefield"));
        ObjId o = Add(*t, "object", card, owner, zone);
        std::string id = Lower(name);
        if (auto* x = t->get("id")) id = L_.String(*x, "id");
        if (ids_.count(id))
          L_.Fail(t->get("id") ? *t->get("id") : *t, "id",
                  "a unique object id; '" + id + "' is used twice (give an id)");
        ids_[id] = o;
        GameState& s = g.MutableState();
        if (auto* x = t->get("controller")) s.obj.controller[o] = L_.PlayerOf(*x, "controller");
        if (auto* x = t->get("tapped")) s.obj.tapped[o] = L_.Bool(*x, "tapped");
        if (auto* x = t->get("sick")) s.obj.sick[o] = L_.Bool(*x, "sick");
        if (auto* x = t->get("damage"))
          s.obj.damage[o] = static_cast<int16_t>(L_.Int(*x, "damage", 0, kMaxScenarioAmount));
        if (auto* x = t->get("face_down")) s.obj.face_down[o] = L_.Bool(*x, "face_down");
        if (auto* x = t->get("shields")) {
          auto* st = x->as_table();
          if (!st) L_.Fail(*x, "shields", "a table like { regenerate = 1 }");
          L_.CheckKeys(*st, "shields", {"regenerate"});
          if (auto* r = st->get("regenerate"))
            s.obj.regen_shields[o] = static_cast<uint8_t>(L_.Int(*r, "regenerate", 0, kMaxShields));
        }
        if (auto* x = t->get("counters")) {
          auto* ct = x->as_table();
          if (!ct) L_.Fail(*x, "counters", "a table like { p1p1 = 2, m1m1 = 1 }");
          int pooled = 0;  // kinds other than p1p1 and m1m1 share one 16-bit pool
          for (auto& [ck, cv] : *ct) {
            int kind = CounterKindOf(ck.str());
            // +1/+0 and -0/-2 counters count up to 127 (a byte each: G-8.1).
            int n = L_.Int(cv, ck.str(), 0,
                           kind >= 3 ? 127 : kMaxScenarioAmount - (kind == 2 ? pooled : 0));
            if (kind == 2) pooled += n;
            g.AddCounters(o, kind, n);
          }
        }
        if (auto* x = t->get("timestamp")) stamped.push_back({L_.Int64(*x, "timestamp"), o});
        if (auto* x = t->get("position")) {
          if (zone != Zone::kLibrary && zone != Zone::kHand && zone != Zone::kGraveyard)
            L_.Fail(*x, "position", "`position` only in a library, hand or graveyard");
          position[o] = L_.Int(*x, "position", 0, kMaxObjects);
        }
        pending.push_back({o, t});
      }
    }
    // strata extension: `timestamp` gives objects their timestamps in the
    // order of these numbers (listing order breaks ties), after every other
    // object's; their counters get one right after (L-4).
    std::stable_sort(stamped.begin(), stamped.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto [key, o] : stamped) {
      GameState& s = g.MutableState();
      s.obj.timestamp[o] = s.NewTimestamp();
      if (s.obj.p1p1[o] || s.obj.m1m1[o] || s.obj.other_counters[o] ||
          s.obj.pt[o] != Objects::PtCounters{})
        s.obj.counter_timestamp[o] = s.NewTimestamp();
    }
    // strata extension: `position` orders a library (top first), hand or
    // graveyard (bottom first); cards without one come after, in their order.
    if (!position.empty()) {
      GameState& s = g.MutableState();
      auto at = [&](ObjId o) {
        auto it = position.find(o);
        return it == position.end() ? kMaxObjects + 1 : it->second;
      };
      for (auto& pl : s.players)
        for (auto* list : {&pl.library, &pl.hand, &pl.graveyard})
          std::stable_sort(list->begin(), list->end(),
                           [&](ObjId a, ObjId b) { return at(a) < at(b); });
    }
    // Attachments and entry choices refer to other objects: after all exist.
    for (auto& [o, t] : pending) {
      GameState& s = g.MutableState();
      if (auto* x = t->get("attached_to")) s.obj.attached_to[o] = Object(*x, "attached_to");
    }
    // Copy choices copy copiable values, which may come from another copy
    // (L-7): resolve a copy only after the object it copies has its own.
    std::vector<Pending> copies;
    for (auto& pd : pending) {
      auto* x = pd.t->get("choice");
      if (!x) {
        // A permanent that must choose as it enters (a mode, a colour, a
        // type) is never in play without its choice: Primal Clay with none
        // would be a 0/0 no game can make. (Copy and exile are "may".)
        const CardDef& card = db_[g.state().obj.card[pd.o]];
        const ChoiceKind c = card.enters.choose;
        if (g.state().obj.zone[pd.o] == Zone::kBattlefield && c != ChoiceKind::kNone &&
            c != ChoiceKind::kCopy && c != ChoiceKind::kExile && !card.enters.optional)
          L_.Fail(*pd.t, "choice",
                  absl::StrCat("the choice ", card.name,
                               " made as it entered (it can't be in play without one)"));
        continue;
      }
      if (db_[g.state().obj.card[pd.o]].enters.choose == ChoiceKind::kCopy)
        copies.push_back(pd);
      else
        EntryChoiceOf(pd.o, *x);
    }
    while (!copies.empty()) {
      size_t before = copies.size();
      for (size_t i = 0; i < copies.size();) {
        ObjId src = Object(*copies[i].t->get("choice"), "choice");
        bool waits =
            std::any_of(copies.begin(), copies.end(), [&](const Pending& q) { return q.o == src; });
        if (waits) {
          ++i;
          continue;
        }
        EntryChoiceOf(copies[i].o, *copies[i].t->get("choice"));
        copies.erase(copies.begin() + static_cast<long>(i));
      }
      if (copies.size() == before)
        L_.Fail(*copies[0].t->get("choice"), "choice", "copy choices without a cycle");
    }
    // Steps.
    if (auto* n = doc.get("step")) {
      int number = 0;
      for (const toml::table* t : L_.Tables(*n, "step", "[[step]] tables")) {
        ScriptStep st = Step(*t, ++number);
        if (st.never) {
          NeverStep n;
          n.step = st;
          script_.nevers.push_back(n);
          never_numbers_.insert(number);
          // Its window opens when the player's previous ordinary step is used.
          for (size_t i = script_.steps.size(); i-- > 0;)
            if (script_.steps[i].player == st.player) {
              script_.nevers.back().after = static_cast<int>(i);
              break;
            }
        } else {
          ordinary_index_[number] = script_.steps.size();
          script_.steps.push_back(st);
        }
      }
      // ... and closes when the player's next ordinary step is used.
      for (NeverStep& n : script_.nevers) {
        n.until = script_.steps.size();
        for (size_t i = n.after < 0 ? 0 : static_cast<size_t>(n.after) + 1;
             i < script_.steps.size(); ++i)
          if (script_.steps[i].player == n.step.player && script_.steps[i].number > n.step.number) {
            n.until = i;
            break;
          }
      }
    }
    // Cast cards are taken from the hand, or created there if absent.
    std::map<std::pair<Player, std::string>, int> needed;
    for (auto& st : script_.steps)
      if (st.kind == ScriptStep::kCast && st.object == kNoObj)
        ++needed[{st.player, Lower(st.card)}];
    // A negative cast step needs the card in hand to say anything.
    for (auto& n : script_.nevers)
      if (n.step.kind == ScriptStep::kCast) {
        int& count = needed[{n.step.player, Lower(n.step.card)}];
        count = std::max(count, 1);
      }
    for (auto& [key, count] : needed) {
      int have = 0;
      for (ObjId o : g.state().players[key.first].hand)
        if (Lower(db_[g.state().obj.card[o]].name) == key.second) ++have;
      for (; have < count; ++have) Add(doc, "step", db_.Find(key.second), key.first, Zone::kHand);
    }
    // Parse expectations before running so a malformed one fails early.
    if (auto* n = doc.get("expect")) {
      for (const toml::table* t : L_.Tables(*n, "expect", "[[expect]] tables")) {
        L_.CheckKeys(
            *t, "an expectation",
            {"object", "spell",    "player",     "winner",    "power", "toughness",   "colors",
             "types",  "subtypes", "supertypes", "abilities", "has",   "lacks",       "controller",
             "zone",   "counters", "damage",     "tapped",    "name",  "outcome",     "life",
             "hand",   "library",  "graveyard",  "lost",      "sick",  "library_top", "after_step",
             "poison", "token",    "tokens",     "creatures"});
        if (t->contains("token") && t->contains("object"))
          L_.Fail(*t->get("token"), "token", "an object or a token, not both");
        Expectation ex{t};
        // Checked at load, not only when compared (issue 40: "moon" passed
        // until the run ended).
        if (auto* x = t->get("zone"); x && !ParseZone(L_.String(*x, "zone")))
          L_.Fail(*x, "zone", "battlefield, hand, graveyard, library, exile or stack");
        if (auto* x = t->get("after_step")) {
          int total = static_cast<int>(script_.steps.size() + script_.nevers.size());
          int64_t n = L_.Int64(*x, "after_step");
          if (n < 1 || n > total)
            L_.Fail(
                *x, "after_step",
                absl::StrCat("the number of a [[step]] of this file, 1 to ", total, "; got ", n));
          ex.after_step = static_cast<int>(n);
          if (never_numbers_.count(ex.after_step))
            L_.Fail(*x, "after_step",
                    absl::StrCat("the number of an ordinary step; step ", ex.after_step,
                                 " is a `never` step, which is never used"));
        }
        expects_.push_back(ex);
      }
    }

    // A scenario must be able to fail: without an expectation, a `never`
    // step or a step (each must be legal when its turn comes, and the
    // invariants are checked after every action) it passed whatever the
    // engine did (issue 40). A position for perft needs none.
    if (!position_only_ && expects_.empty() && script_.nevers.empty() && script_.steps.empty())
      L_.Fail(doc, "expect",
              "at least one [[expect]] table, [[step]] or `never` step: a scenario with nothing "
              "to check passes whatever the engine does");
    g.StartAt(phase, active, turn);
    if (position_only_) return;
    ScriptedPolicy pa(&script_, 0), pb(&script_, 1);
    Policy* policies[2] = {&pa, &pb};
    int stop_turn = turn + std::max(until_turns, 1) + 2;
    // Every rules invariant after every action, as `strata fuzz` checks them
    // (engine/invariants.h); the board was put by set-up, so the checker
    // starts from it as it is.
    const bool checked = opt_.checked_layers;
    InvariantChecker check;
    if (!opt_.extra_name.empty()) check.SetExtra(opt_.extra_name, opt_.extra);
    if (checked) check.Begin(g);
    // copy: a copy of the starting position, given the same decisions (and
    // the same stop), must end where the run ends.
    std::unique_ptr<Game> copy = checked ? std::make_unique<Game>(g) : nullptr;
    std::vector<int> decisions;
    int stop_set_at = -1;  // the decision count when the run's stop was set
    bool ended = false;    // the last Advance() found nothing to decide
    std::string invariant;
    std::vector<std::string> intermediate;  // failures of after_step expectations
    for (int guard = 0; guard < 20000; ++guard) {
      if (script_.Done()) {
        if (stop_set_at < 0) stop_set_at = static_cast<int>(decisions.size());
        g.SetStop(until, turn + until_turns);
      } else if (g.state().turn > stop_turn) {
        break;
      }
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) {
        ended = true;
        break;
      }
      CheckAfterSteps(intermediate);
      if (checked) {
        check.OnDecision(g, d);
        // apply: an index no action has is refused and changes nothing.
        const uint64_t before = g.Fingerprint();
        const int n = static_cast<int>(d.actions.size());
        const bool refused = !g.Apply(n) && !g.Apply(-1) && g.Fingerprint() == before;
        check.Record(Invariant::kApply, refused, "an index past the offered actions was applied");
        const std::string why = CheckNumbering(db_, g.state());
        check.Record(Invariant::kNumbering, why.empty(), why);
      }
      const int choice = policies[d.player]->ChooseFor(g, d);
      const bool applied = g.Apply(choice);
      decisions.push_back(choice);
      if (checked) check.AfterApply(g, d, choice, applied);
      if (!check.ok()) {
        // The state is broken from here on: what follows would be noise.
        invariant =
            absl::StrCat("invariant ", check.failure(), " (after action ", g.actions_taken(), ", T",
                         g.state().turn, " ", S(PhaseName(g.state().phase)), ")");
        break;
      }
    }
    if (checked && check.ok()) {
      // The run ended by its script and `until`: no cap, no loop to report.
      check.End(g, /*loops_allowed=*/true);
      Game& c = *copy;
      for (size_t i = 0; i <= decisions.size(); ++i) {
        if (static_cast<int>(i) == stop_set_at) c.SetStop(until, turn + until_turns);
        if (i == decisions.size()) {
          if (ended) c.Advance();
          break;
        }
        c.Advance();
        c.Apply(decisions[i]);
      }
      check.Record(Invariant::kCopy, c.Fingerprint() == g.Fingerprint(),
                   "a copy of the starting position, given the run's decisions, ended elsewhere");
    }
    // A violation the last Advance() recorded (a payment, a state check
    // with no decision after it), or End's and the copy's.
    if (checked && !check.ok() && invariant.empty())
      invariant = absl::StrCat("invariant ", check.failure(), " (at the end, T", g.state().turn,
                               " ", S(PhaseName(g.state().phase)), ")");
    for (auto& e : script_.errors) result.failures.push_back(e);
    if (!invariant.empty()) {
      result.failures.push_back(invariant);
      result.invariant = check.failed_name();
      result.log = g.log();
      return;
    }
    if (!script_.Done()) {
      const ScriptStep& st = script_.steps[script_.next];
      result.failures.push_back(
          absl::StrCat("step ", st.number, " (", st.Describe(), ") was never legal"));
    }
    for (auto& f : intermediate) result.failures.push_back(f);
    // An after_step expectation whose step was used but no decision came
    // after it (the game ended) is checked on the final state.
    CheckAfterSteps(result.failures);
    for (auto& ex : expects_) {
      if (ex.after_step == 0) {
        Check(*ex.table, result.failures);
      } else if (!ex.checked) {
        result.failures.push_back(absl::StrCat("after step ", ex.after_step, ": step ",
                                               ex.after_step,
                                               " was never used, so this was not checked"));
      }
    }
    result.log = g.log();
    if (opt_.log) {
      // How the final characteristics were reached: the order effects applied
      // in, layer by layer, and which waited for a dependency (L-6).
      LayerTrace trace;
      LayerCache fresh;
      ComputeLayers(db_, g.state(), fresh, &trace);
      for (auto& e : trace.entries)
        result.log.push_back(
            absl::StrCat("layer ", e.step, ": ", e.effect, " (timestamp ", e.timestamp, ")",
                         e.dropped         ? " does not apply: its source lost the ability"
                         : e.by_dependency ? " applied before earlier effects: dependency (L-6)"
                                           : ""));
    }
    result.passed = result.failures.empty();
  }

 private:
  // The game's objects live in arrays of kMaxObjects: refuse more, naming
  // the limit, before the engine would write past them.
  ObjId Add(const toml::node& n, std::string_view key, CardId card, Player owner, Zone zone) {
    if (game_->state().obj.count >= kMaxObjects)
      L_.Fail(
          n, key,
          absl::StrCat("at most ", kMaxObjects,
                       " objects in a scenario (the engine's capacity: players' cards, "
                       "objects and cards created for cast steps together); this one has more"));
    return game_->AddObject(card, owner, zone);
  }

  struct Expectation {
    const toml::table* table;
    int after_step = 0;  // 0: when the run stops
    bool checked = false;
  };

  // after_step expectations whose step has been used: checked now, once.
  void CheckAfterSteps(std::vector<std::string>& failures) {
    for (auto& ex : expects_) {
      if (ex.after_step == 0 || ex.checked) continue;
      if (ordinary_index_.at(ex.after_step) >= script_.next) continue;
      ex.checked = true;
      std::vector<std::string> here;
      Check(*ex.table, here);
      for (auto& f : here) failures.push_back(absl::StrCat("after step ", ex.after_step, ": ", f));
    }
  }

  ObjId Object(const toml::node& n, std::string_view key) {
    auto id = L_.String(n, key);
    auto it = ids_.find(id);
    if (it == ids_.end()) L_.Fail(n, key, "the id of an [[object]], got '" + id + "'");
    return it->second;
  }

  void EntryChoiceOf(ObjId o, const toml::node& n) {
    Game& g = *game_;
    const CardDef& card = db_[g.state().obj.card[o]];
    GameState& s = g.MutableState();
    switch (card.enters.choose) {
      case ChoiceKind::kCopy: {
        ObjId src = Object(n, "choice");
        const Characteristics& ch = g.Chars(src);
        CopySpec spec{ch.card, ch.mode, ch.blank};
        if (card.enters.has_except_colors)
          spec.has_colors = true, spec.colors = card.enters.except_colors;
        if (card.enters.keep_phase) spec.keep_phase = g.state().obj.card[o];
        g.MutableState().obj.copy[o] = spec;
        break;
      }
      case ChoiceKind::kExile: {
        ObjId exiled = Object(n, "choice");
        if (g.state().obj.zone[exiled] != Zone::kExile)
          g.MoveTo(exiled, Zone::kExile, g.state().obj.owner[exiled]);
        g.MutableState().obj.linked[o] = g.state().Ref(exiled);
        break;
      }
      case ChoiceKind::kMode: {
        int64_t m = 0;
        if (auto v = n.value_exact<int64_t>())
          m = *v;
        else if (!absl::SimpleAtoi(L_.String(n, "choice"), &m))
          L_.Fail(n, "choice", "a mode number");
        if (m < 1 || m > static_cast<int>(card.enters.modes.size()))
          L_.Fail(n, "choice", absl::StrCat("a mode between 1 and ", card.enters.modes.size()));
        s.obj.choice[o] = static_cast<uint16_t>(m);
        break;
      }
      case ChoiceKind::kColor: {
        auto c = ParseColor(L_.String(n, "choice"));
        if (!c) L_.Fail(n, "choice", "a color");
        s.obj.choice[o] = ColorWord(*c);
        break;
      }
      case ChoiceKind::kCreatureType: {
        auto t = ParseCreatureType(L_.String(n, "choice"));
        if (!t) L_.Fail(n, "choice", "a creature type");
        s.obj.choice[o] = static_cast<uint16_t>(*t);
        break;
      }
      case ChoiceKind::kBasicLandType: {
        auto t = ParseSubtype(L_.String(n, "choice"));
        if (!t || !BasicLandColor(*t)) L_.Fail(n, "choice", "a basic land type");
        s.obj.choice[o] = static_cast<uint16_t>(*t);
        break;
      }
      default:
        L_.Fail(n, "choice", "no choice: " + card.name + " makes no choice as it enters");
    }
  }

  ScriptValue Value(const toml::node& n, std::string_view key, bool targets) {
    ScriptValue v;
    if (n.value_exact<int64_t>()) {
      v.kind = ScriptValue::kNumber;
      v.number = L_.Int(n, key, -kMaxScenarioAmount, kMaxScenarioAmount);
      return v;
    }
    std::string s = L_.String(n, key);
    if (s == "A" || s == "B") {
      v.kind = ScriptValue::kPlayer;
      v.player = s == "A" ? 0 : 1;
      return v;
    }
    if (auto it = ids_.find(s); it != ids_.end()) {
      v.kind = ScriptValue::kObject;
      v.object = it->second;
      v.label = s;
      return v;
    }
    if (absl::StartsWith(s, "token:") && s.size() > 6) {
      // G-12: the first token of that name that exists as the step is
      // taken (a token has no [[object]]: a step makes it).
      v.kind = ScriptValue::kObject;
      v.token = s.substr(6);
      v.label = s;
      return v;
    }
    if (std::any_of(tags_.begin(), tags_.end(), [&](auto& t) { return t == s; })) {
      v.kind = ScriptValue::kObject;
      v.spell_tag = s;
      return v;
    }
    if (targets)
      L_.Fail(n, key, "an object id, a spell id (a step's `id`), A or B; got '" + s + "'");
    int64_t num = 0;
    if (absl::SimpleAtoi(s, &num)) {
      if (num < -kMaxScenarioAmount || num > kMaxScenarioAmount)
        L_.Fail(n, key,
                absl::StrCat("an integer between ", -kMaxScenarioAmount, " and ",
                             kMaxScenarioAmount, ", got ", s));
      v.kind = ScriptValue::kNumber;
      v.number = static_cast<int>(num);
      return v;
    }
    if (!ParseWord(s))
      L_.Fail(n, key, "an object id, a color, a type or a number; got '" + s + "'");
    v.kind = ScriptValue::kText;
    v.text = s;
    return v;
  }

  std::vector<ScriptValue> Values(const toml::node& n, std::string_view key, bool targets) {
    std::vector<ScriptValue> out;
    if (auto* a = n.as_array()) {
      for (auto& e : *a) out.push_back(Value(e, key, targets));
    } else {
      out.push_back(Value(n, key, targets));
    }
    return out;
  }

  ScriptStep Step(const toml::table& step, int number) {
    const toml::table* t = &step;
    L_.CheckKeys(*t, "a step",
                 {"player", "cast",    "activate", "handle", "ability", "play_land", "attack",
                  "block",  "targets", "x",        "choice", "pay",     "order",     "as",
                  "at",     "id",      "pass",     "never",  "for",     "answer",    "band"});
    ScriptStep st;
    st.number = number;
    st.line = static_cast<int>(t->source().begin.line);
    auto* p = t->get("player");
    if (!p) L_.Fail(*t, "player", "the player taking the step (A or B)");
    st.player = L_.PlayerOf(*p, "player");
    int kinds = 0;
    if (auto* x = t->get("cast")) {
      st.kind = ScriptStep::kCast;
      st.card = L_.String(*x, "cast");
      if (auto it = ids_.find(st.card); it != ids_.end() && db_.Find(st.card) == kNoCard) {
        // An [[object]]'s id: cast that very card (a card cast again after
        // a bounce is the same card, a new object). Card names come first.
        st.object = it->second;
        st.card = db_[game_->state().obj.card[st.object]].name;
      } else {
        L_.Card(*x, "cast", st.card);
      }
      ++kinds;
    }
    if (auto* x = t->get("activate")) {
      st.kind = ScriptStep::kActivate;
      st.object = Object(*x, "activate");
      ++kinds;
      const CardDef& card = db_[game_->state().obj.card[st.object]];
      // Numbered like the card's abilities, of which there are at most 32.
      if (auto* a = t->get("ability")) st.ability = L_.Int(*a, "ability", 1, 32);
      (void)card;
    }
    if (auto* x = t->get("play_land")) {
      st.kind = ScriptStep::kPlayLand;
      auto s = L_.String(*x, "play_land");
      if (auto it = ids_.find(s); it != ids_.end())
        st.object = it->second;
      else {
        L_.Card(*x, "play_land", s);
        st.card = s;
      }
      ++kinds;
    }
    if (auto* x = t->get("pass")) {
      if (!L_.Bool(*x, "pass")) L_.Fail(*x, "pass", "true");
      st.kind = ScriptStep::kPass;
      ++kinds;
    }
    if (auto* x = t->get("handle")) {
      // strata extension: play this permanent's phase effect now (T-12), e.g.
      // an optional one ("you may") that no one is forced to play.
      st.kind = ScriptStep::kHandle;
      st.object = Object(*x, "handle");
      ++kinds;
    }
    if (auto* x = t->get("attack")) {
      st.kind = ScriptStep::kAttack;
      for (auto& e : L_.Array(*x, "attack", "a list of attacking object ids")) {
        st.attackers.push_back(Object(e, "attack"));
        st.attacker_labels.push_back(L_.String(e, "attack"));
      }
      ++kinds;
    }
    if (auto* x = t->get("block")) {
      st.kind = ScriptStep::kBlock;
      auto* bt = x->as_table();
      if (!bt) L_.Fail(*x, "block", "a table { blocker_id = \"attacker_id\" }");
      for (auto& [k, v] : *bt) {
        auto it = ids_.find(std::string(k.str()));
        if (it == ids_.end()) L_.Fail(v, k.str(), "the id of a blocking [[object]]");
        st.blocks.push_back({it->second, Object(v, k.str())});
      }
      ++kinds;
    }
    if (auto* x = t->get("band")) {
      // strata extension (T-7.3): these attackers form one band, taken at
      // the player's band decision.
      st.kind = ScriptStep::kBand;
      for (auto& e : L_.Array(*x, "band", "a list of two or more attacking object ids")) {
        st.attackers.push_back(Object(e, "band"));
        st.attacker_labels.push_back(L_.String(e, "band"));
      }
      if (st.attackers.size() < 2)
        L_.Fail(*x, "band", "a list of two or more attacking object ids");
      ++kinds;
    }
    if (auto* x = t->get("order")) {
      st.kind = ScriptStep::kOrder;
      for (auto& e : L_.Array(*x, "order", "a list of trigger source ids"))
        st.order.push_back(Object(e, "order"));
      ++kinds;
    }
    if (auto* x = t->get("answer")) {
      // strata extension: answers the player's next target, X, choice,
      // discard or trigger-order decision.
      st.kind = ScriptStep::kAnswer;
      if (auto text = x->value_exact<std::string>(); text && (*text == "done" || *text == "none")) {
        st.answer.kind = ScriptValue::kText;
        st.answer.text = *text;
      } else {
        st.answer = Value(*x, "answer", false);
      }
      ++kinds;
    }
    if (auto* x = t->get("pay")) {
      // T-13.2: "life" pays a phase cost in life in place of its mana.
      if (auto life = x->value_exact<std::string>(); life && *life == "life")
        st.pay = st.pay_life = true;
      else
        st.pay = L_.Bool(*x, "pay");
      if (kinds == 0) {
        st.kind = ScriptStep::kPay;
        ++kinds;
      }
    }
    if (kinds != 1)
      L_.Fail(*t, "cast",
              "exactly one of cast, activate, handle, play_land, attack, block, order, pay, pass, "
              "answer, band");
    if (auto* x = t->get("for")) {
      if (st.kind != ScriptStep::kPay)
        L_.Fail(*x, "for", "`for` only with `pay`: the permanent whose cost a pay step answers");
      st.object = Object(*x, "for");
      st.for_label = L_.String(*x, "for");
    }
    if (auto* x = t->get("never")) {
      st.never = L_.Bool(*x, "never");
      if (st.never && (st.kind == ScriptStep::kPass || st.kind == ScriptStep::kOrder ||
                       st.kind == ScriptStep::kAnswer))
        L_.Fail(*x, "never",
                "an action that could be legal (cast, activate, handle, play_land, attack, block, "
                "band or pay) with `never = true`; pass, order and answer are always possible");
      if (st.never && t->get("id"))
        L_.Fail(*t->get("id"), "id",
                "no `id` on a `never` step: it never puts anything on a batch");
    }
    if (auto* x = t->get("targets")) st.targets = Values(*x, "targets", true);
    if (auto* x = t->get("x")) {
      // The engine offers X from 0 to 20 (Game::RunCast): a larger X could
      // never be chosen, so it is refused here, saying why (issue 40).
      constexpr int kMostX = 20;
      const int64_t v = L_.Int64(*x, "x");
      if (v < 0 || v > kMostX)
        L_.Fail(*x, "x",
                absl::StrCat("an integer between 0 and ", kMostX,
                             " (the engine offers X up to 20 when a cost has X), got ", v));
      st.has_x = true, st.x = static_cast<int>(v);
    }
    if (auto* x = t->get("choice")) st.choices = Values(*x, "choice", false);
    if (auto* x = t->get("as")) {
      auto as = L_.String(*x, "as");
      if (as != "interrupt" && as != "instant") L_.Fail(*x, "as", "interrupt or instant");
    }
    if (auto* x = t->get("at")) {
      st.at = L_.String(*x, "at");
      static const std::set<std::string> kAt = {"neutral",  "respond",    "interrupt", "prevention",
                                                "reaction", "phase_cost", "blockers"};
      if (!kAt.count(st.at))
        L_.Fail(*x, "at",
                "neutral, respond, interrupt, prevention, reaction, phase_cost or blockers");
    }
    if (auto* x = t->get("id")) {
      st.tag = L_.String(*x, "id");
      tags_.push_back(st.tag);
    }
    return st;
  }

  ObjId ExpectedObject(const toml::node& n) {
    auto id = L_.String(n, "object");
    if (auto it = ids_.find(id); it != ids_.end()) return it->second;
    for (auto& [tag, o] : script_.spell_objects)
      if (tag == id) return o;
    if (std::find(tags_.begin(), tags_.end(), id) != tags_.end()) return kNoObj;
    L_.Fail(n, "object", "the id of an [[object]] or of a cast step, got '" + id + "'");
  }

  std::vector<std::string> AbilityNames(const Characteristics& ch) {
    std::vector<std::string> out;
    for (int k = 0; k < kKeywordCount; ++k)
      if (Has(ch.keywords, k)) out.emplace_back(std::string(KeywordName(k)));
    for (int c = 0; c < kColorCount; ++c)
      if (Has(ch.land_mana, c))
        out.push_back(absl::StrCat("{T}: Add {", std::string(1, ColorSymbol(c)), "}"));
    if (Has(ch.land_mana, 5)) out.push_back("{T}: Add {C}");
    if (ch.card != kNoCard && !ch.blank) {
      const CardDef& card = db_[ch.card];
      for (int b = 0; b < card.AbilityCount(); ++b)
        if (Has(ch.abilities, b)) out.push_back(card.AbilityName(b));
      if (ch.extra_phase != kNoCard && ch.extra_phase != ch.card) {
        const CardDef& kept = db_[ch.extra_phase];
        for (int i = 0; i < static_cast<int>(kept.phase.size()); ++i)
          out.push_back(kept.AbilityName(kept.PhaseBit(i)));
      }
    }
    return out;
  }

  void Check(const toml::table& t, std::vector<std::string>& failures) {
    Game& g = *game_;
    auto fail = [&](const std::string& what, const std::string& expected, const std::string& got) {
      failures.push_back(absl::StrCat(what, ": expected ", expected, ", got ", got));
    };
    auto check_int = [&](const std::string& what, const toml::node& n, int got) {
      int64_t want = L_.Int64(n, what);  // compared whole: a wide value never wraps into a match
      if (want != got) fail(what, absl::StrCat(want), absl::StrCat(got));
    };
    auto check_set = [&](const std::string& what, const toml::node& n, std::vector<std::string> got,
                         bool exact, bool present) {
      std::vector<std::string> want = L_.Strings(n, what);
      std::set<std::string> got_l, want_l;
      for (auto& s : got) got_l.insert(Lower(s));
      for (auto& s : want) want_l.insert(Lower(s));
      bool ok;
      if (exact)
        ok = got_l == want_l;
      else if (present)
        ok = std::includes(got_l.begin(), got_l.end(), want_l.begin(), want_l.end());
      else
        ok = std::none_of(want_l.begin(), want_l.end(), [&](auto& w) { return got_l.count(w); });
      if (!ok) fail(what, (present ? "" : "none of ") + SetString(want), SetString(got));
    };
    if (auto* w = t.get("winner")) {
      auto want = L_.String(*w, "winner");
      std::string got = !g.Over() ? "none" : g.Winner() < 0 ? "draw" : g.Winner() == 0 ? "A" : "B";
      if (want != got) fail("winner", want, got);
    }
    if (auto* n = t.get("spell")) {
      auto tag = L_.String(*n, "spell");
      uint32_t serial = 0;
      for (auto& [tg, s] : script_.serials)
        if (tg == tag) serial = s;
      if (std::find(tags_.begin(), tags_.end(), tag) == tags_.end())
        L_.Fail(*n, "spell", "the `id` of a step, got '" + tag + "'");
      if (auto* o = t.get("outcome")) {
        static const char* kNames[] = {"pending", "resolved", "countered", "fizzled"};
        std::string got = serial ? kNames[static_cast<int>(g.OutcomeOf(serial))] : "never cast";
        auto want = L_.String(*o, "outcome");
        if (want != got) fail(tag + ".outcome", want, got);
      }
    }
    if (auto* n = t.get("player")) {
      Player p = L_.PlayerOf(*n, "player");
      std::string who = p ? "B" : "A";
      const PlayerState& ps = g.state().players[p];
      if (auto* x = t.get("life")) check_int(who + ".life", *x, ps.life);
      if (auto* x = t.get("poison")) check_int(who + ".poison", *x, ps.poison);
      if (auto* x = t.get("hand")) check_int(who + ".hand", *x, static_cast<int>(ps.hand.size()));
      if (auto* x = t.get("library"))
        check_int(who + ".library", *x, static_cast<int>(ps.library.size()));
      if (auto* x = t.get("graveyard")) {
        // A list of names, order free: compared as a multiset.
        std::vector<std::string> got, want = L_.Strings(*x, "graveyard");
        for (ObjId o : ps.graveyard) got.push_back(db_[g.state().obj.card[o]].name);
        auto lower_sorted = [](std::vector<std::string> v) {
          for (auto& s : v) s = Lower(s);
          std::sort(v.begin(), v.end());
          return v;
        };
        if (lower_sorted(got) != lower_sorted(want))
          fail(who + ".graveyard", SetString(want), SetString(got));
      }
      if (auto* x = t.get("library_top")) {
        std::vector<std::string> want = L_.Strings(*x, "library_top"), got;
        for (size_t i = 0; i < want.size() && i < ps.library.size(); ++i)
          got.push_back(db_[g.state().obj.card[ps.library[i]]].name);
        bool same = got.size() == want.size() &&
                    std::equal(got.begin(), got.end(), want.begin(),
                               [](auto& a, auto& b) { return Lower(a) == Lower(b); });
        if (!same) fail(who + ".library_top", ListString(want), ListString(got));
      }
      // G-12: the tokens of each name the player controls on the
      // battlefield, and their creatures (cards and tokens).
      if (auto* x = t.get("tokens")) {
        const toml::table& want = L_.Table(*x, "tokens");
        for (auto& [name, count] : want) {
          int got = 0;
          for (ObjId o = 0; o < g.state().obj.count; ++o)
            if (g.state().obj.token[o] && g.state().obj.zone[o] == Zone::kBattlefield &&
                g.Chars(o).controller == p &&
                Lower(db_[g.state().obj.card[o]].name) == Lower(std::string(name.str())))
              ++got;
          check_int(absl::StrCat(who, ".tokens.", std::string(name.str())), count, got);
        }
      }
      if (auto* x = t.get("creatures")) {
        int got = 0;
        g.state().ForEachPermanent([&](ObjId o) {
          const Characteristics& ch = g.Chars(o);
          got += ch.IsCreature() && ch.controller == p;
        });
        check_int(who + ".creatures", *x, got);
      }
      if (auto* x = t.get("lost")) {
        bool want = L_.Bool(*x, "lost");
        if (want != ps.lost)
          fail(who + ".lost", want ? "true" : "false", ps.lost ? "true" : "false");
      }
    }
    auto* on = t.get("object");
    ObjId o = kNoObj;
    std::string id;
    if (auto* tn = t.get("token")) {
      // G-12: the first token of that name that exists (one that left the
      // battlefield is in no zone: it ceased to exist).
      const std::string name = L_.String(*tn, "token");
      id = "token:" + name;
      for (ObjId x = 0; x < g.state().obj.count && o == kNoObj; ++x)
        if (g.state().obj.token[x] && g.state().obj.zone[x] != Zone::kNone &&
            Lower(db_[g.state().obj.card[x]].name) == Lower(name))
          o = x;
      if (o == kNoObj) {
        failures.push_back(id + ": no token of that name exists");
        return;
      }
    } else {
      if (!on) return;
      id = L_.String(*on, "object");
      o = ExpectedObject(*on);
    }
    if (o == kNoObj) {
      failures.push_back(id + ": the spell was never cast");
      return;
    }
    const Characteristics& ch = g.Chars(o);
    const GameState& s = g.state();
    if (auto* x = t.get("power")) check_int(id + ".power", *x, ch.power);
    if (auto* x = t.get("toughness")) check_int(id + ".toughness", *x, ch.toughness);
    if (auto* x = t.get("damage")) check_int(id + ".damage", *x, s.obj.damage[o]);
    if (auto* x = t.get("colors")) {
      std::vector<std::string> got;
      for (int c = 0; c < kColorCount; ++c)
        if (Has(ch.colors, c)) got.emplace_back(std::string(ColorName(c)));
      check_set(id + ".colors", *x, got, true, true);
    }
    if (auto* x = t.get("types")) {
      std::vector<std::string> got;
      for (int c = 0; c < kCardTypeCount; ++c)
        if (Has(ch.types, c)) got.emplace_back(std::string(CardTypeName(c)));
      check_set(id + ".types", *x, got, true, true);
    }
    if (auto* x = t.get("supertypes")) {
      std::vector<std::string> got;
      for (int c = 0; c < kSupertypeCount; ++c)
        if (Has(ch.supertypes, c)) got.emplace_back(std::string(SupertypeName(c)));
      check_set(id + ".supertypes", *x, got, true, true);
    }
    if (auto* x = t.get("subtypes")) {
      std::vector<std::string> got;
      if (ch.all_creature_types) got.push_back("all creature types");
      for (int st = 0; st < SubtypeCount(); ++st)
        if (ch.subtypes.test(st) &&
            !(ch.all_creature_types && SubtypeKindOf(st) == SubtypeKind::kCreature))
          got.emplace_back(std::string(SubtypeName(st)));
      check_set(id + ".subtypes", *x, got, true, true);
    }
    if (auto* x = t.get("abilities"))
      check_set(id + ".abilities", *x, AbilityNames(ch), true, true);
    if (auto* x = t.get("has")) check_set(id + ".has", *x, AbilityNames(ch), false, true);
    if (auto* x = t.get("lacks")) check_set(id + ".lacks", *x, AbilityNames(ch), false, false);
    if (auto* x = t.get("controller")) {
      auto want = L_.String(*x, "controller");
      std::string got = ch.controller ? "B" : "A";
      if (s.obj.zone[o] != Zone::kBattlefield) got = s.obj.controller[o] ? "B" : "A";
      if (want != got) fail(id + ".controller", want, got);
    }
    if (auto* x = t.get("zone")) {
      auto want = L_.String(*x, "zone");
      std::string got(std::string(ZoneName(s.obj.zone[o])));
      if (want != got) fail(id + ".zone", want, got);
    }
    if (auto* x = t.get("sick")) {
      bool want = L_.Bool(*x, "sick"), got = g.SummoningSick(o);
      if (want != got) fail(id + ".sick", want ? "true" : "false", got ? "true" : "false");
    }
    if (auto* x = t.get("tapped")) {
      bool want = L_.Bool(*x, "tapped");
      if (want != s.obj.tapped[o])
        fail(id + ".tapped", want ? "true" : "false", s.obj.tapped[o] ? "true" : "false");
    }
    if (auto* x = t.get("name")) {
      auto want = L_.String(*x, "name");
      std::string got = ch.blank || ch.card == kNoCard ? "" : db_[ch.card].name;
      if (want != got) fail(id + ".name", "'" + want + "'", "'" + got + "'");
    }
    if (auto* x = t.get("counters")) {
      auto* ct = x->as_table();
      if (!ct) L_.Fail(*x, "counters", "a table like { p1p1 = 2 }");
      for (auto& [ck, cv] : *ct) {
        int got = g.CountersOf(o, CounterKindOf(ck.str()));
        check_int(absl::StrCat(id, ".counters.", S(ck.str())), cv, got);
      }
    }
  }

  const CardDb& db_;
  Loader L_;
  ScenarioOptions opt_;
  std::unique_ptr<Game> game_;
  std::map<std::string, ObjId> ids_;
  std::vector<std::string> tags_;
  Script script_;
  std::vector<Expectation> expects_;
  std::map<int, size_t> ordinary_index_;  // step number -> index in script_.steps
  std::set<int> never_numbers_;
  bool position_only_ = false;
};

}  // namespace

ScenarioResult RunScenarioText(const CardDb& db, const std::string& text, const std::string& file,
                               const ScenarioOptions& options) {
  ScenarioResult result;
  result.file = file;
  result.name = std::filesystem::path(file).stem().string();
  auto parsed = ParseToml(text, file);
  if (!parsed.ok()) {
    result.failures.push_back(std::string(parsed.status().message()));
    return result;
  }
  const toml::table& doc = *parsed;
  if (doc.empty()) {
    result.failures.push_back(
        file + ": empty scenario file: expected a board, steps and [[expect]] tables");
    return result;
  }
  try {
    Runner runner(db, file, options);
    runner.Run(doc, result);
    if (options.keep_game) result.game = runner.TakeGame();
  } catch (const TomlError& e) {
    result.failures.push_back(e.message);
    result.passed = false;
  }
  return result;
}

absl::StatusOr<std::unique_ptr<Game>> LoadScenarioPosition(const CardDb& db,
                                                           const std::string& path) {
  auto text = ReadInputFile(path, "scenario");
  if (!text.ok()) return text.status();
  auto parsed = ParseToml(*text, path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& doc = *parsed;
  if (doc.empty()) return absl::InvalidArgumentError(path + ": empty scenario file");
  ScenarioOptions opt;
  opt.checked_layers = false;
  Runner runner(db, path, opt);
  runner.PositionOnly();
  ScenarioResult ignored;
  try {
    runner.Run(doc, ignored);
  } catch (const TomlError& e) {
    return absl::InvalidArgumentError(e.message);
  }
  return runner.TakeGame();
}

ScenarioResult RunScenarioFile(const CardDb& db, const std::string& path,
                               const ScenarioOptions& options) {
  auto text = ReadInputFile(path, "scenario");
  if (!text.ok()) {
    ScenarioResult r;
    r.file = path;
    r.name = path;
    r.failures.push_back(std::string(text.status().message()));
    return r;
  }
  return RunScenarioText(db, *text, path, options);
}

std::vector<std::string> ScenarioFiles(const std::vector<std::string>& paths,
                                       std::vector<std::string>* errors) {
  std::vector<std::string> out;
  for (auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> files;
      for (auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.path().extension() == ".toml") files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
      if (files.empty() && errors) errors->push_back(p + ": no *.toml scenario files");
      out.insert(out.end(), files.begin(), files.end());
    } else if (std::filesystem::exists(p, ec)) {
      out.push_back(p);
    } else if (errors) {
      errors->push_back(p + ": no such file or directory");
    }
  }
  return out;
}

}  // namespace strata
