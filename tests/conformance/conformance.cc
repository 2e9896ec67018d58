// The kit's game driver: one game played by the policies under test with
// every check at every decision (conformance.h says what each check is).
#include "tests/conformance/conformance.h"

#include <deque>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/rng.h"
#include "engine/strings.h"

namespace strata::conformance {
namespace {

// The seed of seat `p`'s player (as `strata fuzz` derives them).
uint64_t PlayerSeed(const GameSetup& setup, Player p) {
  return Rng::GameSeed(setup.seed, 17 + p);
}

bool Passive(const std::string& spec) {
  return spec.rfind("passive", 0) == 0;
}

// A copy of the game made before decision `from`, fed the decisions from
// there on.
struct Copy {
  Game game;
  size_t from;
};

}  // namespace

std::string_view CheckName(Check c) {
  static constexpr std::string_view kNames[] = {
      "invariants", "offered", "refused", "choice", "copy", "replay", "reset", "seeded", "ends"};
  static_assert(std::size(kNames) == kCheckCount);
  return kNames[static_cast<int>(c)];
}

void Report::Record(Check c, bool ok, std::string_view detail) {
  ++checks[static_cast<int>(c)];
  if (ok || !failure.empty()) return;
  failure = absl::StrCat(S(CheckName(c)), ": ", S(detail));
  failed = c;
}

GameOptions OptionsOf(const GameSetup& setup) {
  GameOptions go;
  go.edition = setup.edition;
  go.mulligan = setup.mulligan;
  go.seed = setup.seed;
  go.turn_cap = setup.turn_cap;
  go.check_invariants = true;
  return go;
}

std::string CheckChoice(const Game& g, const Decision& d, int index, uint64_t before) {
  if (index < 0 || index >= static_cast<int>(d.actions.size()))
    return absl::StrCat("the policy chose ", index, " of ", d.actions.size(), " actions (",
                        S(DecisionKindName(d.kind)), ")");
  if (g.Fingerprint() != before)
    return absl::StrCat("the game changed while the policy chose (", S(DecisionKindName(d.kind)),
                        ")");
  return "";
}

std::string CheckEnds(const Game& g) {
  if (!g.Over())
    return absl::StrCat("the game stopped on turn ", g.state().turn, " without ending");
  if (g.end_reason() == EndReason::kNone) return "the game is over without a reason";
  // A dealt game's first turn is 1; the cap ends it on turn 1 + turn_cap.
  if (g.state().turn > 1 + g.options().turn_cap)
    return absl::StrCat("the game went on to turn ", g.state().turn, " past its cap of ",
                        g.options().turn_cap);
  return "";
}

namespace {

// The players of a setup, made from their seeds (or by the faults' maker).
bool MakePlayers(const GameSetup& setup, const Faults& faults,
                 std::array<std::unique_ptr<Policy>, 2>& players, Report& r) {
  for (Player p = 0; p < 2; ++p) {
    if (faults.players) {
      players[p] = faults.players(p, PlayerSeed(setup, p));
      continue;
    }
    auto made = MakePolicy(setup.policies[p], PlayerSeed(setup, p));
    if (!made.ok()) {
      r.Record(Check::kChoice, false, absl::StrCat("setup: ", made.status().message()));
      return false;
    }
    players[p] = std::move(*made);
  }
  return true;
}

// The decisions `players` take in a game of `setup` with no checks: a game
// with the same seeds must take the same ones. Stops past `limit`.
std::vector<int32_t> PlayAgain(const CardDb& db, const GameSetup& setup,
                               std::array<std::unique_ptr<Policy>, 2>& players, size_t limit) {
  Game g(db, OptionsOf(setup));
  g.Deal(setup.a, setup.b, setup.first);
  std::vector<int32_t> out;
  for (const Decision* d = &g.Advance(); d->kind != DecisionKind::kNone && out.size() < limit;
       d = &g.Advance()) {
    out.push_back(players[d->player]->ChooseFor(g, *d));
    if (!g.Apply(out.back())) break;
  }
  return out;
}

}  // namespace

Report PlayGame(const CardDb& db, const GameSetup& setup, const Options& opt,
                const Faults& faults) {
  Report r;
  const GameOptions go = OptionsOf(setup);
  Game g(db, go);
  g.Deal(setup.a, setup.b, setup.first);
  std::array<std::unique_ptr<Policy>, 2> players;
  if (!MakePlayers(setup, faults, players, r)) return r;
  InvariantChecker check;
  if (!faults.extra_name.empty()) check.SetExtra(faults.extra_name, faults.extra);
  check.Begin(g);
  // Past this many decisions a game has outrun both caps (each turn ends by
  // its action cap at the latest): it would never end.
  const size_t limit =
      static_cast<size_t>(go.turn_cap + 1) * static_cast<size_t>(go.action_cap + 1);
  std::vector<int32_t> decisions;
  std::deque<Copy> near;  // copies compared copy_horizon decisions on
  std::vector<Copy> far;  // copies compared at the game's end
  size_t next_far = 8;
  auto copy_of = [&](const Game& from) {
    Copy c{from, decisions.size()};
    if (faults.copy) faults.copy(c.game);
    return c;
  };
  Decision faulty;  // the decision the apply checks see, when a fault changes it
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    if (decisions.size() >= limit) {
      r.Record(Check::kEnds, false,
               absl::StrCat("the game still goes on after ", decisions.size(), " decisions"));
      return r;
    }
    check.OnDecision(g, d);
    const Decision* seen = &d;
    if (faults.decision) {
      faulty = d;
      faults.decision(faulty);
      seen = &faulty;
    }
    // [offered] on copies, then [refused] on the game itself (a refused
    // index changes nothing, so the game goes on as if never asked).
    std::string why = CheckOfferedApply(g, *seen);
    r.Record(Check::kOffered, why.empty(), why);
    why = CheckRefusesUnoffered(g, *seen, /*compare=*/true);
    r.Record(Check::kRefused, why.empty(), why);
    if (!r.ok()) return r;
    const uint64_t before = g.Fingerprint();
    const int choice = players[d.player]->ChooseFor(g, d);
    why = CheckChoice(g, d, choice, before);
    r.Record(Check::kChoice, why.empty(), why);
    if (!r.ok()) return r;
    if (opt.copy_horizon > 0) near.push_back(copy_of(g));
    if (opt.copies_to_the_end && decisions.size() == next_far) {
      far.push_back(copy_of(g));
      next_far *= 4;
    }
    const bool applied = g.Apply(choice);
    decisions.push_back(choice);
    check.AfterApply(g, d, choice, applied);
    r.Record(Check::kInvariants, check.ok(), check.failure());
    if (!r.ok()) return r;
    if (!near.empty() &&
        decisions.size() - near.front().from == static_cast<size_t>(opt.copy_horizon)) {
      Copy& c = near.front();
      why = CheckCopyContinues(c.game, std::span(decisions).subspan(c.from), g);
      r.Record(Check::kCopy, why.empty(),
               absl::StrCat("a copy made at decision ", c.from, " ", why));
      near.pop_front();
      if (!r.ok()) return r;
    }
  }
  r.decisions = static_cast<int64_t>(decisions.size());
  r.turns = g.state().turn;
  r.winner = g.Winner();
  r.end = g.end_reason();

  // [ends]: over, within the caps; a capped game is a loop unless it stalled
  // or both players pass whenever they may (the invariant [progress]).
  check.End(g, Passive(setup.policies[0]) && Passive(setup.policies[1]));
  if (!check.ok()) {
    r.Record(check.failed() == Invariant::kProgress ? Check::kEnds : Check::kInvariants, false,
             check.failure());
    return r;
  }
  std::string why = CheckEnds(g);
  r.Record(Check::kEnds, why.empty(), why);
  if (!r.ok()) return r;

  // [copy] to the end.
  for (Copy& c : far) {
    why = CheckReplayEnds(c.game, std::span(decisions).subspan(c.from), g);
    r.Record(Check::kCopy, why.empty(), absl::StrCat("a copy made at decision ", c.from, " ", why));
  }
  if (!r.ok()) return r;

  // [replay] on a new Game, then [reset] on this one.
  std::vector<int32_t> record = decisions;
  if (faults.record) faults.record(record);
  {
    Game fresh(db, go);
    fresh.Deal(setup.a, setup.b, setup.first);
    why = CheckReplayEnds(fresh, record, g);
    r.Record(Check::kReplay, why.empty(), why);
    if (!r.ok()) return r;
  }
  const Game ended = g;
  g.Reset(go);
  if (faults.reset) faults.reset(g);
  g.Deal(setup.a, setup.b, setup.first);
  why = CheckReplayEnds(g, record, ended);
  r.Record(Check::kReset, why.empty(), why);
  if (!r.ok()) return r;

  // [seeded]: the same players, Reset to their seeds, take the same
  // decisions; if not, new ones tell a bad Reset from a policy that depends
  // on more than its seed.
  for (Player p = 0; p < 2; ++p) players[p]->Reset(PlayerSeed(setup, p));
  const size_t compare = decisions.size() + 1;
  if (PlayAgain(db, setup, players, compare) != decisions) {
    std::array<std::unique_ptr<Policy>, 2> fresh;
    Report ignored;
    const bool made = MakePlayers(setup, faults, fresh, ignored);
    r.Record(Check::kSeeded, false,
             made && PlayAgain(db, setup, fresh, compare) == decisions
                 ? "players Reset to their seeds took other decisions than new ones (Reset is "
                   "not like new)"
                 : "the players, made again from the same seeds, took other decisions");
  } else {
    r.Record(Check::kSeeded, true, "");
  }
  return r;
}

}  // namespace strata::conformance
