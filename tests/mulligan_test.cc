// Mulligans (RULES.md G-1): the hands paris and london deal, that none asks
// nothing, who decides first, what each player keeps, that a game with
// mulligans still depends only on its seed, and that a study's game replays
// with its mulligans.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "policies/heuristic.h"
#include "policies/policy.h"
#include "sim/fingerprint.h"
#include "sim/runner.h"
#include "sim/study_file.h"
#include "tests/bundled.h"

namespace strata {
namespace {

using ::testing::HasSubstr;

const CardDb& Pool() {
  return BundledPool();
}

// A deck of `lands` Mountains and 40 - `lands` Gray Ogres.
Deck LandsAndOgres(int lands) {
  Deck d;
  d.name = "test";
  for (int i = 0; i < 40; ++i) d.main.push_back(Pool().Find(i < lands ? "Mountain" : "Gray Ogre"));
  return d;
}

int IndexOf(const Decision& d, ActionKind k) {
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == k) return i;
  return -1;
}

std::unique_ptr<Game> Dealt(Mulligan rule, Player first, uint64_t seed = 5) {
  GameOptions opt;
  opt.seed = seed;
  opt.mulligan = rule;
  opt.log = true;
  auto g = std::make_unique<Game>(Pool(), opt);
  g->Deal(LandsAndOgres(17), LandsAndOgres(17), first);
  return g;
}

int HandSize(const Game& g, Player p) {
  return static_cast<int>(g.state().players[p].hand.size());
}

std::string Log(const Game& g) {
  std::string s;
  for (auto& line : g.log()) s += line + "\n";
  return s;
}

TEST(Mulligan, ParisDealsOneCardFewerEachTimeDownToOne) {
  auto g = Dealt(Mulligan::kParis, 0);
  for (int size = 7; size >= 2; --size) {
    const Decision& d = g->Advance();
    ASSERT_EQ(d.kind, DecisionKind::kMulligan) << size;
    ASSERT_EQ(d.player, 0);
    EXPECT_EQ(HandSize(*g, 0), size);
    const int keep = IndexOf(d, ActionKind::kKeep), mulligan = IndexOf(d, ActionKind::kMulligan);
    ASSERT_GE(keep, 0);
    ASSERT_GE(mulligan, 0);
    EXPECT_EQ(d.actions[keep].value, size);
    EXPECT_EQ(d.actions[mulligan].value, size - 1);
    ASSERT_TRUE(g->Apply(mulligan));
    EXPECT_EQ(HandSize(*g, 0), size - 1);
    EXPECT_EQ(g->mulligans(0), 8 - size);
    // Every card is still the player's: the hand went back into the library.
    EXPECT_EQ(HandSize(*g, 0) + static_cast<int>(g->state().players[0].library.size()), 40);
  }
  // One card: no hand of none is offered; the other player decides next.
  const Decision& d = g->Advance();
  EXPECT_EQ(d.kind, DecisionKind::kMulligan);
  EXPECT_EQ(d.player, 1);
  EXPECT_EQ(HandSize(*g, 0), 1);
  EXPECT_EQ(g->mulligans(0), 6);
  EXPECT_THAT(Log(*g), HasSubstr("A mulligans to 6\n"));
  EXPECT_THAT(Log(*g), HasSubstr("A mulligans to 1\n"));
}

TEST(Mulligan, LondonDrawsSevenThenPutsOnePerMulliganOnTheBottom) {
  auto g = Dealt(Mulligan::kLondon, 0);
  for (int taken = 0; taken < 2; ++taken) {
    const Decision& d = g->Advance();
    ASSERT_EQ(d.kind, DecisionKind::kMulligan);
    EXPECT_EQ(HandSize(*g, 0), 7);
    EXPECT_EQ(d.actions[IndexOf(d, ActionKind::kKeep)].value, 7 - taken);
    ASSERT_TRUE(g->Apply(IndexOf(d, ActionKind::kMulligan)));
    EXPECT_EQ(HandSize(*g, 0), 7);
  }
  const Decision& keep = g->Advance();
  ASSERT_EQ(keep.kind, DecisionKind::kMulligan);
  EXPECT_EQ(keep.actions[IndexOf(keep, ActionKind::kKeep)].value, 5);
  ASSERT_TRUE(g->Apply(IndexOf(keep, ActionKind::kKeep)));
  std::vector<ObjId> bottomed;
  for (int n = 0; n < 2; ++n) {
    const Decision& d = g->Advance();
    ASSERT_EQ(d.kind, DecisionKind::kBottom);
    ASSERT_EQ(d.player, 0);
    ASSERT_EQ(static_cast<int>(d.actions.size()), 7 - n);  // one per card in hand
    bottomed.push_back(d.actions[0].object);
    ASSERT_TRUE(g->Apply(0));
  }
  EXPECT_EQ(HandSize(*g, 0), 5);
  const auto& lib = g->state().players[0].library;
  ASSERT_EQ(lib.size(), 35u);
  EXPECT_EQ(lib[33], bottomed[0]);  // the first put there, then the second under it
  EXPECT_EQ(lib[34], bottomed[1]);
  const Decision& next = g->Advance();
  EXPECT_EQ(next.kind, DecisionKind::kMulligan);
  EXPECT_EQ(next.player, 1);
  // Bottomed cards are not in the opening hand the statistics count.
  EXPECT_FALSE(g->seen(bottomed[0]) & Game::kSeenOpening);
  EXPECT_FALSE(g->seen(bottomed[1]) & Game::kSeenInHand);
  for (ObjId o : g->state().players[0].hand) EXPECT_TRUE(g->seen(o) & Game::kSeenOpening);
}

TEST(Mulligan, NoneAsksNothing) {
  auto g = Dealt(Mulligan::kNone, 0);
  const Decision& d = g->Advance();
  EXPECT_NE(d.kind, DecisionKind::kMulligan);
  EXPECT_EQ(HandSize(*g, 0), 7);
  EXPECT_EQ(HandSize(*g, 1), 7);
  EXPECT_EQ(GameOptions{}.mulligan, Mulligan::kNone);  // the engine's default
}

TEST(Mulligan, TheStartingPlayerDecidesFirst) {
  for (Player first : {Player{0}, Player{1}}) {
    auto g = Dealt(Mulligan::kParis, first);
    const Decision& a = g->Advance();
    ASSERT_EQ(a.kind, DecisionKind::kMulligan);
    EXPECT_EQ(a.player, first);
    ASSERT_TRUE(g->Apply(IndexOf(a, ActionKind::kMulligan)));
    const Decision& again = g->Advance();  // still the starting player's turn to decide
    EXPECT_EQ(again.player, first);
    ASSERT_TRUE(g->Apply(IndexOf(again, ActionKind::kKeep)));
    const Decision& b = g->Advance();
    ASSERT_EQ(b.kind, DecisionKind::kMulligan);
    EXPECT_EQ(b.player, Opponent(first));
    ASSERT_TRUE(g->Apply(IndexOf(b, ActionKind::kKeep)));
    EXPECT_NE(g->Advance().kind, DecisionKind::kMulligan);
    EXPECT_EQ(g->state().turn, 1);
    EXPECT_EQ(g->state().active, first);
  }
}

// The heuristic's keep-or-mulligan on a hand of `lands` Mountains and
// `cards - lands` Gray Ogres, as a decision to keep `cards` cards.
int HeuristicKeeps(int lands, int cards) {
  Game g(Pool(), GameOptions{});
  for (int i = 0; i < cards; ++i)
    g.AddObject(Pool().Find(i < lands ? "Mountain" : "Gray Ogre"), 0, Zone::kHand);
  for (int i = 0; i < 20; ++i) g.AddObject(Pool().Find("Mountain"), 0, Zone::kLibrary);
  Decision d;
  d.kind = DecisionKind::kMulligan;
  d.player = 0;
  d.actions = {{ActionKind::kMulligan, kNoObj, 0, cards - 1},
               {ActionKind::kKeep, kNoObj, 0, cards}};
  auto heuristic = *MakePolicy("heuristic", 1);
  return d.actions[heuristic->ChooseFor(g, d)].kind == ActionKind::kKeep;
}

TEST(Mulligan, HeuristicKeepsTwoToFiveLandsOfSeven) {
  EXPECT_TRUE(HeuristicKeeps(3, 7));
  EXPECT_TRUE(HeuristicKeeps(2, 7));
  EXPECT_TRUE(HeuristicKeeps(5, 7));
  EXPECT_FALSE(HeuristicKeeps(0, 7));
  EXPECT_FALSE(HeuristicKeeps(1, 7));
  EXPECT_FALSE(HeuristicKeeps(6, 7));
  EXPECT_FALSE(HeuristicKeeps(7, 7));
  // Six cards: 2 to 4; five: at least one land; four or fewer: any hand.
  EXPECT_TRUE(HeuristicKeeps(4, 6));
  EXPECT_FALSE(HeuristicKeeps(5, 6));
  EXPECT_FALSE(HeuristicKeeps(1, 6));
  EXPECT_TRUE(HeuristicKeeps(1, 5));
  EXPECT_FALSE(HeuristicKeeps(0, 5));
  EXPECT_TRUE(HeuristicKeeps(0, 4));
  EXPECT_TRUE(HeuristicKeeps(4, 4));
}

// Whole games: each player's mulligans with decks of only lands and only
// spells, and the hands they keep.
std::array<int, 2> PlayOut(Mulligan rule, const std::string& policy, const Deck& a, const Deck& b,
                           uint64_t seed, std::array<int, 2>* kept = nullptr) {
  GameOptions opt;
  opt.seed = seed;
  opt.mulligan = rule;
  Game g(Pool(), opt);
  g.Deal(a, b, 0);
  auto p0 = *MakePolicy(policy, seed), p1 = *MakePolicy(policy, seed + 1);
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind != DecisionKind::kMulligan && d.kind != DecisionKind::kBottom) break;
    g.Apply((d.player ? *p1 : *p0).ChooseFor(g, d));
  }
  if (kept) *kept = {HandSize(g, 0), HandSize(g, 1)};
  return {g.mulligans(0), g.mulligans(1)};
}

TEST(Mulligan, HeuristicMulligansAllLandsAndNoLandsToFour) {
  // Seven lands, six lands: mulligan; five cards with a land: keep. No
  // land at all: down to four cards, kept whatever they are.
  std::array<int, 2> kept{};
  EXPECT_EQ(PlayOut(Mulligan::kParis, "heuristic", LandsAndOgres(40), LandsAndOgres(0), 3, &kept),
            (std::array<int, 2>{2, 3}));
  EXPECT_EQ(kept, (std::array<int, 2>{5, 4}));
  // London: the same counts, seven cards each time, then the extra ones
  // on the bottom.
  EXPECT_EQ(PlayOut(Mulligan::kLondon, "heuristic", LandsAndOgres(40), LandsAndOgres(0), 3, &kept),
            (std::array<int, 2>{2, 3}));
  EXPECT_EQ(kept, (std::array<int, 2>{5, 4}));
}

TEST(Mulligan, LondonHeuristicBottomsExcessLandsFirst) {
  // Seven cards of six lands and an Ogre after one mulligan: the land goes.
  Game g(Pool(), GameOptions{});
  std::vector<ObjId> hand;
  for (int i = 0; i < 7; ++i)
    hand.push_back(g.AddObject(Pool().Find(i < 6 ? "Mountain" : "Gray Ogre"), 0, Zone::kHand));
  Decision d;
  d.kind = DecisionKind::kBottom;
  d.player = 0;
  for (int i = 6; i >= 0; --i) d.actions.push_back({ActionKind::kObject, hand[i]});  // Ogre first
  auto heuristic = *MakePolicy("heuristic", 1);
  EXPECT_NE(d.actions[heuristic->ChooseFor(g, d)].object, hand[6]);
  // Two lands (Mountains) and five spells: a spell goes, first the one the
  // lands can't make the colour of, then the dearest.
  Game h(Pool(), GameOptions{});
  std::vector<ObjId> few;
  for (const char* card :
       {"Mountain", "Mountain", "Gray Ogre", "Gray Ogre", "Keldon Warlord", "Terror", "Gray Ogre"})
    few.push_back(h.AddObject(Pool().Find(card), 0, Zone::kHand));
  Decision e = d;
  auto away = [&] {
    e.actions.clear();
    for (ObjId o : h.state().players[0].hand) e.actions.push_back({ActionKind::kObject, o});
    const ObjId o = e.actions[heuristic->ChooseFor(h, e)].object;
    h.MoveTo(o, Zone::kLibrary, 0);
    return h.state().obj.card[o];
  };
  EXPECT_EQ(away(), Pool().Find("Terror"));          // {1}{B}: no black source
  EXPECT_EQ(away(), Pool().Find("Keldon Warlord"));  // four mana, the Ogres three
}

TEST(Mulligan, EveryPlayerDecidesSensibly) {
  const Deck normal = LandsAndOgres(17);
  int random_mulligans = 0, random_max = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    // Passive keeps everything; random mulligans now and then, never to
    // oblivion; mc follows the heuristic.
    EXPECT_EQ(PlayOut(Mulligan::kParis, "passive", LandsAndOgres(40), normal, seed),
              (std::array<int, 2>{0, 0}));
    auto r = PlayOut(Mulligan::kLondon, "random", normal, normal, seed);
    random_mulligans += r[0] + r[1];
    random_max = std::max({random_max, r[0], r[1]});
  }
  EXPECT_GT(random_mulligans, 20);  // about one hand in four of 400
  EXPECT_LT(random_mulligans, 200);
  EXPECT_LE(random_max, 4);
  EXPECT_EQ(
      PlayOut(Mulligan::kParis, "mc:rollouts=1,depth=4", LandsAndOgres(40), LandsAndOgres(0), 3),
      (std::array<int, 2>{2, 3}));
  // The heuristic's baseline without mulligans keeps anything.
  EXPECT_EQ(PlayOut(Mulligan::kParis, "heuristic:keep=all", LandsAndOgres(40), LandsAndOgres(0), 3),
            (std::array<int, 2>{0, 0}));
  EXPECT_EQ((*MakePolicy("heuristic:keep=all", 1))->Name(), "heuristic:style=aggro,keep=all");
}

TEST(Mulligan, TheSameSeedPlaysTheSameGame) {
  const auto decks = BundledDecks(Pool(), {"red_burn", "green_stompy"});
  int mulligans = 0;
  for (Mulligan rule : {Mulligan::kParis, Mulligan::kLondon})
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      std::vector<std::string> logs[2];
      uint64_t fingerprints[2];
      for (int run = 0; run < 2; ++run) {
        GameOptions opt;
        opt.seed = seed;
        opt.mulligan = rule;
        opt.log = true;
        Game g(Pool(), opt);
        g.Deal(decks[0], decks[1], 0);
        auto p0 = *MakePolicy("random", seed), p1 = *MakePolicy("heuristic", seed);
        for (;;) {
          const Decision& d = g.Advance();
          if (d.kind == DecisionKind::kNone) break;
          g.Apply((d.player ? *p1 : *p0).ChooseFor(g, d));
        }
        logs[run] = g.log();
        fingerprints[run] = g.Fingerprint();
        if (run == 0) mulligans += g.mulligans(0) + g.mulligans(1);
      }
      ASSERT_EQ(logs[0], logs[1]) << "seed " << seed;
      ASSERT_EQ(fingerprints[0], fingerprints[1]) << "seed " << seed;
    }
  EXPECT_GT(mulligans, 0);
}

TEST(Mulligan, AStudyCountsThemTheSameOnAnyThreadCountAndReplaysThem) {
  SimOptions opt;
  opt.decks = BundledDecks(Pool(), {"red_burn", "green_stompy", "white_weenie"});
  opt.policies = {"heuristic", "random"};
  opt.mulligan = Mulligan::kParis;
  opt.games = 64;
  opt.seed = 9;
  opt.threads = 1;
  std::ostringstream out1;
  opt.games_out = &out1;
  auto one = RunSimulation(Pool(), opt);
  opt.threads = 2;
  std::ostringstream out2;
  opt.games_out = &out2;
  auto two = RunSimulation(Pool(), opt);
  EXPECT_EQ(out1.str(), out2.str());
  int64_t taken = 0;
  for (size_t m = 0; m < one.size(); ++m) {
    EXPECT_EQ(one[m].mulligans, two[m].mulligans);
    EXPECT_EQ(one[m].mulligan_games, two[m].mulligan_games);
    EXPECT_EQ(one[m].seat_mulligans, two[m].seat_mulligans);
    EXPECT_EQ(one[m].a_wins, two[m].a_wins);
    EXPECT_EQ(one[m].turns, two[m].turns);
    EXPECT_EQ(one[m].mulligans[0] + one[m].mulligans[1],
              one[m].seat_mulligans[0] + one[m].seat_mulligans[1]);
    taken += one[m].mulligans[0] + one[m].mulligans[1];
  }
  EXPECT_GT(taken, 0);
  // games.jsonl has them per seat, and a replayed game has the same record.
  std::vector<std::string> lines;
  std::stringstream ss(out1.str());
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u * 64);
  StudyWorker w(Pool(), opt);
  int replayed_with_mulligans = 0;
  for (int64_t i = 0; i < 64; ++i) {
    GameRecord r = PlayStudyGame(opt, 1, i, w, /*log=*/true);
    ASSERT_EQ(GameRecordJson(opt, r), lines[64 + i]);
    EXPECT_THAT(lines[64 + i], HasSubstr(absl::StrCat("\"mulligans\": [", r.mulligans[0], ", ",
                                                      r.mulligans[1], "]")));
    if (r.mulligans[0] + r.mulligans[1] > 0) {
      ++replayed_with_mulligans;
      std::string log;
      for (auto& l : w.game.log()) log += l + "\n";
      EXPECT_THAT(log, HasSubstr(" mulligans to "));
    }
  }
  EXPECT_GT(replayed_with_mulligans, 0);
  // Without mulligans, the same study plays other games.
  opt.mulligan = Mulligan::kNone;
  opt.threads = 1;
  std::ostringstream none;
  opt.games_out = &none;
  auto without = RunSimulation(Pool(), opt);
  EXPECT_NE(none.str(), out1.str());
  for (auto& m : without) EXPECT_EQ(m.mulligans, (std::array<int64_t, 2>{0, 0}));
}

// study.toml keeps the rule and the counts; a file from before mulligans
// (no `mulligan` key) is a study without them; a rule edited by hand is
// refused by its digest.
TEST(Mulligan, StudyFileKeepsTheRuleAndCounts) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "strata_mulligan_test_study";
  fs::remove_all(dir);
  Study s;
  s.options.decks = BundledDecks(Pool(), {"red_burn", "green_stompy"});
  s.options.games = 600;
  s.options.mulligan = Mulligan::kLondon;
  s.rules = "modern";
  s.command = "test";
  s.card_fingerprints = FingerprintCards(Pool());
  s.cards_fingerprint = DbFingerprint(s.card_fingerprints);
  MatchupStats m;
  m.deck_b = 1;
  m.games = 256, m.a_wins = 128, m.b_wins = 128, m.turns = 256 * 9;
  m.end_reasons[1] = 256;
  m.turn_histogram[9] = 256;
  m.mulligans = {30, 20}, m.mulligan_games = {25, 18}, m.seat_mulligans = {26, 24};
  s.progress = {m};
  ASSERT_TRUE(SaveStudy(dir.string(), s, Pool()).ok());
  auto r = LoadStudy(dir.string(), Pool());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->options.mulligan, Mulligan::kLondon);
  EXPECT_EQ(r->progress[0].mulligans, m.mulligans);
  EXPECT_EQ(r->progress[0].mulligan_games, m.mulligan_games);
  EXPECT_EQ(r->progress[0].seat_mulligans, m.seat_mulligans);
  const fs::path file = dir / kStudyFile;
  auto read = [&] {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  auto write = [&](const std::string& text) { std::ofstream(file) << text; };
  const std::string saved = read();
  // Edited by hand: the digest refuses it.
  write(std::regex_replace(saved, std::regex("mulligan = 'london'"), "mulligan = 'paris'"));
  auto edited = LoadStudy(dir.string(), Pool());
  ASSERT_FALSE(edited.ok());
  EXPECT_THAT(std::string(edited.status().message()), HasSubstr("key 'mulligan'"));
  // Counts that cannot be: seats and decks disagree.
  write(std::regex_replace(saved, std::regex("seat_mulligans = \\[ 26, 24 \\]"),
                           "seat_mulligans = [ 26, 25 ]"));
  auto disagree = LoadStudy(dir.string(), Pool());
  ASSERT_FALSE(disagree.ok());
  EXPECT_THAT(std::string(disagree.status().message()), HasSubstr("seat_mulligans"));
  // From before mulligans: no rule, no counts, no digests of them. Refused:
  // a missing digest is an error (issue 40), else a London study with its
  // mulligan keys and digests taken out would resume as one without.
  s.options.mulligan = Mulligan::kNone;
  s.progress[0].mulligans = s.progress[0].mulligan_games = s.progress[0].seat_mulligans = {};
  ASSERT_TRUE(SaveStudy(dir.string(), s, Pool()).ok());
  std::string old = read();
  for (const char* key :
       {"mulligan = [^\\n]*\\n", "mulligan_counts = [^\\n]*\\n", "mulligans = [^\\n]*\\n",
        "mulligan_games = [^\\n]*\\n", "seat_mulligans = [^\\n]*\\n"})
    old = std::regex_replace(old, std::regex(std::string("(^|\\n)\\s*") + key), "$1");
  ASSERT_EQ(old.find("mulligan"), std::string::npos) << old;
  write(old);
  auto before = LoadStudy(dir.string(), Pool());
  ASSERT_FALSE(before.ok());
  EXPECT_THAT(std::string(before.status().message()),
              HasSubstr("key 'digests.mulligan': expected the digest of 'mulligan' strata writes "
                        "(it is missing: the study was written by an older strata"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace strata
