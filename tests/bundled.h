// The bundled card pool and decks (data/), for tests and benchmarks: one
// place that knows where they live. A broken bundled file is a broken
// checkout, so loading one aborts with the loader's message.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/card_loader.h"
#include "engine/deck.h"

namespace strata {

// data/cards, loaded once per process.
inline const CardDb& BundledPool() {
  static const CardDb* db = [] {
    auto* d = new CardDb;
    absl::Status st = LoadCards({std::string(STRATA_SOURCE_DIR) + "/data/cards"}, *d);
    if (!st.ok()) {
      std::fprintf(stderr, "%s\n", std::string(st.message()).c_str());
      std::abort();
    }
    return d;
  }();
  return *db;
}

// data/decks/NAME.txt for each name, against `db`.
inline std::vector<Deck> BundledDecks(const CardDb& db, const std::vector<std::string>& names) {
  std::vector<Deck> decks;
  for (const std::string& name : names) {
    auto d = LoadDeckFile(std::string(STRATA_SOURCE_DIR) + "/data/decks/" + name + ".txt", db);
    if (!d.ok()) {
      std::fprintf(stderr, "%s\n", std::string(d.status().message()).c_str());
      std::abort();
    }
    decks.push_back(*d);
  }
  return decks;
}

}  // namespace strata
