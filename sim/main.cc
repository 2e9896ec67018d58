// strata: the command-line program. One binary, one subcommand per job.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "CLI/CLI.hpp"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/card_loader.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "policies/policy.h"
#include "sim/bench_command.h"
#include "sim/card_pool.h"
#include "sim/cards_command.h"
#include "sim/compare_command.h"
#include "sim/cover.h"
#include "sim/fuzz.h"
#include "sim/fuzz_command.h"
#include "sim/game_log.h"
#include "sim/merge_command.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/scenario.h"
#include "sim/study_command.h"
#include "sim/study_file.h"

namespace {

// A seed is exactly 0 to 2^64-1: CLI11 alone turns -1, 1e23 or 2^64 into
// 2^64-1 without a word.
const CLI::Validator kSeed(
    [](std::string& s) {
      uint64_t seed;
      return strata::ParseSeed(s, &seed)
                 ? std::string()
                 : "expected an integer from 0 to 18446744073709551615, got '" + s + "'";
    },
    "SEED");

// --checked, for sim, play and replay.
constexpr const char* kCheckedHelp =
    "check every rules invariant (engine/invariants.h: zones, timing, combat, outcomes, the "
    "layer cache against a fresh computation, ...) after every action";

// --mulligan (RULES.md G-1), for sim, play and replay.
const CLI::Validator kMulligan(
    [](std::string& s) {
      return strata::ParseMulligan(s) ? std::string()
                                      : "expected paris, london or none, got '" + s + "'";
    },
    "paris|london|none");
constexpr const char* kMulliganHelp =
    "opening hands (RULES.md G-1): paris (default; each new hand one card fewer), london "
    "(seven cards, then one to the bottom per mulligan) or none";

// A number in [lo, hi]: CLI::Range lets NaN through (every comparison with
// it is false).
CLI::Validator FiniteRange(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) {
        double v;
        if (!absl::SimpleAtod(s, &v) || !std::isfinite(v) || v < lo || v > hi)
          return absl::StrCat("expected a number from ", lo, " to ", hi, ", got '", s, "'");
        return std::string();
      },
      absl::StrCat("NUMBER in [", lo, " - ", hi, "]"));
}

// A non-negative integer that fits: CLI11 turns 99999999999999999999 into
// the largest int64 without a word.
const CLI::Validator kIndex(
    [](std::string& s) {
      int64_t v;
      bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
      return digits && absl::SimpleAtoi(s, &v)
                 ? std::string()
                 : "expected an integer from 0 to 9223372036854775807, got '" + s + "'";
    },
    "INDEX");

bool LoadDb(const std::vector<std::string>& paths, bool override_cards, strata::CardDb& db) {
  auto status = strata::LoadPool(paths, override_cards, db);
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "strata: a Monte Carlo simulator and rules engine for a classic-era "
      "Magic-style card game"};
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand
  std::vector<std::string> card_paths;
  bool no_default_cards = false, override_cards = false;
  app.add_option("--cards", card_paths,
                 "your own card files or directories, on top of the bundled pool (data/cards); "
                 "repeatable, loaded in order")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("PATH");
  app.add_flag("--no-default-cards", no_default_cards,
               "leave out the bundled pool: only the --cards given");
  app.add_flag("--override", override_cards,
               "a --cards card named like an earlier one replaces it (listed on stderr) instead "
               "of being an error");

  // strata scenario
  auto* scenario =
      app.add_subcommand("scenario", "run rules scenario files (exit 0 only if all hold)");
  std::vector<std::string> scenario_paths;
  bool scenario_log = false, unchecked = false;
  std::string scenario_canary;
  scenario->add_option("paths", scenario_paths, "scenario files or directories")->required();
  scenario->add_flag("--log", scenario_log, "print each scenario's game log");
  scenario->add_flag("--unchecked", unchecked,
                     "do not compare the layer cache with a fresh computation on every query, nor "
                     "check the rules invariants after every action");
  scenario
      ->add_option("--canary", scenario_canary,
                   "power:N: check a deliberately false invariant too, as `strata fuzz "
                   "--canary` does (to run scenarios it shrank)")
      ->type_name("SPEC");

  // strata cards
  auto* cards = app.add_subcommand("cards", "validate and inspect the card database");
  cards->require_subcommand(1);
  auto* check = cards->add_subcommand(
      "check", "validate the pool, and card files on top of it as --cards would load them");
  std::vector<std::string> check_paths;
  check->add_option("files", check_paths, "card files or directories (like --cards)");
  auto* list = cards->add_subcommand(
      "list",
      "print the pool as a table (name, cost, type line, P/T), or the cards the filters "
      "match");
  strata::CardFilter list_filter;
  list->add_option("--name", list_filter.name, "a part of the card's name, any case")
      ->type_name("TEXT");
  list->add_option("--type", list_filter.type,
                   "a word of the type line: a type, supertype or subtype (creature, instant, "
                   "basic, goblin...), any case")
      ->type_name("WORD");
  list->add_option("--color", list_filter.colors,
                   "any of these colours: letters W, U, B, R, G, and C for colourless (RG: red or "
                   "green), or their names (red,green)")
      ->type_name("WUBRGC");
  auto* show = cards->add_subcommand("show", "print one card's compiled form");
  std::string show_name;
  show->add_option("name", show_name, "card name")->required();

  // strata play
  auto* play = app.add_subcommand("play", "play one game between two decks and print its log");
  std::vector<std::string> play_decks;
  std::string play_policies = "random";
  uint64_t play_seed = 1;
  std::string play_rules = "modern";
  bool play_quiet = false;
  play->add_option("--decks", play_decks, "two deck files, A first")
      ->required()
      ->delimiter(',')
      ->expected(2);
  play->add_option("--policies", play_policies,
                   "P1,P2: deck A's player then deck B's, or one for both (default random):\n" +
                       strata::PolicyHelp());
  play->add_option("--seed", play_seed, "the game's seed (default 1)")->check(kSeed);
  play->add_option("--rules", play_rules, "layer edition: classic, m10 or modern")
      ->check(CLI::IsMember({"classic", "m10", "modern"}));
  std::string play_mulligan = "paris";
  play->add_option("--mulligan", play_mulligan, kMulliganHelp)->check(kMulligan);
  play->add_flag("--quiet", play_quiet, "print only the result");
  bool play_checked = false;
  play->add_flag("--checked", play_checked, kCheckedHelp);

  // strata perft
  auto* perft =
      app.add_subcommand("perft", "count every decision sequence from a scenario's position");
  std::string perft_file;
  int perft_depth = 3;
  perft->add_option("scenario", perft_file, "scenario file (its board; steps are ignored)")
      ->required();
  perft->add_option("--depth", perft_depth, "number of decisions (default 3)")
      ->check(CLI::Range(0, 12));

  // strata cover
  auto* cover = app.add_subcommand(
      "cover", "random games over the whole pool until every card and ability is used K times");
  strata::CoverOptions cover_opt;
  std::string cover_rules = "modern";
  cover->add_option("--k", cover_opt.k, "uses wanted per card and ability (default 10)")
      ->check(CLI::Range(1, 100000));
  cover
      ->add_option("--max-games", cover_opt.max_games, "stop after this many games (default 20000)")
      ->check(CLI::Range(1, 100000000));
  cover->add_option("--seed", cover_opt.seed, "run seed (default 1)")->check(kSeed);
  cover->add_option("--rules", cover_rules, "layer edition: classic, m10 or modern")
      ->check(CLI::IsMember({"classic", "m10", "modern"}));

  // strata bench
  strata::BenchOptions bench_opt;
  auto* bench = strata::AddBenchCommand(app, bench_opt);

  // strata fuzz
  strata::FuzzArgs fuzz_args;
  auto* fuzz = strata::AddFuzzCommand(app, fuzz_args);

  // strata sim
  auto* sim = app.add_subcommand(
      "sim",
      "balance study: matchups of decks over many games, in parallel (default: a "
      "round robin of the bundled playable decks)");
  strata::StudyArgs sim_args;
  sim->add_option("--decks", sim_args.decks,
                  "deck files: two for a matchup, more for a round robin")
      ->delimiter(',');
  sim->add_option("--games", sim_args.games, "games per matchup (default 800)")
      ->check(CLI::Range(int64_t{1}, strata::kMaxGames));
  sim->add_option("--policies", sim_args.policies,
                  "P1,P2: deck A's player then deck B's, or one for both (default heuristic):\n" +
                      strata::PolicyHelp());
  sim->add_option("--rules", sim_args.rules, "layer edition: classic, m10 or modern")
      ->check(CLI::IsMember({"classic", "m10", "modern"}));
  sim->add_option("--mulligan", sim_args.mulligan, kMulliganHelp)->check(kMulligan);
  sim->add_flag("--checked", sim_args.checked,
                std::string(kCheckedHelp) +
                    "; prints the games checked and any violation (with a replay command) and "
                    "exits 1 if there was one; slower, the same games");
  sim->add_option("--seed", sim_args.seed, "run seed (default 1)")->check(kSeed);
  sim->add_option("--threads", sim_args.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0, 1024));
  sim->add_flag("--no-pair", sim_args.no_pair, "do not replay each seed with the seats swapped");
  sim->add_option("--gauntlet", sim_args.gauntlet,
                  "one deck file (among --decks, or added) against all others");
  sim->add_option("--ci", sim_args.ci,
                  "stop each matchup once its 95% interval is narrower than +/- W (e.g. 0.02); "
                  "--games is the cap")
      ->check(FiniteRange(0.0001, 0.5));
  sim->add_option("--shard", sim_args.shard,
                  "i/K: play only shard i of K (1-based) of the study, the blocks of 256 games b "
                  "of each matchup with b % K = i-1, into its own --out; run all K anywhere (a "
                  "Slurm job array, other machines), then strata merge DIR_1 ... DIR_K --out DIR "
                  "gives the study's exact numbers. Not with --ci: a shard cannot see the other "
                  "shards' games, so it cannot stop a matchup where one process would")
      ->type_name("i/K");
  sim->add_option("--out", sim_args.out,
                  "write summary.json, matchups.csv, cards.csv and study.toml into this directory");
  sim->add_flag("--report", sim_args.report,
                "with --out DIR: also DIR/report.html, one self-contained page of charts (inline "
                "SVG, no network) and tables for a browser; with --resume DIR of a complete study, "
                "only writes its report");
  sim->add_option("--games-out", sim_args.games_out_file,
                  "one JSON line per game, in game order, into FILE (default: DIR/games.jsonl "
                  "of --out)")
      ->expected(0, 1)
      ->type_name("[FILE]");
  sim->add_option("--resume", sim_args.resume,
                  "continue the interrupted study in DIR (its --out) to the same final numbers")
      ->type_name("DIR");
  sim->add_flag("--force", sim_args.force,
                "replace the study already in --out (its files); with --resume, continue "
                "even if the cards or strata changed since");
  sim->add_option("--checkpoint-seconds", sim_args.checkpoint_seconds,
                  "save the study to --out after this many seconds of games (default 5)")
      ->check(FiniteRange(0, 86400));
  sim->add_option("--stop-after-blocks", sim_args.stop_after_blocks,
                  "tests: stop as if interrupted after N blocks of 256 games")
      ->group("");

  // strata compare and strata ablate: paired studies (sim/compare.h)
  strata::CompareArgs compare_args;
  auto paired_options = [&](CLI::App* cmd, strata::CompareArgs& a, int default_games) {
    cmd->add_option("--against", a.against,
                    "opponent deck files (default: the bundled playable decks, as --gauntlet)")
        ->delimiter(',');
    cmd->add_flag("--gauntlet", a.gauntlet,
                  "the opponents are the bundled playable decks (the default), but a tested "
                  "deck's own file");
    cmd->add_option("--games", a.games,
                    absl::StrCat("games per opponent and version (default ", default_games,
                                 "; with --ci, the cap)"))
        ->check(CLI::Range(int64_t{1}, strata::kMaxGames));
    cmd->add_option("--ci", a.ci,
                    "play each opponent until the paired 95% interval of every change is "
                    "narrower than +/- W (e.g. 0.01), in blocks of 256 games")
        ->check(FiniteRange(0.0001, 0.5));
    cmd->add_option("--policies", a.policies,
                    "P1,P2: the tested deck's player then the opponents', or one for both "
                    "(default heuristic):\n" +
                        strata::PolicyHelp());
    cmd->add_option("--rules", a.rules, "layer edition: classic, m10 or modern")
        ->check(CLI::IsMember({"classic", "m10", "modern"}));
    cmd->add_option("--mulligan", a.mulligan, kMulliganHelp)->check(kMulligan);
    cmd->add_option("--seed", a.seed, "run seed (default 1)")->check(kSeed);
    cmd->add_option("--threads", a.threads, "worker threads (default: all cores)")
        ->check(CLI::Range(0, 1024));
    cmd->add_flag("--no-pair", a.no_pair, "do not replay each seed with the seats swapped");
  };
  auto* compare = app.add_subcommand(
      "compare",
      "A/B test two versions of a deck: both play the same opponents on the same games (seeds "
      "and seats), and the report gives each matchup's and the overall win-rate change with a "
      "paired 95% interval, and the per-card changes");
  compare->add_option("decks", compare_args.decks, "OLD and NEW: two deck files")
      ->required()
      ->expected(2);
  paired_options(compare, compare_args, 800);
  strata::CompareArgs ablate_args;
  auto* ablate = app.add_subcommand(
      "ablate",
      "what each card is worth in a deck: every copy of one distinct card at a time replaced by "
      "a basic land of the deck's main colour (or --with), each variant played on the same "
      "games as the deck, and the cards ranked by the win-rate change with paired 95% "
      "intervals");
  ablate->add_option("deck", ablate_args.decks, "the deck file")->required()->expected(1);
  ablate
      ->add_option("--with", ablate_args.with,
                   "the card that replaces each one in turn (default: the basic land of the "
                   "deck's main colour)")
      ->type_name("CARD");
  paired_options(ablate, ablate_args, 400);

  // strata merge
  strata::MergeArgs merge_args;
  auto* merge = strata::AddMergeCommand(app, merge_args);

  // strata replay
  auto* replay = app.add_subcommand(
      "replay", "replay one game of a study with its full log (--from DIR, or the sim flags)");
  strata::StudyArgs replay_args;
  replay->add_option("--from", replay_args.from, "a study's --out directory")->type_name("DIR");
  replay->add_option("--game", replay_args.game, "the game index within its matchup")
      ->required()
      ->check(kIndex);
  replay->add_option("--matchup", replay_args.matchup,
                     "the matchup index, in study order (default 0)");
  replay->add_option("--decks", replay_args.decks, "without --from: the study's deck files")
      ->delimiter(',');
  replay->add_option("--games", replay_args.games, "without --from: games per matchup");
  replay->add_option("--policies", replay_args.policies, "without --from: the study's policies");
  replay->add_option("--rules", replay_args.rules, "without --from: the layer edition")
      ->check(CLI::IsMember({"classic", "m10", "modern"}));
  replay->add_option("--mulligan", replay_args.mulligan, "without --from: the study's --mulligan")
      ->check(kMulligan);
  replay->add_option("--seed", replay_args.seed, "without --from: the run seed")->check(kSeed);
  replay->add_flag("--no-pair", replay_args.no_pair, "without --from: the study's --no-pair");
  replay->add_option("--gauntlet", replay_args.gauntlet, "without --from: the gauntlet deck");
  replay->add_flag("--quiet", replay_args.quiet, "print only the result");
  replay->add_flag("--checked", replay_args.checked, kCheckedHelp);

  CLI11_PARSE(app, argc, argv);
  if (no_default_cards && card_paths.empty() && !(*check && !check_paths.empty())) {
    std::fprintf(stderr, "--no-default-cards: expected at least one --cards PATH\n");
    return 1;
  }
  if (*merge)
    return strata::RunMergeCommand(merge_args, card_paths, no_default_cards, override_cards, argc,
                                   argv);
  if (*ablate) {
    ablate_args.card_paths = card_paths;
    ablate_args.no_default_cards = no_default_cards;
    ablate_args.override_cards = override_cards;
    return strata::RunAblateCommand(ablate_args);
  }
  if (*compare) {
    compare_args.card_paths = card_paths;
    compare_args.no_default_cards = no_default_cards;
    compare_args.override_cards = override_cards;
    return strata::RunCompareCommand(compare_args);
  }
  if (*sim || *replay) {
    auto* cmd = *sim ? sim : replay;
    strata::StudyArgs& a = *sim ? sim_args : replay_args;
    for (auto* o : cmd->get_options())
      if (o->count() > 0 && !o->get_lnames().empty()) a.given.insert("--" + o->get_lnames()[0]);
    if (app.count("--cards") || no_default_cards) a.given.insert("--cards");
    if (override_cards) a.given.insert("--override");
    a.games_out = a.given.count("--games-out") > 0;
    a.card_paths = card_paths;
    a.no_default_cards = no_default_cards;
    a.override_cards = override_cards;
    for (int i = 0; i < argc; ++i) a.command += (i ? " " : "") + std::string(argv[i]);
    if (*replay && a.from.empty() && a.decks.empty())
      std::fprintf(stderr, "replay: no --from DIR: replaying from the default study's options\n");
    return *sim ? strata::RunSimCommand(a) : strata::RunReplayCommand(a);
  }
  if (*check) card_paths.insert(card_paths.end(), check_paths.begin(), check_paths.end());
  card_paths = strata::PoolPaths(card_paths, no_default_cards);
  if (override_cards && (*bench || *fuzz)) {
    std::fprintf(stderr, "--override: %s plays the pool as loaded, without replacing cards\n",
                 *bench ? "bench" : "fuzz");
    return 1;
  }
  if (*bench) return strata::RunBenchCommand(bench_opt, card_paths);
  if (*fuzz) {
    std::string command;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
    return strata::RunFuzzCommand(fuzz_args, card_paths, command);
  }

  if (*check) {
    strata::CardDb db;
    if (!LoadDb(card_paths, override_cards, db)) return 1;
    std::printf("ok: %zu cards\n", db.cards.size());
    return 0;
  }
  if (*list) {
    if (auto bad = strata::CheckCardFilter(list_filter); !bad.empty()) {
      std::fprintf(stderr, "%s\n", bad.c_str());
      return 1;
    }
  }
  strata::CardDb db;
  if (!LoadDb(card_paths, override_cards, db)) return 1;
  if (*list) {
    strata::PrintCardTable(db, list_filter);
    return 0;
  }
  if (*show) {
    if (!strata::PrintCard(db, show_name)) {
      std::fprintf(stderr, "unknown card '%s' (closest: ", show_name.c_str());
      auto close = db.Closest(show_name);
      for (size_t i = 0; i < close.size(); ++i)
        std::fprintf(stderr, "%s%s", i ? ", " : "", close[i].c_str());
      std::fprintf(stderr, ")\n");
      return 1;
    }
    return 0;
  }
  if (*play) {
    std::vector<strata::Deck> decks;
    for (auto& path : play_decks) {
      auto d = strata::LoadDeckFile(path, db);
      if (!d.ok()) {
        std::fprintf(stderr, "%s\n", std::string(d.status().message()).c_str());
        return 1;
      }
      decks.push_back(*d);
    }
    strata::MakeDeckLabelsUnique(decks, play_decks);
    for (auto& d : decks)
      if (auto note = strata::SideboardNote(d); !note.empty())
        std::fprintf(stderr, "%s\n", note.c_str());
    auto specs = strata::ParsePolicyPair(play_policies);
    if (!specs.ok()) {
      std::fprintf(stderr, "--policies: %s\n", std::string(specs.status().message()).c_str());
      return 1;
    }
    std::unique_ptr<strata::Policy> policies[2];
    for (int p = 0; p < 2; ++p)
      policies[p] = *strata::MakePolicy((*specs)[p], strata::Rng::GameSeed(play_seed, 1000 + p));
    strata::GameOptions opt;
    opt.edition = *strata::ParseEdition(play_rules);
    opt.seed = play_seed;
    opt.mulligan = *strata::ParseMulligan(play_mulligan);
    opt.log = !play_quiet;
    opt.check_invariants = play_checked;
    strata::Game game(db, opt);
    game.Deal(decks[0], decks[1], static_cast<strata::Player>(play_seed % 2));
    strata::InvariantChecker check;
    if (play_checked) check.Begin(game);
    // Seat 0 is deck A; the seed says who starts.
    const int first = static_cast<int>(play_seed % 2);
    strata::LogAnnotator notes(
        {"A (" + decks[0].name + ")", "B (" + decks[1].name + ")"},
        {"seats: A = " + decks[0].name + " (" + (*specs)[0] + (first == 0 ? ", starts" : "") +
         "), B = " + decks[1].name + " (" + (*specs)[1] + (first == 1 ? ", starts" : "") + ")"});
    uint64_t decisions = 0;
    for (;;) {
      const strata::Decision& d = game.Advance();
      if (d.kind == strata::DecisionKind::kNone) break;
      const int chosen = policies[d.player]->ChooseFor(game, d);
      if (!play_quiet) notes.Before(game, d, chosen);
      if (play_checked)
        check.Apply(game, d, chosen);
      else
        game.Apply(chosen);
      ++decisions;
    }
    if (!play_quiet) {
      notes.End(game);
      for (auto& line : notes.Lines(game)) std::printf("%s\n", line.c_str());
    }
    std::printf("result: %s after %d turns, %llu decisions (%s)\n",
                game.Winner() < 0    ? "draw"
                : game.Winner() == 0 ? "A wins"
                                     : "B wins",
                game.state().turn, static_cast<unsigned long long>(decisions),
                std::string(strata::EndReasonName(game.end_reason())).c_str());
    if (play_checked) {
      auto passive = [](const std::string& spec) { return spec.rfind("passive", 0) == 0; };
      check.End(game, passive((*specs)[0]) && passive((*specs)[1]));
      if (!check.ok()) {
        std::printf("invariant broken: %s\n", check.failure().c_str());
        return 1;
      }
      std::printf("checked: %llu invariant checks, no violation\n",
                  static_cast<unsigned long long>(check.tally().total_checks()));
    }
    return 0;
  }
  if (*cover) {
    cover_opt.edition = *strata::ParseEdition(cover_rules);
    cover_opt.progress = isatty(2);
    strata::CoverResult r = strata::RunCoverage(db, cover_opt);
    std::printf("%d games: %d/%d cards cast or played at least %d times, %d/%d abilities used\n",
                r.games, r.cards_done, r.cards, cover_opt.k, r.abilities_done, r.abilities);
    for (auto& m : r.missing) std::printf("  not yet: %s\n", m.c_str());
    return r.missing.empty() ? 0 : 1;
  }
  if (*perft) {
    auto position = strata::LoadScenarioPosition(db, perft_file);
    if (!position.ok()) {
      std::fprintf(stderr, "%s\n", std::string(position.status().message()).c_str());
      return 1;
    }
    for (int depth = 1; depth <= perft_depth; ++depth)
      std::printf("depth %d: %llu\n", depth,
                  static_cast<unsigned long long>(strata::Perft(**position, depth)));
    return 0;
  }
  if (*scenario) {
    std::vector<std::string> errors;
    auto files = strata::ScenarioFiles(scenario_paths, &errors);
    for (auto& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
    strata::ScenarioOptions opt;
    opt.log = scenario_log;
    opt.checked_layers = !unchecked;
    if (!scenario_canary.empty()) {
      auto c = strata::CanaryCheck(scenario_canary);
      if (!c.ok()) {
        std::fprintf(stderr, "scenario: %s\n", std::string(c.status().message()).c_str());
        return 2;
      }
      opt.extra_name = "canary";
      opt.extra = *c;
    }
    int passed = 0, failed = 0;
    for (auto& f : files) {
      auto r = strata::RunScenarioFile(db, f, opt);
      std::printf("%s %s\n", r.passed ? "PASS" : "FAIL", r.name.c_str());
      if (!r.passed) {
        std::printf("  file: %s\n", f.c_str());
        for (auto& line : r.failures) std::printf("  %s\n", line.c_str());
      }
      if (scenario_log)
        for (auto& line : r.log) std::printf("    | %s\n", line.c_str());
      (r.passed ? passed : failed)++;
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return (failed == 0 && errors.empty() && !files.empty()) ? 0 : 1;
  }
  return 0;
}
