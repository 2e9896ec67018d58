#include "sim/cover.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <random>

#include "absl/strings/str_cat.h"
#include "engine/rng.h"
#include "policies/view.h"

namespace strata {
namespace {

// The abilities a coverage run must see used: activated, triggered, phase.
std::vector<int> CountedBits(const CardDef& c) {
  std::vector<int> bits;
  for (int i = 0; i < static_cast<int>(c.activated.size()); ++i) bits.push_back(c.ActivatedBit(i));
  for (int i = 0; i < static_cast<int>(c.triggers.size()); ++i) bits.push_back(c.TriggerBit(i));
  for (int i = 0; i < static_cast<int>(c.phase.size()); ++i) bits.push_back(c.PhaseBit(i));
  return bits;
}

class Coverage {
 public:
  Coverage(const CardDb& db, const CoverOptions& opt) : db_(db), opt_(opt), rng_(opt.seed) {
    usage_ = UsageStats(db.cards.size());
  }

  bool CardNeeds(CardId c) const {
    if (!db_.InPool(c)) return false;  // a token's definition (G-12): no card to cast
    if (usage_.played[c] < static_cast<uint32_t>(opt_.k)) return true;
    for (int b : CountedBits(db_[c]))
      if (usage_.abilities[c][b] < static_cast<uint32_t>(opt_.k)) return true;
    return false;
  }
  bool Done() const {
    for (CardId c = 0; c < db_.cards.size(); ++c)
      if (CardNeeds(c)) return false;
    return true;
  }

  // A 40-card deck around cards that still need use: two colors, 23 spells
  // (two copies of each needed card), lands of those colors.
  Deck BuildDeck() {
    std::vector<CardId> needy, lands_needy;
    for (CardId c = 0; c < db_.cards.size(); ++c) {
      if (!CardNeeds(c)) continue;
      (Has(db_[c].types, kLand) ? lands_needy : needy).push_back(c);
    }
    ColorMask colors = 0;
    std::vector<CardId> spells;
    if (!needy.empty()) {
      CardId first = needy[rng_.Below(static_cast<uint32_t>(needy.size()))];
      colors = db_[first].colors;
    }
    while (std::popcount(static_cast<unsigned>(colors)) < 2)
      colors |= 1u << rng_.Below(kColorCount);
    auto fits = [&](CardId c) { return (db_[c].colors & ~colors) == 0; };
    std::shuffle(needy.begin(), needy.end(), std::mt19937(static_cast<uint32_t>(rng_.Next())));
    for (CardId c : needy)
      if (fits(c) && spells.size() < 22) spells.insert(spells.end(), {c, c});
    for (int guard = 0; spells.size() < 23 && guard < 10000; ++guard) {
      CardId c = static_cast<CardId>(rng_.Below(static_cast<uint32_t>(db_.cards.size())));
      if (db_.InPool(c) && !Has(db_[c].types, kLand) && fits(c)) spells.push_back(c);
    }
    Deck d;
    d.main = spells;
    for (CardId c : lands_needy)
      if (d.main.size() < 27) d.main.push_back(c);
    std::vector<int> cs;
    for (int c = 0; c < kColorCount; ++c)
      if (Has(colors, c)) cs.push_back(c);
    for (int i = 0; d.main.size() < 40; ++i) {
      int color = cs[i % cs.size()];
      d.main.push_back(db_.Find(std::string(SubtypeName(BasicLandSubtype(color)))));
    }
    return d;
  }

  // Random play that prefers what still needs use.
  int Choose(const Game& g, const Decision& d) {
    PlayerView view(g, d.player);
    std::vector<int> wanted;
    for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
      const Action& a = d.actions[i];
      CardId c = a.object == kNoObj ? kNoCard : view.CardOf(a.object);
      if (c == kNoCard) continue;
      bool need = false;
      if (a.kind == ActionKind::kCast || a.kind == ActionKind::kPlayLand)
        need = usage_.played[c] < static_cast<uint32_t>(opt_.k);
      else if (a.kind == ActionKind::kActivate) {
        CardId ac = view.Chars(a.object) ? view.Chars(a.object)->card : c;
        need = ac != kNoCard &&
               usage_.abilities[ac][db_[ac].ActivatedBit(a.index)] < static_cast<uint32_t>(opt_.k);
      }
      if (need) wanted.push_back(i);
    }
    if (!wanted.empty() && rng_.Unit() < 0.9)
      return wanted[rng_.Below(static_cast<uint32_t>(wanted.size()))];
    if (d.kind == DecisionKind::kOptionalCost) return 0;  // pay: use the ability
    const int n = static_cast<int>(d.actions.size());
    if (n <= 1) return 0;
    if (d.actions[0].kind == ActionKind::kPass && rng_.Unit() < 0.3) return 0;
    return static_cast<int>(rng_.Below(static_cast<uint32_t>(n)));
  }

  CoverResult Run() {
    CoverResult r;
    while (r.games < opt_.max_games && !Done()) {
      Deck a = BuildDeck(), b = BuildDeck();
      GameOptions go;
      go.edition = opt_.edition;
      go.seed = Rng::GameSeed(opt_.seed, static_cast<uint64_t>(r.games));
      go.turn_cap = 40;
      Game g(db_, go);
      UsageStats game_usage(db_.cards.size());
      g.SetUsage(&game_usage);
      g.Deal(a, b, static_cast<Player>(r.games % 2));
      for (;;) {
        const Decision& d = g.Advance();
        if (d.kind == DecisionKind::kNone) break;
        g.Apply(Choose(g, d));
      }
      usage_.Merge(game_usage);
      ++r.games;
      if (opt_.progress && r.games % 100 == 0) {
        int done = 0;
        for (CardId c = 0; c < db_.cards.size(); ++c) done += db_.InPool(c) && !CardNeeds(c);
        std::fprintf(stderr, "\r%d games, %d/%zu cards done", r.games, done, db_.PoolSize());
      }
    }
    if (opt_.progress) std::fprintf(stderr, "\n");
    r.usage = usage_;
    const uint32_t k = static_cast<uint32_t>(opt_.k);
    for (CardId c = 0; c < db_.cards.size(); ++c) {
      const CardDef& card = db_[c];
      if (card.token) continue;  // a token's definition is no card (G-12)
      ++r.cards;
      if (usage_.played[c] >= k)
        ++r.cards_done;
      else
        r.missing.push_back(
            absl::StrCat(card.name, " (cast or played ", usage_.played[c], "/", k, ")"));
      for (int bit : CountedBits(card)) {
        ++r.abilities;
        if (usage_.abilities[c][bit] >= k)
          ++r.abilities_done;
        else
          r.missing.push_back(absl::StrCat(card.AbilityName(bit), " (used ",
                                           usage_.abilities[c][bit], "/", k, ")"));
      }
    }
    return r;
  }

 private:
  const CardDb& db_;
  CoverOptions opt_;
  Rng rng_;
  UsageStats usage_;
};

}  // namespace

CoverResult RunCoverage(const CardDb& db, const CoverOptions& options) {
  Coverage c(db, options);
  return c.Run();
}

}  // namespace strata
