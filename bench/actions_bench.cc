// One step of the rules at a time, on states recorded from real games
// (bench/recorded_games.h): the legal actions of a decision, the way from one
// action to the next decision, and a whole batch from the cast that starts
// it to the neutral state after it resolved.
//
// Each benchmark keeps copies of up to kStatesPerBoard states per board size
// (permanents on the battlefield: 0-7, 8-15, 16 and more), spread evenly
// over the recorded games. One iteration runs every state of its board size
// once, each on a fresh copy; only the engine's work is timed (manual
// time), never the copies, which are made kChunk at a time off the clock.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/recorded_games.h"
#include "benchmark/benchmark.h"
#include "engine/game.h"

namespace strata {
namespace {

constexpr int kStatesPerBoard = 96;
// Copies made off the clock before each timed run: few enough to stay in
// the cache (a Game is about 90 KiB), enough that reading the clock costs
// nothing measurable.
constexpr int kChunk = 8;

const char* const kBoardLabels[kBoardSizes] = {"0-7 permanents", "8-15 permanents",
                                               "16+ permanents"};

// Calls `run` on a fresh copy of every state, timing only the calls, and
// reports the time to `state` as this iteration's (UseManualTime).
template <typename Item, typename Run>
void TimeOnCopies(benchmark::State& state, const std::vector<Item>& items,
                  const Game& (*game_of)(const Item&), Run run) {
  std::vector<Game> copies(kChunk, game_of(items.front()));
  for (auto _ : state) {
    double seconds = 0;
    for (size_t begin = 0; begin < items.size(); begin += kChunk) {
      const size_t n = std::min<size_t>(kChunk, items.size() - begin);
      for (size_t i = 0; i < n; ++i) copies[i] = game_of(items[begin + i]);
      const auto start = std::chrono::steady_clock::now();
      for (size_t i = 0; i < n; ++i) run(items[begin + i], copies[i]);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    state.SetIterationTime(seconds);
  }
}

// Rates per state over the whole run, and the time per state (one iteration
// runs every state once).
void SetStateCounters(benchmark::State& state, size_t states, const char* per_second,
                      const char* per_state) {
  const double n = static_cast<double>(states);
  const double runs = n * static_cast<double>(state.iterations());
  state.counters["states"] = n;
  state.counters[per_second] = benchmark::Counter(runs, benchmark::Counter::kIsRate);
  state.counters[per_state] =
      benchmark::Counter(runs, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ------------------------------------------------ from an action to the next decision

// A recorded game right after a player's action, before the rules run on to
// the next decision; and what that decision offered in the recorded game.
struct AfterAction {
  Game game;
  int actions_offered = 0;
};
const Game& GameOf(const AfterAction& a) {
  return a.game;
}

// Which states the two decision benchmarks keep.
enum class DecisionStates {
  // Every decision: Advance() does whatever the rules do in between
  // (resolution, state checks, triggers, phases and turns, combat), then
  // builds the legal actions of the next decision.
  kEvery,
  // Only decisions reached without any change to the state: the same turn,
  // phase and state version, so Advance() does a window's bookkeeping and
  // builds the legal actions (the next player's offer after a pass, the
  // next target or blocker to choose), and nothing else.
  kOfferOnly,
};

// Where the action leaves the state that decides, before and after the
// rules run to the next decision.
struct StateStamp {
  int turn;
  Phase phase;
  uint64_t version;
  bool operator==(const StateStamp&) const = default;
};
StateStamp StampOf(const Game& g) {
  return {g.state().turn, g.state().phase, g.state().version};
}

// -1 if the state after `p`'s action is not one `which` keeps, else its
// board size; `offered` gets the number of actions of the next decision.
int Classify(const DecisionPoint& p, DecisionStates which, Game& after, int& offered) {
  after = p.game;
  after.Apply(p.chosen);
  Game next = after;
  const StateStamp before = StampOf(next);
  const Decision& d = next.Advance();
  if (d.kind == DecisionKind::kNone) return -1;
  if (which == DecisionStates::kOfferOnly && !(StampOf(next) == before)) return -1;
  offered = static_cast<int>(d.actions.size());
  return BoardSize(after);
}

// The kept states of one board size, recorded once per process.
const std::vector<AfterAction>& AfterActionStates(DecisionStates which, int board) {
  static std::map<std::pair<DecisionStates, int>, std::vector<AfterAction>> recorded;
  auto& slot = recorded[{which, board}];
  if (!slot.empty()) return slot;
  // First the candidates of this board size, then every kStatesPerBoard-th.
  std::optional<Game> scratch;
  int64_t total = 0;
  PlayRecordedGames([&](const DecisionPoint& p) {
    if (!scratch) scratch.emplace(p.game);
    int offered = 0;
    total += Classify(p, which, *scratch, offered) == board;
  });
  int64_t seen = 0;
  PlayRecordedGames([&](const DecisionPoint& p) {
    int offered = 0;
    if (Classify(p, which, *scratch, offered) != board) return;
    if (KeepEvenly(seen++, total, kStatesPerBoard)) slot.push_back({*scratch, offered});
  });
  return slot;
}

void RunNextDecision(benchmark::State& state, DecisionStates which) {
  const int board = static_cast<int>(state.range(0));
  const auto& states = AfterActionStates(which, board);
  if (states.empty()) return state.SkipWithError("no recorded state of this board size");
  state.SetLabel(kBoardLabels[board]);
  int64_t actions = 0;
  TimeOnCopies(state, states, &GameOf, [&](const AfterAction&, Game& g) {
    actions += static_cast<int64_t>(g.Advance().actions.size());
  });
  SetStateCounters(state, states.size(), "decisions/s", "s/decision");
  int64_t offered = 0;
  for (const AfterAction& a : states) offered += a.actions_offered;
  state.counters["actions"] = static_cast<double>(offered) / static_cast<double>(states.size());
  benchmark::DoNotOptimize(actions);
}

// The legal actions of decisions reached with no change to the state.
void BM_LegalActions(benchmark::State& state) {
  RunNextDecision(state, DecisionStates::kOfferOnly);
}
// Everything from an action to the next decision.
void BM_NextDecision(benchmark::State& state) {
  RunNextDecision(state, DecisionStates::kEvery);
}

void BoardSizes(benchmark::internal::Benchmark* b) {
  b->ArgName("board")->DenseRange(0, kBoardSizes - 1);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_LegalActions)->Apply(BoardSizes);
BENCHMARK(BM_NextDecision)->Apply(BoardSizes);

// ------------------------------------------------ a whole batch

// A batch as a recorded game played it: the game at the neutral-state
// decision where a player cast a spell or activated an ability (starting a
// batch, RULES.md T-2, T-3), and the game's own choices from there (the
// cast, its targets and costs, additions and passes, choices while it
// resolves) until the game next stood in the neutral state.
struct RecordedBatch {
  Game start;
  std::vector<int> choices;
  int decisions = 0;  // choices taken before the batch was done
  int board = 0;
};
const Game& GameOf(const RecordedBatch& b) {
  return b.start;
}

// Plays a recorded batch on a copy of its start: its choices, until the
// rules stop at the neutral state with the batch empty (StopAt::kNeutral)
// or the game ends. Returns the decisions taken.
int PlayBatch(Game& g, const std::vector<int>& choices) {
  g.SetStop(StopAt::kNeutral);
  int taken = 0;
  for (int chosen : choices) {
    if (g.Advance().kind == DecisionKind::kNone) return taken;
    g.Apply(chosen);
    ++taken;
  }
  g.Advance();
  return taken;
}

// Every batch started from the neutral state in the recorded games. Batches
// within an attack (where StopAt::kNeutral does not stop) are left out: the
// copy would run on past the batch.
std::vector<RecordedBatch> RecordBatches() {
  std::vector<RecordedBatch> batches;
  std::optional<RecordedBatch> open;
  auto close = [&] {
    if (!open) return;
    Game probe = open->start;
    open->decisions = PlayBatch(probe, open->choices);
    if (probe.Advance().kind == DecisionKind::kNone) batches.push_back(std::move(*open));
    open.reset();
  };
  int game = -1;
  PlayRecordedGames([&](const DecisionPoint& p) {
    if (p.game_index != game || p.decision.kind == DecisionKind::kNeutral) close();
    game = p.game_index;
    if (open) open->choices.push_back(p.chosen);
    const ActionKind kind = p.decision.actions[p.chosen].kind;
    if (p.decision.kind == DecisionKind::kNeutral &&
        (kind == ActionKind::kCast || kind == ActionKind::kActivate))
      open = RecordedBatch{p.game, {p.chosen}, 0, BoardSize(p.game)};
  });
  close();
  return batches;
}

const std::vector<RecordedBatch>& BatchStates(int board) {
  static const std::vector<RecordedBatch> all = RecordBatches();
  static std::map<int, std::vector<RecordedBatch>> kept;
  auto& slot = kept[board];
  if (!slot.empty()) return slot;
  const int64_t total = std::count_if(all.begin(), all.end(),
                                      [&](const RecordedBatch& b) { return b.board == board; });
  int64_t seen = 0;
  for (const RecordedBatch& b : all)
    if (b.board == board && KeepEvenly(seen++, total, kStatesPerBoard)) slot.push_back(b);
  return slot;
}

// A batch from the decision that starts it to the neutral state after it
// resolved, the game's own choices in between.
void BM_BatchResolution(benchmark::State& state) {
  const int board = static_cast<int>(state.range(0));
  const auto& batches = BatchStates(board);
  if (batches.empty()) return state.SkipWithError("no recorded batch of this board size");
  state.SetLabel(kBoardLabels[board]);
  TimeOnCopies(state, batches, &GameOf,
               [](const RecordedBatch& b, Game& g) { PlayBatch(g, b.choices); });
  SetStateCounters(state, batches.size(), "batches/s", "s/batch");
  int64_t decisions = 0;
  for (const RecordedBatch& b : batches) decisions += b.decisions;
  state.counters["decisions"] =
      static_cast<double>(decisions) / static_cast<double>(batches.size());
}
BENCHMARK(BM_BatchResolution)->Apply(BoardSizes);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
