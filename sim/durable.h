// Files that survive a kill or a power loss, and writes that never fail
// silently: what a study's --out directory is made of.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace strata {

// Replaces `path` with `content` atomically (SQLite's recipe): write
// path.tmp, fsync it, rename it over path, fsync the directory. A failure
// at any step leaves the old file as it was and names the step and errno.
absl::Status WriteFileAtomically(const std::string& path, std::string_view content);

// fsync of an existing file's data (a stream's bytes written so far).
absl::Status SyncFile(const std::string& path);

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
