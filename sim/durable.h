// Files that survive a kill or a power loss, and writes that never fail
// silently: what a study's --out directory is made of.
#pragma once

#include <cstdint>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace strata {

// Replaces `path` with `content` atomically (SQLite's recipe): write
// path.tmp, fsync it, rename it over path, fsync the directory. A failure
// at any step leaves the old file as it was and names the step and errno.
absl::Status WriteFileAtomically(const std::string& path, std::string_view content);

// FNV-1a, 64 bits, of `data`, continued from `hash` (start: the offset
// basis kContentDigestStart): a running digest of a file written in pieces.
inline constexpr uint64_t kContentDigestStart = 14695981039346656037ull;
inline uint64_t ContentDigest(std::string_view data, uint64_t hash = kContentDigestStart) {
  for (unsigned char c : data) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}
std::string ContentDigestHex(uint64_t hash);  // 16 hex digits
// The digest of the first `bytes` of `path`, or an error naming the file
// when it cannot be read or is shorter.
absl::StatusOr<std::string> FileDigest(const std::string& path, int64_t bytes);

// An output file for a std::ostream (games.jsonl) that keeps the errno of
// a failed write, which std::ofstream loses, and counts the bytes in it.
// Unbuffered: the runner writes whole chunks of lines. After a failure,
// further writes are dropped and the stream goes bad.
class CheckedFile : public std::streambuf {
 public:
  CheckedFile() = default;
  ~CheckedFile() override;
  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;
  // Truncated, or appended to after its first `keep` bytes (the rest cut).
  absl::Status Open(const std::string& path, bool append, int64_t keep = 0);
  // The first failed write, as "PATH: write failed: strerror", or OK.
  const absl::Status& status() const { return status_; }
  int64_t bytes() const { return bytes_; }  // in the file so far
  // A digest of the file's content so far (ContentDigest of its bytes():
  // the kept part read at Open, then every byte written), which a study
  // records so that a resume or a merge checks content, not only length.
  std::string digest() const;
  absl::Status Sync();  // fsync (nothing to do on a pipe or device)

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int_type overflow(int_type c) override;

 private:
  int fd_ = -1;
  std::string path_;
  int64_t bytes_ = 0;
  uint64_t hash_ = kContentDigestStart;  // FNV-1a of the content so far (ContentDigest)
  absl::Status status_;
};

// An exclusive flock on DIR/study.lock, held until destroyed. The kernel
// drops it when the process dies, so a killed run leaves no stale lock.
class DirLock {
 public:
  DirLock() = default;
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  // Fails if the directory cannot be created or written (the check that
  // --out is writable before the first game), or another process holds it.
  absl::Status Acquire(const std::string& dir);

 private:
  int fd_ = -1;
};

inline constexpr const char* kLockFile = "study.lock";

// An input of a command, for CheckOutputFile: a file or a directory, and
// what it is ("a deck of --decks", "a card file of --cards").
struct InputPath {
  std::string path;
  std::string what;
};

// No output is an input, and no file is replaced unless told (issue 40):
// `path`, the output `flag` names, must not be any of `inputs` (the same
// file by any name: a link, a hard link, a relative path), nor a .toml file
// under an input directory (which the loader would read); and a non-empty
// file there is replaced only with `force` (an empty one loses nothing: a
// run killed before its first checkpoint leaves one).
absl::Status CheckOutputFile(const std::string& flag, const std::string& path,
                             const std::vector<InputPath>& inputs, bool force);

}  // namespace strata
