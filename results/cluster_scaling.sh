#!/usr/bin/env bash
# The figures of results/CLUSTER.md: one study played whole (K = 1), as 3
# shards and as 64 shards played one after another on this machine and then
# merged (a stand-in for a 64-node job array), checking that the merged
# files equal the whole study's; then, with a strata built with
# -DSTRATA_MPI=ON (MPI_STRATA=path), one process against mpirun -np 2.
# Usage: [KS="3 64"] [GAMES=16384] [MPI_STRATA=build-mpi/strata] \
#   results/cluster_scaling.sh STRATA [OUT_DIR]   (from the checkout)
set -euo pipefail
strata=$(realpath "$1")
mpi=${MPI_STRATA:+$(realpath "$MPI_STRATA")}
out=${2:-/tmp/strata-cluster}
src=$(pwd)
d="$src/data/decks"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
# One matchup of 16,384 games: 64 blocks of 256, one per shard at K = 64.
study=(--cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt" --games "${GAMES:-16384}"
       --seed 7 --policies heuristic --games-out)
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
same() {
  grep -v -e '"run"' -e '"command"' k1/study/summary.json >a.json
  grep -v -e '"run"' -e '"command"' "$1/summary.json" >b.json
  cmp a.json b.json && cmp k1/study/matchups.csv "$1/matchups.csv" &&
    cmp k1/study/cards.csv "$1/cards.csv" && cmp k1/study/games.jsonl "$1/games.jsonl" &&
    echo "$1: summary.json (but run, command), matchups.csv, cards.csv, games.jsonl equal K = 1's"
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now)
"$strata" "${study[@]}" --threads 2 --out k1/study >k1.txt
echo "K = 1: $(secs "$t0" "$(now)") s, $(grep -o '"games_per_second": [0-9.]*' k1/study/summary.json)"
for k in ${KS-3 64}; do
  t0=$(now)
  for i in $(seq 1 "$k"); do
    "$strata" "${study[@]}" --threads 2 --shard "$i/$k" --out "k$k/s$i" >/dev/null
  done
  t1=$(now)
  "$strata" merge $(seq -f "k$k/s%g" 1 "$k") --out "k$k/study" >"k$k.txt"
  t2=$(now)
  echo "K = $k: shards $(secs "$t0" "$t1") s one after another, merge $(secs "$t1" "$t2") s" \
    "($(grep -o '"merge_seconds": [0-9.]*' "k$k/study/summary.json"))"
  same "k$k/study"
done
grep "^red_burn  " k1.txt
if [ -n "$mpi" ]; then
  root=()
  [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
  for run in "1 process, 1 thread:$mpi ${study[*]} --threads 1 --out m1/study" \
             "1 process, 2 threads:$mpi ${study[*]} --threads 2 --out m1t2/study" \
             "mpirun -np 2, 1 thread each:mpirun -np 2 ${root[*]} $mpi ${study[*]} --threads 1 --out m2/study"; do
    t0=$(now)
    ${run#*:} >/dev/null
    dir=$(echo "${run#*:}" | grep -o -- '--out [^ ]*' | cut -d' ' -f2)
    echo "${run%%:*}: $(secs "$t0" "$(now)") s, $(grep -o '"games_per_second": [0-9.]*' "$dir/summary.json")"
    same "$dir"
  done
fi
