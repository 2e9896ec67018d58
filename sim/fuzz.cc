#include "sim/fuzz.h"

#include <toml++/toml.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <memory>
#include <span>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/rng.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"
#include "oneapi/tbb/enumerable_thread_specific.h"
#include "oneapi/tbb/global_control.h"
#include "oneapi/tbb/parallel_for.h"
#include "policies/policy.h"
#include "sim/study_file.h"

namespace strata {
namespace {

constexpr int64_t kBlock = 256;  // games whose decks share one snapshot of card use

// Tournament selection: of `tries` random candidates, the least used.
CardId LeastUsedOf(const std::vector<CardId>& pool, const UsageStats& use, Rng& rng, int tries) {
  CardId best = pool[rng.Below(static_cast<uint32_t>(pool.size()))];
  for (int t = 1; t < tries; ++t) {
    CardId c = pool[rng.Below(static_cast<uint32_t>(pool.size()))];
    if (use.played[c] < use.played[best]) best = c;
  }
  return best;
}

// A legal 40-card deck from the whole pool: two colours (three when the
// least-used card it starts from has three: Nicol Bolas, Legends' other
// three-colour legends, which no two-colour deck could hold), 23 or 24
// spells (up to four copies each) steered toward the cards least cast so
// far, a few non-basic lands, basic lands of the deck's colours for the rest.
Deck RandomDeck(const CardDb& db, const UsageStats& use, Rng& rng) {
  std::vector<CardId> spells, lands;
  for (CardId c = 0; c < db.cards.size(); ++c)
    if (db.InPool(c))  // not a token's definition (G-12)
      (Has(db[c].types, kLand) ? lands : spells).push_back(c);
  ColorMask colors = db[LeastUsedOf(spells, use, rng, 8)].colors;
  while (std::popcount(static_cast<unsigned>(colors)) < 2)
    colors |= static_cast<ColorMask>(1u << rng.Below(kColorCount));
  std::vector<CardId> fitting;
  for (CardId c : spells)
    if ((db[c].colors & ~colors) == 0) fitting.push_back(c);
  Deck d;
  d.name = "random";
  const int want_spells = 23 + static_cast<int>(rng.Below(2));
  for (int guard = 0; static_cast<int>(d.main.size()) < want_spells && guard < 1000; ++guard) {
    CardId c = LeastUsedOf(fitting, use, rng, 3);
    int copies = std::min<int>(1 + static_cast<int>(rng.Below(4)),
                               want_spells - static_cast<int>(d.main.size()));
    int have = static_cast<int>(std::count(d.main.begin(), d.main.end(), c));
    for (int i = 0; i < copies && have < 4; ++i, ++have) d.main.push_back(c);
  }
  std::vector<CardId> nonbasic;
  for (CardId c : lands)
    if (!Has(db[c].supertypes, kBasic)) nonbasic.push_back(c);
  const int extra = nonbasic.empty() ? 0 : static_cast<int>(rng.Below(4));
  for (int i = 0; i < extra; ++i) d.main.push_back(LeastUsedOf(nonbasic, use, rng, 3));
  std::vector<int> cs;
  for (int c = 0; c < kColorCount; ++c)
    if (Has(colors, c)) cs.push_back(c);
  for (int i = 0; d.main.size() < 40; ++i)
    d.main.push_back(db.Find(std::string(SubtypeName(BasicLandSubtype(cs[i % cs.size()])))));
  return d;
}

}  // namespace

FuzzSetup FuzzSetupFor(const CardDb& db, const FuzzOptions& opt, int64_t index,
                       const UsageStats& use) {
  FuzzSetup s;
  s.index = index;
  s.run_seed = opt.seed;
  s.game_seed = Rng::GameSeed(opt.seed, static_cast<uint64_t>(index));
  Rng rng(Rng::GameSeed(opt.seed ^ 0x5eed5eed5eed5eedull, static_cast<uint64_t>(index)));
  if (opt.decks == "random") {
    s.a = RandomDeck(db, use, rng);
    s.b = RandomDeck(db, use, rng);
  } else {
    const auto n = static_cast<uint32_t>(opt.deck_files.size());
    s.a = opt.deck_files[rng.Below(n)];
    s.b = opt.deck_files[rng.Below(n)];
  }
  if (opt.rules == "all")
    s.edition = static_cast<Edition>(index % 3);
  else
    s.edition = *ParseEdition(opt.rules);
  // index / 3, so every edition meets every mulligan rule.
  if (opt.mulligan == "all")
    s.mulligan = static_cast<Mulligan>(index / 3 % 3);
  else
    s.mulligan = *ParseMulligan(opt.mulligan);
  static const std::array<std::string, 2> kMix[] = {{"random", "random"},
                                                    {"heuristic", "heuristic"},
                                                    {"random", "heuristic"},
                                                    {"heuristic", "random"}};
  s.policies = opt.policies.empty()
                   ? kMix[index % 4]
                   : opt.policies[index % static_cast<int64_t>(opt.policies.size())];
  s.first = static_cast<Player>(rng.Below(2));
  return s;
}

GameOptions FuzzGameOptions(const FuzzSetup& s, bool log) {
  GameOptions go;
  go.edition = s.edition;
  go.mulligan = s.mulligan;
  go.seed = s.game_seed;
  // The layer cache is compared with a fresh computation after every action
  // (the "layers" invariant), not at every query: a hundred times cheaper.
  go.check_invariants = true;
  go.log = log;
  return go;
}

namespace {

bool Passive(const std::string& spec) {
  return spec.rfind("passive", 0) == 0;
}

}  // namespace

void FuzzCoverage::Merge(const FuzzCoverage& o) {
  usage.Merge(o.usage);
  for (size_t i = 0; i < decisions.size(); ++i) decisions[i] += o.decisions[i];
  interrupts_cast += o.interrupts_cast;
  prevention_played += o.prevention_played;
  reactions_played += o.reactions_played;
  phase_costs_answered += o.phase_costs_answered;
  phase_effects_played += o.phase_effects_played;
  attacks += o.attacks;
  blocks += o.blocks;
}

namespace {

FuzzGame Play(const CardDb& db, const FuzzSetup& setup, const FuzzOptions& opt,
              FuzzCoverage* coverage, std::vector<std::string>* log,
              const std::vector<int32_t>* forced) {
  FuzzGame out;
  out.setup = setup;
  Game g(db, FuzzGameOptions(setup, log != nullptr));
  UsageStats usage(coverage ? db.cards.size() : 0);
  if (coverage) g.SetUsage(&usage);
  g.Deal(setup.a, setup.b, setup.first);
  std::array<std::unique_ptr<Policy>, 2> players;
  for (Player p = 0; p < 2; ++p) {
    auto made = MakePolicy(setup.policies[p], Rng::GameSeed(setup.game_seed, 17 + p));
    if (!made.ok()) {
      out.failure = absl::StrCat("setup: ", made.status().message());
      return out;
    }
    players[p] = std::move(*made);
  }
  InvariantChecker check;
  if (!opt.extra_name.empty()) check.SetExtra(opt.extra_name, opt.extra);
  check.Begin(g);
  std::unique_ptr<Game> copy;  // a copy taken mid-game, to be fed the same decisions
  size_t copy_from = 0;
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    if (static_cast<int64_t>(out.decisions.size()) >= opt.max_decisions) {
      check.Record(
          Invariant::kProgress, false,
          absl::StrCat("the game went past ", opt.max_decisions, " decisions without ending (turn ",
                       g.state().turn, "): its turn and action caps did not stop it"));
      break;
    }
    check.OnDecision(g, d);
    const int n = static_cast<int>(d.actions.size());
    if (n == 0) {
      // apply: a decision offers something to choose; one with nothing
      // would be asked again for ever.
      check.Record(Invariant::kApply, false,
                   absl::StrCat("a ", S(DecisionKindName(d.kind)), " decision offered no action"));
      break;
    }
    if (coverage) ++coverage->decisions[static_cast<int>(d.kind)];
    // apply: an index no action has is refused, every time, and changes
    // nothing, compared every 8th decision: two fingerprints a decision were
    // a tenth of the fuzzer's time.
    {
      const std::string why = CheckRefusesUnoffered(g, d, out.decisions.size() % 8 == 0);
      check.Record(Invariant::kApply, why.empty(), why);
    }
    const size_t k = out.decisions.size();
    int choice = forced && k < forced->size() && (*forced)[k] >= 0 && (*forced)[k] < n
                     ? (*forced)[k]
                     : players[d.player]->ChooseFor(g, d);
    const Action a = d.actions[choice];
    if (coverage && a.kind != ActionKind::kPass) {
      coverage->interrupts_cast += d.kind == DecisionKind::kInterrupt;
      coverage->prevention_played += d.kind == DecisionKind::kPrevention;
      coverage->reactions_played += d.kind == DecisionKind::kReaction;
      coverage->phase_costs_answered += d.kind == DecisionKind::kPhaseCost;
      coverage->phase_effects_played += a.kind == ActionKind::kPhaseEffect;
      coverage->attacks += a.kind == ActionKind::kAttack;
      coverage->blocks += a.kind == ActionKind::kBlock;
    }
    if (opt.copy_every > 0 && !copy &&
        k % opt.copy_every == static_cast<size_t>(opt.copy_every / 2)) {
      copy = std::make_unique<Game>(g);
      copy_from = k;
    }
    const bool applied = g.Apply(choice);
    out.decisions.push_back(choice);
    check.AfterApply(g, d, choice, applied);
    if (copy && out.decisions.size() - copy_from == 16) {
      // copy: the copy, given the same 16 decisions, is where the game is.
      const std::string why =
          CheckCopyContinues(*copy, std::span(out.decisions).subspan(copy_from), g);
      check.Record(Invariant::kCopy, why.empty(),
                   absl::StrCat("a copy made at decision ", copy_from, " ", why));
      copy.reset();
    }
    if (opt.numbering_every > 0 && k % opt.numbering_every == 0) {
      const std::string why = CheckNumbering(db, g.state());
      check.Record(Invariant::kNumbering, why.empty(), why);
    }
  }
  check.End(g, Passive(setup.policies[0]) && Passive(setup.policies[1]));
  if (opt.replay_every > 0 && setup.index % opt.replay_every == 0 && !log) {
    // replay: the same seed and decisions end in the same state.
    Game r(db, FuzzGameOptions(setup, false));
    r.Deal(setup.a, setup.b, setup.first);
    const std::string why = CheckReplayEnds(r, out.decisions, g);
    check.Record(Invariant::kReplay, why.empty(),
                 absl::StrCat("the game replayed from its seed and decisions ", why));
  }
  out.tally = check.tally();
  out.failure = check.failure();
  out.failed = check.failed();
  out.winner = g.Winner();
  out.end = g.end_reason();
  out.turns = g.state().turn;
  if (coverage) coverage->usage.Merge(usage);
  if (log) *log = g.log();
  return out;
}

}  // namespace

FuzzGame PlayFuzzGame(const CardDb& db, const FuzzSetup& setup, const FuzzOptions& opt,
                      FuzzCoverage* coverage, std::vector<std::string>* log) {
  return Play(db, setup, opt, coverage, log, nullptr);
}

FuzzGame ReplayFuzzGame(const CardDb& db, const FuzzSetup& setup, const FuzzOptions& opt,
                        const std::vector<int32_t>& decisions, std::vector<std::string>* log) {
  return Play(db, setup, opt, nullptr, log, &decisions);
}

FuzzResult RunFuzz(const CardDb& db, const FuzzOptions& opt) {
  FuzzResult r;
  r.coverage = FuzzCoverage(db.cards.size());
  const int threads =
      opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency());
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::max(1, threads));
  const auto start = std::chrono::steady_clock::now();
  std::vector<FuzzGame> block;
  for (int64_t begin = 0; begin < opt.games; begin += kBlock) {
    const int64_t end = std::min(opt.games, begin + kBlock);
    const UsageStats snapshot = r.coverage.usage;  // what the decks of this block steer by
    block.assign(static_cast<size_t>(end - begin), FuzzGame{});
    tbb::enumerable_thread_specific<FuzzCoverage> local(
        [&] { return FuzzCoverage(db.cards.size()); });
    tbb::parallel_for(begin, end, [&](int64_t i) {
      FuzzSetup setup = FuzzSetupFor(db, opt, i, snapshot);
      block[static_cast<size_t>(i - begin)] = PlayFuzzGame(db, setup, opt, &local.local());
    });
    for (auto& c : local) r.coverage.Merge(c);
    for (FuzzGame& g : block) {
      r.tally.Merge(g.tally);
      ++r.ends[static_cast<int>(g.end)];
      if (!g.failure.empty()) {
        ++r.failing_games;
        if (static_cast<int>(r.failures.size()) < opt.max_failure_files)
          r.failures.push_back(std::move(g));
      }
    }
    r.games = end;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (opt.progress) {
      uint64_t violations = 0;
      for (uint64_t v : r.tally.violations) violations += v;
      std::fprintf(stderr, "\rfuzz: %lld/%lld games, %.0f games/s, %llu violations in %lld games ",
                   static_cast<long long>(r.games), static_cast<long long>(opt.games),
                   r.games / std::max(1e-9, r.seconds), static_cast<unsigned long long>(violations),
                   static_cast<long long>(r.failing_games));
      std::fflush(stderr);
    }
  }
  if (opt.progress) std::fprintf(stderr, "\n");
  return r;
}

absl::StatusOr<InvariantChecker::ExtraCheck> CanaryCheck(const std::string& spec) {
  int n = 0;
  if (spec.rfind("power:", 0) != 0 || !absl::SimpleAtoi(spec.substr(6), &n) || n < 1 || n > 1000)
    return absl::InvalidArgumentError(
        absl::StrCat("--canary: expected power:N with N from 1 to 1000, got '", spec, "'"));
  return InvariantChecker::ExtraCheck([n](const Game& g) -> std::string {
    const GameState& s = g.state();
    for (ObjId o = 0; o < s.obj.count; ++o)
      if (s.obj.zone[o] == Zone::kBattlefield && g.Chars(o).IsCreature() && g.Chars(o).power >= n)
        return absl::StrCat(g.ObjectName(o), " has power ", g.Chars(o).power, " (canary power:", n,
                            ")");
    return "";
  });
}

// ---------------------------------------------------------------- failure files

std::string FailureFile(const CardDb& db, const FuzzGame& g) {
  auto names = [&](const Deck& d) {
    std::vector<std::string> v;
    for (CardId c : d.main) v.push_back(JsonQuote(db[c].name));  // escaped: TOML reads it back
    return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
  };
  const FuzzSetup& s = g.setup;
  std::string out = absl::StrCat(
      "# A game `strata fuzz` found breaking a rules invariant. Play it again,\n"
      "# with its log, by `strata fuzz --replay THIS_FILE`.\n",
      "invariant = \"", JsonQuote(g.failure).substr(1, JsonQuote(g.failure).size() - 2), "\"\n",
      "run_seed = \"", s.run_seed, "\"\n", "game = ", s.index, "\n", "game_seed = \"", s.game_seed,
      "\"\n", "rules = \"", S(EditionName(s.edition)), "\"\n", "mulligan = \"",
      S(MulliganName(s.mulligan)), "\"\n", "first = \"", s.first ? "B" : "A", "\"\n",
      "policies = [\"", s.policies[0], "\", \"", s.policies[1], "\"]\n", "deck_a = ", names(s.a),
      "\n", "deck_b = ", names(s.b), "\n", "decisions = [");
  for (size_t i = 0; i < g.decisions.size(); ++i)
    absl::StrAppend(&out, i ? ", " : "", g.decisions[i]);
  absl::StrAppend(&out, "]\n");
  return out;
}

bool ReadFailureFile(const std::string& path, const CardDb& db, FuzzSetup& setup,
                     std::vector<int32_t>& decisions, std::string& error) {
  toml::table t;
  auto text = ReadInputFile(path, "failure");  // bounded (issue 40)
  if (!text.ok()) {
    error = std::string(text.status().message());
    return false;
  }
  try {
    t = toml::parse(*text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    error =
        absl::StrCat(path, ":", static_cast<int>(e.source().begin.line), ": ", S(e.description()));
    return false;
  }
  auto fail = [&](std::string_view key, std::string_view what) {
    error = absl::StrCat(path, ": key '", S(key), "': expected ", S(what));
    return false;
  };
  auto u64 = [&](std::string_view key, uint64_t& v) {
    auto s = t[key].value<std::string>();
    if (!s || !ParseSeed(*s, &v)) return fail(key, "a number in a string, 0 to 2^64-1");
    return true;
  };
  if (!u64("run_seed", setup.run_seed) || !u64("game_seed", setup.game_seed)) return false;
  auto game = t["game"].value<int64_t>();
  if (!game || *game < 0) return fail("game", "the game's number, 0 or more");
  setup.index = *game;
  auto rules = t["rules"].value<std::string>();
  if (!rules || !ParseEdition(*rules)) return fail("rules", "classic, m10 or modern");
  setup.edition = *ParseEdition(*rules);
  // Failure files from before mulligans have none.
  auto mulligan = t["mulligan"].value_or<std::string>("none");
  if (!ParseMulligan(mulligan)) return fail("mulligan", "none, paris or london");
  setup.mulligan = *ParseMulligan(mulligan);
  auto first = t["first"].value<std::string>();
  if (!first || (*first != "A" && *first != "B")) return fail("first", "\"A\" or \"B\"");
  setup.first = *first == "B";
  auto* pol = t["policies"].as_array();
  if (!pol || pol->size() != 2 || !pol->get(0)->is_string() || !pol->get(1)->is_string())
    return fail("policies", "two policy specs");
  for (int p = 0; p < 2; ++p) {
    setup.policies[p] = *pol->get(p)->value<std::string>();
    if (auto made = MakePolicy(setup.policies[p], 1); !made.ok())
      return fail("policies", absl::StrCat("policy specs: ", made.status().message()));
  }
  for (auto [key, deck] : {std::pair{"deck_a", &setup.a}, std::pair{"deck_b", &setup.b}}) {
    auto* a = t[key].as_array();
    if (!a || a->empty()) return fail(key, "a list of card names");
    deck->main.clear();
    deck->name = key;
    for (auto& n : *a) {
      auto name = n.value<std::string>();
      CardId c = name ? db.Find(*name) : kNoCard;
      if (c == kNoCard && name && (c = db.FindAlias(*name)) != kNoCard)
        std::fprintf(stderr, "%s: key %s: %s\n", path.c_str(), key, db.AliasNote(*name, c).c_str());
      if (c == kNoCard)
        return fail(key, absl::StrCat("card names of the pool, got ",
                                      name ? *name : std::string("a non-string")));
      deck->main.push_back(c);
    }
  }
  auto* d = t["decisions"].as_array();
  if (!d) return fail("decisions", "a list of action indices");
  decisions.clear();
  for (auto& n : *d) {
    auto i = n.value<int64_t>();
    if (!i || *i < 0 || *i > 100000) return fail("decisions", "action indices, 0 to 100000");
    decisions.push_back(static_cast<int32_t>(*i));
  }
  return true;
}

}  // namespace strata
