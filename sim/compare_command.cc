#include "sim/compare_command.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/strings.h"
#include "policies/policy.h"
#include "sim/card_pool.h"
#include "sim/compare.h"
#include "sim/deck_list.h"
#include "sim/durable.h"
#include "sim/exit_codes.h"
#include "sim/fingerprint.h"
#include "sim/format.h"
#include "sim/paired_report.h"
#include "sim/paired_state.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/study_command.h"
#include "sim/study_file.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// The minimum sample of a per-card figure: drawn, and not drawn, in at
// least this many games.
constexpr int64_t kMinCardGames = 30;

std::string Abs(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

// Points, signed, one decimal: "+2.5", "-0.8", "+0.0".
std::string Points(double v) {
  if (!std::isfinite(v)) return "-";
  v *= 100;
  if (std::fabs(v) < 0.05) v = 0;  // no "-0.0"
  return absl::StrFormat("%+.1f", v);
}

std::string IntervalText(const PairedDiff& d) {
  if (!std::isfinite(d.low)) return "(too few games)";
  return absl::StrFormat("[%5s, %5s]", Points(d.low), Points(d.high));
}

// The options every version shares, and the opponents: what a paired study
// plays, but for the tested deck.
struct Setup {
  SimOptions base;           // decks: the opponents, from index 1
  std::vector<Deck> tested;  // labelled
  std::vector<std::string> tested_paths;
  std::vector<std::string> opponent_paths;
  std::string rules;
};

absl::Status MakeSetup(const CompareArgs& a, const CardDb& db, Setup& s) {
  if (a.gauntlet && !a.against.empty())
    return absl::InvalidArgumentError(
        "--against and --gauntlet: give one (--gauntlet: the bundled playable decks, also the "
        "default)");
  s.tested_paths = a.decks;
  auto against = ExpandDeckPaths(a.against, "--against", DeckRepeats::kRefused);
  if (!against.ok()) return against.status();
  std::vector<std::string> opponents = *std::move(against);
  if (opponents.empty()) {
    // The bundled decks, but a tested deck's own file: it would only play
    // itself.
    std::vector<std::string> tested_abs;
    for (auto& p : a.decks) tested_abs.push_back(Abs(p));
    for (auto& p : BundledDeckPaths()) {
      if (std::find(tested_abs.begin(), tested_abs.end(), Abs(p)) != tested_abs.end()) {
        std::fprintf(stderr, "%s: %s is a tested deck, not also an opponent\n",
                     a.decks.size() == 1 ? "ablate" : "compare", p.c_str());
        continue;
      }
      opponents.push_back(p);
    }
  }
  if (opponents.empty())
    return absl::InvalidArgumentError("--against: expected at least one opponent deck file");
  s.opponent_paths = opponents;
  // Labels over every deck of the run, so two versions named alike differ.
  std::vector<std::string> paths = a.decks;
  paths.insert(paths.end(), opponents.begin(), opponents.end());
  std::vector<Deck> decks;
  for (auto& path : paths) {
    auto d = LoadDeckFile(path, db);
    if (!d.ok()) return d.status();
    decks.push_back(*std::move(d));
  }
  MakeDeckLabelsUnique(decks, paths);
  for (auto& d : decks)
    for (const std::string& note : DeckNotes(d)) std::fprintf(stderr, "%s\n", note.c_str());
  s.tested.assign(decks.begin(), decks.begin() + a.decks.size());
  SimOptions& o = s.base;
  o.decks.assign(1, Deck{});  // the tested deck's place
  o.decks.insert(o.decks.end(), decks.begin() + a.decks.size(), decks.end());
  o.gauntlet = 0;
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
  // With --ci the games are as many as the precision takes: --games is only
  // a cap, a high one unless given.
  o.games = static_cast<int>(a.games > 0 ? a.games : a.ci > 0 ? 1000000 : 800);
  o.pair = !a.no_pair;
  o.threads = a.threads;
  return absl::OkStatus();
}

// --format's check of every deck of a paired run, the tested ones and the
// opponents (sim/format.h): 0, or the exit status after every problem is
// printed.
int CheckSetupDecks(const CompareArgs& a, const CardDb& db, const Setup& s) {
  std::vector<const Deck*> decks;
  for (const Deck& d : s.tested) decks.push_back(&d);
  for (size_t i = 1; i < s.base.decks.size(); ++i) decks.push_back(&s.base.decks[i]);
  std::vector<std::string> paths = s.tested_paths;
  paths.insert(paths.end(), s.opponent_paths.begin(), s.opponent_paths.end());
  return CheckDecksForFormat(a.format, db, decks, paths);
}

SimOptions Version(const Setup& s, const Deck& tested) {
  SimOptions o = s.base;
  o.decks[0] = tested;
  return o;
}

// The card pool options as given, for a command to repeat them.
std::string PoolFlags(const CompareArgs& a) {
  std::string out;
  if (a.no_default_cards) out += " --no-default-cards";
  for (auto& c : a.card_paths) absl::StrAppend(&out, " --cards ", c);
  if (a.override_cards) out += " --override";
  return out;
}

// `strata replay` of game I of matchup M of a version: a gauntlet study of
// the tested deck against the opponents plays the same games. `games`: the
// most any matchup played, not the --ci cap, so the command reads as the run.
std::string ReplayCommand(const CompareArgs& a, const SimOptions& o,
                          const std::vector<std::string>& opponent_paths, const std::string& rules,
                          const std::string& tested_path, int64_t games) {
  std::string cmd =
      absl::StrCat("strata", PoolFlags(a), " replay --decks ", tested_path, ",",
                   absl::StrJoin(opponent_paths, ","), " --gauntlet ", tested_path, " --games ",
                   games, " --policies ", o.policies[0], ",", o.policies[1], " --rules ", rules,
                   " --mulligan ", S(MulliganName(o.mulligan)), " --seed ", o.seed);
  if (!o.pair) cmd += " --no-pair";
  return cmd;
}

std::string ReplayOf(const CompareArgs& a, const Setup& s, const std::string& tested_path,
                     int64_t games) {
  return ReplayCommand(a, s.base, s.opponent_paths, s.rules, tested_path, games);
}

std::string GamesLine(const SimOptions& o, const std::string& rules) {
  return absl::StrFormat("seed %llu, %s, %s vs %s players, %s rules, %s mulligans",
                         static_cast<unsigned long long>(o.seed),
                         o.pair ? "each seed twice with the seats swapped" : "each seed once",
                         o.policies[0].c_str(), o.policies[1].c_str(), rules.c_str(),
                         S(MulliganName(o.mulligan)));
}

double OverallRate(const std::vector<VersionScore>& ms) {
  VersionScore all;
  for (auto& m : ms) all.Merge(m);
  return all.WinRate();
}

int64_t Games(const std::vector<VersionScore>& ms) {
  int64_t n = 0;
  for (auto& m : ms) n += m.games;
  return n;
}

// The deck's win rate when the card was drawn minus when it was not (NaN
// below the minimum sample either way).
double DrawnGap(const CardRow& c) {
  if (c.drawn < kMinCardGames || c.not_drawn < kMinCardGames) return std::nan("");
  return c.drawn_wins / static_cast<double>(c.drawn) -
         c.not_drawn_wins / static_cast<double>(c.not_drawn);
}

// "-4 Lightning Bolt, +4 Shock": what NEW changes in OLD's main deck, in
// OLD's card order, then NEW's new cards.
std::string DeckChanges(const CardDb& db, const Deck& old_deck, const Deck& new_deck) {
  std::map<CardId, int> old_n, new_n;
  for (CardId c : old_deck.main) ++old_n[c];
  for (CardId c : new_deck.main) ++new_n[c];
  std::vector<std::string> out;
  for (CardId c : DistinctCards(old_deck))
    if (new_n[c] != old_n[c])
      out.push_back(absl::StrFormat("%+d %s", new_n[c] - old_n[c], db[c].name));
  for (CardId c : DistinctCards(new_deck))
    if (old_n[c] == 0) out.push_back(absl::StrFormat("%+d %s", new_n[c], db[c].name));
  return absl::StrJoin(out, ", ");
}

// compare's figures where the run stands: what the terminal prints and
// --out writes (at every checkpoint, and at the end).
CompareOutput CompareFigures(const CardDb& db, const CompareArgs& a, const Setup& s,
                             const PairedResult& r, double seconds, bool complete) {
  CompareOutput out;
  const int matchups = static_cast<int>(r.score[0].size());
  int64_t most_games = 1;
  for (const auto& m : r.score[1]) most_games = std::max<int64_t>(most_games, m.games);
  out.run.command = a.command;
  out.run.rules = s.rules;
  out.run.base = &s.base;
  out.run.seconds = seconds;
  out.run.games = Games(r.score[0]) + Games(r.score[1]);
  out.run.replay = ReplayOf(a, s, s.tested_paths[1], most_games);
  out.run.partial = !complete;
  out.run.resume = absl::StrCat("strata compare --resume ", a.out);
  out.old_deck = s.tested[0], out.new_deck = s.tested[1];
  out.old_path = s.tested_paths[0], out.new_path = s.tested_paths[1];
  out.changes = DeckChanges(db, s.tested[0], s.tested[1]);
  for (int m = 0; m < matchups; ++m)
    out.rows.push_back({s.base.decks[m + 1].name, r.score[0][m].games, r.score[0][m].WinRate(),
                        r.score[1][m].WinRate(), DiffOf(r.paired[1][m])});
  out.rows.push_back({"overall", Games(r.score[0]), OverallRate(r.score[0]),
                      OverallRate(r.score[1]), DiffOf(r.paired[1])});
  // Per card: copies in each version, and the drawn / not-drawn gap;
  // changed cards first.
  const SimOptions old_opt = Version(s, s.tested[0]), new_opt = Version(s, s.tested[1]);
  const DeckCards old_cards = CardTables(&db, old_opt, r.stats[0])[0];
  const DeckCards new_cards = CardTables(&db, new_opt, r.stats[1])[0];
  auto find = [&](const std::string& name) -> CardChange& {
    for (CardChange& l : out.cards)
      if (l.name == name) return l;
    out.cards.push_back(CardChange{name, 0, 0, std::nan(""), std::nan("")});
    return out.cards.back();
  };
  for (const CardRow& c : old_cards.cards) {
    CardChange& l = find(c.name);
    l.old_copies = c.copies, l.old_gap = DrawnGap(c);
  }
  for (const CardRow& c : new_cards.cards) {
    CardChange& l = find(c.name);
    l.new_copies = c.copies, l.new_gap = DrawnGap(c);
  }
  std::stable_partition(out.cards.begin(), out.cards.end(),
                        [](const CardChange& l) { return l.old_copies != l.new_copies; });
  return out;
}

// The options --resume takes beside DIR: the others are the run's own.
bool ResumeTakes(const std::string& flag) {
  for (const char* f : {"--resume", "--threads", "--checkpoint-seconds", "--report", "--force",
                        "--stop-after-waves", "--format"})
    if (flag == f) return true;
  return false;
}

// --resume DIR: the run's own options from DIR/study.toml, with what a
// resume may set (--threads, --checkpoint-seconds, --report, --force).
absl::Status ResumeArgs(const char* what, const CompareArgs& given, CompareArgs& a,
                        PairedStudy& saved) {
  const std::string& dir = given.resume;
  std::vector<std::string> other;
  for (const std::string& flag : given.given)
    if (!ResumeTakes(flag))
      other.push_back(flag == "decks"  ? "the deck files OLD NEW"
                      : flag == "deck" ? "the deck file DECK"
                                       : flag);
  if (!other.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        "--resume ", dir, ": not with ", absl::StrJoin(other, ", "),
        ": the run's options are kept in its study.toml; give only --resume DIR [--threads T] "
        "[--checkpoint-seconds S] [--report] [--force]"));
  auto loaded = LoadPairedStudy(dir);
  if (!loaded.ok())
    return absl::InvalidArgumentError(absl::StrCat("--resume: ", loaded.status().message()));
  saved = *std::move(loaded);
  if (saved.what != what)
    return absl::InvalidArgumentError(absl::StrCat("--resume ", dir, ": holds a strata ",
                                                   saved.what, " run; continue it with strata ",
                                                   saved.what, " --resume ", dir));
  if (saved.complete && !given.report)
    return absl::InvalidArgumentError(
        absl::StrCat("--resume ", dir,
                     ": the run is complete; nothing to resume (--report writes its report.html "
                     "from the games played)"));
  a = saved.args;
  // Kept absolute; shown as this directory gives them (the commands printed).
  for (auto* paths : {&a.decks, &a.against, &a.card_paths})
    for (std::string& p : *paths) p = ShortPath(p);
  a.resume = dir;
  a.out = dir;
  a.threads = given.threads;
  a.force = given.force;
  // A run with a report keeps it up to date when resumed.
  a.report = saved.args.report || given.report || fs::exists(fs::path(dir) / "report.html");
  a.checkpoint_seconds = given.given.count("--checkpoint-seconds") ? given.checkpoint_seconds
                                                                   : saved.checkpoint_seconds;
  a.stop_after_waves = given.stop_after_waves;
  a.format = given.format;  // a check of the run's decks, not one of its options
  a.command = saved.command;
  a.given.clear();
  return absl::OkStatus();
}

// The options as study.toml keeps them: every path absolute, the
// opponents listed, --games resolved.
CompareArgs KeptArgs(const CompareArgs& a, const Setup& s) {
  CompareArgs k = a;
  k.decks.clear();
  for (auto& p : a.decks) k.decks.push_back(Abs(p));
  k.against.clear();
  for (auto& p : s.opponent_paths) k.against.push_back(Abs(p));
  k.gauntlet = false;
  k.card_paths.clear();
  for (auto& p : a.card_paths) k.card_paths.push_back(Abs(p));
  k.games = s.base.games;
  return k;
}

std::vector<std::string> DeckDigests(const CardDb& db, const Setup& s) {
  std::vector<std::string> out;
  for (const Deck& d : s.tested) out.push_back(DeckDigest(db, d));
  for (size_t d = 1; d < s.base.decks.size(); ++d) out.push_back(DeckDigest(db, s.base.decks[d]));
  return out;
}

// A resumed run plays what its first run would have: the same strata and
// cards (unless --force), the same decks as loaded.
absl::Status CheckResumed(const CompareArgs& a, const CardDb& db, const Setup& s,
                          const PairedStudy& saved, int versions) {
  std::vector<std::string> changed;
  if (saved.version != STRATA_VERSION)
    changed.push_back(
        absl::StrCat("the run was made by strata ", saved.version, ", this is ", STRATA_VERSION));
  const std::string fingerprint = DbFingerprint(FingerprintCards(db));
  if (saved.cards_fingerprint != fingerprint)
    changed.push_back(absl::StrCat("the card database changed (fingerprint ",
                                   saved.cards_fingerprint, ", now ", fingerprint, ")"));
  if (!changed.empty()) {
    const std::string what = absl::StrJoin(changed, "; ");
    if (!a.force)
      return absl::InvalidArgumentError(absl::StrCat(
          "--resume ", a.resume, ": ", what,
          "; its games so far may not be what these would play; give --force to resume anyway"));
    std::fprintf(stderr, "--resume %s: --force: %s\n", a.resume.c_str(), what.c_str());
  }
  const std::vector<std::string> now = DeckDigests(db, s);
  std::vector<std::string> paths = a.decks;
  paths.insert(paths.end(), a.against.begin(), a.against.end());
  for (size_t i = 0; i < now.size() && i < saved.deck_digests.size(); ++i)
    if (now[i] != saved.deck_digests[i])
      return absl::InvalidArgumentError(absl::StrCat(
          "--resume ", a.resume, ": ", paths[i],
          " is not the deck the run began with (its cards or label changed since); start a new "
          "run instead"));
  if (static_cast<int>(saved.progress.score.size()) != versions)
    return absl::InvalidArgumentError(absl::StrCat("--resume ", a.resume, ": study.toml holds ",
                                                   saved.progress.score.size(),
                                                   " versions, the run plays ", versions));
  return absl::OkStatus();
}

// A paired run played, kept in --out DIR if given: study.toml before the
// first game (so a kill leaves a run to resume), after a wave once
// --checkpoint-seconds have passed, and at the end. Ctrl-C, SIGTERM and
// SIGHUP stop it at a wave's end.
struct KeptRun {
  PairedResult result;
  double seconds = 0;  // over every run so far
  std::string error;   // a write that failed
};

// Writes the run's figures (summary.json, the CSVs, report.html) as they
// stand after `seconds` of games; `complete`: every opponent is done.
using WriteFigures =
    std::function<absl::Status(const PairedResult& r, double seconds, bool complete)>;

KeptRun RunKept(const CardDb& db, PairedOptions po, const std::vector<int>& card_versions,
                const CompareArgs& a, const Setup& s, const char* what, PairedStudy* saved,
                const WriteFigures& write) {
  KeptRun k;
  PairedStudy state;
  if (saved) {
    state = *saved;
  } else {
    state.what = what;
    state.args = KeptArgs(a, s);
    state.command = a.command;
    state.deck_digests = DeckDigests(db, s);
  }
  state.version = STRATA_VERSION;
  state.cards_fingerprint = DbFingerprint(FingerprintCards(db));
  state.checkpoint_seconds = a.checkpoint_seconds;
  const double before = saved ? saved->seconds : 0;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // The figures first, then study.toml, which commits them: a kill
  // between the two leaves figures a resume writes again.
  auto save = [&](const PairedResult& r, bool complete, double seconds) {
    if (a.out.empty()) return true;
    int64_t games = 0;
    for (auto& m : r.score[0]) games += m.games;
    absl::Status st = games > 0 ? write(r, seconds, complete) : absl::OkStatus();
    state.progress = r;
    state.complete = complete;
    state.seconds = seconds;
    if (st.ok()) st = SavePairedStudy(a.out, state);
    if (!st.ok()) k.error = std::string(st.message());
    return st.ok();
  };
  if (!saved) {
    // Every version and opponent at 0 games: the first checkpoint.
    PairedResult zero;
    const size_t matchups = s.base.decks.size() - 1;
    zero.score.assign(po.versions.size(), std::vector<VersionScore>(matchups));
    zero.paired.assign(po.versions.size(), std::vector<PairedStats>(matchups));
    zero.stats.assign(po.versions.size(), {});
    for (int v : card_versions) {
      zero.stats[v].resize(matchups);
      for (size_t m = 0; m < matchups; ++m) zero.stats[v][m].deck_b = static_cast<int>(m) + 1;
    }
    if (!save(zero, false, 0)) return k;
  }
  po.stop = StopFlag();
  po.stop_after_waves = a.stop_after_waves;
  auto last = std::chrono::steady_clock::now();
  po.after_wave = [&](const PairedResult& r) {
    const auto now = std::chrono::steady_clock::now();
    if (a.out.empty() || std::chrono::duration<double>(now - last).count() < a.checkpoint_seconds)
      return true;
    last = now;
    return save(r, false, before + elapsed());
  };
  InstallStopHandlers();
  k.result = RunPaired(db, po, card_versions, saved ? &saved->progress : nullptr);
  k.seconds = before + elapsed();
  if (k.error.empty()) save(k.result, k.result.complete, k.seconds);
  return k;
}

// After the report of a run that did not end: how it stopped and how to
// go on; the exit status (128 + the signal, SIGINT's for a test's stop).
int Interrupted(const char* what, const CompareArgs& a, const PairedResult& r) {
  int64_t games = 0;
  for (auto& v : r.score)
    for (auto& m : v) games += m.games;
  const int sig = StopSignal();
  std::fprintf(stderr, "interrupted%s: %lld games so far, in whole blocks of %d\n",
               sig == SIGTERM  ? " (SIGTERM)"
               : sig == SIGINT ? " (SIGINT)"
               : sig == SIGHUP ? " (SIGHUP)"
                               : "",
               static_cast<long long>(games), kBlockGames);
  if (!a.out.empty())
    std::fprintf(stderr, "continue with: strata %s --resume %s\n", what, a.out.c_str());
  else
    std::fprintf(stderr, "no --out: this run cannot be resumed\n");
  std::fflush(stdout);
  return 128 + (sig ? sig : SIGINT);
}

}  // namespace

// --out and --report checked, and DIR claimed, before any game.
absl::Status CheckPairedOut(const CompareArgs& a) {
  if (a.report && a.out.empty())
    return absl::InvalidArgumentError(
        "--report: expected --out DIR too (the report is DIR/report.html)");
  if (a.force && a.out.empty()) return absl::InvalidArgumentError("--force: expected --out DIR");
  if (a.out.empty()) return absl::OkStatus();
  return ClaimPairedOut(a.out, a.force);
}

int RunCompareCommand(const CompareArgs& given) {
  CompareArgs a = given;
  PairedStudy saved;
  const bool resumed = !given.resume.empty();
  if (resumed) {
    if (auto st = ResumeArgs("compare", given, a, saved); !st.ok())
      return BadInput(std::string(st.message()));
  } else if (auto st = CheckPairedOut(a); !st.ok()) {
    return BadInput(std::string(st.message()));
  }
  DirLock lock;
  if (!a.out.empty())
    if (auto st = lock.Acquire(a.out); !st.ok())
      return BadInput(absl::StrCat(resumed ? "--resume: " : "--out: ", st.message()));
  CardDb db;
  if (auto st = LoadPool(PoolPaths(a.card_paths, a.no_default_cards), a.override_cards, db);
      !st.ok())
    return BadInput(std::string(st.message()));
  if (a.decks.size() != 2)
    return BadInput(absl::StrCat(
        "compare: expected two deck files, OLD and NEW (or --resume DIR), got ", a.decks.size()));
  Setup s;
  if (auto st = MakeSetup(a, db, s); !st.ok()) return BadInput(std::string(st.message()));
  if (int rc = CheckSetupDecks(a, db, s); rc != 0) return rc;
  PairedOptions po;
  po.versions = {Version(s, s.tested[0]), Version(s, s.tested[1])};
  po.ci_half_width = a.ci;
  po.threads = a.threads;
  po.progress = isatty(2);
  po.what = "compare";
  if (resumed)
    if (auto st = CheckResumed(a, db, s, saved, 2); !st.ok())
      return BadInput(std::string(st.message()));
  auto write = [&](const PairedResult& r, double seconds, bool complete) {
    return WriteCompareOut(a.out, db, CompareFigures(db, a, s, r, seconds, complete), a.report);
  };
  const KeptRun kept = RunKept(db, po, {0, 1}, a, s, "compare", resumed ? &saved : nullptr, write);
  if (!kept.error.empty())
    return RunFailed(
        absl::StrCat(kept.error, "; the run stopped",
                     a.out.empty() ? ""
                                   : absl::StrCat(": its last checkpoint in ", a.out,
                                                  " is intact: strata compare --resume ", a.out)));
  const PairedResult& r = kept.result;
  const CompareOutput out = CompareFigures(db, a, s, r, kept.seconds, r.complete);
  const double seconds = out.run.seconds;

  const std::string& old_name = s.tested[0].name;
  const std::string& new_name = s.tested[1].name;
  const int matchups = static_cast<int>(r.score[0].size());
  std::printf(
      "compare: %s (OLD) and %s (NEW), each against the same %d opponent%s on the same "
      "games: %s\n",
      old_name.c_str(), new_name.c_str(), matchups, matchups == 1 ? "" : "s",
      GamesLine(s.base, s.rules).c_str());
  std::printf("NEW's deck: %s (%zu cards, OLD %zu)\n",
              out.changes.empty() ? "the same cards as OLD's" : out.changes.c_str(),
              s.tested[1].main.size(), s.tested[0].main.size());
  std::printf("\n%-20s %7s %8s %8s %7s  %s\n", "opponent", "games", "OLD win", "NEW win", "change",
              "95% paired interval");
  for (const ChangeRow& row : out.rows)
    std::printf("%-20s %7lld %7.1f%% %7.1f%% %7s  %s\n", row.opponent.c_str(),
                static_cast<long long>(row.games), 100 * row.old_rate, 100 * row.new_rate,
                Points(row.change.diff).c_str(), IntervalText(row.change).c_str());
  const PairedDiff all = out.rows.back().change;
  std::printf(
      "win: the tested deck's score (a win counts 1, a draw 1/2); change: NEW's win %% minus "
      "OLD's, in points; its interval from the game-by-game differences, both versions having "
      "played every game on the same seed and seat (overall: every opponent's games, each "
      "opponent a stratum)\n");
  if (!std::isfinite(all.low))
    std::printf("verdict: too few games for an interval (a matchup played only one seed)\n");
  else if (all.low == 0 && all.high == 0 && all.diff == 0)
    std::printf(
        "verdict: the two versions scored the same on every seed: the change is exactly 0\n");
  else if (std::isfinite(all.low) && (all.low > 0 || all.high < 0))
    std::printf("verdict: NEW (%s) is %s than OLD by %.1f points overall (95%%: %.1f to %.1f)\n",
                new_name.c_str(), all.diff > 0 ? "better" : "worse", 100 * std::fabs(all.diff),
                100 * std::fabs(all.diff > 0 ? all.low : all.high),
                100 * std::fabs(all.diff > 0 ? all.high : all.low));
  else
    std::printf(
        "verdict: no difference shown overall: the change is between %s and %s points; more "
        "games (--games N, or --ci W) narrow it\n",
        Points(all.low).c_str(), Points(all.high).c_str());

  std::printf(
      "\ncards: copies OLD -> NEW, and the deck's win %% when the card was drawn minus when it "
      "was not, OLD -> NEW, in points (\"-\": drawn or not drawn in fewer than %lld games); an "
      "association, not the card's worth (strata ablate measures that); changed cards first\n",
      static_cast<long long>(kMinCardGames));
  for (const CardChange& l : out.cards)
    std::printf("  %c %-26.26s %3d -> %-3d %6s -> %s\n", l.old_copies != l.new_copies ? '*' : ' ',
                l.name.c_str(), l.old_copies, l.new_copies, Points(l.old_gap).c_str(),
                Points(l.new_gap).c_str());

  const int threads =
      a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
  const int64_t games = out.run.games;
  std::printf("\n%lld games in %.1f s (%.0f games/s), %d thread%s\n", static_cast<long long>(games),
              seconds, seconds > 0 ? games / seconds : 0.0, threads, threads == 1 ? "" : "s");
  std::printf(
      "next: a game with its log: %s --matchup M --game I (M: the opponent's row above, from 0; "
      "OLD's file for NEW's to see OLD's game); a full study of NEW: strata%s sim --decks %s,%s "
      "--gauntlet %s --out DIR\n",
      out.run.replay.c_str(), PoolFlags(a).c_str(), s.tested_paths[1].c_str(),
      absl::StrJoin(s.opponent_paths, ",").c_str(), s.tested_paths[1].c_str());
  if (!a.out.empty())
    std::printf("wrote %s/summary.json, opponents.csv, cards.csv%s and study.toml%s\n",
                a.out.c_str(), a.report ? ", report.html" : "", r.complete ? "" : " (partial)");
  if (!r.complete) return Interrupted("compare", a, r);
  return StdoutStatus();
}

namespace {

// The colour with the most coloured mana symbols in the deck's costs (the
// lowest colour on a tie; -1 for a deck with none).
int MainColor(const CardDb& db, const Deck& deck) {
  std::array<int64_t, kColorCount> symbols{};
  for (CardId c : deck.main)
    for (int k = 0; k < kColorCount; ++k) symbols[k] += db[c].cost.colored[k];
  int best = -1;
  for (int k = 0; k < kColorCount; ++k)
    if (symbols[k] > 0 && (best < 0 || symbols[k] > symbols[best])) best = k;
  return best;
}

// The card that replaces the ablated one: --with, or the pool's basic land
// making only the deck's main colour.
absl::StatusOr<CardId> Replacement(const CompareArgs& a, const CardDb& db, const Deck& deck) {
  if (!a.with.empty()) {
    CardId c = db.Find(a.with);
    if (c == kNoCard)
      return absl::InvalidArgumentError(
          absl::StrCat("--with: unknown card '", a.with, "' (", db.ClosestNote(a.with), ")"));
    return c;
  }
  const int color = MainColor(db, deck);
  if (color < 0)
    return absl::InvalidArgumentError(
        absl::StrCat(deck.name,
                     ": no coloured mana cost, so no main colour: give --with CARD (the card that "
                     "replaces each one in turn)"));
  for (CardId c = 0; c < static_cast<CardId>(db.cards.size()); ++c) {
    const CardDef& d = db[c];
    if (Has(d.types, kLand) && Has(d.supertypes, kBasic) &&
        d.printed_land_mana == ColorMask(1u << color))
      return c;
  }
  return absl::InvalidArgumentError(absl::StrCat("the pool has no basic land making only ",
                                                 S(ColorName(color)), " (", deck.name,
                                                 "'s main colour): give --with CARD"));
}

}  // namespace

int RunAblateCommand(const CompareArgs& given) {
  CompareArgs a = given;
  PairedStudy saved;
  const bool resumed = !given.resume.empty();
  if (resumed) {
    if (auto st = ResumeArgs("ablate", given, a, saved); !st.ok())
      return BadInput(std::string(st.message()));
  } else if (auto st = CheckPairedOut(a); !st.ok()) {
    return BadInput(std::string(st.message()));
  }
  DirLock lock;
  if (!a.out.empty())
    if (auto st = lock.Acquire(a.out); !st.ok())
      return BadInput(absl::StrCat(resumed ? "--resume: " : "--out: ", st.message()));
  CardDb db;
  if (auto st = LoadPool(PoolPaths(a.card_paths, a.no_default_cards), a.override_cards, db);
      !st.ok())
    return BadInput(std::string(st.message()));
  if (a.decks.size() != 1)
    return BadInput(
        absl::StrCat("ablate: expected one deck file (or --resume DIR), got ", a.decks.size()));
  // A variant per distinct card: half the games per opponent of compare.
  CompareArgs args = a;
  if (args.games == 0 && args.ci == 0) args.games = 400;
  Setup s;
  if (auto st = MakeSetup(args, db, s); !st.ok()) return BadInput(std::string(st.message()));
  if (int rc = CheckSetupDecks(args, db, s); rc != 0) return rc;
  const Deck& deck = s.tested[0];
  auto with = Replacement(a, db, deck);
  if (!with.ok()) return BadInput(std::string(with.status().message()));
  std::vector<CardId> ablated;
  for (CardId c : DistinctCards(deck))
    if (c != *with) ablated.push_back(c);
  if (ablated.empty())
    return BadInput(absl::StrCat("ablate: ", deck.name, " holds only ", db[*with].name,
                                 ", the card that would replace the others"));
  std::vector<Deck> variants;
  for (CardId c : ablated) {
    Deck variant = deck;
    std::replace(variant.main.begin(), variant.main.end(), c, *with);
    variant.name = absl::StrCat(deck.name, " without ", db[c].name);
    variants.push_back(std::move(variant));
  }
  // The variants are decks the games play: with --format, a --with card
  // the format refuses, or one copy of it too many, would play illegal
  // decks.
  if (a.format != "none") {
    auto format = LoadFormat(a.format);
    if (!format.ok()) {
      std::fprintf(stderr, "%s\n", std::string(format.status().message()).c_str());
      return kExitIllegalDeck;
    }
    if (std::string why = CardNotAllowed(**format, db, *with); !why.empty()) {
      std::fprintf(stderr, "--with: %s\n", why.c_str());
      return kExitIllegalDeck;
    }
    std::vector<const Deck*> check;
    for (const Deck& v : variants) check.push_back(&v);
    if (int rc = CheckDecksForFormat(a.format, db, check, {}); rc != 0) return rc;
  }
  PairedOptions po;
  po.versions.push_back(Version(s, deck));
  for (const Deck& variant : variants) po.versions.push_back(Version(s, variant));
  po.ci_half_width = a.ci;
  po.threads = a.threads;
  po.progress = isatty(2);
  po.what = "ablate";
  if (resumed)
    if (auto st = CheckResumed(a, db, s, saved, static_cast<int>(po.versions.size())); !st.ok())
      return BadInput(std::string(st.message()));
  // The figures where the run stands: the cards ranked by their worth.
  auto figures = [&](const PairedResult& r, double seconds, bool complete) {
    AblateOutput out;
    int64_t most_games = 1, games = 0;
    for (const auto& m : r.score[0]) most_games = std::max<int64_t>(most_games, m.games);
    for (auto& v : r.score) games += Games(v);
    out.run.command = a.command;
    out.run.rules = s.rules;
    out.run.base = &s.base;
    out.run.seconds = seconds;
    out.run.games = games;
    out.run.replay = ReplayOf(a, s, s.tested_paths[0], most_games);
    out.run.partial = !complete;
    out.run.resume = absl::StrCat("strata ablate --resume ", a.out);
    out.deck = deck;
    out.path = s.tested_paths[0];
    out.with = db[*with].name;
    out.rate = OverallRate(r.score[0]);
    out.games = Games(r.score[0]);
    for (size_t i = 0; i < ablated.size(); ++i) {
      const PairedDiff d = DiffOf(r.paired[i + 1]);
      // As it is minus without: the diff's negation.
      out.rows.push_back(
          {db[ablated[i]].name,
           static_cast<int>(std::count(deck.main.begin(), deck.main.end(), ablated[i])),
           PairedDiff{-d.diff, -d.high, -d.low, d.games}, OverallRate(r.score[i + 1])});
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const AblateRow& x, const AblateRow& y) {
      return x.worth.diff > y.worth.diff;
    });
    return out;
  };
  auto write = [&](const PairedResult& r, double seconds, bool complete) {
    return WriteAblateOut(a.out, db, figures(r, seconds, complete), a.report);
  };
  const KeptRun kept = RunKept(db, po, {}, a, s, "ablate", resumed ? &saved : nullptr, write);
  if (!kept.error.empty())
    return RunFailed(
        absl::StrCat(kept.error, "; the run stopped",
                     a.out.empty() ? ""
                                   : absl::StrCat(": its last checkpoint in ", a.out,
                                                  " is intact: strata ablate --resume ", a.out)));
  const PairedResult& r = kept.result;
  const AblateOutput out = figures(r, kept.seconds, r.complete);
  const double seconds = out.run.seconds;

  const int matchups = static_cast<int>(r.score[0].size());
  const int color = MainColor(db, deck);
  std::printf(
      "ablate: %s against the same %d opponent%s on the same games: %s; each distinct card in "
      "turn replaced, every copy, by %s (%s)\n",
      deck.name.c_str(), matchups, matchups == 1 ? "" : "s", GamesLine(s.base, s.rules).c_str(),
      db[*with].name.c_str(),
      a.with.empty()
          ? absl::StrCat("a basic land of the deck's main colour, ", S(ColorName(color))).c_str()
          : "--with");
  std::printf("%s as it is: %.1f%% over %lld games\n", deck.name.c_str(), 100 * out.rate,
              static_cast<long long>(out.games));
  std::printf("\n%4s  %-26s %6s %7s  %-19s %8s\n", "rank", "card", "copies", "worth",
              "95% paired interval", "without");
  for (size_t k = 0; k < out.rows.size(); ++k) {
    const AblateRow& row = out.rows[k];
    const bool shown = std::isfinite(row.worth.low) && (row.worth.low > 0 || row.worth.high < 0);
    std::printf("%4zu  %-26.26s %6d %7s  %-19s %7.1f%%%s\n", k + 1, row.card.c_str(), row.copies,
                Points(row.worth.diff).c_str(), IntervalText(row.worth).c_str(), 100 * row.without,
                shown ? (row.worth.diff > 0 ? "  earns its slots" : "  costs games") : "");
  }
  std::printf(
      "worth: the deck's win %% as it is minus with every copy of the card replaced by %s, in "
      "points (a win counts 1, a draw 1/2), over every opponent's games, each played by both on "
      "the same seed and seat; its interval from the game-by-game differences (each opponent a "
      "stratum). \"earns its slots\": the interval is above 0; \"costs games\": below 0\n",
      db[*with].name.c_str());
  const int threads =
      a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
  const int64_t games = out.run.games;
  std::printf("\n%lld games in %.1f s (%.0f games/s), %d thread%s\n", static_cast<long long>(games),
              seconds, seconds > 0 ? games / seconds : 0.0, threads, threads == 1 ? "" : "s");
  std::printf(
      "next: try an edit against the same games: strata%s compare %s EDITED --against %s; the "
      "deck's full study: strata%s sim --decks %s,%s --gauntlet %s --out DIR\n",
      PoolFlags(a).c_str(), s.tested_paths[0].c_str(), absl::StrJoin(s.opponent_paths, ",").c_str(),
      PoolFlags(a).c_str(), s.tested_paths[0].c_str(), absl::StrJoin(s.opponent_paths, ",").c_str(),
      s.tested_paths[0].c_str());
  if (!a.out.empty())
    std::printf("wrote %s/summary.json, cards.csv%s and study.toml%s\n", a.out.c_str(),
                a.report ? ", report.html" : "", r.complete ? "" : " (partial)");
  if (!r.complete) return Interrupted("ablate", a, r);
  return StdoutStatus();
}

std::string PairedReplayCommand(const CompareArgs& a, const PairedSetupResult& s, int64_t games) {
  return ReplayCommand(a, s.base, s.opponent_paths, s.rules, s.tested_path, games);
}

absl::Status PairedSetup(const CompareArgs& args, const CardDb& db, PairedSetupResult& out) {
  Setup s;
  if (auto st = MakeSetup(args, db, s); !st.ok()) return st;
  out.format_exit = CheckSetupDecks(args, db, s);
  out.base = s.base;
  out.tested = s.tested;
  out.tested_path = s.tested_paths.empty() ? "" : s.tested_paths[0];
  out.opponent_paths = s.opponent_paths;
  out.rules = s.rules;
  return absl::OkStatus();
}

}  // namespace strata
