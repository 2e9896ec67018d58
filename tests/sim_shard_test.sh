#!/bin/sh
# strata sim --shard and strata merge end to end: shards 1/3, 2/3 and 3/3
# merged write the same summary.json (but its "run" and "command" lines),
# matchups.csv, cards.csv and games.jsonl as the unsharded study, for a round
# robin and a gauntlet (one shard interrupted and resumed on the way); merge
# refuses shards of another study, missing, repeated and interrupted ones,
# and sim refuses bad --shard values, each with its one message.
# Usage: sim_shard_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
# Each run writes --out study in its own folder: the replay command in the
# health warnings names --out, so the files are comparable byte for byte.
mkdir -p "$tmp/one" "$tmp/merged" "$tmp/gone" "$tmp/gmerged"

# The same files, but for the record of the run that wrote them.
same_study() {
  for f in summary.json; do
    grep -v -e '"run"' -e '"command"' "$1/$f" >"$tmp/a"
    grep -v -e '"run"' -e '"command"' "$2/$f" >"$tmp/b"
    cmp "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "$3: $f differs"; }
  done
  for f in matchups.csv cards.csv games.jsonl; do
    cmp "$1/$f" "$2/$f" || fail "$3: $f differs"
  done
}

# A round robin of three decks, 600 games a matchup: blocks of 256, 256, 88.
set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 600 --seed 21 --policies heuristic,random --threads 2 --games-out
(cd "$tmp/one" && "$strata" "$@" --out study >/dev/null) || fail "unsharded run"
for i in 1 2 3; do
  "$strata" "$@" --shard "$i/3" --out "$tmp/s$i" >"$tmp/out$i" || fail "shard $i/3"
done
grep -q "shard 2 of 3: these are this shard's games only" "$tmp/out2" || fail "no shard note"
grep -q '"shard": {"index": 2, "of": 3}' "$tmp/s2/summary.json" || fail "summary.json: shard"
[ "$(wc -l <"$tmp/s3/games.jsonl")" -eq 264 ] || fail "shard 3/3 has not 3 x 88 games"
(cd "$tmp/merged" && "$strata" merge "$tmp/s3" "$tmp/s1" "$tmp/s2" --out study >"$tmp/mout") ||
  fail "merge"
grep -q "merged 3 shards into study" "$tmp/mout" || fail "merge: no summary line"
grep -q '"run": {"merged_shards": 3, "games": 1800' "$tmp/merged/study/summary.json" ||
  fail "merged run record"
same_study "$tmp/one/study" "$tmp/merged/study" "round robin"
# The merged folder is a study like any: replay finds its games.
rec=$("$strata" replay --from "$tmp/merged/study" --matchup 1 --game 300 | sed -n 's/^record: //p')
[ "$rec" = "$(sed -n 901p "$tmp/one/study/games.jsonl")" ] || fail "replay from the merged study"

# A gauntlet, 1000 games a matchup: four blocks, so shard 1/3 plays two per
# matchup; it is interrupted after one, refused by merge, and resumed.
set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt" \
  --gauntlet "$d/wu_control.txt" --games 1000 --seed 5 --policies random --threads 2 --games-out
(cd "$tmp/gone" && "$strata" "$@" --out study >/dev/null) || fail "unsharded gauntlet"
"$strata" "$@" --shard 1/3 --out "$tmp/g1" --stop-after-blocks 1 >/dev/null 2>&1
[ $? -eq 130 ] || fail "an interrupted shard exits 130"
for i in 2 3; do "$strata" "$@" --shard "$i/3" --out "$tmp/g$i" >/dev/null || fail "gauntlet $i/3"; done
out=$("$strata" merge "$tmp/g1" "$tmp/g2" "$tmp/g3" --out "$tmp/gx" 2>&1) && fail "merged an interrupted shard"
echo "$out" | grep -q "g1 (shard 1 of 3) was interrupted before the end (256 of 976 games); finish it first: strata sim --resume $tmp/g1" ||
  fail "interrupted shard: $out"
[ ! -e "$tmp/gx/study.toml" ] || fail "a refused merge wrote a study"
"$strata" sim --resume "$tmp/g1" --shard 2/3 2>&1 | grep -q -e "not the study's --shard" ||
  fail "a resume with another --shard"
"$strata" sim --resume "$tmp/g1" --threads 1 >/dev/null || fail "resume of a shard"
(cd "$tmp/gmerged" && "$strata" merge "$tmp/g1" "$tmp/g2" "$tmp/g3" --out study >/dev/null) ||
  fail "merge of the gauntlet"
same_study "$tmp/gone/study" "$tmp/gmerged/study" "gauntlet"

# merge refuses, with one message each.
refused() {  # refused PATTERN MERGE-ARGS...
  pat=$1
  shift
  out=$("$strata" merge "$@" --out "$tmp/refused" 2>&1) && fail "merge $*: exit 0"
  echo "$out" | grep -q -e "$pat" || fail "merge $*: '$out' lacks '$pat'"
  [ "$(echo "$out" | wc -l)" -eq 1 ] || fail "merge $*: not one line: $out"
}
refused "missing shard 3 of 3" "$tmp/s1" "$tmp/s2"
refused "missing shards 2, 3 of 3" "$tmp/s1"
refused "shard 2 of 3 given twice ($tmp/s2 and $tmp/s2)" "$tmp/s1" "$tmp/s2" "$tmp/s2" "$tmp/s3"
"$strata" --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 600 --seed 22 --policies heuristic,random --threads 2 --games-out --shard 3/3 \
  --out "$tmp/seed22" >/dev/null || fail "shard with another seed"
refused "$tmp/seed22 is not a shard of the study in $tmp/s1: --seed 22, not 21" \
  "$tmp/s1" "$tmp/s2" "$tmp/seed22"
"$strata" --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 900 --seed 21 --policies heuristic,random --threads 2 --shard 3/3 --out "$tmp/g900" \
  >/dev/null || fail "shard with other --games"
refused "$tmp/g900 is not a shard of the study in $tmp/s1: --games 900, not 600" \
  "$tmp/s1" "$tmp/s2" "$tmp/g900"
refused "$tmp/g2 is not a shard of the study in $tmp/s1: --seed 5, not 21" "$tmp/s1" "$tmp/g2"
"$strata" --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt" \
  --games 600 --seed 21 --policies heuristic,random --threads 2 --shard 2/2 --out "$tmp/k2" \
  >/dev/null || fail "a shard of 2"
refused "split into 2 shard(s), not 3" "$tmp/s1" "$tmp/k2" "$tmp/s3"
refused "no such study directory" "$tmp/s1" "$tmp/nope"
refused "is one of the shards" "$tmp/s1" "$tmp/refused"
[ ! -e "$tmp/refused/study.toml" ] || fail "a refused merge wrote a study"

# Bad --shard values: one message, non-zero, no game played.
set -- --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt" --games 600
for bad in 0/3 4/3 1/0 x 1/ /3 -1/3 1/3/3 2/100001; do
  out=$("$strata" "$@" --shard "$bad" 2>&1) && fail "--shard $bad: exit 0"
  [ "$out" = "--shard: expected i/K with 1 <= i <= K <= 100000, got '$bad'" ] ||
    fail "--shard $bad: '$out'"
done
out=$("$strata" "$@" --shard 1/4 2>&1) && fail "--shard 1/4 of 3 blocks: exit 0"
echo "$out" | grep -q "is 3 block(s) of 256 games per matchup, so some shards would play no game" ||
  fail "more shards than blocks: $out"
out=$("$strata" "$@" --shard 1/2 --ci 0.05 2>&1) && fail "--shard with --ci: exit 0"
echo "$out" | grep -q -e "--shard: not with --ci" || fail "--shard with --ci: $out"
echo ok
