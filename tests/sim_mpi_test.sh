#!/bin/bash
# strata sim under MPI (a build with -DSTRATA_MPI=ON): mpirun -np 2 and -np 3
# write the same summary.json (but its "run" and "command" lines),
# matchups.csv, cards.csv and games.jsonl as one process, with --games and
# with --ci (stopping at the same game); a job stopped part way (a test stop,
# then SIGTERM to mpirun) leaves a study that a resume, with MPI or without,
# finishes to the same numbers.
# Usage: sim_mpi_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mpi() {  # mpi NP ARGS...: strata under mpirun, one thread per rank
  local np=$1
  shift
  local root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  mpirun -np "$np" --oversubscribe "${root[@]}" "$strata" "$@"
}
d="$src/data/decks"
mkdir -p "$tmp/one" "$tmp/np2" "$tmp/np3" "$tmp/ci1" "$tmp/ci2" "$tmp/ci3" "$tmp/stop" "$tmp/term"

same_study() {
  grep -v -e '"run"' -e '"command"' "$1/summary.json" >"$tmp/a"
  grep -v -e '"run"' -e '"command"' "$2/summary.json" >"$tmp/b"
  cmp "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "$3: summary.json differs"; }
  for f in matchups.csv cards.csv games.jsonl; do
    cmp "$1/$f" "$2/$f" || fail "$3: $f differs"
  done
}

set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 1000 --seed 21 --policies heuristic,random --threads 1 --games-out
(cd "$tmp/one" && "$strata" "$@" --out study >/dev/null) || fail "one process"
(cd "$tmp/np2" && mpi 2 "$@" --out study >"$tmp/out2") || fail "mpirun -np 2"
same_study "$tmp/one/study" "$tmp/np2/study" "-np 2"
grep -q '"processes": 2' "$tmp/np2/study/summary.json" || fail "run record without processes"
[ "$(grep -c "^wrote study/summary.json" "$tmp/out2")" -eq 1 ] || fail "not rank 0 alone printed"
(cd "$tmp/np3" && mpi 3 "$@" --out study >/dev/null) || fail "mpirun -np 3"
same_study "$tmp/one/study" "$tmp/np3/study" "-np 3"

# --ci: every matchup stops at the same block as one process.
set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --ci 0.04 --games 50000 --seed 3 --policies heuristic,random --threads 1 --games-out
(cd "$tmp/ci1" && "$strata" "$@" --out study >/dev/null) || fail "--ci, one process"
(cd "$tmp/ci2" && mpi 2 "$@" --out study >/dev/null) || fail "--ci, -np 2"
(cd "$tmp/ci3" && mpi 3 "$@" --out study >/dev/null) || fail "--ci, -np 3"
same_study "$tmp/ci1/study" "$tmp/ci2/study" "--ci -np 2"
same_study "$tmp/ci1/study" "$tmp/ci3/study" "--ci -np 3"

# Stopped part way, then resumed: by one process, and under MPI.
set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 1000 --seed 21 --policies heuristic,random --threads 1 --games-out
(cd "$tmp/stop" && mpi 2 "$@" --out study --stop-after-blocks 5 >/dev/null 2>"$tmp/err")
[ $? -ne 0 ] || fail "a stopped MPI job exits 0"
grep -q '"partial": true' "$tmp/stop/study/summary.json" || fail "stopped: not partial"
(cd "$tmp/stop" && mpi 2 sim --resume study --threads 1 >/dev/null) || fail "resume under MPI"
same_study "$tmp/one/study" "$tmp/stop/study" "stopped and resumed under MPI"
# SIGTERM to mpirun (what a scheduler sends at the time limit).
# Long enough to be running still when the signal comes (about 1.5 s in):
# 3,000 games a matchup took about a second on two ranks once the engine
# played some 5,000 games/s per thread.
set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 15000 --seed 21 --policies heuristic --threads 1
(cd "$tmp/one" && "$strata" "$@" --out big >/dev/null) || fail "one process, big"
cd "$tmp/term"
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
# mpirun itself (not a shell function's subshell) gets the signal. It is sent
# once rank 0 has written its first checkpoint (its stop handlers are then
# installed), not after a fixed sleep: a fast machine once finished the
# whole study within the sleep.
mpirun -np 2 --oversubscribe "${root[@]}" "$strata" "$@" --out study --checkpoint-seconds 1 \
  >/dev/null 2>"$tmp/err" &
job=$!
for _ in $(seq 300); do
  [ -f study/study.toml ] && break
  sleep 0.1
done
sleep 0.5
kill -TERM "$job"
wait "$job"
grep -q "^complete = true" study/study.toml &&
  fail "SIGTERM: the study finished before the signal reached it (make it longer)"
grep -q "interrupted (SIGTERM)" "$tmp/err" || fail "SIGTERM: rank 0 did not stop cleanly: $(cat "$tmp/err")"
[ -f study/study.toml ] || fail "SIGTERM: no study.toml"
grep -q "^complete = false" study/study.toml || fail "SIGTERM: study not left resumable"
"$strata" sim --resume study --threads 2 >/dev/null || fail "resume after SIGTERM"
cd "$tmp"
grep -v -e '"run"' -e '"command"' one/big/summary.json >a
grep -v -e '"run"' -e '"command"' term/study/summary.json >b
cmp a b || fail "SIGTERM and resume: summary.json differs"
cmp one/big/cards.csv term/study/cards.csv || fail "SIGTERM and resume: cards.csv differs"
echo ok
