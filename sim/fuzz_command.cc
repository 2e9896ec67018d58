#include "sim/fuzz_command.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/card_loader.h"
#include "engine/strings.h"
#include "policies/policy.h"
#include "sim/card_pool.h"
#include "sim/deck_list.h"
#include "sim/durable.h"
#include "sim/exit_codes.h"
#include "sim/format.h"
#include "sim/fuzz.h"
#include "sim/shrink.h"
#include "sim/study_file.h"

namespace strata {
namespace {

std::string DataDir(const std::vector<std::string>& card_paths) {
  // The decks live beside the cards: data/cards -> data/decks.
  std::filesystem::path cards = card_paths.empty() ? "data/cards" : card_paths[0];
  return (cards.parent_path() / "decks").string();
}

// Refused before any game.
int Fail(const std::string& message) {
  return BadInput(absl::StrCat("fuzz: ", message));
}

// A write that failed.
int WriteFailed(const std::string& message) {
  return RunFailed(absl::StrCat("fuzz: ", message));
}

void PrintCoverage(const CardDb& db, const FuzzCoverage& c) {
  int cast = 0, abilities = 0, abilities_used = 0;
  std::array<uint64_t, kTimings> by_timing{};  // triggers by timing: before, when, after, instead
  for (CardId id = 0; id < db.cards.size(); ++id) {
    const CardDef& card = db[id];
    if (card.token) continue;  // a token's definition is no card (G-12)
    cast += c.usage.played[id] > 0;
    auto count = [&](int bit) {
      ++abilities;
      abilities_used += c.usage.abilities[id][bit] > 0;
    };
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) count(card.ActivatedBit(i));
    for (int i = 0; i < static_cast<int>(card.phase.size()); ++i) count(card.PhaseBit(i));
    for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i) {
      count(card.TriggerBit(i));
      by_timing[static_cast<int>(card.triggers[i].timing)] +=
          c.usage.abilities[id][card.TriggerBit(i)];
    }
  }
  std::printf("\ncoverage\n");
  std::printf("  cards cast or played      %d / %zu\n", cast, db.PoolSize());
  std::printf("  abilities used            %d / %d (activated, triggered, phase)\n", abilities_used,
              abilities);
  std::printf("  decisions by kind        ");
  for (int k = 1; k < kDecisionKindCount; ++k)
    std::printf(" %s %llu", std::string(DecisionKindName(static_cast<DecisionKind>(k))).c_str(),
                static_cast<unsigned long long>(c.decisions[k]));
  std::printf(
      "\n  timing windows used       interrupts cast %llu, prevention effects %llu, "
      "reactions %llu, phase effects %llu, phase costs answered %llu, attacks %llu, "
      "blocks %llu\n",
      static_cast<unsigned long long>(c.interrupts_cast),
      static_cast<unsigned long long>(c.prevention_played),
      static_cast<unsigned long long>(c.reactions_played),
      static_cast<unsigned long long>(c.phase_effects_played),
      static_cast<unsigned long long>(c.phase_costs_answered),
      static_cast<unsigned long long>(c.attacks), static_cast<unsigned long long>(c.blocks));
  std::printf(
      "  triggers by timing        before %llu, when %llu, after %llu, instead %llu\n",
      static_cast<unsigned long long>(by_timing[0]), static_cast<unsigned long long>(by_timing[1]),
      static_cast<unsigned long long>(by_timing[2]), static_cast<unsigned long long>(by_timing[3]));
  const auto& r = c.usage.replaced;
  std::printf(
      "  replacements used         draws replaced %llu, regenerations %llu, damage prevented "
      "%llu, occurrences a before response stopped %llu, next-time effects fired %llu, "
      "gains, losses or damage changed before they happened %llu, occurrences replaced (instead) "
      "%llu\n",
      static_cast<unsigned long long>(r[UsageStats::kDrawReplaced]),
      static_cast<unsigned long long>(r[UsageStats::kRegenerated]),
      static_cast<unsigned long long>(r[UsageStats::kDamagePrevented]),
      static_cast<unsigned long long>(r[UsageStats::kNoLongerHappened]),
      static_cast<unsigned long long>(r[UsageStats::kNextTimeFired]),
      static_cast<unsigned long long>(r[UsageStats::kAmountChanged]),
      static_cast<unsigned long long>(r[UsageStats::kReplacedInstead]));
}

// The scenario a failing game shrinks to, written to `out`: 0; or, with one
// message, kExitBadInput when it can't be made or `out` opened, kExitFailed
// when the write fails.
int Shrink(const CardDb& db, const FuzzSetup& setup, const std::vector<int32_t>& decisions,
           const FuzzArgs& args, const std::string& source, const std::string& out,
           const FuzzOptions& fopt) {
  ShrinkOptions opt;
  opt.budget = args.shrink_budget;
  opt.source = source;
  opt.extra_name = fopt.extra_name;
  opt.extra = fopt.extra;
  auto r = ShrinkFuzzGame(db, setup, decisions, opt);
  if (!r.ok()) return Fail(absl::StrCat("--shrink ", source, ": ", r.status().message()));
  std::ofstream f(out, std::ios::trunc);
  // A path that cannot be opened (no such folder) is bad input; a write
  // that fails once open, a failed run.
  if (!f.is_open()) return Fail(absl::StrCat("--shrink: can't write ", out));
  f << r->toml;
  f.close();
  if (!f) return WriteFailed(absl::StrCat("--shrink: can't write ", out));
  const std::string run = args.canary.empty() ? out : "--canary " + args.canary + " " + out;
  std::printf(
      "shrunk %s from the start of %s of turn %d: %d objects and %d steps (%d lines) -> "
      "%d objects and %d steps (%d lines), %d tries, %.1f s\n  scenario: %s\n  "
      "strata scenario %s: %s\n",
      r->invariant.c_str(), r->start_phase.c_str(), r->start_turn, r->objects_before,
      r->steps_before, r->lines_before, r->objects_after, r->steps_after, r->lines_after, r->tries,
      r->seconds, out.c_str(), run.c_str(), r->failure.c_str());
  return 0;
}

// FILE.toml -> FILE.scenario.toml
std::string ScenarioPathFor(const std::string& failure_file) {
  std::string base = failure_file;
  if (base.size() > 5 && base.substr(base.size() - 5) == ".toml") base.resize(base.size() - 5);
  return base + ".scenario.toml";
}

// Where a file strata names itself goes: `path`, or, if a file is there
// already and `force` is off, the first free `BASE.N.toml` beside it. An
// earlier run's failure (another pool, another engine) is never replaced
// without --force, and a run's findings are never lost for want of a name.
std::string FreePath(const std::string& path, bool force) {
  std::error_code ec;
  if (force || !std::filesystem::exists(path, ec)) return path;
  std::string base = path;
  if (base.size() > 5 && base.substr(base.size() - 5) == ".toml") base.resize(base.size() - 5);
  for (int n = 1;; ++n) {
    std::string next = absl::StrCat(base, ".", n, ".toml");
    if (!std::filesystem::exists(next, ec)) return next;
  }
}

int Replay(const CardDb& db, const FuzzArgs& args, const FuzzOptions& canary,
           const std::vector<std::string>& card_paths) {
  FuzzSetup setup;
  std::vector<int32_t> decisions;
  std::string error;
  if (!ReadFailureFile(args.replay, db, setup, decisions, error)) return Fail(error);
  if (args.shrink) {
    // No output is an input, --force or not: the failure file replayed,
    // or a card file (issue 40).
    if (!args.shrink_out.empty()) {
      std::vector<InputPath> inputs = {{args.replay, "the failure file of --replay"}};
      for (const std::string& c : card_paths) inputs.push_back({c, "a card file of --cards"});
      if (auto st = CheckOutputFile("--shrink-out", args.shrink_out, inputs, /*force=*/true);
          !st.ok())
        return Fail(std::string(st.message()));
    }
    // A path the user named is theirs: refused at once if it exists.
    std::error_code ec;
    if (!args.shrink_out.empty() && !args.force && std::filesystem::exists(args.shrink_out, ec))
      return Fail(absl::StrCat("--shrink-out ", args.shrink_out,
                               ": the file exists; give --force to replace it"));
    return Shrink(db, setup, decisions, args, args.replay,
                  args.shrink_out.empty() ? FreePath(ScenarioPathFor(args.replay), args.force)
                                          : args.shrink_out,
                  canary);
  }
  FuzzOptions opt = canary;
  std::vector<std::string> log;
  FuzzGame g = ReplayFuzzGame(db, setup, opt, decisions, &log);
  for (const std::string& line : log) std::printf("%s\n", line.c_str());
  std::printf("\ngame %lld of run seed %llu: %s, %s vs %s, %zu decisions, %s (%s)\n",
              static_cast<long long>(setup.index), static_cast<unsigned long long>(setup.run_seed),
              std::string(EditionName(setup.edition)).c_str(), setup.policies[0].c_str(),
              setup.policies[1].c_str(), g.decisions.size(),
              g.winner < 0    ? "draw"
              : g.winner == 0 ? "A wins"
                              : "B wins",
              std::string(EndReasonName(g.end)).c_str());
  if (g.failure.empty()) {
    std::printf("every invariant holds in this game\n");
    return 0;
  }
  std::printf("violated: %s\n", g.failure.c_str());
  return kExitFailed;
}

}  // namespace

CLI::App* AddFuzzCommand(CLI::App& app, FuzzArgs& a) {
  auto* cmd = app.add_subcommand(
      "fuzz",
      "random games over random legal decks from the whole pool (or given decks) with every "
      "rules invariant checked after every action; exits 1 on any violation");
  cmd->add_option("--games", a.games, "games to play (default 1000)")
      ->check(CLI::Range(int64_t{1}, int64_t{1'000'000'000}));
  cmd->add_option("--seed", a.seed, "run seed, 0 to 2^64-1 (default 1)");
  cmd->add_option("--threads", a.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option(
      "--decks", a.decks,
      "random (legal two-colour decks drawn from the pool, steered to the least "
      "used cards; default), bundled (the decks in data/decks), or deck files and folders "
      "(a folder: its *.txt files) A,B,...");
  cmd->add_option("--format", a.format,
                  std::string(kFormatHelp) +
                      " (of --decks bundled or FILES; random decks are the pool's, in no format)")
      ->type_name("NAME");
  cmd->add_option("--policies", a.policies,
                  "P1,P2 for every game (default: a mix of random and heuristic, both ways)");
  cmd->add_option("--rules", a.rules, "layer edition: all (rotate; default), classic, m10, modern")
      ->check(CLI::IsMember({"all", "classic", "m10", "modern"}));
  cmd->add_option("--mulligan", a.mulligan,
                  "mulligan rule (G-1): all (rotate; default), none, paris, london")
      ->check(CLI::IsMember({"all", "none", "paris", "london"}));
  cmd->add_option("--replay", a.replay,
                  "play a failing game again from its failure file, with its log")
      ->type_name("FILE");
  cmd->add_option("--failures", a.failures_dir,
                  "where failing games are written (default fuzz-failures)")
      ->type_name("DIR");
  cmd->add_option("--replay-every", a.replay_every,
                  "replay every Nth game from its decisions to check it ends the same "
                  "(default 1; 0: never)")
      ->check(CLI::Range(0, 1'000'000));
  cmd->add_flag("--shrink", a.shrink,
                "turn each failing game (with --replay: that one) into a small scenario file "
                "that fails the same invariant under `strata scenario`: FILE.scenario.toml "
                "beside its failure file");
  cmd->add_option("--shrink-out", a.shrink_out,
                  "with --replay and --shrink: where the scenario goes")
      ->type_name("FILE");
  cmd->add_option("--shrink-budget", a.shrink_budget,
                  "scenario runs one shrinking may try (default 400)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_flag("--force", a.force,
                "replace failure files and shrunk scenarios that exist (without it a new one "
                "goes beside, as NAME.1.toml, ...; an existing --shrink-out is refused)");
  cmd->add_option("--canary", a.canary,
                  "power:N: a deliberately false invariant (no creature has power N or more), "
                  "to see the failure path work: failure files, replay, shrinking")
      ->type_name("SPEC");
  return cmd;
}

int RunFuzzCommand(const FuzzArgs& args, const std::vector<std::string>& card_paths,
                   const std::string& command) {
  CardDb db;
  // LoadPool: the cards and their old spellings, which failure files may name.
  if (auto st = LoadPool(card_paths, false, db); !st.ok()) return Fail(std::string(st.message()));
  FuzzOptions opt;
  if (!args.canary.empty()) {
    auto c = CanaryCheck(args.canary);
    if (!c.ok()) return Fail(std::string(c.status().message()));
    opt.extra_name = "canary";
    opt.extra = *c;
  }
  if (!args.shrink_out.empty() && (args.replay.empty() || !args.shrink))
    return Fail("--shrink-out goes with --replay FILE --shrink");
  if (!args.replay.empty() && args.format != "none")
    return Fail(
        "--format checks the decks of --decks; --replay FILE plays the decks of its "
        "failure file, as they failed");
  if (!args.replay.empty()) return Replay(db, args, opt, card_paths);
  opt.games = args.games;
  if (!ParseSeed(args.seed, &opt.seed))
    return Fail(
        absl::StrCat("--seed: expected a whole number from 0 to 2^64-1, got '", args.seed, "'"));
  opt.threads = args.threads;
  opt.rules = args.rules;
  opt.mulligan = args.mulligan;
  opt.failures_dir = args.failures_dir;
  opt.replay_every = args.replay_every;
  opt.progress = isatty(2);
  if (!args.policies.empty()) {
    auto pair = ParsePolicyPair(args.policies);
    if (!pair.ok()) return Fail(absl::StrCat("--policies: ", pair.status().message()));
    opt.policies.push_back(*pair);
  }
  if (args.decks == "random") {
    // Random decks are drawn from the whole pool, as the rules engine's
    // fuzz wants them: a format would refuse most of them.
    if (args.format != "none")
      return Fail(absl::StrCat("--format ", args.format,
                               ": checks deck files, and --decks random draws its decks from "
                               "the whole pool; give --decks bundled or FILES"));
    opt.decks = "random";
  } else {
    // bundled: every deck of the folder beside the cards (data/decks).
    std::vector<std::string> entries = {DataDir(card_paths)};
    if (args.decks != "bundled") entries = absl::StrSplit(args.decks, ',', absl::SkipEmpty());
    auto expanded = ExpandDeckPaths(entries, "--decks", DeckRepeats::kMirrorPair);
    if (!expanded.ok()) return Fail(std::string(expanded.status().message()));
    const std::vector<std::string> files = *std::move(expanded);
    opt.decks = "files";
    for (const std::string& f : files) {
      auto d = LoadDeckFile(f, db);
      if (!d.ok()) return Fail(std::string(d.status().message()));
      for (const std::string& note : d->notes) std::fprintf(stderr, "%s\n", note.c_str());
      opt.deck_files.push_back(*d);
    }
    std::vector<const Deck*> decks;
    for (const Deck& d : opt.deck_files) decks.push_back(&d);
    if (int rc = CheckDecksForFormat(args.format, db, decks, files); rc != 0) return rc;
  }
  FuzzResult r = RunFuzz(db, opt);

  std::printf("%s\n\n", command.c_str());
  std::printf("%-20s %14s %10s\n", "invariant", "checks", "violations");
  uint64_t violations = 0;
  for (int i = 0; i < kInvariantCount; ++i) {
    std::printf("%-20s %14llu %10llu\n",
                std::string(InvariantName(static_cast<Invariant>(i))).c_str(),
                static_cast<unsigned long long>(r.tally.checks[i]),
                static_cast<unsigned long long>(r.tally.violations[i]));
    violations += r.tally.violations[i];
  }
  PrintCoverage(db, r.coverage);
  std::printf(
      "\n%lld games in %.1f s (%.0f games/s), %s, %s; ended by life %lld, library %lld, both "
      "%lld, turn cap %lld, action cap %lld, poison %lld\n",
      static_cast<long long>(r.games), r.seconds, r.games / std::max(1e-9, r.seconds),
      args.rules == "all" ? "every edition" : args.rules.c_str(),
      args.mulligan == "all" ? "every mulligan rule" : (args.mulligan + " mulligans").c_str(),
      static_cast<long long>(r.ends[1]), static_cast<long long>(r.ends[2]),
      static_cast<long long>(r.ends[3]), static_cast<long long>(r.ends[4]),
      static_cast<long long>(r.ends[5]),
      static_cast<long long>(r.ends[static_cast<int>(EndReason::kPoison)]));
  if (r.failing_games == 0) {
    std::printf("no violation\n");
    return 0;
  }
  std::error_code ec;
  std::filesystem::create_directories(opt.failures_dir, ec);
  if (ec) return WriteFailed(absl::StrCat("can't create ", opt.failures_dir, ": ", ec.message()));
  std::printf("\n%lld games broke an invariant (%llu violations in all); the first %zu:\n",
              static_cast<long long>(r.failing_games), static_cast<unsigned long long>(violations),
              r.failures.size());
  for (const FuzzGame& g : r.failures) {
    const std::string path =
        FreePath(absl::StrCat(opt.failures_dir, "/seed", opt.seed, "-game", g.setup.index, ".toml"),
                 args.force);
    std::ofstream out(path, std::ios::trunc);
    out << FailureFile(db, g);
    out.close();
    if (!out) return WriteFailed(absl::StrCat("can't write ", path));
    std::printf(
        "  %s\n    seed %llu, game %lld, %s, %s vs %s, %zu decisions\n    replay: strata "
        "fuzz --replay %s\n",
        g.failure.c_str(), static_cast<unsigned long long>(opt.seed),
        static_cast<long long>(g.setup.index), std::string(EditionName(g.setup.edition)).c_str(),
        g.setup.policies[0].c_str(), g.setup.policies[1].c_str(), g.decisions.size(), path.c_str());
    if (args.shrink) {
      const int rc = Shrink(db, g.setup, g.decisions, args, path,
                            FreePath(ScenarioPathFor(path), args.force), opt);
      if (rc != 0) return kExitFailed;  // its message printed; the run found a violation
    }
  }
  return kExitFailed;
}

}  // namespace strata
