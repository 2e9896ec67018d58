#include "sim/study_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/card_loader.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"
#include "policies/policy.h"
#include "sim/card_pool.h"
#include "sim/deck_list.h"
#include "sim/durable.h"
#include "sim/exit_codes.h"
#include "sim/fingerprint.h"
#include "sim/format.h"
#include "sim/game_log.h"
#include "sim/mpi_team.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/study_file.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Ctrl-C, SIGTERM and SIGHUP (a closed terminal): the runner stops starting
// games, and the study is written as it stands. The handler is reset by the
// first signal, so a second one ends the program at once (the last
// checkpoint stays).
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void OnStopSignal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}

void InstallHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
}

std::string Abs(const std::string& path) {
  if (path.empty()) return path;
  return fs::absolute(path).lexically_normal().string();
}

std::string DataDir() {
  return fs::is_directory("data/cards") ? "data" : std::string(STRATA_DATA_DIR);
}

absl::Status LoadDb(const std::vector<std::string>& paths, bool override_cards, CardDb& db) {
  return LoadPool(paths, override_cards, db);
}

// --format's check of a study's decks (sim/format.h): 0, or the exit
// status after every problem is printed.
int CheckStudyDecks(const StudyArgs& a, const CardDb& db, const Study& s) {
  std::vector<const Deck*> decks;
  std::vector<std::string> paths;
  for (size_t i = 0; i < s.options.decks.size(); ++i) {
    decks.push_back(&s.options.decks[i]);
    paths.push_back(i < s.deck_paths.size() ? ShortPath(s.deck_paths[i]) : "");
  }
  return CheckDecksForFormat(a.format, db, decks, paths);
}

// A new study from the command line (no files written).
absl::Status NewStudy(const StudyArgs& a, const CardDb& db, Study& s) {
  auto expanded = ExpandDeckPaths(a.decks, "--decks", DeckRepeats::kMirrorPair);
  if (!expanded.ok()) return expanded.status();
  std::vector<std::string> paths = *std::move(expanded);
  if (paths.empty()) paths = BundledDeckPaths();
  SimOptions& o = s.options;
  if (!a.gauntlet.empty()) {
    std::error_code ec;
    if (fs::is_directory(a.gauntlet, ec))
      return absl::InvalidArgumentError(absl::StrCat(
          "--gauntlet ", a.gauntlet,
          ": expected one deck file (the tested deck), got a folder; its decks go in --decks"));
    auto it = std::find_if(paths.begin(), paths.end(),
                           [&](const std::string& p) { return SameDeckFile(p, a.gauntlet); });
    if (it == paths.end()) {
      paths.push_back(a.gauntlet);
      it = paths.end() - 1;
    }
    o.gauntlet = static_cast<int>(it - paths.begin());
  }
  if (paths.size() < 2)
    return absl::InvalidArgumentError(
        absl::StrCat("--decks: expected at least two deck files, got ", paths.size(),
                     paths.empty() ? "" : absl::StrCat(": ", absl::StrJoin(paths, ", "))));
  for (auto& path : paths) {
    auto d = LoadDeckFile(path, db);
    if (!d.ok()) return d.status();
    o.decks.push_back(*d);
    s.deck_paths.push_back(Abs(path));
  }
  MakeDeckLabelsUnique(o.decks, paths);
  auto specs = ParsePolicyPair(a.policies);
  if (!specs.ok())
    return absl::InvalidArgumentError(absl::StrCat("--policies: ", specs.status().message()));
  o.policies = *specs;
  auto edition = ParseEdition(a.rules);
  if (!edition) return absl::InvalidArgumentError("--rules: expected classic, m10 or modern");
  o.edition = *edition;
  s.rules = a.rules;
  auto mulligan = ParseMulligan(a.mulligan);
  if (!mulligan)
    return absl::InvalidArgumentError(
        absl::StrCat("--mulligan: expected paris, london or none, got '", a.mulligan, "'"));
  o.mulligan = *mulligan;
  o.seed = a.seed;
  o.ci_half_width = a.ci;
  o.games = a.games > 0 ? a.games : a.ci > 0 ? 1000000 : 800;  // 800: about a minute on two cores
  o.pair = !a.no_pair;
  if (a.match < 1 || a.match % 2 == 0 || a.match > kMaxMatch)
    return absl::InvalidArgumentError(
        absl::StrCat("--match: expected an odd number from 1 to ", kMaxMatch,
                     " (games a match is the best of; 1: single games), got ", a.match));
  o.match = a.match;
  if (o.match > 1 && o.ci_half_width > 0)
    return absl::InvalidArgumentError(
        "--match: not with --ci: --ci stops a matchup on its game win rate's interval, which "
        "says nothing of its match win rate; give --games (matches per matchup)");
  if (o.match > 1 && !a.shard.empty())
    return absl::InvalidArgumentError(
        "--match: not with --shard: strata merge adds up shards of games, not of matches; run "
        "the study in one process");
  if (!a.shard.empty()) {
    if (!ParseShard(a.shard, &o.shard, &o.shards))
      return absl::InvalidArgumentError(absl::StrCat(
          "--shard: expected i/K with 1 <= i <= K <= ", kMaxShards, ", got '", a.shard, "'"));
    if (o.shards > 1 && o.ci_half_width > 0)
      return absl::InvalidArgumentError(
          "--shard: not with --ci: a shard cannot see the other shards' games, so it cannot stop "
          "a matchup where one process would; give --games (or use MPI, where --ci works)");
    if (o.shards > BlocksPerMatchup(o))
      return absl::InvalidArgumentError(
          absl::StrCat("--shard ", a.shard, ": --games ", o.games, " is ", BlocksPerMatchup(o),
                       " block(s) of ", kBlockGames,
                       " games per matchup, so some shards would play no game; "
                       "give at most ",
                       BlocksPerMatchup(o), " shards, or more --games"));
  }
  s.command = a.command;
  for (auto& c : PoolPaths(a.card_paths, a.no_default_cards)) s.card_paths.push_back(Abs(c));
  s.override_cards = a.override_cards;
  if (a.games_out) {
    if (a.games_out_file.empty() && a.out.empty())
      return absl::InvalidArgumentError(
          "--games-out: give a FILE, or --out DIR for DIR/games.jsonl");
    s.games_out = Abs(a.games_out_file.empty() ? (fs::path(a.out) / "games.jsonl").string()
                                               : a.games_out_file);
  }
  s.checkpoint_seconds = a.checkpoint_seconds;
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
  check(has("--mulligan"), "--mulligan", n.mulligan == o.mulligan);
  check(has("--seed"), "--seed", n.seed == o.seed);
  check(has("--no-pair"), "--no-pair", n.pair == o.pair);
  check(has("--match"), "--match", n.match == o.match);
  check(has("--shard"), "--shard", n.shard == o.shard && n.shards == o.shards);
  check(has("--games-out"), "--games-out", now.games_out == saved.games_out);
  check(has("--out"), "--out", Abs(a.out) == Abs(a.resume));
  check(has("--cards"), "--cards", now.card_paths == saved.card_paths);
  check(has("--override"), "--override", now.override_cards == saved.override_cards);
  if (!differ.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("--resume ", a.resume, ": not the study's ", absl::StrJoin(differ, ", "),
                     " (the study: ", saved.command, "); give only --resume DIR [--threads T]"));
  return absl::OkStatus();
}

}  // namespace

std::string ShortPath(const std::string& path) {
  std::error_code ec;
  fs::path rel = fs::proximate(path, ec);
  if (ec || rel.empty() || *rel.begin() == "..") return path;
  return rel.string();
}

namespace {

std::string ShortPaths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) out.push_back(ShortPath(p));
  return absl::StrJoin(out, ",");
}

}  // namespace

std::string StudyReplayCommand(const Study& s, const std::string& out) {
  if (!out.empty()) return absl::StrCat("strata replay --from ", ShortPath(Abs(out)));
  // The study's options that are not the defaults, so the command stays
  // short: a default round robin's is `strata replay`.
  const SimOptions& o = s.options;
  const StudyArgs defaults;
  std::string cmd = "strata replay";
  // The study's pool: the bundled cards and the --cards on top, or only these.
  const bool bundled = !s.card_paths.empty() && s.card_paths[0] == Abs(DefaultCardsPath());
  if (!s.card_paths.empty() && !bundled) absl::StrAppend(&cmd, " --no-default-cards");
  for (size_t i = bundled ? 1 : 0; i < s.card_paths.size(); ++i)
    absl::StrAppend(&cmd, " --cards ", ShortPath(s.card_paths[i]));
  if (s.override_cards) absl::StrAppend(&cmd, " --override");
  std::vector<std::string> default_decks;
  for (const std::string& p : BundledDeckPaths()) default_decks.push_back(Abs(p));
  const bool has_gauntlet = o.gauntlet >= 0 && o.gauntlet < static_cast<int>(s.deck_paths.size());
  if (has_gauntlet || s.deck_paths != default_decks)
    absl::StrAppend(&cmd, " --decks ", ShortPaths(s.deck_paths));
  if (o.games != 800) absl::StrAppend(&cmd, " --games ", o.games);
  if (o.policies[0] != defaults.policies || o.policies[1] != defaults.policies)
    absl::StrAppend(&cmd, " --policies ", o.policies[0], ",", o.policies[1]);
  if (s.rules != defaults.rules) absl::StrAppend(&cmd, " --rules ", s.rules);
  if (S(MulliganName(o.mulligan)) != defaults.mulligan)
    absl::StrAppend(&cmd, " --mulligan ", S(MulliganName(o.mulligan)));
  if (o.seed != defaults.seed) absl::StrAppend(&cmd, " --seed ", o.seed);
  if (!o.pair) absl::StrAppend(&cmd, " --no-pair");
  if (has_gauntlet) absl::StrAppend(&cmd, " --gauntlet ", ShortPath(s.deck_paths[o.gauntlet]));
  return cmd;
}

namespace {

// What to run next, at the end of a finished study's report.
void PrintNextCommands(const Study& s, const std::string& out, bool report) {
  if (out.empty())
    std::printf(
        "next: keep the results with --out DIR (summary.json, matchups.csv, cards.csv), and "
        "--report for DIR/report.html, a page of charts for a browser\n");
  else if (!report)
    std::printf(
        "next: a page of charts: the same with --report (%s/report.html); or python3 "
        "results/plot_study.py %s\n",
        out.c_str(), out.c_str());
  else
    std::printf("next: open %s/report.html in a browser\n", out.c_str());
  // replay plays single games: no hint for a study of matches.
  if (s.options.match <= 1)
    std::printf(
        "next: a game with its log: %s --matchup M --game I (M, I from 0: the matchup's row in "
        "the first table, the game's index in it)\n",
        StudyReplayCommand(s, out).c_str());
  const SimOptions& o = s.options;
  const int n = static_cast<int>(s.deck_paths.size());
  if (o.gauntlet >= 0 && o.gauntlet < n) {
    std::vector<std::string> others;
    for (int d = 0; d < n; ++d)
      if (d != o.gauntlet) others.push_back(s.deck_paths[d]);
    const std::string against = ShortPaths(others);
    const std::string tested = ShortPath(s.deck_paths[o.gauntlet]);
    std::printf(
        "next: each card's worth in %s: strata ablate %s --against %s; a new version of it on "
        "the same games: strata compare %s NEW --against %s\n",
        o.decks[o.gauntlet].name.c_str(), tested.c_str(), against.c_str(), tested.c_str(),
        against.c_str());
  } else {
    std::printf(
        "next: each card's worth in a deck: strata ablate DECK --against OTHERS; a new version "
        "of a deck on the same games: strata compare OLD NEW --against OTHERS\n");
  }
}

// The files a study writes into --out: what a new study there replaces.
constexpr const char* kStudyOutputs[] = {
    kStudyFile,     "summary.json",  "matchups.csv", "cards.csv",  "games.jsonl",
    "matchups.png", "win_rates.png", "cards.png",    "report.html"};  // PNGs: plot_study.py

}  // namespace

absl::Status ClaimStudyOut(const std::string& out, bool force) {
  std::vector<std::string> found;
  for (const char* name : kStudyOutputs)
    if (fs::exists(fs::path(out) / name)) found.push_back(name);
  if (found.empty()) return absl::OkStatus();
  const bool committed = fs::exists(fs::path(out) / kStudyFile);
  std::error_code size_error;
  if (!committed && found == std::vector<std::string>{"games.jsonl"} &&
      fs::file_size(fs::path(out) / "games.jsonl", size_error) == 0 && !size_error) {
    // A run stopped before its first checkpoint (games.jsonl is created,
    // empty, just before it): nothing was committed, so nothing can be
    // resumed or lost. A games.jsonl with lines is kept without --force.
    std::fprintf(stderr,
                 "--out %s: games.jsonl without study.toml, a study stopped before its first "
                 "checkpoint: starting it again\n",
                 out.c_str());
    force = true;
  } else if (!force && !committed) {
    return absl::FailedPreconditionError(
        absl::StrCat("--out ", out, ": holds files of a study (", absl::StrJoin(found, ", "),
                     ") but no study.toml, so nothing to resume; give --force to replace them"));
  }
  if (!force) {
    // A complete study has nothing to resume: --resume is no advice then.
    auto text = ReadInputFile((fs::path(out) / kStudyFile).string(), "study");
    const bool complete = text.ok() && absl::StrContains(*text, "\ncomplete = true");
    return absl::FailedPreconditionError(absl::StrCat(
        "--out ", out, ": holds an earlier study (", absl::StrJoin(found, ", "), ")",
        complete ? absl::StrCat(", complete; give another directory, or --force to replace it")
                 : absl::StrCat("; continue it with --resume ", out,
                                ", or give --force to replace it")));
  }
  for (auto& name : found) {
    std::error_code ec;
    fs::remove(fs::path(out) / name, ec);
    if (ec)
      return absl::InternalError(absl::StrCat(out, "/", name, ": cannot remove: ", ec.message()));
  }
  return absl::OkStatus();
}

namespace {

// Runs (or continues) a study, prints its table and writes --out, with a
// checkpoint (games.jsonl synced, then summary.json, matchups.csv and
// cards.csv, then study.toml, each replaced atomically) before the first
// game and every --checkpoint-seconds of games.
int RunAndReport(const CardDb& db, Study& s, const StudyArgs& a, const std::string& out,
                 bool resumed, StudyTeam* team) {
  SimOptions opt = s.options;
  opt.threads = a.threads;
  // Under MPI every rank plays and only rank 0 writes (out is "" on the
  // others): the other ranks send it their games.jsonl lines.
  opt.team = team;
  if (team && team->rank() != 0) s.games_out.clear();
  const int processes = team ? team->size() : 1;
  // Not a study option: it changes no game, so a resume may check or not.
  opt.checked = a.checked;
  opt.progress = isatty(2);
  opt.stop = &g_stop;
  opt.stop_after_blocks = a.stop_after_blocks;
  // What the study's files record from now on: this strata and these cards.
  s.version = STRATA_VERSION;
  s.card_fingerprints = FingerprintCards(db);
  s.cards_fingerprint = DbFingerprint(s.card_fingerprints);
  CheckedFile games_file;
  std::ostream games_out(&games_file);
  if (!s.games_out.empty()) {
    std::error_code ec;
    if (resumed) {
      // Drop whatever was written after the last checkpoint, then append.
      auto size = fs::file_size(s.games_out, ec);
      if (ec || static_cast<int64_t>(size) < s.games_out_bytes)
        return BadInput(absl::StrCat("--resume: ", s.games_out, " is missing or shorter than the ",
                                     s.games_out_bytes, " bytes the study wrote"));
    } else if (fs::path(s.games_out).has_parent_path()) {
      fs::create_directories(fs::path(s.games_out).parent_path(), ec);
    }
    // Content, not only length: a line edited since the checkpoint is no
    // game this study played. Checked before the file is cut or opened.
    if (resumed) {
      auto digest = FileDigest(s.games_out, s.games_out_bytes);
      if (!digest.ok()) return BadInput(absl::StrCat("--resume: ", digest.status().message()));
      if (*digest != s.games_out_digest)
        return BadInput(
            absl::StrCat("--resume: ", s.games_out, ": its first ", s.games_out_bytes,
                         " bytes are not the games the study wrote (games_out_digest ",
                         s.games_out_digest, " in study.toml, the file has ", *digest,
                         "): the file was edited or damaged; start a new study instead"));
    }
    if (auto st = games_file.Open(s.games_out, resumed, s.games_out_bytes); !st.ok())
      return BadInput(absl::StrCat("--games-out ", st.message()));
    opt.games_out = &games_out;
  }
  // Every matchup from the start, at 0 games if new: what a checkpoint
  // before the first game records.
  if (s.progress.empty())
    for (auto [deck_a, deck_b] : Matchups(opt)) {
      s.progress.emplace_back();
      s.progress.back().deck_a = deck_a, s.progress.back().deck_b = deck_b;
    }
  int64_t before = 0;
  for (auto& m : s.progress) before += m.games;
  const int threads =
      opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency());
  auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Everything the study has so far, to disk: nothing claims more games
  // than games.jsonl holds once synced, and study.toml, last, commits it.
  std::string write_error;
  auto save = [&](const std::vector<MatchupStats>& matchups, bool complete) -> bool {
    if (opt.games_out) {
      if (auto st = games_file.Sync(); !st.ok()) {
        write_error = absl::StrCat("--games-out ", st.message());
        return false;
      }
      s.games_out_bytes = games_file.bytes();
      s.games_out_digest = games_file.digest();
    }
    if (out.empty()) return true;
    std::vector<MatchupStats> started;
    int64_t total = 0;
    for (auto& m : matchups)
      if (m.games > 0) started.push_back(m), total += m.games;
    StudyInfo info{s.command,
                   s.rules,
                   threads,
                   seconds(),
                   &db,
                   !complete,
                   total - before,
                   s.cards_fingerprint,
                   StudyReplayCommand(s, out),
                   a.report};
    info.processes = processes;
    Study now = s;
    now.progress = matchups;
    now.complete = complete;
    absl::Status st = started.empty() ? absl::OkStatus() : WriteStudy(out, opt, started, info);
    if (st.ok()) st = SaveStudy(out, now, db);
    if (!st.ok()) write_error = std::string(st.message());
    return st.ok();
  };
  if (!out.empty()) opt.wave_seconds = a.checkpoint_seconds;
  auto last_checkpoint = std::chrono::steady_clock::now();
  opt.after_blocks = [&](const std::vector<MatchupStats>& matchups) {
    // A failed write to games.jsonl stops the study at once.
    if (!games_file.status().ok()) return save(matchups, false);
    auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_checkpoint).count() < a.checkpoint_seconds)
      return true;
    last_checkpoint = now;
    return save(matchups, false);
  };
  // Before the first game: --out takes writes, and a kill from now on
  // leaves a study to resume.
  if (!out.empty() && !save(s.progress, false)) return RunFailed(write_error);
  InstallHandlers();
  SimResult r = RunStudy(db, opt, &s.progress);
  if (!write_error.empty() || !save(r.matchups, r.complete)) {
    std::fprintf(stderr, "%s\n", write_error.c_str());
    if (!out.empty())
      std::fprintf(stderr,
                   "the study stopped; its last checkpoint in %s is intact: once the disk takes "
                   "writes again, continue with: strata sim --resume %s\n",
                   out.c_str(), out.c_str());
    return kExitFailed;
  }
  s.progress = r.matchups;
  s.complete = r.complete;
  std::vector<MatchupStats> started;
  int64_t total = 0;
  for (auto& m : r.matchups)
    if (m.games > 0) started.push_back(m), total += m.games;
  StudyInfo info{s.command,
                 s.rules,
                 threads,
                 seconds(),
                 &db,
                 !r.complete,
                 total - before,
                 s.cards_fingerprint,
                 StudyReplayCommand(s, out),
                 a.report};
  info.processes = processes;
  const int warnings = PrintStudy(stdout, opt, started, info);
  if (!out.empty())
    std::printf("wrote %s/summary.json, matchups.csv, cards.csv%s and %s%s\n", out.c_str(),
                a.report ? ", report.html" : "", kStudyFile, r.complete ? "" : " (partial)");
  if (!s.games_out.empty()) std::printf("wrote %s\n", s.games_out.c_str());
  if (!r.complete) {
    int sig = g_signal.load();
    std::fprintf(stderr, "interrupted%s: %lld games so far, in whole blocks of %d\n",
                 sig == SIGTERM  ? " (SIGTERM)"
                 : sig == SIGINT ? " (SIGINT)"
                 : sig == SIGHUP ? " (SIGHUP)"
                                 : "",
                 static_cast<long long>(total), kBlockGames);
    if (!out.empty())
      std::fprintf(stderr, "continue with: strata sim --resume %s\n", out.c_str());
    else
      std::fprintf(stderr, "no --out: this study cannot be resumed\n");
    return 128 + (sig ? sig : SIGINT);
  }
  if (opt.checked) {
    int64_t checked = 0, violations = 0, first_matchup = -1, first_game = -1;
    for (size_t k = 0; k < r.matchups.size(); ++k) {
      const MatchupStats& m = r.matchups[k];
      checked += m.checked_games;
      violations += m.violations;
      if (m.first_violation_game >= 0 && first_matchup < 0)
        first_matchup = static_cast<int64_t>(k), first_game = m.first_violation_game;
    }
    if (violations == 0)
      std::printf(
          "checked: %lld games with every rules invariant after every action: no "
          "violation\n",
          static_cast<long long>(checked));
    else
      std::printf(
          "checked: %lld of %lld games broke a rules invariant; the first, with the "
          "invariant: %s --matchup %lld --game %lld --checked\n",
          static_cast<long long>(violations), static_cast<long long>(checked),
          StudyReplayCommand(s, out).c_str(), static_cast<long long>(first_matchup),
          static_cast<long long>(first_game));
  }
  if (opt.shards > 1)
    std::printf(
        "shard %d of %d: these are this shard's games only; once all %d shards are done: strata "
        "merge DIR_1 ... DIR_%d --out DIR (the study's numbers, as one process plays them)\n",
        opt.shard + 1, opt.shards, opt.shards, opt.shards);
  else
    PrintNextCommands(s, out, a.report);
  // The last line says whether the health report found anything.
  if (warnings > 0)
    std::printf("health: %d warning%s (above): the players or the decks, not only the cards\n",
                warnings, warnings == 1 ? "" : "s");
  else
    std::printf("health: %s\n", NoWarningsLine(UnjudgedCards(opt, started, info)).c_str());
  const int status = StdoutStatus();
  for (const MatchupStats& m : r.matchups)
    if (m.violations > 0) return kExitFailed;  // a rules bug: the numbers can't be trusted
  return status;
}

// The card database of a study: --cards, or the one it was made with.
absl::Status StudyDb(const StudyArgs& a, const Study& saved, CardDb& db) {
  return LoadStudyCardDb(a.card_paths, a.no_default_cards, a.override_cards,
                         a.given.count("--cards") || a.given.count("--override"), saved, db);
}

}  // namespace

absl::Status LoadStudyCardDb(const std::vector<std::string>& card_paths, bool no_default_cards,
                             bool override_cards, bool pool_given, const Study& saved, CardDb& db) {
  // Pool options given: those (a resume then refuses them unless they are
  // the study's, CheckResumeArgs).
  if (pool_given) return LoadDb(PoolPaths(card_paths, no_default_cards), override_cards, db);
  std::vector<std::string> paths = saved.card_paths;
  if (paths.empty()) paths = PoolPaths({}, false);
  return LoadDb(paths, saved.override_cards, db);
}

void InstallStopHandlers() {
  InstallHandlers();
}
const std::atomic<bool>* StopFlag() {
  return &g_stop;
}
int StopSignal() {
  return g_signal.load();
}

std::string StudyChanges(const Study& saved, const CardDb& db) {
  std::vector<std::string> out;
  if (!saved.version.empty() && saved.version != STRATA_VERSION)
    out.push_back(
        absl::StrCat("the study was made by strata ", saved.version, ", this is ", STRATA_VERSION));
  if (saved.cards_fingerprint.empty()) {
    out.push_back(
        "study.toml records no card fingerprint (a study from an older strata), so "
        "changed cards cannot be ruled out");
  } else {
    CardFingerprints now = FingerprintCards(db);
    if (DbFingerprint(now) != saved.cards_fingerprint)
      out.push_back(absl::StrCat("the card database changed (fingerprint ", saved.cards_fingerprint,
                                 ", now ", DbFingerprint(now), "; ",
                                 CardChanges(saved.card_fingerprints, now), ")"));
  }
  return absl::StrJoin(out, "; ");
}

std::vector<std::string> BundledDeckPaths() {
  // Every bundled playable deck (not the layer stress decks).
  std::vector<std::string> paths;
  std::string dir = DataDir() + "/decks";
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".txt" && e.path().stem().string().rfind("layers_", 0) != 0)
      paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

int RunSimCommand(const StudyArgs& args) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, and
  // is reported like a full disk, instead of killing the program.
  std::signal(SIGXFSZ, SIG_IGN);
  // Under mpirun (a build with STRATA_MPI) every rank parses, checks and
  // plays; rank 0 alone locks, writes and prints.
  std::unique_ptr<StudyTeam> team = JoinMpiJob();
  if (!team && MpiLaunchSize() > 1)
    return BadInput(absl::StrCat(
        "strata was not built with MPI, so each of the ", MpiLaunchSize(),
        " ranks of this job would play the whole study: build it with cmake -DSTRATA_MPI=ON, or "
        "run shards (--shard i/K) and strata merge"));
  const bool writer = !team || team->rank() == 0;
  if (!writer &&
      (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)))
    return kExitFailed;
  StudyArgs a = args;
  CardDb db;
  DirLock lock;
  // Every flag is used or refused (issue 40).
  for (auto [flag, value] :
       {std::pair<const char*, const std::string*>{"--out", &a.out}, {"--resume", &a.resume}})
    if (a.given.count(flag) && value->empty())
      return BadInput(absl::StrCat(flag, ": expected a directory, got ''"));
  if (a.force && a.out.empty() && a.resume.empty() && a.games_out_file.empty())
    return BadInput(
        "--force: expected --out DIR, --games-out FILE or --resume DIR too (it lets them replace "
        "files, or resume with other cards); alone it does nothing");
  if (a.report && a.out.empty() && a.resume.empty())
    return BadInput("--report: expected --out DIR too (the report is DIR/report.html)");
  if (!a.resume.empty()) {
    // A study with a report keeps it up to date when resumed.
    if (fs::exists(fs::path(a.resume) / "report.html")) a.report = true;
    auto cards = LoadStudyCards(a.resume);
    if (!cards.ok()) return BadInput(absl::StrCat("--resume: ", cards.status().message()));
    // Held from before the first read to the last write: one run per study.
    if (auto st = writer ? lock.Acquire(a.resume) : absl::OkStatus(); !st.ok())
      return BadInput(absl::StrCat("--resume: ", st.message()));
    // Other pool options: refused before loading them (CheckResumeArgs
    // says the same of the others, once the cards are loaded).
    std::vector<std::string> pool;
    for (auto& c : PoolPaths(a.card_paths, a.no_default_cards)) pool.push_back(Abs(c));
    if ((a.given.count("--cards") && !cards->card_paths.empty() && pool != cards->card_paths) ||
        (a.given.count("--override") && a.override_cards != cards->override_cards))
      return BadInput(absl::StrCat(
          "--resume ", a.resume, ": not the study's --cards/--override (its pool: ",
          absl::StrJoin(cards->card_paths, ", "), cards->override_cards ? ", with --override" : "",
          "); give only --resume DIR [--threads T]"));
    if (auto st = StudyDb(a, *cards, db); !st.ok())
      return BadInput(absl::StrCat("--resume: ", st.message()));
    if (std::string changed = StudyChanges(*cards, db); !changed.empty()) {
      if (!a.force)
        return BadInput(absl::StrCat("--resume ", a.resume, ": ", changed,
                                     "; its games so far may not be what these would play; give "
                                     "--force to resume anyway"));
      std::fprintf(stderr, "--resume %s: --force: %s\n", a.resume.c_str(), changed.c_str());
    }
    auto saved = LoadStudy(a.resume, db);
    if (!saved.ok()) return BadInput(absl::StrCat("--resume: ", saved.status().message()));
    // A complete study: nothing to play, but --report writes its page (a
    // report forgotten at the first run costs no game).
    if (saved->complete && !a.given.count("--report"))
      return BadInput(absl::StrCat("--resume ", a.resume,
                                   ": the study is complete; nothing to resume (--report writes "
                                   "its report.html from the games played)"));
    if (auto st = CheckResumeArgs(a, db, *saved); !st.ok())
      return BadInput(std::string(st.message()));
    if (int rc = CheckStudyDecks(a, db, *saved); rc != 0) return rc;
    // The study's own --checkpoint-seconds, unless given anew (then kept).
    if (a.given.count("--checkpoint-seconds"))
      saved->checkpoint_seconds = a.checkpoint_seconds;
    else
      a.checkpoint_seconds = saved->checkpoint_seconds;
    return RunAndReport(db, *saved, a, writer ? a.resume : "", /*resumed=*/true, team.get());
  }
  if (auto st = LoadDb(PoolPaths(a.card_paths, a.no_default_cards), a.override_cards, db); !st.ok())
    return BadInput(std::string(st.message()));
  Study s;
  if (auto st = NewStudy(a, db, s); !st.ok()) return BadInput(std::string(st.message()));
  if (int rc = CheckStudyDecks(a, db, s); rc != 0) return rc;
  for (auto& d : s.options.decks)
    for (const std::string& note : DeckNotes(d)) std::fprintf(stderr, "%s\n", note.c_str());
  // What the study reads may not be what it writes (issue 40).
  std::vector<InputPath> inputs;
  for (auto& d : s.deck_paths) inputs.push_back({d, "a deck file of --decks"});
  for (auto& c : s.card_paths) inputs.push_back({c, "a card file of --cards"});
  if (!a.out.empty())
    for (const char* name : kStudyOutputs)
      if (auto st = CheckOutputFile("--out", (fs::path(a.out) / name).string(), inputs,
                                    /*force=*/true);
          !st.ok())
        return BadInput(std::string(st.message()));
  if (!s.games_out.empty() && !a.games_out_file.empty())
    if (auto st = CheckOutputFile("--games-out", s.games_out, inputs, a.force); !st.ok())
      return BadInput(std::string(st.message()));
  if (!a.out.empty() && writer) {
    if (auto st = lock.Acquire(a.out); !st.ok())
      return BadInput(absl::StrCat("--out: ", st.message()));
    if (auto st = ClaimStudyOut(a.out, a.force); !st.ok())
      return BadInput(std::string(st.message()));
  }
  return RunAndReport(db, s, a, writer ? a.out : "", /*resumed=*/false, team.get());
}

int RunReplayCommand(const StudyArgs& args) {
  StudyArgs a = args;
  CardDb db;
  Study s;
  if (!a.from.empty()) {
    // The study's own options make its games: one given beside --from
    // would be ignored, so it is refused (issue 40).
    for (const char* flag : {"--decks", "--games", "--policies", "--rules", "--mulligan", "--seed",
                             "--no-pair", "--gauntlet"})
      if (a.given.count(flag))
        return BadInput(absl::StrCat(flag, ": not with --from ", a.from,
                                     ": the study's own options make its games (give --from DIR, "
                                     "--matchup and --game, or the options without --from)"));
    auto cards = LoadStudyCards(a.from);
    if (!cards.ok()) return BadInput(absl::StrCat("--from: ", cards.status().message()));
    if (auto st = StudyDb(a, *cards, db); !st.ok())
      return BadInput(absl::StrCat("--from: ", st.message()));
    if (std::string changed = StudyChanges(*cards, db); !changed.empty() && !cards->version.empty())
      std::fprintf(stderr, "replay: warning: %s; the game may not be the one the study played\n",
                   changed.c_str());
    auto saved = LoadStudy(a.from, db);
    if (!saved.ok()) return BadInput(absl::StrCat("--from: ", saved.status().message()));
    if (saved->options.match > 1)
      return BadInput(
          absl::StrCat("--from ", a.from, ": a study of best-of-", saved->options.match,
                       " matches (--match); replay plays the games of a study of single "
                       "games only"));
    s = *saved;
  } else {
    if (auto st = LoadDb(PoolPaths(a.card_paths, a.no_default_cards), a.override_cards, db);
        !st.ok())
      return BadInput(std::string(st.message()));
    if (auto st = NewStudy(a, db, s); !st.ok()) return BadInput(std::string(st.message()));
  }
  if (int rc = CheckStudyDecks(a, db, s); rc != 0) return rc;
  const SimOptions& opt = s.options;
  const auto pairs = Matchups(opt);
  if (a.matchup < 0 || a.matchup >= static_cast<int>(pairs.size())) {
    std::string list;
    for (size_t m = 0; m < pairs.size(); ++m)
      absl::StrAppend(&list, m ? ", " : "", m, " (", opt.decks[pairs[m].first].name, " vs ",
                      opt.decks[pairs[m].second].name, ")");
    return BadInput(
        absl::StrCat("--matchup ", a.matchup, ": expected 0 to ", pairs.size() - 1, ": ", list));
  }
  if (a.game < 0 || a.game >= opt.games)
    return BadInput(absl::StrCat("--game ", a.game, ": expected 0 to ", opt.games - 1,
                                 " (the study has ", opt.games, " games per matchup)"));
  SimOptions played = opt;
  played.checked = a.checked;
  StudyWorker worker(db, played);
  const Game& game = worker.game;
  // The seats before the game, for the annotated log: policies follow the
  // deck (policies[0] plays deck A of the matchup).
  const GameSetup setup = SetupOf(opt.seed, a.matchup, a.game, opt.pair);
  const auto [deck_a, deck_b] = pairs[a.matchup];
  const int seat_deck[2] = {setup.swapped ? deck_b : deck_a, setup.swapped ? deck_a : deck_b};
  const std::string seat_policy[2] = {opt.policies[setup.swapped ? 1 : 0],
                                      opt.policies[setup.swapped ? 0 : 1]};
  LogAnnotator notes(
      {absl::StrCat("A (", opt.decks[seat_deck[0]].name, ")"),
       absl::StrCat("B (", opt.decks[seat_deck[1]].name, ")")},
      {absl::StrCat("seats: A = ", opt.decks[seat_deck[0]].name, " (", seat_policy[0],
                    ", starts), B = ", opt.decks[seat_deck[1]].name, " (", seat_policy[1], ")")});
  GameRecord r = PlayStudyGame(played, a.matchup, a.game, worker, /*log=*/!a.quiet,
                               a.quiet ? nullptr : &notes);
  if (!a.quiet)
    for (auto& line : notes.Lines(game)) std::printf("%s\n", line.c_str());
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
  if (a.checked) {
    if (r.violated) {
      std::printf("invariant broken: %s\n", worker.check.failure().c_str());
      StdoutStatus();
      return kExitFailed;
    }
    std::printf("checked: %llu invariant checks, no violation\n",
                static_cast<unsigned long long>(worker.check.tally().total_checks()));
  }
  return StdoutStatus();
}

}  // namespace strata
