// libFuzzer target for the loaders of user files: malformed input must give
// an error, never a crash, a sanitizer report or an uncaught exception.
//
// Input layout (tests/fuzz/README.md): byte 0 picks the loader, the rest is
// the file's text.
//   byte 0 % 5 == 0  card file, loaded into an empty card database
//               1    card file, loaded on top of the bundled pool (names
//                    and filters may refer to its cards; duplicates clash)
//               2    deck file (against the bundled pool)
//               3    scenario file (run, layers checked, against the pool)
//               4    a study's study.toml (LoadStudy and StudyCardPaths)
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/card_loader.h"
#include "engine/deck.h"
#include "sim/scenario.h"
#include "sim/study_file.h"

namespace strata {
namespace {

std::string DataDir() {
  if (const char* d = std::getenv("STRATA_DATA_DIR")) return d;
  return STRATA_SOURCE_DIR "/data";
}

const CardDb& Pool() {
  static const CardDb* db = [] {
    auto* d = new CardDb;
    if (auto st = LoadCards({DataDir() + "/cards"}, *d); !st.ok()) {
      std::fprintf(stderr, "fuzz_loaders: %s\n", std::string(st.message()).c_str());
      std::abort();
    }
    return d;
  }();
  return *db;
}

// LoadStudy reads DIR/study.toml: one scratch directory per process, removed
// at exit.
const std::string& StudyDir() {
  static const std::string* dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "strata_fuzz_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) {
      std::perror("fuzz_loaders: mkdtemp");
      std::abort();
    }
    auto* d = new std::string(tmpl);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(StudyDir(), ec);
    });
    return d;
  }();
  return *dir;
}

void LoadStudyText(const std::string& text) {
  {
    std::ofstream out(std::filesystem::path(StudyDir()) / kStudyFile, std::ios::binary);
    out << text;
  }
  (void)LoadStudyCards(StudyDir());
  (void)LoadStudy(StudyDir(), Pool());
}

}  // namespace
}  // namespace strata

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 5) {
    case 0: {
      CardDb db;
      (void)LoadCardsFromString(text, "fuzz.toml", db);
      break;
    }
    case 1: {
      CardDb db = Pool();
      (void)LoadCardsFromString(text, "fuzz.toml", db);
      break;
    }
    case 2:
      (void)ParseDeck(text, "fuzz.txt", Pool());
      break;
    case 3: {
      ScenarioOptions opt;
      opt.checked_layers = true;
      (void)RunScenarioText(Pool(), text, "fuzz.toml", opt);
      break;
    }
    case 4:
      LoadStudyText(text);
      break;
  }
  return 0;
}
