#!/bin/bash
# strata sim never loses or corrupts a study: SIGKILLed at random moments and
# resumed each time, then run out of disk (a file size limit, /dev/full and,
# where it may be mounted, a small tmpfs) and resumed, it ends with the same
# summary.json (but its "run" record), matchups.csv, cards.csv and
# games.jsonl as an uninterrupted run, and a failed write exits non-zero.
# Usage: sim_kill_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
mounted=""
trap '[ -n "$mounted" ] && umount "$mounted"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
# Six matchups of 128 games: one block, so one checkpoint, each (a fraction
# of a second).
study=(--cards "$src/data/cards" sim --games 128 --seed 21 --policies heuristic,random --threads 2
       --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt,$d/white_weenie.txt")
"$strata" "${study[@]}" --out "$tmp/full" --games-out >/dev/null || fail "uninterrupted run"
same() {  # same DIR: DIR's results are the uninterrupted run's (but the command line)
  grep -v -e '"run"' -e '"command"' "$tmp/full/summary.json" >"$tmp/a"
  grep -v -e '"run"' -e '"command"' "$1/summary.json" >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "$1: summary.json differs"; }
  for f in matchups.csv cards.csv games.jsonl; do
    cmp "$tmp/full/$f" "$1/$f" || fail "$1: $f differs"
  done
}

# SIGKILL at random moments, each run resuming the last: 5 kills, then the end.
moments=$(awk 'BEGIN { srand(); for (i = 0; i < 5; i++) printf "%.2f ", 0.05 + 1.2 * rand() }')
echo "SIGKILL after: $moments seconds"
for t in $moments; do
  grep -q '^complete = true' "$tmp/kill/study.toml" 2>/dev/null && break  # a fast machine
  if [ -f "$tmp/kill/study.toml" ]; then
    "$strata" sim --resume "$tmp/kill" --checkpoint-seconds 0 >/dev/null 2>&1 &
  else  # killed before the first checkpoint: nothing to resume, start again
    "$strata" "${study[@]}" --out "$tmp/kill" --games-out --checkpoint-seconds 0 >/dev/null 2>&1 &
  fi
  pid=$!
  sleep "$t"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
  [ -f "$tmp/kill/study.toml.tmp" ] && echo "(killed while writing study.toml)"
  echo "after ${t}s: $(grep -m1 '^games_out_bytes' "$tmp/kill/study.toml" 2>/dev/null)"
done
if grep -q '^complete = true' "$tmp/kill/study.toml" 2>/dev/null; then
  echo "(the study ended between the kills)"
elif [ -f "$tmp/kill/study.toml" ]; then
  "$strata" sim --resume "$tmp/kill" >/dev/null 2>&1 || fail "resume after the kills"
else
  "$strata" "${study[@]}" --out "$tmp/kill" --games-out >/dev/null 2>&1 || fail "run after the kills"
fi
same "$tmp/kill"

# Killed after creating games.jsonl, before the first checkpoint: nothing
# was committed, so the same command starts the study again (with a note).
mkdir "$tmp/early"
: >"$tmp/early/games.jsonl"
"$strata" "${study[@]}" --out "$tmp/early" --games-out >/dev/null 2>"$tmp/err" ||
  { cat "$tmp/err"; fail "a restart over a run stopped before its first checkpoint"; }
grep -q "stopped before its first checkpoint" "$tmp/err" || fail "no note for the restart"
same "$tmp/early"
# Other study files without study.toml: nothing to resume, so no --resume
# hint, and nothing replaced without --force.
mkdir "$tmp/nostudy"
: >"$tmp/nostudy/summary.json"
"$strata" "${study[@]}" --out "$tmp/nostudy" >/dev/null 2>"$tmp/err" &&
  fail "files without study.toml replaced without --force"
grep -q "no study.toml, so nothing to resume" "$tmp/err" ||
  { cat "$tmp/err"; fail "no message for files without study.toml"; }

# The file size limit (160 KiB: study.toml, 104 KB with its per-card health counts
# and the fingerprint of each of the pool's 518 cards, fits; games.jsonl, 215 KB,
# outgrows it): the write fails (EFBIG),
# strata exits 1 and study.toml is the last good checkpoint.
(ulimit -f 160; "$strata" "${study[@]}" --out "$tmp/fsize" --games-out --checkpoint-seconds 0 \
   >/dev/null 2>"$tmp/err")
rc=$?
[ $rc -eq 1 ] || fail "a write past the file size limit exits 1, not $rc"
grep -q -F -e "--games-out $tmp/fsize/games.jsonl: write failed: File too large" "$tmp/err" ||
  { cat "$tmp/err"; fail "no message for the failed write"; }
grep -q -F "its last checkpoint in $tmp/fsize is intact" "$tmp/err" || fail "no resume hint"
grep -q '^complete = false' "$tmp/fsize/study.toml" || fail "the checkpoint claims a complete study"
"$strata" sim --resume "$tmp/fsize" >/dev/null 2>&1 || fail "resume after the file size limit"
same "$tmp/fsize"

# /dev/full: exit 1, and the checkpoint made before the first game stays.
"$strata" "${study[@]}" --out "$tmp/devfull" --games-out /dev/full >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "--games-out /dev/full exits 1, not $rc"
grep -q -F -e "--games-out /dev/full: write failed: No space left on device" "$tmp/err" ||
  { cat "$tmp/err"; fail "no message for /dev/full"; }
grep -q '^games_out_bytes = 0$' "$tmp/devfull/study.toml" || fail "/dev/full: checkpoint lost"

# A full tmpfs (only where this test may mount one, e.g. as root).
mkdir "$tmp/mnt"
if mount -t tmpfs -o size=120k strata-test "$tmp/mnt" 2>/dev/null; then
  mounted="$tmp/mnt"
  "$strata" "${study[@]}" --out "$tmp/mnt/s" --games-out --checkpoint-seconds 0 \
    >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 1 ] || fail "a full disk exits 1, not $rc"
  grep -q "No space left on device" "$tmp/err" || { cat "$tmp/err"; fail "no full-disk message"; }
  mount -o remount,size=4m "$tmp/mnt" || fail "remount"
  "$strata" sim --resume "$tmp/mnt/s" >/dev/null 2>&1 || fail "resume after the disk was full"
  same "$tmp/mnt/s"
  echo "full tmpfs: ok"
else
  echo "full tmpfs: skipped (mount not permitted here)"
fi
echo ok
