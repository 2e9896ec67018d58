// `strata fuzz`: the command line of the rules fuzzer (sim/fuzz.h): its
// options, checks of them before any game, the report, the failure files and
// `--replay FILE`.
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace strata {

struct FuzzArgs {
  int64_t games = 1000;
  std::string seed = "1";
  int threads = 0;
  std::string decks = "random";
  std::string policies;
  std::string rules = "all";
  std::string mulligan = "all";
  std::string replay;
  std::string failures_dir = "fuzz-failures";
  int replay_every = 1;
  bool shrink = false;
  std::string shrink_out;
  int shrink_budget = 400;
  std::string canary;
  bool force = false;           // replace failure files and shrunk scenarios that exist
  std::string format = "none";  // --format: the --decks files' legality, checked first
};

// Adds the subcommand to `app`; `args` receives its options.
CLI::App* AddFuzzCommand(CLI::App& app, FuzzArgs& args);
int RunFuzzCommand(const FuzzArgs& args, const std::vector<std::string>& card_paths,
                   const std::string& command);

}  // namespace strata
