// libFuzzer target: the input bytes choose a game's decks and then every
// decision, so coverage guidance steers towards timing windows and card
// interactions random play rarely reaches. Every rules invariant of
// engine/invariants.h is checked after every action (the layer cache against
// a fresh computation among them); a violation aborts, which libFuzzer
// reports as a crash and saves the input.
//
// Input layout (tests/fuzz/README.md):
//   byte 0      edition (% 3), who starts (bit 2), deck kind (bit 3:
//               bundled decks, else decks built from the bytes that follow),
//               fully checked layers (bit 4: GameOptions::checked_layers,
//               every query compared with a fresh computation; without it
//               the comparison runs once after each action)
//   decks       bundled: one byte per deck (index into data/decks, sorted);
//               built: per deck a colour pair byte, kSpellPicks card bytes
//               (two copies each), a non-basic land byte and a land-count byte
//   seed        4 bytes: the game's shuffle seed
//   decisions   one byte per decision with more than one legal action (two
//               bytes, little-endian, when there are more than 256), taken
//               modulo the number of actions; the game stops when they run out.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/card_loader.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "engine/words.h"

namespace strata {
namespace {

// Each input runs in milliseconds: libFuzzer wants many short runs. In the
// fully checked mode every query of the layers recomputes them, hundreds of
// times per action, so those games are shorter.
constexpr int kMaxActions = 3000;
constexpr int kMaxCheckedActions = 300;
constexpr int kTurnCap = 40;
constexpr int kSpellPicks = 11;

struct Pool {
  CardDb db;
  std::vector<Deck> bundled;
  std::vector<CardId> spells, nonbasic_lands;
  std::array<CardId, kColorCount> basics{};
};

std::string DataDir() {
  if (const char* d = std::getenv("STRATA_DATA_DIR")) return d;
  return STRATA_SOURCE_DIR "/data";
}

// The game being played, for Die's log (STRATA_FUZZ_LOG=1).
const strata::Game* current_game = nullptr;

bool WantLog() {
  static const bool want = std::getenv("STRATA_FUZZ_LOG") != nullptr;
  return want;
}

[[noreturn]] void Die(const std::string& what) {
  // With STRATA_FUZZ_LOG=1 (to replay one input), the game's log first.
  if (current_game && WantLog())
    for (const std::string& line : current_game->log())
      std::fprintf(stderr, "  | %s\n", line.c_str());
  std::fprintf(stderr, "fuzz_game: %s\n", what.c_str());
  std::abort();
}

const Pool& GetPool() {
  static const Pool* pool = [] {
    auto* p = new Pool;
    const std::string data = DataDir();
    if (auto st = LoadCards({data + "/cards"}, p->db); !st.ok()) Die(std::string(st.message()));
    std::vector<std::string> files;
    for (auto& e : std::filesystem::directory_iterator(data + "/decks"))
      if (e.path().extension() == ".txt") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());  // the byte -> deck mapping must not vary
    for (const auto& f : files) {
      auto d = LoadDeckFile(f, p->db);
      if (!d.ok()) Die(std::string(d.status().message()));
      p->bundled.push_back(*std::move(d));
    }
    for (CardId c = 0; c < p->db.cards.size(); ++c) {
      const CardDef& card = p->db[c];
      if (card.token) continue;  // a token's definition is no card (G-12)
      if (!Has(card.types, kLand))
        p->spells.push_back(c);
      else if (!Has(card.supertypes, kBasic))
        p->nonbasic_lands.push_back(c);
    }
    for (int color = 0; color < kColorCount; ++color) {
      p->basics[color] = p->db.Find(std::string(SubtypeName(BasicLandSubtype(color))));
      if (p->basics[color] == kNoCard) Die("no basic land for a colour in the pool");
    }
    if (p->bundled.empty() || p->spells.empty()) Die("empty pool or no bundled decks");
    return p;
  }();
  return *pool;
}

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ == end_; }
  uint8_t Byte() { return p_ == end_ ? 0 : *p_++; }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(Byte()) << (8 * i);
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// A 40-card two-colour deck as sim/cover.cc builds them: spells of those
// colours (or colourless), two copies each, then lands of the two colours.
Deck BuildDeck(const Pool& pool, Bytes& in) {
  // The ten colour pairs, in a fixed order.
  const uint8_t pair = in.Byte() % 10;
  int c1 = 0, c2 = 1;
  for (int i = 0, n = 0; i < kColorCount; ++i)
    for (int j = i + 1; j < kColorCount; ++j, ++n)
      if (n == pair) c1 = i, c2 = j;
  const ColorMask colors = static_cast<ColorMask>((1u << c1) | (1u << c2));
  std::vector<CardId> fitting;
  for (CardId c : pool.spells)
    if ((pool.db[c].colors & ~colors) == 0) fitting.push_back(c);
  Deck d;
  d.name = "fuzz";
  for (int i = 0; i < kSpellPicks && !fitting.empty(); ++i) {
    const CardId c = fitting[in.Byte() % fitting.size()];
    d.main.insert(d.main.end(), {c, c});
  }
  const uint8_t nonbasic = in.Byte();
  if (!pool.nonbasic_lands.empty() && nonbasic % 2)
    for (int i = 0; i < 2; ++i)
      d.main.push_back(pool.nonbasic_lands[(nonbasic / 2) % pool.nonbasic_lands.size()]);
  // 15 to 18 lands in a 40-card deck; spells fill the rest.
  const int lands = 15 + in.Byte() % 4;
  while (static_cast<int>(d.main.size()) < 40 - lands && !fitting.empty())
    d.main.push_back(fitting[d.main.size() % fitting.size()]);
  for (int i = 0; d.main.size() < 40; ++i) d.main.push_back(pool.basics[i % 2 ? c2 : c1]);
  return d;
}

}  // namespace

// A broken invariant is a crash to libFuzzer: the input is saved.
void Check(const InvariantChecker& check) {
  if (!check.ok()) Die("invariant " + check.failure());
}

}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  const Pool& pool = GetPool();
  Bytes in(data, size);
  const uint8_t head = in.Byte();
  GameOptions go;
  go.edition = static_cast<Edition>(head % 3);
  go.checked_layers = head & 16;
  const int max_actions = go.checked_layers ? kMaxCheckedActions : kMaxActions;
  go.turn_cap = kTurnCap;
  go.action_cap = max_actions;
  const Player first = (head >> 2) & 1;
  Deck a, b;
  if (head & 8) {
    a = pool.bundled[in.Byte() % pool.bundled.size()];
    b = pool.bundled[in.Byte() % pool.bundled.size()];
  } else {
    a = BuildDeck(pool, in);
    b = BuildDeck(pool, in);
  }
  go.seed = in.U32();
  go.check_invariants = true;
  go.log = WantLog();
  Game g(pool.db, go);
  current_game = &g;
  g.Deal(a, b, first);
  InvariantChecker check;
  check.Begin(g);
  Check(check);
  bool capped = true;
  for (int actions = 0; actions < max_actions; ++actions) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) {
      capped = false;
      break;
    }
    check.OnDecision(g, d);
    Check(check);
    const size_t n = d.actions.size();
    if (n == 0) Die("a decision with no legal action");
    size_t pick = 0;
    if (n > 1) {
      if (in.empty()) break;
      pick = in.Byte();
      if (n > 256) pick |= static_cast<size_t>(in.Byte()) << 8;
      pick %= n;
    }
    // apply: an index past the offered actions is refused.
    check.Record(Invariant::kApply, !g.Apply(static_cast<int>(n)),
                 "an index past the offered actions was applied");
    const bool applied = g.Apply(static_cast<int>(pick));
    check.AfterApply(g, d, static_cast<int>(pick), applied);
    Check(check);
  }
  // The game stops when the input runs out, so the caps are no loop here; the
  // progress invariant is strata fuzz's.
  if (!capped) {
    check.End(g, /*loops_allowed=*/true);
    Check(check);
  }
  current_game = nullptr;
  return 0;
}
