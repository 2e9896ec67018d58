// `strata bench`: the command line of sim/bench.h, its report and the
// signature line that tests/bench_signature pins.
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "sim/bench.h"

namespace strata {

// Adds the subcommand to `app`; `opt` receives its options.
CLI::App* AddBenchCommand(CLI::App& app, BenchOptions& opt);
int RunBenchCommand(const BenchOptions& opt, const std::vector<std::string>& card_paths);

}  // namespace strata
