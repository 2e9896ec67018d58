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
};

absl::Status WriteStudy(const std::string& dir, const SimOptions& options,
                        const std::vector<MatchupStats>& results, const StudyInfo& info);

}  // namespace strata
