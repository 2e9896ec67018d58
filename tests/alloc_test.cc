// No allocation per game once warm: a reused Game is reset and dealt with
// no heap allocation. Counts every operator new of this test binary.
#include <atomic>
#include <cstdlib>
#include <new>

#include "engine/deck.h"
#include "engine/game.h"
#include "gtest/gtest.h"
#include "sim/runner.h"
#include "tests/bundled.h"

namespace {
std::atomic<int64_t> g_allocations{0};

void* Allocate(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void* AllocateAligned(std::size_t n, std::align_val_t al) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(al);
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(a, n ? (n + a - 1) / a * a : a);
}
}  // namespace

// Every form of operator new and delete is replaced, not only the plain one:
// a form left to the C++ runtime (or to AddressSanitizer, which defines them
// all) would allocate with its own allocator and free with ours, or the
// reverse; ASan reports that mismatch, e.g. for std::stable_sort's nothrow
// temporary buffer. All forms allocate with malloc/aligned_alloc and free
// with free, and all count.
void* operator new(std::size_t n) {
  if (void* p = Allocate(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return operator new(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return Allocate(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return Allocate(n);
}
void* operator new(std::size_t n, std::align_val_t al) {
  if (void* p = AllocateAligned(n, al)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) {
  return operator new(n, al);
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return AllocateAligned(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return AllocateAligned(n, al);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace strata {
namespace {

TEST(GameReset, ResetAndDealAllocateNothingOnceWarm) {
  const CardDb& db = BundledPool();
  const std::vector<Deck> decks = BundledDecks(db, {"red_burn", "wu_control"});
  Game g(db, GameOptions{});
  auto play = [&](uint64_t seed) {
    GameOptions go;
    go.seed = seed;
    g.Reset(go);
    g.Deal(decks[seed % 2], decks[1 - seed % 2], 0);
  };
  for (uint64_t seed = 1; seed <= 4; ++seed) play(seed);  // warm
  int64_t before = g_allocations.load();
  for (uint64_t seed = 5; seed <= 50; ++seed) play(seed);
  EXPECT_EQ(g_allocations.load() - before, 0);
  // A fresh Game and Deal allocate (the counter works).
  before = g_allocations.load();
  {
    Game fresh(db, GameOptions{});
    fresh.Deal(decks[0], decks[1], 0);
  }
  EXPECT_GT(g_allocations.load() - before, 0);
}

// A study worker (a Game and two policies, reused for every game) plays
// games without allocating once warm: every buffer keeps its capacity, so
// replaying games it has played allocates nothing at all, and new games only
// rarely grow a buffer. Memory and speed do not depend on the number of games.
TEST(GameReset, StudyGamesAllocateNothingOnceWarm) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy"});
  for (const char* policy : {"heuristic", "random", "mc:rollouts=1,depth=4"}) {
    opt.policies = {policy, policy};
    StudyWorker w(db, opt);
    const int64_t games = policy[0] == 'm' ? 4 : 100;
    for (int64_t i = 0; i < games; ++i) PlayStudyGame(opt, 0, i, w);  // warm
    int64_t before = g_allocations.load(), decisions = 0;
    for (int64_t i = 0; i < games; ++i) decisions += PlayStudyGame(opt, 0, i, w).decisions;
    EXPECT_GT(decisions, 40 * games) << policy;
    EXPECT_EQ(g_allocations.load() - before, 0) << policy;
    // New games: at most the odd buffer growing for a situation not seen
    // yet. (mc's scratch copies grow with the longest game it has seen, so
    // it warms up over more games than this test plays.)
    if (policy[0] == 'm') continue;
    before = g_allocations.load();
    for (int64_t i = games; i < 2 * games; ++i) PlayStudyGame(opt, 0, i, w);
    EXPECT_LE(g_allocations.load() - before, games / 4) << policy;
  }
}

}  // namespace
}  // namespace strata
