#include "sim/bench_command.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>

#include "engine/card_loader.h"
#include "engine/deck.h"
#include "policies/policy.h"

namespace strata {

CLI::App* AddBenchCommand(CLI::App& app, BenchOptions& opt) {
  auto* cmd = app.add_subcommand(
      "bench",
      "play a fixed set of games (the reference matchups, random and heuristic players, fixed "
      "seeds) and print games/s, decisions/s and the signature that pins their play; "
      "--policies times other players on the same matchups");
  cmd->add_option("--games", opt.games,
                  "games per player (default 600: the signature tests/bench_signature pins)")
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
  return cmd;
}

int RunBenchCommand(const BenchOptions& opt, const std::vector<std::string>& card_paths) {
  CardDb db;
  if (auto st = LoadCards(card_paths, db); !st.ok()) {
    std::fprintf(stderr, "bench: %s\n", std::string(st.message()).c_str());
    return 2;
  }
  // The decks live beside the cards: data/cards -> data/decks.
  const std::filesystem::path dir = std::filesystem::path(card_paths.at(0)).parent_path() / "decks";
  std::vector<Deck> decks;
  for (const auto& pair : kBenchMatchups)
    for (const char* name : pair) {
      auto d = LoadDeckFile((dir / (std::string(name) + ".txt")).string(), db);
      if (!d.ok()) {
        std::fprintf(stderr, "bench: %s\n", std::string(d.status().message()).c_str());
        return 2;
      }
      decks.push_back(*std::move(d));
    }
  std::printf("%d games per player over", opt.games);
  for (const auto& pair : kBenchMatchups) std::printf(" %s/%s", pair[0], pair[1]);
  std::printf(" (modern, paris mulligans, fixed seeds)\n");
  std::fflush(stdout);
  const BenchResult r = RunBench(db, decks, opt);
  int width = 10;  // the players' column: as wide as the longest spec
  for (const BenchRow& row : r.rows) width = std::max(width, static_cast<int>(row.policy.size()));
  std::printf("%-*s %7s %8s %9s %12s %15s %11s\n", width, "player", "games", "seconds", "games/s",
              "decisions/s", "decisions/game", "turns/game");
  for (const BenchRow& row : r.rows) {
    const double g = static_cast<double>(row.games);
    std::printf("%-*s %7" PRId64 " %8.2f %9.0f %12.0f %15.1f %11.1f\n", width, row.policy.c_str(),
                row.games, row.seconds, g / row.seconds,
                static_cast<double>(row.decisions) / row.seconds,
                static_cast<double>(row.decisions) / g, static_cast<double>(row.turns) / g);
  }
  std::printf("threads %d\n", r.threads);
  const std::vector<std::string> pinned(kBenchPolicies.begin(), kBenchPolicies.end());
  if (opt.policies != pinned || opt.games != kBenchDefaultGames)
    std::printf("(tests/bench_signature pins the default: --games %d, the players %s,%s)\n",
                kBenchDefaultGames, kBenchPolicies[0], kBenchPolicies[1]);
  // Last, alone on its line, for scripts and the pinning test.
  std::printf("signature %016" PRIx64 "\n", r.signature);
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}

}  // namespace strata
