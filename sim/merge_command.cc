// `strata merge`: shard i of K plays the blocks b of every matchup with
// b % K == i - 1 (sim/runner.h), and every statistic of a study is a count,
// a sum or a first index, so adding the shards' counters up gives exactly
// the numbers one process gets; the games.jsonl lines interleave back by
// block. Everything is checked before anything is written: the shards are
// one study (options, decks, cards, strata), each is complete, and none is
// missing or given twice.
#include "sim/merge_command.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"
#include "sim/durable.h"
#include "sim/exit_codes.h"
#include "sim/fingerprint.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/study_command.h"
#include "sim/study_file.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Refused before anything is written.
int Fail(const std::string& message) {
  return BadInput(absl::StrCat("merge: ", message));
}

// A write that failed.
int WriteFailed(const std::string& message) {
  return RunFailed(absl::StrCat("merge: ", message));
}

std::string ShardName(const SimOptions& o) {
  return o.shards > 1 ? absl::StrCat("shard ", o.shard + 1, " of ", o.shards)
                      : std::string("a whole study (no --shard)");
}

// The strata and cards of two shards: what must match before their decks
// can be read with one card database ("" if they do).
std::string CardsDifference(const Study& a, const Study& b) {
  if (a.version != b.version)
    return absl::StrCat("made by strata ", b.version, ", not ", a.version);
  if (a.cards_fingerprint != b.cards_fingerprint)
    return absl::StrCat("other cards (fingerprint ", b.cards_fingerprint, ", not ",
                        a.cards_fingerprint, "; ",
                        CardChanges(a.card_fingerprints, b.card_fingerprints), ")");
  return "";
}

// The first way `b` is not the study `a` is ("" if none), as the option
// that differs: what `merge` names when it refuses.
std::string FirstDifference(const Study& a, const Study& b) {
  const SimOptions &x = a.options, &y = b.options;
  if (x.shards != y.shards)
    return absl::StrCat("split into ", y.shards, " shard(s), not ", x.shards, " (--shard i/",
                        y.shards, ")");
  if (x.seed != y.seed) return absl::StrCat("--seed ", y.seed, ", not ", x.seed);
  if (x.games != y.games) return absl::StrCat("--games ", y.games, ", not ", x.games);
  if (x.policies != y.policies)
    return absl::StrCat("--policies ", y.policies[0], ",", y.policies[1], ", not ", x.policies[0],
                        ",", x.policies[1]);
  if (a.rules != b.rules) return absl::StrCat("--rules ", b.rules, ", not ", a.rules);
  if (x.mulligan != y.mulligan)
    return absl::StrCat("--mulligan ", S(MulliganName(y.mulligan)), ", not ",
                        S(MulliganName(x.mulligan)));
  if (x.pair != y.pair) return y.pair ? "paired seats, not --no-pair" : "--no-pair";
  if (x.ci_half_width != y.ci_half_width)
    return absl::StrCat("--ci ", y.ci_half_width, ", not ", x.ci_half_width);
  if (x.decks.size() != y.decks.size())
    return absl::StrCat(y.decks.size(), " decks, not ", x.decks.size());
  for (size_t d = 0; d < x.decks.size(); ++d) {
    if (x.decks[d].name != y.decks[d].name)
      return absl::StrCat("deck ", d + 1, " is ", y.decks[d].name, ", not ", x.decks[d].name);
    if (x.decks[d].main != y.decks[d].main)
      return absl::StrCat("deck ", d + 1, " (", x.decks[d].name, ") has other cards");
  }
  if (x.gauntlet != y.gauntlet)
    return y.gauntlet < 0 ? "a round robin, not --gauntlet"
                          : absl::StrCat("--gauntlet ", y.decks[y.gauntlet].name);
  return CardsDifference(a, b);
}

// One shard's games.jsonl, read up to what its study.toml commits.
struct GamesReader {
  std::string path;
  std::ifstream in;
  int64_t left = 0;  // bytes committed and not read yet
  bool Next(std::string& line) {
    if (left <= 0 || !std::getline(in, line)) return false;
    left -= static_cast<int64_t>(line.size()) + 1;
    return left >= 0;
  }
};

// Interleaves the shards' games.jsonl into `file`, checking that each
// line is the game expected there: matchup by matchup, block b from shard
// b % K.
absl::Status MergeGames(const SimOptions& o, int matchups, std::vector<GamesReader>& shards,
                        std::ostream& file) {
  const int64_t blocks = BlocksPerMatchup(o);
  const int k = static_cast<int>(shards.size());
  std::string line;
  for (int m = 0; m < matchups; ++m)
    for (int64_t b = 0; b < blocks; ++b) {
      GamesReader& r = shards[b % k];
      const int64_t last = std::min<int64_t>(o.games, (b + 1) * kBlockGames);
      for (int64_t g = b * kBlockGames; g < last; ++g) {
        int matchup = -1;
        long long game = -1;
        if (!r.Next(line) ||
            std::sscanf(line.c_str(), "{\"matchup\": %d, \"game\": %lld", &matchup, &game) != 2 ||
            matchup != m || game != g)
          return absl::DataLossError(
              absl::StrCat(r.path, ": expected the line of game ", g, " of matchup ", m, ", got ",
                           line.empty() ? "the end of the file" : line.substr(0, 40)));
        file << line << '\n';
      }
    }
  for (auto& r : shards)
    if (r.left != 0)
      return absl::DataLossError(
          absl::StrCat(r.path, ": ", r.left, " bytes past its shard's games"));
  file.flush();
  return absl::OkStatus();
}

}  // namespace

CLI::App* AddMergeCommand(CLI::App& app, MergeArgs& a) {
  auto* merge = app.add_subcommand(
      "merge",
      "put the shards of a study (strata sim --shard i/K --out DIR_i) back together: the same "
      "summary.json, matchups.csv, cards.csv and games.jsonl as the study played by one "
      "process; refuses shards of different studies, missing, repeated or interrupted ones");
  merge->add_option("shards", a.shards, "the shards' --out directories, all K of them, any order")
      ->required()
      ->type_name("DIR_1 ... DIR_K");
  merge->add_option("--out", a.out, "write the merged study (a study like sim --out's) here")
      ->required()
      ->type_name("DIR");
  merge->add_flag("--force", a.force, "replace the study already in --out (its files)");
  merge->add_flag("--report", a.report,
                  "also DIR/report.html, the page of charts of strata sim --report");
  return merge;
}

int RunMergeCommand(const MergeArgs& a, const std::vector<std::string>& card_paths,
                    bool no_default_cards, bool override_cards, int argc, char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) absl::StrAppend(&command, i ? " " : "", argv[i]);
  std::signal(SIGXFSZ, SIG_IGN);  // a file size limit is a failed write, as in sim
  const auto start = std::chrono::steady_clock::now();
  const auto abs = [](const std::string& p) { return fs::absolute(p).lexically_normal().string(); };
  for (auto& dir : a.shards)
    if (abs(dir) == abs(a.out))
      return Fail(absl::StrCat("--out ", a.out, " is one of the shards; give another directory"));
  // The first shard's cards make the database every shard is read with.
  std::vector<Study> saved;
  for (auto& dir : a.shards) {
    auto cards = LoadStudyCards(dir);
    if (!cards.ok()) return Fail(std::string(cards.status().message()));
    saved.push_back(*cards);
  }
  CardDb db;
  const bool pool_given = !card_paths.empty() || no_default_cards || override_cards;
  if (auto st =
          LoadStudyCardDb(card_paths, no_default_cards, override_cards, pool_given, saved[0], db);
      !st.ok())
    return Fail(std::string(st.message()));
  // One study: the first difference from the first shard is the error.
  auto not_the_study = [&](size_t i, const std::string& diff) {
    return Fail(absl::StrCat(a.shards[i], " is not a shard of the study in ", a.shards[0], ": ",
                             diff, saved[i].command.empty() ? "" : " (its command: ",
                             saved[i].command, saved[i].command.empty() ? "" : ")"));
  };
  for (size_t i = 1; i < saved.size(); ++i)
    if (std::string diff = CardsDifference(saved[0], saved[i]); !diff.empty())
      return not_the_study(i, diff);
  if (std::string changed = StudyChanges(saved[0], db); !changed.empty())
    return Fail(absl::StrCat(a.shards[0], ": ", changed,
                             "; merge with the strata and cards that played the shards"));
  for (size_t i = 0; i < saved.size(); ++i) {
    auto study = LoadStudy(a.shards[i], db);
    if (!study.ok()) return Fail(std::string(study.status().message()));
    saved[i] = *study;
  }
  for (size_t i = 1; i < saved.size(); ++i)
    if (std::string diff = FirstDifference(saved[0], saved[i]); !diff.empty())
      return not_the_study(i, diff);
  for (size_t i = 0; i < saved.size(); ++i)
    if (!saved[i].complete) {
      int64_t played = 0;
      for (auto& m : saved[i].progress) played += m.games;
      return Fail(absl::StrCat(a.shards[i], " (", ShardName(saved[i].options),
                               ") was interrupted before the end (", played, " of ",
                               ShardGames(saved[i].options) * saved[i].progress.size(),
                               " games); finish it first: strata sim --resume ", a.shards[i]));
    }
  const int k = saved[0].options.shards;
  std::vector<int> given(k, -1);
  std::vector<std::string> problems;
  for (size_t i = 0; i < saved.size(); ++i) {
    int& first = given[saved[i].options.shard];
    if (first >= 0)
      problems.push_back(absl::StrCat(ShardName(saved[i].options), " given twice (",
                                      a.shards[first], " and ", a.shards[i], ")"));
    else
      first = static_cast<int>(i);
  }
  std::vector<int> missing;
  for (int s = 0; s < k; ++s)
    if (given[s] < 0) missing.push_back(s + 1);
  if (!missing.empty())
    problems.push_back(absl::StrCat("missing shard", missing.size() > 1 ? "s " : " ",
                                    absl::StrJoin(missing, ", "), " of ", k));
  if (!problems.empty()) return Fail(absl::StrJoin(problems, "; "));

  // The numbers: every counter added up.
  Study merged = saved[given[0]];
  SimOptions& o = merged.options;
  o.shard = 0, o.shards = 1;
  for (int s = 1; s < k; ++s)
    for (size_t m = 0; m < merged.progress.size(); ++m)
      merged.progress[m].Merge(saved[given[s]].progress[m]);
  for (size_t m = 0; m < merged.progress.size(); ++m)
    if (merged.progress[m].games != o.games)
      return Fail(absl::StrCat("matchup ", m, " adds up to ", merged.progress[m].games,
                               " games, not ", o.games));

  // games.jsonl: all the shards have one, or none.
  const auto with =
      std::find_if(saved.begin(), saved.end(), [](const Study& s) { return !s.games_out.empty(); });
  const auto without =
      std::find_if(saved.begin(), saved.end(), [](const Study& s) { return s.games_out.empty(); });
  if (with != saved.end() && without != saved.end())
    return Fail(absl::StrCat(a.shards[with - saved.begin()], " has games.jsonl (--games-out) and ",
                             a.shards[without - saved.begin()],
                             " has none: give every shard --games-out, or none"));
  std::vector<GamesReader> games(k);
  if (with != saved.end())
    for (int s = 0; s < k; ++s) {
      const Study& shard = saved[given[s]];
      GamesReader& r = games[s];
      r.path = shard.games_out;
      r.left = shard.games_out_bytes;
      r.in.open(r.path, std::ios::binary);
      std::error_code ec;
      if (!r.in || static_cast<int64_t>(fs::file_size(r.path, ec)) < r.left || ec)
        return Fail(absl::StrCat(r.path, ": missing or shorter than the ", r.left,
                                 " bytes its shard wrote"));
      // Content, not only length: an edited line is no game the shard played.
      auto digest = FileDigest(r.path, r.left);
      if (!digest.ok()) return Fail(std::string(digest.status().message()));
      if (*digest != shard.games_out_digest)
        return Fail(absl::StrCat(r.path, ": its first ", r.left,
                                 " bytes are not the games its shard wrote (games_out_digest ",
                                 shard.games_out_digest, " in ", a.shards[given[s]], "/",
                                 kStudyFile, ", the file has ", *digest,
                                 "): the file was edited or damaged"));
    }

  // Written like a study: games.jsonl synced, then the tables, then
  // study.toml, which commits them.
  // No shard's file may be one the merge writes (a shard's --games-out
  // into this --out, a link): it would be cut while read.
  std::vector<InputPath> inputs;
  for (size_t i = 0; i < saved.size(); ++i) {
    inputs.push_back({(fs::path(a.shards[i]) / kStudyFile).string(), "a shard's study file"});
    if (!saved[i].games_out.empty()) inputs.push_back({saved[i].games_out, "a shard's games file"});
  }
  for (const char* name :
       {kStudyFile, "summary.json", "matchups.csv", "cards.csv", "games.jsonl", "report.html"})
    if (auto st = CheckOutputFile("--out", (fs::path(a.out) / name).string(), inputs,
                                  /*force=*/true);
        !st.ok())
      return Fail(std::string(st.message()));
  DirLock lock;
  if (auto st = lock.Acquire(a.out); !st.ok()) return Fail(absl::StrCat("--out: ", st.message()));
  if (auto st = ClaimStudyOut(a.out, a.force); !st.ok()) return Fail(std::string(st.message()));
  merged.command = command;
  merged.complete = true;
  merged.games_out.clear();
  merged.games_out_bytes = 0;
  merged.games_out_digest.clear();
  if (with != saved.end()) {
    merged.games_out = abs((fs::path(a.out) / "games.jsonl").string());
    CheckedFile file;
    std::ostream out(&file);
    if (auto st = file.Open(merged.games_out, /*append=*/false); !st.ok())
      return Fail(std::string(st.message()));
    absl::Status st = MergeGames(o, static_cast<int>(merged.progress.size()), games, out);
    if (st.ok()) st = file.status();
    if (st.ok()) st = file.Sync();
    if (!st.ok()) return WriteFailed(std::string(st.message()));
    merged.games_out_bytes = file.bytes();
    merged.games_out_digest = file.digest();
  }
  merged.version = STRATA_VERSION;
  merged.card_fingerprints = FingerprintCards(db);
  merged.cards_fingerprint = DbFingerprint(merged.card_fingerprints);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  StudyInfo info{merged.command,
                 merged.rules,
                 0,
                 seconds,
                 &db,
                 /*partial=*/false,
                 /*run_games=*/0,
                 merged.cards_fingerprint,
                 StudyReplayCommand(merged, a.out),
                 a.report,
                 /*merged_shards=*/k};
  absl::Status st = WriteStudy(a.out, o, merged.progress, info);
  if (st.ok()) st = SaveStudy(a.out, merged, db);
  if (!st.ok()) return WriteFailed(std::string(st.message()));
  PrintStudy(stdout, o, merged.progress, info);
  std::printf("merged %d shards into %s: summary.json, matchups.csv, cards.csv%s%s and %s\n", k,
              a.out.c_str(), a.report ? ", report.html" : "",
              merged.games_out.empty() ? "" : ", games.jsonl", kStudyFile);
  std::printf("next: a game with its log: %s --matchup M --game I\n", info.replay.c_str());
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return WriteFailed(absl::StrCat("stdout: write failed: ", std::strerror(errno)));
  return 0;
}

}  // namespace strata
