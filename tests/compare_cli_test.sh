#!/bin/bash
# strata compare OLD NEW: both versions play the games a gauntlet study of
# each would (common random numbers), the same output for one thread or two,
# a deck against itself differs by exactly nothing, the bundled gauntlet
# leaves out a tested deck's own file, and the replay command it prints runs.
# Usage: compare_cli_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
old="$src/tests/decks/v1/burn.txt"
new="$src/tests/decks/v2/burn.txt"
opp="$d/green_stompy.txt,$d/black_removal.txt"

"$strata" compare "$old" "$new" --against "$opp" --games 128 --threads 1 >"$tmp/one" 2>&1 ||
  { cat "$tmp/one"; fail "compare exited non-zero"; }
cat "$tmp/one"
"$strata" compare "$old" "$new" --against "$opp" --games 128 --threads 2 >"$tmp/two" 2>&1 ||
  fail "compare --threads 2 exited non-zero"
diff <(grep -v 'games/s' "$tmp/one") <(grep -v 'games/s' "$tmp/two") ||
  fail "one thread and two differ"

grep -q '^compare: v1/burn (OLD) and v2/burn (NEW), each against the same 2 opponents on the same games' "$tmp/one" ||
  fail "no header naming both versions"
grep -q -F "NEW's deck: +5 Mountain, -5 Swamp, +2 Shock, -2 Terror (40 cards, OLD 40)" "$tmp/one" ||
  fail "no deck changes line"
grep -q '^overall  *256 ' "$tmp/one" || fail "no overall row of 256 games"
grep -q '^verdict: ' "$tmp/one" || fail "no verdict"
grep -q '^  \* Terror  *2 -> 0 ' "$tmp/one" || fail "Terror not listed as changed, 2 -> 0"

# The OLD and NEW columns are the A win rates of gauntlet studies of each
# version with the same seed: the very same games.
for v in old new; do
  deck=${!v}
  "$strata" sim --decks "$deck,$opp" --gauntlet "$deck" --games 128 --threads 2 >"$tmp/sim_$v" 2>&1 ||
    fail "sim of $v"
done
for o in green_stompy black_removal; do
  want_old=$(awk -v o=$o '$2 == o {print $4; exit}' "$tmp/sim_old")
  want_new=$(awk -v o=$o '$2 == o {print $4; exit}' "$tmp/sim_new")
  got=$(awk -v o=$o '$1 == o {print $3, $4; exit}' "$tmp/one")
  [ -n "$want_old" ] && [ "$got" = "$want_old $want_new" ] ||
    fail "$o: compare says '$got', the gauntlet studies '$want_old $want_new'"
  # The change is NEW minus OLD.
  awk -v o=$o '$1 == o {c = $4 - $3; s = $5 + 0; if (c - s > 0.11 || s - c > 0.11) exit 1}' "$tmp/one" ||
    fail "$o: the change is not NEW minus OLD"
done

# The replay command it prints plays game I of NEW's matchup M.
cmd=$(sed -n 's/^next: a game with its log: \(.*\) --matchup M --game I .*/\1/p' "$tmp/one")
[ -n "$cmd" ] || fail "no replay command"
cmd=${cmd#strata }
# shellcheck disable=SC2086
"$strata" $cmd --matchup 1 --game 5 --quiet >"$tmp/replay" 2>&1 || { cat "$tmp/replay"; fail "replay: $cmd"; }
grep -q '^game 5 of matchup 1: .*burn.* vs .*black_removal\|^game 5 of matchup 1: black_removal.* vs burn' "$tmp/replay" ||
  { cat "$tmp/replay"; fail "replay did not play game 5 of matchup 1"; }

# A deck against itself: every game the same, the change exactly 0.
"$strata" compare "$old" "$old" --against "$d/green_stompy.txt" --games 64 --threads 2 >"$tmp/same" 2>&1 ||
  fail "compare of a deck with itself"
grep -q '^compare: burn (OLD) and burn (2) (NEW)' "$tmp/same" || { cat "$tmp/same"; fail "labels of the same file twice"; }
grep -q '^green_stompy  *64 .* +0.0  \[ +0.0,  +0.0\]$' "$tmp/same" || { cat "$tmp/same"; fail "a deck against itself changes"; }
grep -q '^verdict: the two versions scored the same on every seed: the change is exactly 0$' "$tmp/same" || fail "verdict for identical decks"
grep -q -F "NEW's deck: the same cards as OLD's" "$tmp/same" || fail "no 'the same cards'"

# The default opponents are the bundled decks, but a tested deck's own file.
"$strata" compare "$d/red_burn.txt" "$new" --games 2 --threads 2 >"$tmp/gauntlet" 2>&1 ||
  { cat "$tmp/gauntlet"; fail "compare against the bundled decks"; }
grep -q 'red_burn.txt is a tested deck, not also an opponent' "$tmp/gauntlet" || fail "no note on the excluded deck"
grep -q 'each against the same 7 opponents' "$tmp/gauntlet" || { cat "$tmp/gauntlet"; fail "not 7 opponents"; }
grep -q '^red_burn ' "$tmp/gauntlet" && fail "red_burn played itself"
echo "compare: all checks passed"
