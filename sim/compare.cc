#include "sim/compare.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "oneapi/tbb/blocked_range.h"
#include "oneapi/tbb/enumerable_thread_specific.h"
#include "oneapi/tbb/global_control.h"
#include "oneapi/tbb/parallel_for.h"
#include "oneapi/tbb/task_arena.h"
#include "sim/card_stats.h"

namespace strata {

namespace {

constexpr double kZ95 = 1.959963984540054;

// Deck A's score of a game in half points: a win 2, a draw 1, a loss 0.
int HalfPoints(const GameRecord& r) {
  if (r.winner < 0) return 1;
  return (r.winner == 0) != r.swapped ? 2 : 0;
}

}  // namespace

void VersionScore::Add(const GameRecord& r) {
  ++games;
  turns += r.turns;
  if (r.winner < 0)
    ++draws;
  else
    ++((r.winner == 0) != r.swapped ? wins : losses);
  if (r.winner == 0) ++first_player_wins;
}

void VersionScore::Merge(const VersionScore& o) {
  games += o.games, wins += o.wins, losses += o.losses, draws += o.draws, turns += o.turns;
  first_player_wins += o.first_player_wins;
}

double VersionScore::WinRate() const {
  return games > 0 ? (wins + 0.5 * draws) / static_cast<double>(games) : std::nan("");
}

double PairedStats::Variance() const {
  if (units < 2) return std::nan("");
  const double n = static_cast<double>(units);
  return std::max(0.0, (sum2 - sum * sum / n) / (n - 1));
}

PairedDiff DiffOf(const PairedStats& p) {
  return DiffOf(std::vector<PairedStats>{p});
}

PairedDiff DiffOf(const std::vector<PairedStats>& strata) {
  PairedDiff d;
  double sum = 0, var = 0;
  bool known = true;
  for (const PairedStats& p : strata) {
    if (p.units == 0) continue;
    d.games += p.games;
    sum += p.sum;
    const double v = p.Variance();
    if (std::isnan(v))
      known = false;
    else
      var += static_cast<double>(p.units) * v;  // the variance of the stratum's sum
  }
  if (d.games == 0) {
    d.diff = d.low = d.high = std::nan("");
    return d;
  }
  const double g = static_cast<double>(d.games);
  d.diff = sum / g;
  const double half = kZ95 * std::sqrt(var) / g;
  d.low = known ? d.diff - half : std::nan("");
  d.high = known ? d.diff + half : std::nan("");
  return d;
}

bool PairedDone(const PairedOptions& po, const PairedResult& r, int m) {
  const VersionScore& base = r.score[0][m];
  if (base.games >= po.versions[0].games) return true;
  if (po.ci_half_width <= 0 || base.games == 0 || po.versions.size() < 2) return false;
  for (size_t v = 1; v < po.versions.size(); ++v) {
    PairedDiff d = DiffOf(r.paired[v][m]);
    if (!std::isfinite(d.low) || (d.high - d.low) / 2 >= po.ci_half_width) return false;
  }
  return true;
}

PairedResult RunPaired(const CardDb& db, const PairedOptions& po,
                       const std::vector<int>& card_versions, const PairedResult* resume) {
  std::unique_ptr<tbb::global_control> limit;
  if (po.threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  po.threads);
  const SimOptions& base = po.versions[0];
  const int versions = static_cast<int>(po.versions.size());
  const int matchups = static_cast<int>(Matchups(base).size());
  std::vector<bool> keep_cards(versions, false);
  for (int v : card_versions)
    if (v >= 0 && v < versions) keep_cards[v] = true;
  PairedResult result;
  result.score.assign(versions, std::vector<VersionScore>(matchups));
  result.paired.assign(versions, std::vector<PairedStats>(matchups));
  result.stats.assign(versions, {});
  for (int v = 0; v < versions; ++v)
    if (keep_cards[v]) {
      result.stats[v].resize(matchups);
      for (int m = 0; m < matchups; ++m)
        result.stats[v][m].deck_a = 0, result.stats[v][m].deck_b = m + 1;
    }
  // Where an earlier run of the same versions and opponents stopped: every
  // count goes on from there (the caller checked that it is this run's).
  if (resume && static_cast<int>(resume->score.size()) == versions) {
    for (int v = 0; v < versions; ++v) {
      if (static_cast<int>(resume->score[v].size()) != matchups) continue;
      result.score[v] = resume->score[v];
      result.paired[v] = resume->paired[v];
      if (keep_cards[v] && static_cast<int>(resume->stats[v].size()) == matchups)
        result.stats[v] = resume->stats[v];
    }
  }

  // What each thread adds up in a wave. Every field is an integer count or
  // a sum of multiples of 1/4, exact, so the merge order changes nothing.
  struct Local {
    std::vector<std::vector<VersionScore>> score;
    std::vector<std::vector<PairedStats>> paired;
    std::vector<std::vector<MatchupStats>> stats;  // card versions only
    bool used = false;
  };
  auto fresh = [&] {
    Local l;
    l.score.assign(versions, std::vector<VersionScore>(matchups));
    l.paired.assign(versions, std::vector<PairedStats>(matchups));
    l.stats.assign(versions, {});
    for (int v = 0; v < versions; ++v)
      if (keep_cards[v]) l.stats[v].resize(matchups);
    return l;
  };
  tbb::enumerable_thread_specific<Local> locals(fresh);
  tbb::enumerable_thread_specific<StudyWorker> workers([&] { return StudyWorker(db, base); });

  constexpr int kChunkGames = 16;  // even: a chunk holds whole seeds when paired
  const int unit = base.pair ? 2 : 1;
  int64_t planned = int64_t{matchups} * base.games * versions;
  for (int v = 0; v < versions; ++v)
    for (int m = 0; m < matchups; ++m) planned -= result.score[v][m].games;
  int64_t done = 0, waves = 0;
  const auto start = std::chrono::steady_clock::now();
  std::atomic<bool> dropped{false};  // a task skipped for a stop: the wave is dropped
  auto stopping = [&] { return po.stop && po.stop->load(std::memory_order_relaxed); };
  for (;;) {
    // A wave: the next block of every matchup not yet done.
    struct Task {
      int matchup;
      int64_t first, last;
    };
    std::vector<Task> tasks;
    for (int m = 0; m < matchups; ++m) {
      if (PairedDone(po, result, m)) continue;
      const int64_t begin = result.score[0][m].games;
      const int64_t end = std::min<int64_t>(base.games, begin + kBlockGames);
      for (int64_t first = begin; first < end; first += kChunkGames)
        tasks.push_back({m, first, std::min<int64_t>(end, first + kChunkGames)});
    }
    if (tasks.empty()) break;
    if (stopping() || (po.stop_after_waves >= 0 && waves >= po.stop_after_waves)) break;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, tasks.size(), 1),
                      [&](const tbb::blocked_range<size_t>& r) {
                        Local& l = locals.local();
                        StudyWorker& w = workers.local();
                        l.used = true;
                        for (size_t t = r.begin(); t != r.end(); ++t) {
                          if (stopping()) {
                            dropped.store(true);
                            return;
                          }
                          const Task& task = tasks[t];
                          for (int64_t u = task.first; u < task.last; u += unit) {
                            const int64_t u_end = std::min<int64_t>(task.last, u + unit);
                            int base_points = 0;
                            for (int v = 0; v < versions; ++v) {
                              const SimOptions& opt = po.versions[v];
                              int points = 0;
                              for (int64_t i = u; i < u_end; ++i) {
                                GameRecord rec = PlayStudyGame(opt, task.matchup, i, w);
                                l.score[v][task.matchup].Add(rec);
                                if (keep_cards[v]) {
                                  MatchupStats& s = l.stats[v][task.matchup];
                                  AddGame(rec, s);
                                  RecordCards(w.game, opt.decks[0], opt.decks[task.matchup + 1],
                                              rec.swapped, s.cards, &w.trace);
                                }
                                points += HalfPoints(rec);
                              }
                              if (v == 0) {
                                base_points = points;
                              } else {
                                const double d = (points - base_points) / 2.0;
                                PairedStats& p = l.paired[v][task.matchup];
                                p.units += 1;
                                p.games += u_end - u;
                                p.sum += d;
                                p.sum2 += d * d;
                              }
                            }
                          }
                        }
                      });
    // A wave cut short by a stop is dropped whole: the result stays at the
    // last wave's end, where a resume goes on from, for any thread count.
    const bool drop = dropped.load();
    for (Local& l : locals) {
      if (!l.used) continue;
      for (int v = 0; v < versions; ++v)
        for (int m = 0; m < matchups; ++m) {
          if (!drop) {
            result.score[v][m].Merge(l.score[v][m]);
            result.paired[v][m].Merge(l.paired[v][m]);
          }
          l.score[v][m] = VersionScore{};
          l.paired[v][m] = PairedStats{};
          if (keep_cards[v]) {
            if (!drop) result.stats[v][m].Merge(l.stats[v][m]);
            l.stats[v][m] = MatchupStats{};
          }
        }
      l.used = false;
    }
    if (drop) break;
    ++waves;
    for (const Task& t : tasks) done += (t.last - t.first) * versions;
    if (po.progress) {
      int finished = 0;
      for (int m = 0; m < matchups; ++m) finished += PairedDone(po, result, m);
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double rate = secs > 0 ? done / secs : 0;
      // With --ci the number of games is not known in advance: no ETA.
      if (po.ci_half_width > 0)
        std::fprintf(stderr, "\r%s: %lld games, %.0f games/s, %d of %d matchups done   ", po.what,
                     static_cast<long long>(done), rate, finished, matchups);
      else
        std::fprintf(stderr, "\r%s: %lld of %lld games, %.0f games/s, ETA %.0f s   ", po.what,
                     static_cast<long long>(done), static_cast<long long>(planned), rate,
                     rate > 0 ? (planned - done) / rate : 0.0);
    }
    if (po.after_wave && !po.after_wave(result)) break;
  }
  if (po.progress) std::fprintf(stderr, "\n");
  for (int m = 0; m < matchups; ++m)
    if (!PairedDone(po, result, m)) result.complete = false;
  return result;
}

}  // namespace strata
