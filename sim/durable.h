// Files that survive a kill or a power loss, and writes that never fail
// silently: what a study's --out directory is made of.
#pragma once

#include <streambuf>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace strata {

// Replaces `path` with `content` atomically (SQLite's recipe): write
// path.tmp, fsync it, rename it over path, fsync the directory. A failure
// at any step leaves the old file as it was and names the step and errno.
absl::Status WriteFileAtomically(const std::string& path, std::string_view content);

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
  absl::Status Sync();                      // fsync (nothing to do on a pipe or device)

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int_type overflow(int_type c) override;

 private:
  int fd_ = -1;
  std::string path_;
  int64_t bytes_ = 0;
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

}  // namespace strata
