#include "sim/bench_command.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/card_loader.h"
#include "engine/deck.h"
#include "policies/policy.h"
#include "sim/exit_codes.h"

namespace strata {

CLI::App* AddBenchCommand(CLI::App& app, BenchOptions& opt) {
  auto* cmd = app.add_subcommand(
      "bench",
      "play a fixed set of games (the bench's matchups, random and heuristic players, fixed "
      "seeds) and print games/s, decisions/s, per player and per matchup, and the signature "
      "that pins their play; --policies times other players on the same matchups");
  cmd->add_option("--games", opt.games,
                  absl::StrCat("games per player, round robin over the matchups (default ",
                               kBenchDefaultGames,
                               ", 200 a matchup: the signature tests/bench_signature pins)"))
      ->check(CLI::Range(1, 100'000'000));
  cmd->add_option("--threads", opt.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option_function<std::string>(
         "--policies",
         [&opt](const std::string& text) {
           auto specs = ParsePolicyList(text);
           if (!specs.ok())
             throw CLI::ValidationError("--policies", std::string(specs.status().message()));
           opt.policies = *std::move(specs);
         },
         "players, each against itself, P1,P2,... (default random,heuristic: the pinned "
         "signature's games), e.g. mc:rollouts=2,depth=14:\n" +
             PolicyHelp())
      ->type_name("LIST");
  std::string matchup_list;
  for (size_t m = 0; m < kBenchMatchups.size(); ++m)
    matchup_list += "\n  " + std::to_string(m + 1) + ": " + kBenchMatchups[m][0] + " vs " +
                    kBenchMatchups[m][1];
  cmd->add_option_function<std::vector<int>>(
         "--matchups",
         [&opt](const std::vector<int>& numbers) {
           opt.matchups.clear();
           for (int number : numbers) {
             if (std::find(opt.matchups.begin(), opt.matchups.end(), number - 1) !=
                 opt.matchups.end())
               throw CLI::ValidationError("--matchups",
                                          "matchup " + std::to_string(number) + " given twice");
             opt.matchups.push_back(number - 1);
           }
         },
         "the matchups to play, M1,M2,... in this order (default: all); a matchup plays the "
         "same games whichever others stand beside it:" +
             matchup_list)
      ->delimiter(',')
      ->check(CLI::Range(1, static_cast<int>(kBenchMatchups.size())))
      ->type_name("LIST");
  return cmd;
}

int RunBenchCommand(const BenchOptions& opt, const std::vector<std::string>& card_paths) {
  CardDb db;
  if (auto st = LoadCards(card_paths, db); !st.ok()) {
    return BadInput(absl::StrCat("bench: ", st.message()));
  }
  // The decks live beside the cards: data/cards -> data/decks.
  const std::filesystem::path dir = std::filesystem::path(card_paths.at(0)).parent_path() / "decks";
  std::vector<Deck> decks;
  for (const auto& pair : kBenchMatchups)
    for (const char* name : pair) {
      auto d = LoadDeckFile((dir / (std::string(name) + ".txt")).string(), db);
      if (!d.ok()) {
        return BadInput(absl::StrCat("bench: ", d.status().message()));
      }
      decks.push_back(*std::move(d));
    }
  std::printf("%d games per player over %zu matchups (modern, paris mulligans, fixed seeds)\n",
              opt.games, opt.matchups.empty() ? kBenchMatchups.size() : opt.matchups.size());
  std::fflush(stdout);
  const BenchResult r = RunBench(db, decks, opt);
  int width = 10;  // the players' column: as wide as the longest spec
  for (const BenchRow& row : r.rows) width = std::max(width, static_cast<int>(row.policy.size()));
  // games/s and the rest of a row, or dashes where it played no game.
  const auto figures = [](const BenchTally& t) {
    if (t.games == 0) {
      std::printf(" %7d %8s %9s %12s %15s %11s\n", 0, "-", "-", "-", "-", "-");
      return;
    }
    const double g = static_cast<double>(t.games);
    std::printf(" %7" PRId64 " %8.2f %9.0f %12.0f %15.1f %11.1f\n", t.games, t.seconds,
                g / t.seconds, static_cast<double>(t.decisions) / t.seconds,
                static_cast<double>(t.decisions) / g, static_cast<double>(t.turns) / g);
  };
  const char* header = " %7s %8s %9s %12s %15s %11s\n";
  std::printf("%-*s", width, "player");
  std::printf(header, "games", "seconds", "games/s", "decisions/s", "decisions/game", "turns/game");
  for (const BenchRow& row : r.rows) {
    std::printf("%-*s", width, row.policy.c_str());
    figures(row.total);
  }
  // Per matchup, numbered as --matchups takes them: each timed on its own.
  std::vector<std::string> names;
  int name_width = 7;
  for (int m : r.matchups) {
    names.push_back(std::to_string(m + 1) + " " + kBenchMatchups[static_cast<size_t>(m)][0] +
                    " vs " + kBenchMatchups[static_cast<size_t>(m)][1]);
    name_width = std::max(name_width, static_cast<int>(names.back().size()));
  }
  std::printf("%-*s %-*s", name_width, "matchup", width, "player");
  std::printf(header, "games", "seconds", "games/s", "decisions/s", "decisions/game", "turns/game");
  for (size_t slot = 0; slot < names.size(); ++slot)
    for (const BenchRow& row : r.rows) {
      std::printf("%-*s %-*s", name_width, names[slot].c_str(), width, row.policy.c_str());
      figures(row.by_matchup[slot]);
    }
  std::printf("threads %d\n", r.threads);
  const std::vector<std::string> pinned(kBenchPolicies.begin(), kBenchPolicies.end());
  std::vector<int> every(kBenchMatchups.size());
  for (size_t m = 0; m < every.size(); ++m) every[m] = static_cast<int>(m);
  if (opt.policies != pinned || opt.games != kBenchDefaultGames || r.matchups != every)
    std::printf(
        "(tests/bench_signature pins the default: --games %d, the players %s,%s, every "
        "matchup)\n",
        kBenchDefaultGames, kBenchPolicies[0], kBenchPolicies[1]);
  // Last, alone on its line, for scripts and the pinning test.
  std::printf("signature %016" PRIx64 "\n", r.signature);
  return StdoutStatus();
}

}  // namespace strata
