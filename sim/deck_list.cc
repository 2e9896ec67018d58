#include "sim/deck_list.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

// One file's identity: its canonical path where it exists, else its
// absolute path as written.
std::string FileKey(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return p.string();
}

// A folder's deck files (`*.txt`, regular files, not recursive), sorted by
// name.
absl::StatusOr<std::vector<std::string>> FolderDecks(const std::string& folder,
                                                     absl::string_view flag) {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(folder, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    std::error_code type_ec;
    if (p.extension() == ".txt" && it->is_regular_file(type_ec))
      names.push_back(p.filename().string());
  }
  if (ec)
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " ", folder, ": cannot read the folder: ", ec.message()));
  if (names.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        flag, " ", folder, ": expected deck files (NAME.txt) in the folder, found none"));
  std::sort(names.begin(), names.end());
  std::vector<std::string> out;
  for (const std::string& name : names) out.push_back((fs::path(folder) / name).string());
  return out;
}

}  // namespace

bool SameDeckFile(const std::string& a, const std::string& b) {
  return FileKey(a) == FileKey(b);
}

absl::StatusOr<std::vector<std::string>> ExpandDeckPaths(const std::vector<std::string>& entries,
                                                         absl::string_view flag,
                                                         DeckRepeats repeats) {
  struct Found {
    std::string path;    // as it comes back
    std::string folder;  // the folder given that it came from ("": named itself)
  };
  std::vector<Found> found;
  for (const std::string& entry : entries) {
    std::error_code ec;
    if (!fs::is_directory(entry, ec)) {
      found.push_back({entry, ""});
      continue;
    }
    auto files = FolderDecks(entry, flag);
    if (!files.ok()) return files.status();
    for (std::string& f : *files) found.push_back({std::move(f), entry});
  }
  // A deck against itself: two entries naming one file, no folder.
  const bool mirror = repeats == DeckRepeats::kMirrorPair && found.size() == 2 &&
                      found[0].folder.empty() && found[1].folder.empty();
  std::map<std::string, size_t> seen;  // FileKey -> its first index in `found`
  for (size_t i = 0; i < found.size(); ++i) {
    auto [it, added] = seen.emplace(FileKey(found[i].path), i);
    if (added || mirror) continue;
    auto how = [](const Found& f) {
      return f.folder.empty() ? absl::StrCat("as ", f.path)
                              : absl::StrCat("in the folder ", f.folder);
    };
    return absl::InvalidArgumentError(absl::StrCat(
        flag, ": the deck file ", found[i].path, " is given twice (", how(found[it->second]),
        " and ", how(found[i]), "); expected each deck once",
        repeats == DeckRepeats::kMirrorPair
            ? " (a deck against itself: the same file twice, no other deck and no folder)"
            : ""));
  }
  std::vector<std::string> out;
  for (Found& f : found) out.push_back(std::move(f.path));
  return out;
}

}  // namespace strata
