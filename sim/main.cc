// strata: the command-line program. One binary, one subcommand per job. This
// file only declares the command line (subcommands, options, their checks) and
// dispatches; each command does its work in sim/COMMAND_command.cc.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include "CLI/CLI.hpp"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "policies/policy.h"
#include "sim/bench_command.h"
#include "sim/card_pool.h"
#include "sim/cards_command.h"
#include "sim/compare_command.h"
#include "sim/cover_command.h"
#include "sim/exit_codes.h"
#include "sim/format.h"
#include "sim/fuzz_command.h"
#include "sim/merge_command.h"
#include "sim/perft_command.h"
#include "sim/play_command.h"
#include "sim/scenario_command.h"
#include "sim/study_command.h"
#include "sim/study_file.h"
#include "sim/swap_command.h"

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

// Levenshtein distance, for the nearest command to an unknown word.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

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

// The whole command line, as the reports and replay hints quote it.
std::string CommandLine(int argc, char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) command += ' ';
    command += argv[i];
  }
  return command;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "strata: a Monte Carlo simulator and rules engine for a classic-era "
      "Magic-style card game"};
  app.require_subcommand(1);
  app.footer(
      "Exit codes, every command: 0 success; 1 a check failed (a rules invariant broken, a "
      "scenario that does not hold, cards check on cards that do not load, cover short of its "
      "target) or a write failed (a full disk); 2 bad input or usage, refused before any game "
      "(an unknown command, flag or value, a file that does not load, an illegal deck under "
      "--format, an --out holding another run); 128+N stopped by signal N between blocks, the "
      "results so far saved (129 SIGHUP, 130 SIGINT, 143 SIGTERM).\n");
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
  strata::ScenarioArgs scenario_args;
  scenario->add_option("paths", scenario_args.paths, "scenario files or directories")->required();
  scenario->add_flag("--log", scenario_args.log, "print each scenario's game log");
  scenario->add_flag("--unchecked", scenario_args.unchecked,
                     "do not compare the layer cache with a fresh computation on every query, nor "
                     "check the rules invariants after every action");
  scenario
      ->add_option("--canary", scenario_args.canary,
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
  auto* show = cards->add_subcommand("show", "print cards' compiled forms and rules as sentences");
  std::vector<std::string> show_names;
  bool show_all = false;
  show->add_option("names", show_names, "card names, any case");
  show->add_flag("--all", show_all, "every card of the pool, in load order");

  // strata play
  auto* play = app.add_subcommand("play", "play one game between two decks and print its log");
  strata::PlayArgs play_args;
  play->add_option("--decks", play_args.decks,
                   "two deck files, A first (A,A: a deck against itself); a folder stands for its "
                   "*.txt files")
      ->required()
      ->delimiter(',')
      ->expected(2);
  play->add_option("--policies", play_args.policies,
                   "P1,P2: deck A's player then deck B's, or one for both (default random):\n" +
                       strata::PolicyHelp());
  play->add_option("--seed", play_args.seed, "the game's seed (default 1)")->check(kSeed);
  play->add_option("--rules", play_args.rules, "layer edition: classic, m10 or modern")
      ->check(CLI::IsMember({"classic", "m10", "modern"}));
  play->add_option("--mulligan", play_args.mulligan, kMulliganHelp)->check(kMulligan);
  play->add_flag("--quiet", play_args.quiet, "print only the result");
  play->add_flag("--checked", play_args.checked, kCheckedHelp);
  play->add_option("--format", play_args.format, strata::kFormatHelp)->type_name("NAME");

  // strata perft
  auto* perft =
      app.add_subcommand("perft", "count every decision sequence from a scenario's position");
  strata::PerftArgs perft_args;
  perft->add_option("scenario", perft_args.scenario, "scenario file (its board; steps are ignored)")
      ->required();
  perft->add_option("--depth", perft_args.depth, "number of decisions, 1 to 12 (default 3)")
      ->check(CLI::Range(1, 12));  // 0 printed nothing (issue 40)

  // strata cover
  auto* cover = app.add_subcommand(
      "cover", "random games over the whole pool until every card and ability is used K times");
  strata::CoverArgs cover_args;
  cover->add_option("--k", cover_args.options.k, "uses wanted per card and ability (default 10)")
      ->check(CLI::Range(1, 100000));
  cover
      ->add_option("--max-games", cover_args.options.max_games,
                   "stop after this many games (default 20000)")
      ->check(CLI::Range(1, 100000000));
  cover->add_option("--seed", cover_args.options.seed, "run seed (default 1)")->check(kSeed);
  cover->add_option("--rules", cover_args.rules, "layer edition: classic, m10 or modern")
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
                  "deck files or folders (a folder: its *.txt files, sorted by name), each deck "
                  "once: two decks for a matchup (A,A: a deck against itself), more for a round "
                  "robin")
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
  sim->add_option(
         "--format", sim_args.format,
         std::string(strata::kFormatHelp) + "; with --resume DIR, the study's decks are checked")
      ->type_name("NAME");
  sim->add_option("--threads", sim_args.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0, 1024));
  sim->add_flag("--no-pair", sim_args.no_pair, "do not replay each seed with the seats swapped");
  sim->add_option("--match", sim_args.match,
                  "N odd: each of --games is a best-of-N match (the loser of a game plays first "
                  "in the next; sideboards stay unused); match win rates beside game win rates "
                  "(default 1: single games)")
      ->type_name("N");
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
                    "opponent deck files or folders (a folder: its *.txt files, sorted by name), "
                    "each deck once (default: the bundled playable decks, as --gauntlet)")
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
    cmd->add_option(
           "--format", a.format,
           std::string(strata::kFormatHelp) + " (every deck: the tested ones and the opponents)")
        ->type_name("NAME");
  };
  auto* compare = app.add_subcommand(
      "compare",
      "A/B test two versions of a deck: both play the same opponents on the same games (seeds "
      "and seats), and the report gives each matchup's and the overall win-rate change with a "
      "paired 95% interval, and the per-card changes");
  compare->add_option("decks", compare_args.decks, "OLD and NEW: two deck files")->expected(2);
  paired_options(compare, compare_args, 800);
  // --out and --report: compare's and ablate's figures kept (sim/paired_report.h).
  auto out_options = [&](CLI::App* cmd, strata::CompareArgs& a) {
    cmd->add_option("--out", a.out,
                    "keep the run in DIR: summary.json, CSVs and study.toml (its options and "
                    "exact progress, saved every --checkpoint-seconds: --resume DIR goes on)");
    cmd->add_flag("--force", a.force,
                  "with --out: replace an earlier run's files in DIR; with --resume: go on "
                  "though the cards or strata changed");
    cmd->add_flag("--report", a.report,
                  "with --out or --resume: DIR/report.html too, a page of the changes, the decks "
                  "and the cards for a browser");
    cmd->add_option("--resume", a.resume,
                    "go on with the run kept in DIR from its last checkpoint, to the figures "
                    "of an uninterrupted run (other options: only --threads, "
                    "--checkpoint-seconds, --report, --force)")
        ->type_name("DIR");
    cmd->add_option("--checkpoint-seconds", a.checkpoint_seconds,
                    "with --out: save study.toml after this many seconds of games (default 5)")
        ->check(FiniteRange(0, 86400));
    cmd->add_option("--stop-after-waves", a.stop_after_waves,
                    "tests: stop as if interrupted after N waves of 256 games an opponent")
        ->group("");
  };
  out_options(compare, compare_args);
  strata::CompareArgs ablate_args;
  auto* ablate = app.add_subcommand(
      "ablate",
      "what each card is worth in a deck: every copy of one distinct card at a time replaced by "
      "a basic land of the deck's main colour (or --with), each variant played on the same "
      "games as the deck, and the cards ranked by the win-rate change with paired 95% "
      "intervals");
  ablate->add_option("deck", ablate_args.decks, "the deck file")->expected(1);
  ablate
      ->add_option("--with", ablate_args.with,
                   "the card that replaces each one in turn (default: the basic land of the "
                   "deck's main colour)")
      ->type_name("CARD");
  paired_options(ablate, ablate_args, 400);
  out_options(ablate, ablate_args);
  strata::CompareArgs swap_args;
  auto* swap = app.add_subcommand(
      "swap",
      "What to cut, and for what: every (card out, candidate in) swap of a deck on the same "
      "games as the deck, raced: rounds of doubling games, each dropping the swaps clearly "
      "worse than the best (Bonferroni-corrected intervals), ending with the best swaps");
  swap->add_option("deck", swap_args.decks, "the deck file")->required()->expected(1);
  swap->add_option("--candidates", swap_args.candidates,
                   "the cards that may come in: names separated by commas, or a file with one "
                   "a line")
      ->required();
  swap->add_option("--alpha", swap_args.alpha,
                   "the race's error rate: the chance that any interval of it misses (default "
                   "0.05)")
      ->check(FiniteRange(0.0001, 0.5));
  paired_options(swap, swap_args, 2048);
  swap->add_option("--out", swap_args.out,
                   "keep the race in DIR: summary.json and swaps.csv (every swap with its change, "
                   "corrected interval and the round it was dropped in; not resumable)");
  swap->add_flag("--force", swap_args.force, "with --out: replace an earlier run's files in DIR");
  swap->add_flag("--report", swap_args.report,
                 "with --out: DIR/report.html too, a page of the swaps' changes with their "
                 "corrected intervals and the deck for a browser");

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
  replay
      ->add_option("--decks", replay_args.decks,
                   "without --from: the study's deck files or folders, as sim takes them")
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
  replay->add_option("--format", replay_args.format, strata::kFormatHelp)->type_name("NAME");

  // An unknown command word: CLI11 would say only "A subcommand is
  // required"; this names the word and the nearest command (issue 40).
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--cards") {
      ++i;  // its value
      continue;
    }
    if (word.empty() || word[0] == '-') continue;
    std::string names, nearest;
    size_t best = std::string::npos;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) known |= sub->check_name(word);
    if (known) break;
    for (const CLI::App* sub : app.get_subcommands({})) {
      const std::string& name = sub->get_name();
      absl::StrAppend(&names, names.empty() ? "" : ", ", name);
      // Edit distance, a common prefix counting as close ("simulate": sim).
      size_t d = EditDistance(word, name);
      if (word.rfind(name, 0) == 0 || name.rfind(word, 0) == 0) d = std::min<size_t>(d, 1);
      if (d < best) best = d, nearest = name;
    }
    std::fprintf(stderr, "strata: unknown command '%s'%s; the commands: %s (strata --help)\n",
                 word.substr(0, 80).c_str(),
                 best <= 3 ? absl::StrCat(" (did you mean '", nearest, "'?)").c_str() : "",
                 names.c_str());
    return strata::kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; --help is a success, any other of its
    // errors is bad usage, whatever number CLI11 gives it.
    return app.exit(e) == 0 ? strata::kExitOk : strata::kExitBadInput;
  }
  // A file or directory flag given '' (or a list with an empty name, or a
  // flag taken for a deck: `--decks , --threads 2`) names nothing: refused
  // by its own name rather than by what it ran into later (issue 40).
  // Every option and positional naming a file or directory, in every
  // subcommand at any depth (`cards check FILES`) and before them (--cards).
  // '' aborted some commands (std::filesystem on an empty path) and made
  // others run with nothing written.
  std::vector<CLI::App*> apps = {&app};
  for (size_t i = 0; i < apps.size(); ++i)
    for (CLI::App* sub : apps[i]->get_subcommands()) apps.push_back(sub);
  for (CLI::App* sub : apps)
    for (const char* flag : {"--decks", "--against", "--gauntlet", "--out", "--resume", "--from",
                             "--failures", "--replay", "--shrink-out", "--cards", "decks", "deck",
                             "shards", "paths", "files", "scenario"})
      if (CLI::Option* o = sub->get_option_no_throw(flag); o && o->count() > 0)
        for (const std::string& v : o->as<std::vector<std::string>>()) {
          if (v.empty()) {
            std::fprintf(stderr, "%s: expected a file or directory name, got ''\n", flag);
            return strata::kExitBadInput;
          }
          if (v.rfind("--", 0) == 0) {
            std::fprintf(stderr, "%s: expected a file name, got the flag '%s' (a value missing?)\n",
                         flag, v.c_str());
            return strata::kExitBadInput;
          }
        }
  // --games-out takes an optional FILE: given alone it means DIR/games.jsonl
  // of --out, so its parsed value cannot tell `--games-out ''` from no value.
  // The words can: an empty FILE names nothing and is refused.
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--games-out=" || (word == "--games-out" && i + 1 < argc && argv[i + 1][0] == 0)) {
      std::fprintf(stderr,
                   "--games-out: expected a file name or no value (DIR/games.jsonl of --out), "
                   "got ''\n");
      return strata::kExitBadInput;
    }
  }
  // Workers beyond a few per core add no speed and each holds its own games
  // (1024 on two cores took 3.2 GB): every --threads is bounded here.
  const int max_threads = static_cast<int>(
      std::min<unsigned>(1024, std::max(8u, 4 * std::thread::hardware_concurrency())));
  for (CLI::App* sub : app.get_subcommands())
    if (CLI::Option* o = sub->get_option_no_throw("--threads"); o && o->count() > 0) {
      const int threads = o->as<int>();
      if (threads > max_threads) {
        std::fprintf(stderr,
                     "--threads: expected 0 (all cores) to %d (4 per core, at least 8; this "
                     "machine has %u cores), got %d\n",
                     max_threads, std::thread::hardware_concurrency(), threads);
        return strata::kExitBadInput;
      }
    }
  if (no_default_cards && card_paths.empty() && !(*check && !check_paths.empty())) {
    std::fprintf(stderr, "--no-default-cards: expected at least one --cards PATH\n");
    return strata::kExitBadInput;
  }
  if (*merge)
    return strata::RunMergeCommand(merge_args, card_paths, no_default_cards, override_cards, argc,
                                   argv);
  // The options given to compare and ablate, by long name (--resume takes
  // few).
  for (auto [cmd, a] : {std::pair{compare, &compare_args}, std::pair{ablate, &ablate_args}}) {
    for (auto* o : cmd->get_options())
      if (o->count() > 0) {
        if (!o->get_lnames().empty())
          a->given.insert("--" + o->get_lnames()[0]);
        else if (o->get_positional())
          a->given.insert(o->get_name());
      }
    if (app.count("--cards") || no_default_cards) a->given.insert("--cards");
    if (override_cards) a->given.insert("--override");
  }
  if (*ablate) {
    ablate_args.card_paths = card_paths;
    ablate_args.no_default_cards = no_default_cards;
    ablate_args.override_cards = override_cards;
    ablate_args.command = CommandLine(argc, argv);
    return strata::RunAblateCommand(ablate_args);
  }
  if (*swap) {
    swap_args.card_paths = card_paths;
    swap_args.no_default_cards = no_default_cards;
    swap_args.override_cards = override_cards;
    swap_args.command = CommandLine(argc, argv);
    return strata::RunSwapCommand(swap_args);
  }
  if (*compare) {
    compare_args.card_paths = card_paths;
    compare_args.no_default_cards = no_default_cards;
    compare_args.override_cards = override_cards;
    compare_args.command = CommandLine(argc, argv);
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
    a.command = CommandLine(argc, argv);
    if (*replay && a.from.empty() && a.decks.empty())
      std::fprintf(stderr, "replay: no --from DIR: replaying from the default study's options\n");
    return *sim ? strata::RunSimCommand(a) : strata::RunReplayCommand(a);
  }
  if (*check) card_paths.insert(card_paths.end(), check_paths.begin(), check_paths.end());
  card_paths = strata::PoolPaths(card_paths, no_default_cards);
  if (override_cards && (*bench || *fuzz)) {
    std::fprintf(stderr, "--override: %s plays the pool as loaded, without replacing cards\n",
                 *bench ? "bench" : "fuzz");
    return strata::kExitBadInput;
  }
  if (*bench) return strata::RunBenchCommand(bench_opt, card_paths);
  if (*fuzz) return strata::RunFuzzCommand(fuzz_args, card_paths, CommandLine(argc, argv));
  if (*check) return strata::RunCardsCheck(card_paths, override_cards);
  if (*list) return strata::RunCardsList(list_filter, card_paths, override_cards);
  if (*show) return strata::RunCardsShow(show_names, show_all, card_paths, override_cards);
  if (*play) return strata::RunPlayCommand(play_args, card_paths, override_cards);
  if (*cover) return strata::RunCoverCommand(cover_args, card_paths, override_cards);
  if (*perft) return strata::RunPerftCommand(perft_args, card_paths, override_cards);
  if (*scenario) return strata::RunScenarioCommand(scenario_args, card_paths, override_cards);
  return 0;
}
