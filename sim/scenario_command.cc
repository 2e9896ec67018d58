#include "sim/scenario_command.h"

#include <cstdio>

#include "sim/card_pool.h"
#include "sim/exit_codes.h"
#include "sim/fuzz.h"
#include "sim/scenario.h"

namespace strata {

int RunScenarioCommand(const ScenarioArgs& args, const std::vector<std::string>& pool_paths,
                       bool override_cards) {
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitBadInput;
  std::vector<std::string> errors;
  auto files = ScenarioFiles(args.paths, &errors);
  // A path that names no scenario: refused before any runs.
  for (auto& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
  if (!errors.empty()) return kExitBadInput;
  ScenarioOptions opt;
  opt.log = args.log;
  opt.checked_layers = !args.unchecked;
  if (!args.canary.empty()) {
    auto c = CanaryCheck(args.canary);
    if (!c.ok()) {
      std::fprintf(stderr, "scenario: %s\n", std::string(c.status().message()).c_str());
      return kExitBadInput;
    }
    opt.extra_name = "canary";
    opt.extra = *c;
  }
  int passed = 0, failed = 0;
  for (auto& f : files) {
    auto r = RunScenarioFile(db, f, opt);
    std::printf("%s %s\n", r.passed ? "PASS" : "FAIL", r.name.c_str());
    if (!r.passed) {
      std::printf("  file: %s\n", f.c_str());
      for (auto& line : r.failures) std::printf("  %s\n", line.c_str());
    }
    if (args.log)
      for (auto& line : r.log) std::printf("    | %s\n", line.c_str());
    (r.passed ? passed : failed)++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace strata
