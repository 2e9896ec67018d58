// Study files: atomic replacement that keeps the old file on failure, the
// folder lock, seeds parsed exactly, card fingerprints, study.toml read
// back as written, and the runner's checkpoint hook.
#include "sim/durable.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "sim/fingerprint.h"
#include "sim/study_file.h"
#include "tests/bundled.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path TempDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("strata_durable_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(WriteFileAtomically, ReplacesWholeAndKeepsTheOldFileOnFailure) {
  fs::path d = TempDir("atomic");
  const std::string f = (d / "a.txt").string();
  ASSERT_TRUE(WriteFileAtomically(f, "first\n").ok());
  ASSERT_TRUE(WriteFileAtomically(f, "second\n").ok());
  EXPECT_EQ(Read(f), "second\n");
  EXPECT_FALSE(fs::exists(f + ".tmp"));
  // The temporary file cannot be made (a directory is in its way): the
  // error names it, and the old file is untouched.
  fs::create_directory(f + ".tmp");
  absl::Status st = WriteFileAtomically(f, "third\n");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("a.txt.tmp: cannot create"), std::string::npos) << st.message();
  EXPECT_EQ(Read(f), "second\n");
  fs::remove_all(d);
}

TEST(CheckedFile, CountsBytesAppendsAfterACheckpointAndKeepsTheErrno) {
  fs::path d = TempDir("checked");
  const std::string f = (d / "games.jsonl").string();
  {
    CheckedFile file;
    ASSERT_TRUE(file.Open(f, /*append=*/false).ok());
    std::ostream out(&file);
    out << "one\ntwo\n" << std::flush;
    EXPECT_TRUE(file.Sync().ok());
    EXPECT_EQ(file.bytes(), 8);
  }
  {
    CheckedFile file;  // resumed after the first line: the second is cut
    ASSERT_TRUE(file.Open(f, /*append=*/true, 4).ok());
    std::ostream out(&file);
    out << "2\n";
    EXPECT_EQ(file.bytes(), 6);
  }
  EXPECT_EQ(Read(f), "one\n2\n");
  if (fs::exists("/dev/full")) {
    CheckedFile full;
    ASSERT_TRUE(full.Open("/dev/full", false).ok());
    EXPECT_TRUE(full.Sync().ok());  // a device: nothing to sync, not an error
    std::ostream out(&full);
    out << "line\n";
    EXPECT_FALSE(out.good());
    EXPECT_EQ(full.status().message(), "/dev/full: write failed: No space left on device");
    EXPECT_FALSE(full.Sync().ok());
  }
  fs::remove_all(d);
}

TEST(DirLock, OneHolderAtATime) {
  fs::path d = TempDir("lock");
  {
    DirLock a;
    ASSERT_TRUE(a.Acquire(d.string()).ok());
    DirLock b;  // another open file description: flock refuses it too
    absl::Status st = b.Acquire(d.string());
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("another strata sim is running on this directory"),
              std::string::npos)
        << st.message();
  }
  DirLock c;  // released with its holder
  EXPECT_TRUE(c.Acquire(d.string()).ok());
  DirLock e;
  EXPECT_FALSE(e.Acquire((d / kLockFile / "sub").string()).ok());  // not a directory
  fs::remove_all(d);
}

TEST(ParseSeed, ExactlyZeroTo2To64Minus1) {
  uint64_t s = 7;
  EXPECT_TRUE(ParseSeed("0", &s));
  EXPECT_EQ(s, 0u);
  EXPECT_TRUE(ParseSeed("18446744073709551615", &s));
  EXPECT_EQ(s, UINT64_MAX);
  for (const char* bad : {"18446744073709551616", "1e23", "-1", "+1", " 1", "1 ", "", "0x10",
                          "99999999999999999999999", "nan", "1.0"})
    EXPECT_FALSE(ParseSeed(bad, &s)) << bad;
}

TEST(Fingerprint, StableAndNamesWhatChanged) {
  EXPECT_EQ(Hex(Hash64("strata")), Hex(Hash64("strata")));
  EXPECT_NE(Hash64("a"), Hash64("b"));
  EXPECT_EQ(Hex(0x1234), "0000000000001234");
  CardFingerprints cards = FingerprintCards(BundledPool());
  EXPECT_EQ(cards.size(), BundledPool().PoolSize());  // token definitions aside (G-12)
  EXPECT_EQ(DbFingerprint(cards), DbFingerprint(FingerprintCards(BundledPool())));
  CardFingerprints now = cards;
  now["Grizzly Bears"] = "0";
  now.erase("Shock");
  now["New Card"] = "1";
  EXPECT_NE(DbFingerprint(now), DbFingerprint(cards));
  EXPECT_EQ(CardChanges(cards, now), "changed: Grizzly Bears; added: New Card; removed: Shock");
  EXPECT_EQ(CardChanges(cards, now, 1), "changed: Grizzly Bears; added: 1 cards; removed: 1 cards");
}

TEST(StudyFile, ReadsBackWhatItWrote) {
  const CardDb& db = BundledPool();
  fs::path d = TempDir("study");
  Study s;
  s.options.decks = BundledDecks(db, {"red_burn", "green_stompy"});
  s.options.seed = UINT64_MAX;
  s.options.games = 600;
  s.rules = "classic";
  s.options.edition = *ParseEdition("classic");
  s.command = "test";
  s.card_fingerprints = FingerprintCards(db);
  s.cards_fingerprint = DbFingerprint(s.card_fingerprints);
  MatchupStats m;
  m.deck_a = 0, m.deck_b = 1;
  m.games = 256, m.a_wins = 100, m.b_wins = 150, m.draws = 6, m.first_player_wins = 130;
  m.turns = 256 * 9;
  m.end_reasons[1] = 256;
  m.turn_histogram[9] = 256;
  m.cards.side[0][0] = {200, 100, 150, 180, 90, 140};
  m.checked_games = 200, m.violations = 2, m.first_violation_game = 17;
  s.progress = {m};
  ASSERT_TRUE(SaveStudy(d.string(), s, db).ok());
  auto r = LoadStudy(d.string(), db);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->options.seed, UINT64_MAX);
  EXPECT_EQ(r->rules, "classic");
  EXPECT_EQ(r->cards_fingerprint, s.cards_fingerprint);
  EXPECT_EQ(r->version, STRATA_VERSION);
  ASSERT_EQ(r->progress.size(), 1u);
  EXPECT_EQ(r->progress[0].a_wins, 100);
  EXPECT_EQ(r->progress[0].cards.side[0][0].cast_score, 140);
  EXPECT_EQ(r->progress[0].checked_games, 200);
  EXPECT_EQ(r->progress[0].violations, 2);
  EXPECT_EQ(r->progress[0].first_violation_game, 17);
  auto cards = LoadStudyCards(d.string());
  ASSERT_TRUE(cards.ok());
  EXPECT_EQ(cards->card_fingerprints, s.card_fingerprints);
  // A count that cannot be: refused with the key, before the digests.
  s.progress[0].cards.side[0][0].drawn = 300;
  ASSERT_TRUE(SaveStudy(d.string(), s, db).ok());
  auto bad = LoadStudy(d.string(), db);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("key 'matchups[0].cards_a[0]': expected [drawn, opening, "
                                        "cast] at most the matchup's 256 games"),
            std::string::npos)
      << bad.status().message();
  fs::remove_all(d);
}

// The checkpoint hook: called after each wave with whole blocks, and a
// false from it stops the study there, as an interruption would.
TEST(RunStudy, AfterBlocksSeesWholeBlocksAndCanStop) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy", "wu_control"});
  opt.games = 64;
  opt.threads = 2;
  std::vector<int64_t> seen;
  opt.after_blocks = [&](const std::vector<MatchupStats>& ms) {
    int64_t games = 0;
    for (auto& m : ms) {
      EXPECT_TRUE(m.games % kBlockGames == 0 || m.games == opt.games);
      games += m.games;
    }
    seen.push_back(games);
    return seen.size() < 2;
  };
  SimResult r = RunStudy(db, opt);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(seen, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(r.matchups[1].games, 64);
  EXPECT_EQ(r.matchups[2].games, 0);
}

// Shorter waves (wave_seconds, for checkpoints with slow games) change when
// blocks are merged, never the numbers or the games.
TEST(RunStudy, WaveSizeChangesNoResult) {
  const CardDb& db = BundledPool();
  SimOptions opt;
  opt.decks = BundledDecks(db, {"red_burn", "green_stompy"});
  opt.policies = {"heuristic", "passive"};
  opt.games = 300;
  opt.threads = 1;  // waves of 2 blocks: all 300 games in one
  auto run = [&](double wave_seconds, std::string& lines, int& waves) {
    std::ostringstream out;
    SimOptions o = opt;
    o.games_out = &out;
    o.wave_seconds = wave_seconds;
    waves = 0;
    o.after_blocks = [&](const std::vector<MatchupStats>&) { return ++waves > 0; };
    SimResult r = RunStudy(db, o);
    lines = out.str();
    return r.matchups[0];
  };
  std::string fixed_lines, short_lines;
  int fixed_waves, short_waves;
  MatchupStats a = run(0, fixed_lines, fixed_waves);
  MatchupStats b = run(1e-9, short_lines, short_waves);  // one block a wave
  EXPECT_EQ(fixed_waves, 1);
  EXPECT_EQ(short_waves, 2);
  EXPECT_EQ(fixed_lines, short_lines);
  EXPECT_EQ(a.a_wins, b.a_wins);
  EXPECT_EQ(a.turns, b.turns);
  EXPECT_EQ(a.turn_histogram, b.turn_histogram);
  EXPECT_EQ(a.cards.side[1][3].cast_score, b.cards.side[1][3].cast_score);
}

}  // namespace
}  // namespace strata
