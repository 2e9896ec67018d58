// `strata merge`: the shards of a study (`strata sim --shard i/K`, played
// anywhere: a Slurm job array, a loop over machines) put back together into
// the one study they split, with the same summary.json, matchups.csv,
// cards.csv and games.jsonl as one process writes. Its own file so that
// sim/main.cc only declares and dispatches it.
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace strata {

struct MergeArgs {
  std::vector<std::string> shards;  // the shards' --out directories, any order
  std::string out;
  bool force = false;   // replace a study already in --out
  bool report = false;  // also DIR/report.html
};

// Adds the subcommand to `app`; `args` receives its options.
CLI::App* AddMergeCommand(CLI::App& app, MergeArgs& args);
// Returns the process exit status and prints its own errors. The pool
// options (the global --cards, --no-default-cards, --override): none given,
// the shards' own pool.
int RunMergeCommand(const MergeArgs& args, const std::vector<std::string>& card_paths,
                    bool no_default_cards, bool override_cards, int argc, char** argv);

}  // namespace strata
