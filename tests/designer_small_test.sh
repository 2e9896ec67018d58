#!/bin/bash
# Small things a designer meets first (issue 39): the README's Quick start
# is exactly two commands (run, test); a study's `next:` replay command is
# short: `--from DIR` with --out, else only the options that are not the
# defaults, with paths relative to where it was run (a default round robin
# is `strata replay --games N`, no eight deck paths), and it replays.
# Usage: designer_small_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The Quick start: the indented lines of its section are two commands.
quick=$(awk '/^## Quick start/{on = 1; next} /^## /{on = 0} on && /^    [^ ]/' "$src/README.md")
[ "$(printf '%s\n' "$quick" | wc -l)" = 2 ] || fail "Quick start is not two commands: $quick"
printf '%s\n' "$quick" | sed -n 1p | grep -q '^    scripts/run ' || fail "first command is not scripts/run"
printf '%s\n' "$quick" | sed -n 2p | grep -q '^    scripts/test ' || fail "second command is not scripts/test"
grep -q 'scripts/test_mpi' "$src/README.md" || fail "scripts/test_mpi no longer documented"

cd "$src" || fail "cd $src"
replay_of() { sed -n 's/^next: a game with its log: \(.*\) --matchup M --game I .*/\1/p' "$1"; }

# The default round robin (the bundled decks): no deck path at all.
"$strata" sim --games 4 --threads 2 >"$tmp/rr" 2>&1 || { cat "$tmp/rr"; fail "round robin"; }
cmd=$(replay_of "$tmp/rr")
[ "$cmd" = "strata replay --games 4" ] || fail "round robin's replay command: '$cmd'"
# shellcheck disable=SC2086
"$strata" ${cmd#strata } --matchup 27 --game 3 --quiet >"$tmp/replay" 2>&1 || { cat "$tmp/replay"; fail "replay: $cmd"; }
grep -q '^game 3 of matchup 27: ' "$tmp/replay" || fail "the replay did not play game 3 of matchup 27"

# Decks given: relative paths, and only the options not at their defaults.
"$strata" sim --decks data/decks/red_burn.txt,"$src/data/decks/green_stompy.txt" --games 4 --seed 9 \
  --mulligan london --threads 2 >"$tmp/two" 2>&1 || { cat "$tmp/two"; fail "two decks"; }
cmd=$(replay_of "$tmp/two")
[ "$cmd" = "strata replay --decks data/decks/red_burn.txt,data/decks/green_stompy.txt --games 4 --mulligan london --seed 9" ] ||
  fail "two decks' replay command: '$cmd'"
# shellcheck disable=SC2086
"$strata" ${cmd#strata } --game 1 --quiet >"$tmp/replay2" 2>&1 || { cat "$tmp/replay2"; fail "replay: $cmd"; }
grep -q '^game 1 of matchup 0: ' "$tmp/replay2" || fail "the replay did not play game 1"

# With --out: --from DIR.
"$strata" sim --decks data/decks/red_burn.txt,data/decks/green_stompy.txt --games 4 --threads 2 \
  --out "$tmp/study" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "with --out"; }
cmd=$(replay_of "$tmp/out")
[ "$cmd" = "strata replay --from $tmp/study" ] || fail "--out's replay command: '$cmd'"
echo "designer small things: ok"
