// strata's exit codes: one convention for every command, listed in
// README.md ("Exit codes") and `strata --help`.
#pragma once

#include "absl/strings/string_view.h"

namespace strata {

// Success: the command did all it was asked, and any check it made held.
inline constexpr int kExitOk = 0;
// A check failed, or the run did: a rules invariant broken (--checked,
// fuzz), a scenario that does not hold, `cards check` on cards that do not
// load, `cover` short of its target, a write that failed (a full disk, a
// closed pipe).
inline constexpr int kExitFailed = 1;
// Bad input or usage, refused before any game: an unknown command, flag or
// value (CLI11's own errors too), a file that does not load or is not
// there (deck, card, scenario, format, study), an illegal deck under
// --format, an --out that holds another run.
inline constexpr int kExitBadInput = 2;
// Stopped by a signal between blocks, the results so far saved: 128 + the
// signal (129 SIGHUP, 130 SIGINT, 143 SIGTERM).

// `message` on stderr, one line; returns kExitBadInput.
int BadInput(absl::string_view message);
// `message` on stderr, one line; returns kExitFailed.
int RunFailed(absl::string_view message);
// 0 if everything printed on stdout was written (flushed); else its error
// on stderr and kExitFailed: a full disk or a closed pipe is no success.
int StdoutStatus();

}  // namespace strata
