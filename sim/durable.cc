#include "sim/durable.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace strata {
namespace {

absl::Status Errno(const std::string& path, const char* what) {
  return absl::InternalError(absl::StrCat(path, ": ", what, ": ", std::strerror(errno)));
}

// write(2) until all is written: a short write is not an error by itself.
bool WriteAll(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    s.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// The running digest of the first `bytes` of `path`.
absl::StatusOr<uint64_t> FileDigestValue(const std::string& path, int64_t bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno(path, "cannot read");
  uint64_t hash = kContentDigestStart;
  std::string buffer(1 << 16, '\0');
  int64_t left = bytes;
  while (left > 0) {
    ssize_t n =
        ::read(fd, buffer.data(), static_cast<size_t>(std::min<int64_t>(left, buffer.size())));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      if (n == 0)
        return absl::FailedPreconditionError(
            absl::StrCat(path, ": shorter than the ", bytes, " bytes written to it"));
      return Errno(path, "read failed");
    }
    hash = ContentDigest(std::string_view(buffer.data(), static_cast<size_t>(n)), hash);
    left -= n;
  }
  ::close(fd);
  return hash;
}

std::string ParentDir(const std::string& path) {
  auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path, std::string_view content) {
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno(tmp, "cannot create");
  absl::Status st;
  if (!WriteAll(fd, content))
    st = Errno(tmp, "write failed");
  else if (::fsync(fd) != 0)
    st = Errno(tmp, "fsync failed");
  if (::close(fd) != 0 && st.ok()) st = Errno(tmp, "close failed");
  if (st.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) st = Errno(path, "rename failed");
  if (!st.ok()) {
    ::unlink(tmp.c_str());  // the old file stays, whole
    return st;
  }
  // The rename itself is durable only once the directory is synced.
  const std::string dir = ParentDir(path);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return Errno(dir, "cannot open");
  int rc = ::fsync(dfd);
  ::close(dfd);
  if (rc != 0) return Errno(dir, "fsync failed");
  return absl::OkStatus();
}

CheckedFile::~CheckedFile() {
  if (fd_ >= 0) ::close(fd_);
}

absl::Status CheckedFile::Open(const std::string& path, bool append, int64_t keep) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return Errno(path, "cannot write");
  // Two studies given one --games-out FILE would interleave their lines:
  // locked before it is cut. (A device or pipe takes no lock, nor needs one.)
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return Errno(path, "cannot stat");
  if (S_ISREG(st.st_mode) && ::flock(fd_, LOCK_EX | LOCK_NB) != 0)
    return errno == EWOULDBLOCK ? absl::FailedPreconditionError(absl::StrCat(
                                      path, ": another strata sim is writing this file"))
                                : Errno(path, "cannot lock");
  // New: empty. Resumed: what was written after the last checkpoint is
  // dropped, and the file goes on from there.
  bytes_ = append ? keep : 0;
  hash_ = kContentDigestStart;
  if (bytes_ > 0) {
    auto kept = FileDigestValue(path, bytes_);
    if (!kept.ok()) return kept.status();
    hash_ = *kept;
  }
  if (S_ISREG(st.st_mode) && ::ftruncate(fd_, bytes_) != 0) return Errno(path, "cannot truncate");
  if (::lseek(fd_, bytes_, SEEK_SET) < 0 && S_ISREG(st.st_mode)) return Errno(path, "cannot seek");
  return absl::OkStatus();
}

std::streamsize CheckedFile::xsputn(const char* s, std::streamsize n) {
  if (!status_.ok() || fd_ < 0) return 0;
  if (!WriteAll(fd_, std::string_view(s, static_cast<size_t>(n)))) {
    status_ = Errno(path_, "write failed");
    return 0;
  }
  bytes_ += n;
  hash_ = ContentDigest(std::string_view(s, static_cast<size_t>(n)), hash_);
  return n;
}

std::string CheckedFile::digest() const {
  return ContentDigestHex(hash_);
}

std::string ContentDigestHex(uint64_t hash) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[i] = kHex[hash & 15];
  return out;
}

absl::StatusOr<std::string> FileDigest(const std::string& path, int64_t bytes) {
  auto h = FileDigestValue(path, bytes);
  if (!h.ok()) return h.status();
  return ContentDigestHex(*h);
}

CheckedFile::int_type CheckedFile::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  char ch = traits_type::to_char_type(c);
  return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

absl::Status CheckedFile::Sync() {
  if (!status_.ok()) return status_;
  // EINVAL: a pipe or a device (--games-out /dev/stdout), nothing to sync.
  if (fd_ >= 0 && ::fsync(fd_) != 0 && errno != EINVAL) status_ = Errno(path_, "fsync failed");
  return status_;
}

DirLock::~DirLock() {
  if (fd_ < 0) return;
  // The pid goes with us; if this fails, Acquire's liveness check skips it.
  [[maybe_unused]] int rc = ::ftruncate(fd_, 0);
  ::close(fd_);  // releases the flock
}

absl::Status DirLock::Acquire(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat(dir, ": cannot create: ", ec.message()));
  const std::string path = (std::filesystem::path(dir) / kLockFile).string();
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Errno(path, "cannot create (is the directory writable?)");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const bool busy = errno == EWOULDBLOCK;
    char pid[32] = {};
    ssize_t n = ::pread(fd, pid, sizeof pid - 1, 0);
    ::close(fd);
    if (!busy) return Errno(path, "cannot lock");
    std::string holder = n > 0 ? std::string(pid, static_cast<size_t>(n)) : "";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    // A pid left by a killed run is not the holder's.
    int id = 0;
    if (!absl::SimpleAtoi(holder, &id) || id <= 0 || (::kill(id, 0) != 0 && errno != EPERM))
      holder.clear();
    return absl::FailedPreconditionError(absl::StrCat(
        dir, ": another strata sim is running on this directory",
        holder.empty() ? "" : absl::StrCat(" (pid ", holder, ")"), ", it holds ", path));
  }
  // The pid, for the message above; writing it also proves the directory's
  // disk takes writes.
  std::string pid = absl::StrCat(::getpid(), "\n");
  if (::ftruncate(fd, 0) != 0 || !WriteAll(fd, pid)) {
    absl::Status st = Errno(path, "write failed");
    ::close(fd);
    return st;
  }
  fd_ = fd;
  return absl::OkStatus();
}

absl::Status CheckOutputFile(const std::string& flag, const std::string& path,
                             const std::vector<InputPath>& inputs, bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(fs::absolute(path, ec), ec);
  const bool exists = fs::exists(path, ec);
  for (const InputPath& in : inputs) {
    std::error_code e2;
    const fs::path input = fs::weakly_canonical(fs::absolute(in.path, e2), e2);
    bool same = !out.empty() && out == input;
    if (!same && exists && fs::exists(in.path, e2)) same = fs::equivalent(path, in.path, e2);
    if (!same && fs::is_directory(in.path, e2) && out.extension() == ".toml") {
      // Under the directory: its .toml files are loaded.
      auto rel = out.lexically_relative(input);
      same = !rel.empty() && *rel.begin() != "..";
    }
    if (same)
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " ", path, ": is ", in.what, " (", in.path,
                       "); an output may not be an input: give another file"));
  }
  if (exists && fs::is_directory(path, ec))
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " ", path, ": is a directory; expected a file"));
  if (exists && !force && fs::file_size(path, ec) > 0 && !ec)
    return absl::FailedPreconditionError(absl::StrCat(
        flag, " ", path, ": the file exists; give --force to replace it, or another file"));
  return absl::OkStatus();
}

}  // namespace strata
