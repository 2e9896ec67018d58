#include "sim/play_command.h"

#include <cstdio>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "engine/rng.h"
#include "policies/policy.h"
#include "sim/card_pool.h"
#include "sim/deck_list.h"
#include "sim/exit_codes.h"
#include "sim/format.h"
#include "sim/game_log.h"

namespace strata {

int RunPlayCommand(const PlayArgs& args, const std::vector<std::string>& pool_paths,
                   bool override_cards) {
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitBadInput;
  auto paths = ExpandDeckPaths(args.decks, "--decks", DeckRepeats::kMirrorPair);
  if (!paths.ok()) return BadInput(paths.status().message());
  if (paths->size() != 2)
    return BadInput(absl::StrCat("--decks: expected two deck files, A first, got ", paths->size(),
                                 ": ", absl::StrJoin(*paths, ", ")));
  std::vector<Deck> decks;
  for (auto& path : *paths) {
    auto d = LoadDeckFile(path, db);
    if (!d.ok()) return BadInput(d.status().message());
    decks.push_back(*d);
  }
  MakeDeckLabelsUnique(decks, *paths);
  if (int rc = CheckDecksForFormat(args.format, db, {&decks[0], &decks[1]}, *paths); rc != 0)
    return rc;
  for (auto& d : decks)
    for (const std::string& note : DeckNotes(d)) std::fprintf(stderr, "%s\n", note.c_str());
  auto specs = ParsePolicyPair(args.policies);
  if (!specs.ok()) {
    std::fprintf(stderr, "--policies: %s\n", std::string(specs.status().message()).c_str());
    return kExitBadInput;
  }
  std::unique_ptr<Policy> policies[2];
  for (int p = 0; p < 2; ++p)
    policies[p] = *MakePolicy((*specs)[p], Rng::GameSeed(args.seed, 1000 + p));
  GameOptions opt;
  opt.edition = *ParseEdition(args.rules);
  opt.seed = args.seed;
  opt.mulligan = *ParseMulligan(args.mulligan);
  opt.log = !args.quiet;
  opt.check_invariants = args.checked;
  Game game(db, opt);
  game.Deal(decks[0], decks[1], static_cast<Player>(args.seed % 2));
  InvariantChecker check;
  if (args.checked) check.Begin(game);
  // Seat 0 is deck A; the seed says who starts.
  const int first = static_cast<int>(args.seed % 2);
  LogAnnotator notes(
      {"A (" + decks[0].name + ")", "B (" + decks[1].name + ")"},
      {"seats: A = " + decks[0].name + " (" + (*specs)[0] + (first == 0 ? ", starts" : "") +
       "), B = " + decks[1].name + " (" + (*specs)[1] + (first == 1 ? ", starts" : "") + ")"});
  uint64_t decisions = 0;
  for (;;) {
    const Decision& d = game.Advance();
    if (d.kind == DecisionKind::kNone) break;
    const int chosen = policies[d.player]->ChooseFor(game, d);
    if (!args.quiet) notes.Before(game, d, chosen);
    if (args.checked)
      check.Apply(game, d, chosen);
    else
      game.Apply(chosen);
    ++decisions;
  }
  if (!args.quiet) {
    notes.End(game);
    for (auto& line : notes.Lines(game)) std::printf("%s\n", line.c_str());
  }
  std::printf("result: %s after %d turns, %llu decisions (%s)\n",
              game.Winner() < 0    ? "draw"
              : game.Winner() == 0 ? "A wins"
                                   : "B wins",
              game.state().turn, static_cast<unsigned long long>(decisions),
              std::string(EndReasonName(game.end_reason())).c_str());
  if (args.checked) {
    auto passive = [](const std::string& spec) { return spec.rfind("passive", 0) == 0; };
    check.End(game, passive((*specs)[0]) && passive((*specs)[1]));
    if (!check.ok()) {
      std::printf("invariant broken: %s\n", check.failure().c_str());
      return kExitFailed;
    }
    std::printf("checked: %llu invariant checks, no violation\n",
                static_cast<unsigned long long>(check.tally().total_checks()));
  }
  return kExitOk;
}

}  // namespace strata
