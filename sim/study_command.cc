#include "sim/study_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/card_loader.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/strings.h"
#include "policies/policy.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/study_file.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Ctrl-C and SIGTERM: the runner stops starting games, and the study is
// written as it stands. The handler is reset by the first signal, so a
// second one ends the program at once.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void OnStopSignal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}

void InstallStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return 1;
}

std::string Abs(const std::string& path) {
  if (path.empty()) return path;
  return fs::absolute(path).lexically_normal().string();
}

std::string DataDir() {
  return fs::is_directory("data/cards") ? "data" : std::string(STRATA_DATA_DIR);
}

absl::Status LoadDb(const std::vector<std::string>& paths, CardDb& db) {
  return LoadCards(paths, db);
}

// A new study from the command line (no files written).
absl::Status NewStudy(const StudyArgs& a, const CardDb& db, Study& s) {
  std::vector<std::string> paths = a.decks;
  if (paths.empty()) {
    // The default study: every bundled playable deck (not the layer stress decks).
    std::string dir = DataDir() + "/decks";
    for (auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".txt" && e.path().stem().string().rfind("layers_", 0) != 0)
        paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
  }
  SimOptions& o = s.options;
  if (!a.gauntlet.empty()) {
    auto it = std::find(paths.begin(), paths.end(), a.gauntlet);
    if (it == paths.end()) {
      paths.push_back(a.gauntlet);
      it = paths.end() - 1;
    }
    o.gauntlet = static_cast<int>(it - paths.begin());
  }
  if (paths.size() < 2)
    return absl::InvalidArgumentError("--decks: expected at least two deck files");
  for (auto& path : paths) {
    auto d = LoadDeckFile(path, db);
    if (!d.ok()) return d.status();
    o.decks.push_back(*d);
    s.deck_paths.push_back(Abs(path));
  }
  auto specs = ParsePolicyPair(a.policies);
  if (!specs.ok())
    return absl::InvalidArgumentError(absl::StrCat("--policies: ", specs.status().message()));
  o.policies = *specs;
  auto edition = ParseEdition(a.rules);
  if (!edition) return absl::InvalidArgumentError("--rules: expected classic, m10 or modern");
  o.edition = *edition;
  s.rules = a.rules;
  o.seed = a.seed;
  o.ci_half_width = a.ci;
  o.games = a.games > 0 ? a.games : a.ci > 0 ? 1000000 : 800;  // 800: about a minute on two cores
  o.pair = !a.no_pair;
  s.command = a.command;
  for (auto& c : a.card_paths) s.card_paths.push_back(Abs(c));
  if (a.games_out) {
    if (a.games_out_file.empty() && a.out.empty())
      return absl::InvalidArgumentError(
          "--games-out: give a FILE, or --out DIR for DIR/games.jsonl");
    s.games_out = Abs(a.games_out_file.empty() ? (fs::path(a.out) / "games.jsonl").string()
                                               : a.games_out_file);
  }
  s.progress.clear();
  s.complete = false;
  return absl::OkStatus();
}

// `strata sim --resume DIR` with other study options: each one given must
// be the study's.
absl::Status CheckResumeArgs(const StudyArgs& a, const CardDb& db, const Study& saved) {
  Study now;
  StudyArgs probe = a;
  if (!a.given.count("--out")) probe.out = a.resume;
  if (auto st = NewStudy(probe, db, now); !st.ok()) return st;
  std::vector<std::string> differ;
  auto check = [&](bool given, const char* option, bool same) {
    if (given && !same) differ.push_back(option);
  };
  const SimOptions &n = now.options, &o = saved.options;
  auto has = [&](const char* option) { return a.given.count(option) > 0; };
  check(has("--decks") || has("--gauntlet"), "--decks/--gauntlet",
        now.deck_paths == saved.deck_paths && n.gauntlet == o.gauntlet);
  check(has("--games"), "--games", n.games == o.games);
  check(has("--ci"), "--ci", n.ci_half_width == o.ci_half_width);
  check(has("--policies"), "--policies", n.policies == o.policies);
  check(has("--rules"), "--rules", now.rules == saved.rules);
  check(has("--seed"), "--seed", n.seed == o.seed);
  check(has("--no-pair"), "--no-pair", n.pair == o.pair);
  check(has("--games-out"), "--games-out", now.games_out == saved.games_out);
  check(has("--out"), "--out", Abs(a.out) == Abs(a.resume));
  check(has("--cards"), "--cards", now.card_paths == saved.card_paths);
  if (!differ.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("--resume ", a.resume, ": not the study's ", absl::StrJoin(differ, ", "),
                     " (the study: ", saved.command, "); give only --resume DIR [--threads T]"));
  return absl::OkStatus();
}

// How to replay one of the study's games: from its directory, or with its
// own flags when it has none.
std::string ReplayCommand(const Study& s, const std::string& out) {
  if (!out.empty()) return absl::StrCat("strata replay --from ", out);
  const SimOptions& o = s.options;
  std::string cmd = "strata replay";
  if (!s.card_paths.empty()) absl::StrAppend(&cmd, " --cards ", absl::StrJoin(s.card_paths, ","));
  absl::StrAppend(&cmd, " --decks ", absl::StrJoin(s.deck_paths, ","), " --games ", o.games,
                  " --policies ", o.policies[0], ",", o.policies[1], " --rules ", s.rules,
                  " --seed ", o.seed);
  if (!o.pair) absl::StrAppend(&cmd, " --no-pair");
  if (o.gauntlet >= 0 && o.gauntlet < static_cast<int>(s.deck_paths.size()))
    absl::StrAppend(&cmd, " --gauntlet ", s.deck_paths[o.gauntlet]);
  return cmd;
}

// Runs (or continues) a study, prints its table and writes --out.
int RunAndReport(const CardDb& db, Study& s, const StudyArgs& a, const std::string& out,
                 bool resumed) {
  SimOptions opt = s.options;
  opt.threads = a.threads;
  opt.progress = isatty(2);
  opt.stop = &g_stop;
  opt.stop_after_blocks = a.stop_after_blocks;
  std::ofstream games_out;
  if (!s.games_out.empty()) {
    std::error_code ec;
    if (resumed) {
      // Drop whatever was written after the last save, then append.
      auto size = fs::file_size(s.games_out, ec);
      if (ec || static_cast<int64_t>(size) < s.games_out_bytes)
        return Fail(absl::StrCat("--resume: ", s.games_out, " is missing or shorter than the ",
                                 s.games_out_bytes, " bytes the study wrote"));
      fs::resize_file(s.games_out, static_cast<uintmax_t>(s.games_out_bytes), ec);
      if (ec) return Fail(absl::StrCat(s.games_out, ": ", ec.message()));
      games_out.open(s.games_out, std::ios::app);
    } else {
      if (fs::path(s.games_out).has_parent_path())
        fs::create_directories(fs::path(s.games_out).parent_path(), ec);
      games_out.open(s.games_out, std::ios::trunc);
    }
    if (!games_out) return Fail(absl::StrCat("--games-out ", s.games_out, ": cannot write"));
    opt.games_out = &games_out;
  }
  int64_t before = 0;
  for (auto& m : s.progress) before += m.games;
  InstallStopHandlers();
  auto start = std::chrono::steady_clock::now();
  SimResult r = RunStudy(db, opt, resumed ? &s.progress : nullptr);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.progress = r.matchups;
  s.complete = r.complete;
  if (opt.games_out) {
    games_out.flush();
    s.games_out_bytes = static_cast<int64_t>(games_out.tellp());
    games_out.close();
  }
  std::vector<MatchupStats> started;
  int64_t total = 0;
  for (auto& m : r.matchups)
    if (m.games > 0) started.push_back(m), total += m.games;
  StudyInfo info{
      s.command,
      s.rules,
      opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency()),
      seconds,
      &db,
      !r.complete,
      total - before,
      ReplayCommand(s, out)};
  const int warnings = PrintStudy(stdout, opt, started, info);
  if (!out.empty()) {
    if (!started.empty()) {
      auto st = WriteStudy(out, opt, started, info);
      if (!st.ok()) return Fail(std::string(st.message()));
    }
    auto st = SaveStudy(out, s, db);
    if (!st.ok()) return Fail(std::string(st.message()));
    std::printf("wrote %s/summary.json, matchups.csv, cards.csv and %s%s\n", out.c_str(),
                kStudyFile, r.complete ? "" : " (partial)");
  }
  if (!s.games_out.empty()) std::printf("wrote %s\n", s.games_out.c_str());
  if (!r.complete) {
    int sig = g_signal.load();
    std::fprintf(stderr, "interrupted%s: %lld games so far, in whole blocks of %d\n",
                 sig == SIGTERM  ? " (SIGTERM)"
                 : sig == SIGINT ? " (SIGINT)"
                                 : "",
                 static_cast<long long>(total), kBlockGames);
    if (!out.empty())
      std::fprintf(stderr, "continue with: strata sim --resume %s\n", out.c_str());
    else
      std::fprintf(stderr, "no --out: this study cannot be resumed\n");
    return 128 + (sig ? sig : SIGINT);
  }
  // The last line says whether the health report found anything.
  if (warnings > 0)
    std::printf("health: %d warning%s (above): the players or the decks, not only the cards\n",
                warnings, warnings == 1 ? "" : "s");
  else
    std::printf("health: no warnings\n");
  return 0;
}

// The card database of a study: --cards, or the one it was made with.
absl::Status StudyDb(const StudyArgs& a, const std::string& dir, CardDb& db) {
  std::vector<std::string> paths = a.card_paths;
  if (paths.empty() && !dir.empty()) {
    auto saved = StudyCardPaths(dir);
    if (!saved.ok()) return saved.status();
    paths = *saved;
  }
  if (paths.empty()) paths.push_back(DataDir() + "/cards");
  return LoadDb(paths, db);
}

}  // namespace

int RunSimCommand(const StudyArgs& args) {
  StudyArgs a = args;
  CardDb db;
  if (!a.resume.empty()) {
    if (auto st = StudyDb(a, a.resume, db); !st.ok())
      return Fail(absl::StrCat("--resume: ", st.message()));
    auto saved = LoadStudy(a.resume, db);
    if (!saved.ok()) return Fail(absl::StrCat("--resume: ", saved.status().message()));
    if (saved->complete)
      return Fail(
          absl::StrCat("--resume ", a.resume, ": the study is complete; nothing to resume"));
    if (auto st = CheckResumeArgs(a, db, *saved); !st.ok()) return Fail(std::string(st.message()));
    return RunAndReport(db, *saved, a, a.resume, /*resumed=*/true);
  }
  if (a.card_paths.empty()) a.card_paths.push_back(DataDir() + "/cards");
  if (auto st = LoadDb(a.card_paths, db); !st.ok()) return Fail(std::string(st.message()));
  Study s;
  if (auto st = NewStudy(a, db, s); !st.ok()) return Fail(std::string(st.message()));
  return RunAndReport(db, s, a, a.out, /*resumed=*/false);
}

int RunReplayCommand(const StudyArgs& args) {
  StudyArgs a = args;
  CardDb db;
  Study s;
  if (!a.from.empty()) {
    if (auto st = StudyDb(a, a.from, db); !st.ok())
      return Fail(absl::StrCat("--from: ", st.message()));
    auto saved = LoadStudy(a.from, db);
    if (!saved.ok()) return Fail(absl::StrCat("--from: ", saved.status().message()));
    s = *saved;
  } else {
    if (a.card_paths.empty()) a.card_paths.push_back(DataDir() + "/cards");
    if (auto st = LoadDb(a.card_paths, db); !st.ok()) return Fail(std::string(st.message()));
    if (auto st = NewStudy(a, db, s); !st.ok()) return Fail(std::string(st.message()));
  }
  const SimOptions& opt = s.options;
  const auto pairs = Matchups(opt);
  if (a.matchup < 0 || a.matchup >= static_cast<int>(pairs.size())) {
    std::string list;
    for (size_t m = 0; m < pairs.size(); ++m)
      absl::StrAppend(&list, m ? ", " : "", m, " (", opt.decks[pairs[m].first].name, " vs ",
                      opt.decks[pairs[m].second].name, ")");
    return Fail(
        absl::StrCat("--matchup ", a.matchup, ": expected 0 to ", pairs.size() - 1, ": ", list));
  }
  if (a.game < 0 || a.game >= opt.games)
    return Fail(absl::StrCat("--game ", a.game, ": expected 0 to ", opt.games - 1,
                             " (the study has ", opt.games, " games per matchup)"));
  StudyWorker worker(db, opt);
  const Game& game = worker.game;
  GameRecord r = PlayStudyGame(opt, a.matchup, a.game, worker, /*log=*/!a.quiet);
  for (auto& line : game.log()) std::printf("%s\n", line.c_str());
  int seat0 = r.SeatDeck(opt, 0), seat1 = r.SeatDeck(opt, 1);
  std::printf("game %lld of matchup %d: %s (A, starts) vs %s (B), seed %llu\n",
              static_cast<long long>(r.index), r.matchup, opt.decks[seat0].name.c_str(),
              opt.decks[seat1].name.c_str(), static_cast<unsigned long long>(r.seed));
  std::printf("result: %s after %d turns, %lld decisions (%s)\n",
              r.winner < 0 ? "draw"
                           : absl::StrCat(opt.decks[r.WinnerDeck(opt)].name, " (",
                                          r.winner == 0 ? "A" : "B", ") wins")
                                 .c_str(),
              r.turns, static_cast<long long>(r.decisions), S(EndReasonName(r.end)).c_str());
  std::printf("record: %s\n", GameRecordJson(opt, r).c_str());
  return 0;
}

}  // namespace strata
