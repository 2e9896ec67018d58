// The bundled card pool and decks (data/), for tests and benchmarks: one
// place that knows where they live, so no test builds their paths or loads
// them with a fixture of its own. A broken bundled file is a broken
// checkout, so loading one aborts with the loader's message. (Tests of the
// loaders themselves load from BundledCardsDir() and look at the status.)
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/card_loader.h"
#include "engine/deck.h"

namespace strata {

// data/cards, data/decks/NAME.txt, data/decks.
inline std::string BundledCardsDir() {
  return std::string(STRATA_SOURCE_DIR) + "/data/cards";
}
inline std::string BundledDecksDir() {
  return std::string(STRATA_SOURCE_DIR) + "/data/decks";
}
inline std::string BundledDeckFile(const std::string& name) {
  return BundledDecksDir() + "/" + name + ".txt";
}

// data/cards, loaded once per process.
inline const CardDb& BundledPool() {
  static const CardDb* db = [] {
    auto* d = new CardDb;
    absl::Status st = LoadCards({BundledCardsDir()}, *d);
    if (!st.ok()) {
      std::fprintf(stderr, "%s\n", std::string(st.message()).c_str());
      std::abort();
    }
    return d;
  }();
  return *db;
}

// data/decks/NAME.txt against `db` (by default the bundled pool).
inline Deck BundledDeck(const std::string& name, const CardDb& db = BundledPool()) {
  auto d = LoadDeckFile(BundledDeckFile(name), db);
  if (!d.ok()) {
    std::fprintf(stderr, "%s\n", std::string(d.status().message()).c_str());
    std::abort();
  }
  return *d;
}

// data/decks/NAME.txt for each name, against `db`.
inline std::vector<Deck> BundledDecks(const CardDb& db, const std::vector<std::string>& names) {
  std::vector<Deck> decks;
  for (const std::string& name : names) decks.push_back(BundledDeck(name, db));
  return decks;
}
inline std::vector<Deck> BundledDecks(const std::vector<std::string>& names) {
  return BundledDecks(BundledPool(), names);
}

// The names of the decks in data/decks (file stems), sorted; with
// `playable`, without the layers_ stress decks (as `strata sim` picks its
// default decks).
inline std::vector<std::string> BundledDeckNames(bool playable = false) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(BundledDecksDir())) {
    const std::string stem = e.path().stem().string();
    if (e.path().extension() == ".txt" && !(playable && stem.rfind("layers_", 0) == 0))
      names.push_back(stem);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace strata
