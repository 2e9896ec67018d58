// Study results on disk: summary.json (every number, the command, seed,
// rules, version, threads, speed) and matchups.csv, in a directory.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "sim/runner.h"

namespace strata {

struct StudyInfo {
  std::string command;
  std::string rules;
  int threads = 0;
  double seconds = 0;
  bool partial = false;    // stopped before the end: only the matchups started, so far
  int64_t run_games = -1;  // games played by this run (a resumed study), -1: all of them
};

absl::Status WriteStudy(const std::string& dir, const SimOptions& options,
                        const std::vector<MatchupStats>& results, const StudyInfo& info);

}  // namespace strata
