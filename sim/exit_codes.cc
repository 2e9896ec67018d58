#include "sim/exit_codes.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace strata {

int BadInput(absl::string_view message) {
  std::fprintf(stderr, "%.*s\n", static_cast<int>(message.size()), message.data());
  return kExitBadInput;
}

int RunFailed(absl::string_view message) {
  std::fprintf(stderr, "%.*s\n", static_cast<int>(message.size()), message.data());
  return kExitFailed;
}

int StdoutStatus() {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return kExitOk;
  const int error = errno;
  std::fprintf(stderr, "stdout: write failed: %s\n", std::strerror(error));
  return kExitFailed;
}

}  // namespace strata
