#!/bin/bash
# Issue 40 (reliability round 3), the classes a shell run shows: no output
# is an input and no file is replaced without --force (3); tamper checks
# that cannot be removed, on content, not lengths (4); every flag used or
# refused (6); bounded reads and threads (7); messages that name the file,
# line, key or flag and what was expected (8). Each check failed before
# its fix.
# Usage: reliability_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"  # $tmp, fail, expect
d="$src/data/decks"
cp "$d/red_burn.txt" "$d/green_stompy.txt" "$tmp/"
a="$tmp/red_burn.txt"
b="$tmp/green_stompy.txt"
sim=("$strata" --cards "$src/data/cards" sim --decks "$a,$b" --threads 2)

# ---- 3. No output is an input; nothing replaced without --force.
cp "$a" "$tmp/a.keep"
expect 2 "--games-out $a: is a deck file of --decks ($a); an output may not be an input" \
  "${sim[@]}" --games 2 --games-out "$a"
expect 2 "is a deck file of --decks" "${sim[@]}" --games 2 --games-out "$a" --force
ln -s "$a" "$tmp/link.jsonl"
expect 2 "--games-out $tmp/link.jsonl: is a deck file of --decks" \
  "${sim[@]}" --games 2 --games-out "$tmp/link.jsonl" --force
cmp -s "$a" "$tmp/a.keep" || fail "the deck file was written"
cp "$src/tests/cards_extra/extra.toml" "$tmp/extra.toml"
cp "$tmp/extra.toml" "$tmp/extra.keep"
expect 2 "--games-out $tmp/extra.toml: is a card file of --cards ($tmp/extra.toml)" \
  "$strata" --cards "$tmp/extra.toml" sim --decks "$a,$b" --games 2 --games-out "$tmp/extra.toml" --force
cmp -s "$tmp/extra.toml" "$tmp/extra.keep" || fail "the card file was written"
# fuzz --shrink-out may not be the failure file it shrinks, --force or not.
"$strata" --cards "$src/data/cards" fuzz --decks "$a,$b" --games 4 --seed 5 --threads 1 \
  --canary power:3 --failures "$tmp/fail" --replay-every 0 >/dev/null 2>&1
ff=$(ls "$tmp/fail"/*.toml 2>/dev/null | head -1)
[ -n "$ff" ] || fail "the canary fuzz run wrote no failure file"
cp "$ff" "$tmp/ff.keep"
expect 2 "--shrink-out $ff: is the failure file of --replay ($ff); an output may not be an input" \
  "$strata" --cards "$src/data/cards" fuzz --replay "$ff" --canary power:3 --shrink --shrink-out "$ff" --force
cmp -s "$ff" "$tmp/ff.keep" || fail "fuzz --shrink replaced the failure file it read"
echo '{"mine": 1}' >"$tmp/mine.jsonl"
expect 2 "--games-out $tmp/mine.jsonl: the file exists; give --force to replace it" \
  "${sim[@]}" --games 2 --games-out "$tmp/mine.jsonl"
grep -q mine "$tmp/mine.jsonl" || fail "an existing games file was replaced without --force"
expect 0 "wrote $tmp/mine.jsonl" "${sim[@]}" --games 2 --games-out "$tmp/mine.jsonl" --force
# A stray DIR/games.jsonl with lines is kept (an empty one, from a run
# killed before its first checkpoint, is no loss: sim_kill_test.sh).
mkdir "$tmp/stray"
echo '{"mine": 1}' >"$tmp/stray/games.jsonl"
expect 2 "--out $tmp/stray: holds files of a study (games.jsonl) but no study.toml" \
  "${sim[@]}" --games 2 --out "$tmp/stray" --games-out
grep -q mine "$tmp/stray/games.jsonl" || fail "a stray games.jsonl was replaced without --force"

# ---- 4. Tamper checks: a missing digest is an error; content, not lengths.
"${sim[@]}" --games 600 --seed 4 --out "$tmp/s" --games-out --stop-after-blocks 1 >/dev/null 2>&1
[ $? -eq 130 ] || fail "a study stopped after one block exits 130"
cp -r "$tmp/s" "$tmp/nodigests"
awk '/^\[digests\]/ { skip = 1; next } /^\[/ { skip = 0 } !skip' "$tmp/s/study.toml" |
  sed "s/^rules = 'modern'/rules = 'classic'/" >"$tmp/nodigests/study.toml"
grep -q '^\[digests\]' "$tmp/nodigests/study.toml" && fail "sed kept [digests]"
expect 2 "key 'digests': expected the [digests] table strata writes" \
  "$strata" sim --resume "$tmp/nodigests"
# A study from an older strata lacks some digests: refused, naming the
# missing one. A London study with its mulligan keys and their digests
# taken out was resumed as a study without mulligans (and saved so).
"${sim[@]}" --games 600 --seed 4 --mulligan london --out "$tmp/london" --stop-after-blocks 1 \
  >/dev/null 2>&1
[ $? -eq 130 ] || fail "a London study stopped after one block exits 130"
sed -i -e '/^mulligan = /d' -e '/^mulligan_counts = /d' -e '/^mulligans = /d' \
  -e '/^mulligan_games = /d' -e '/^seat_mulligans = /d' "$tmp/london/study.toml"
grep -q "^[a-z_]*mulligan" "$tmp/london/study.toml" && fail "sed kept a mulligan key"
cp "$tmp/london/study.toml" "$tmp/london.keep"
expect 2 "study.toml:" "$strata" sim --resume "$tmp/london"
grep -q -F "key 'digests.mulligan': expected the digest of 'mulligan' strata writes (it is missing: the study was written by an older strata or edited; start a new study with this strata)" "$tmp/out" ||
  { cat "$tmp/out"; fail "no message naming the missing mulligan digest"; }
cmp -s "$tmp/london/study.toml" "$tmp/london.keep" || fail "the study was rewritten"
cp -r "$tmp/s" "$tmp/nogamesdigest"
sed -i '/^games_out_digest = /d' "$tmp/nogamesdigest/study.toml"
expect 2 "key 'games_out_digest': expected this required key (a string)" \
  "$strata" sim --resume "$tmp/nogamesdigest"
cp -r "$tmp/s" "$tmp/edited"
# The same length, other content: a digit of the first game changed.
sed -i '1s/"turns": \([0-9]\)/"turns": 9\1/; 1s/"turns": 9\([0-9]\)\([0-9]\)/"turns": \1\2/' "$tmp/edited/games.jsonl"
sed -i '2s/"seed": \([0-9]\)/"seed": X/; 2s/"seed": X/"seed": 7/' "$tmp/edited/games.jsonl"
[ "$(wc -c <"$tmp/edited/games.jsonl")" -eq "$(wc -c <"$tmp/s/games.jsonl")" ] || fail "the edit changed the length"
cmp -s "$tmp/edited/games.jsonl" "$tmp/s/games.jsonl" && fail "the edit changed nothing"
expect 2 "bytes are not the games the study wrote" "$strata" sim --resume "$tmp/edited"
# merge: a shard's edited games.jsonl is refused.
for i in 1 2; do
  "${sim[@]}" --games 512 --seed 4 --shard $i/2 --out "$tmp/shard$i" --games-out >/dev/null 2>&1 ||
    fail "shard $i"
done
"$strata" merge "$tmp/shard1" "$tmp/shard2" --out "$tmp/whole" >/dev/null 2>&1 || fail "merge"
# Merging onto a complete study (class 8): --resume is no advice there.
expect 2 "--out $tmp/whole: holds an earlier study (study.toml, summary.json, matchups.csv, cards.csv, games.jsonl), complete; give another directory, or --force to replace it" \
  "$strata" merge "$tmp/shard1" "$tmp/shard2" --out "$tmp/whole"
cp "$tmp/shard2/games.jsonl" "$tmp/shard2.keep"
sed -i '1s/"seed": \([0-9]\)/"seed": X/; 1s/"seed": X/"seed": 7/' "$tmp/shard2/games.jsonl"
cmp -s "$tmp/shard2/games.jsonl" "$tmp/shard2.keep" && fail "the shard edit changed nothing"
expect 2 "games.jsonl: its first " "$strata" merge "$tmp/shard1" "$tmp/shard2" --out "$tmp/merged"
grep -q "bytes are not the games its shard wrote" "$tmp/out" || { cat "$tmp/out"; fail "merge: message"; }
# merge: a shard without one of its digests (an older strata's) is refused.
cp "$tmp/shard2.keep" "$tmp/shard2/games.jsonl"
cp -r "$tmp/shard1" "$tmp/old1"
awk '/^\[digests\]/ { d = 1 } d && /^checked_counts = / { next } { print }' "$tmp/shard1/study.toml" \
  >"$tmp/old1/study.toml"
cmp -s "$tmp/old1/study.toml" "$tmp/shard1/study.toml" && fail "awk kept the checked_counts digest"
expect 2 "key 'digests.checked_counts': expected the digest of 'checked_counts' strata writes" \
  "$strata" merge "$tmp/old1" "$tmp/shard2" --out "$tmp/merged_old"
[ -e "$tmp/merged_old/summary.json" ] && fail "merge wrote a study from a shard without a digest"

# ---- 6. Every flag used or refused.
expect 2 "--decks: not with --from $tmp/s" "$strata" replay --from "$tmp/s" --game 0 --decks "$a,$b"
expect 2 "--seed: not with --from $tmp/s" "$strata" replay --from "$tmp/s" --game 0 --seed 9
expect 2 "--out: expected a file or directory name, got ''" "${sim[@]}" --games 2 --out ''
# An empty path names nothing, in every flag and argument that takes one,
# in every command: refused before any game (some aborted on it, and
# `--games-out ''` was taken for DIR/games.jsonl).
expect 2 "--games-out: expected a file name or no value (DIR/games.jsonl of --out), got ''" \
  "${sim[@]}" --games 2 --out "$tmp/emptygames" --games-out ''
[ -e "$tmp/emptygames" ] && fail "--games-out '': a study was written"
expect 2 "--games-out: expected a file name or no value" "${sim[@]}" --games 2 --games-out=
expect 2 "--cards: expected a file or directory name, got ''" "$strata" --cards '' sim --games 2
expect 2 "--decks: expected a file or directory name, got ''" "$strata" sim --decks '' --games 2
expect 2 "deck: expected a file or directory name, got ''" "$strata" ablate '' --against "$b"
expect 2 "deck: expected a file or directory name, got ''" "$strata" swap '' --candidates Shock
expect 2 "decks: expected a file or directory name, got ''" "$strata" compare '' "$a" --against "$b"
expect 2 "shards: expected a file or directory name, got ''" "$strata" merge '' "$tmp/s" --out "$tmp/m"
expect 2 "files: expected a file or directory name, got ''" "$strata" cards check ''
expect 2 "scenario: expected a file or directory name, got ''" "$strata" perft ''
expect 2 "paths: expected a file or directory name, got ''" "$strata" scenario ''
expect 2 "--out: expected a file or directory name, got ''" \
  "$strata" compare "$a" "$b" --against "$b" --out ''
# compare --out a deck file: refused before any game (it played them all
# and then failed at the first write), the file kept.
cp "$a" "$tmp/a.keep2"
expect 2 "--out $a: is a file; expected a directory (new, or a run's)" \
  "$strata" --cards "$src/data/cards" compare "$a" "$a" --against "$b" --games 2 --out "$a" --force
grep -q "games in" "$tmp/out" && fail "compare --out FILE played its games first"
cmp -s "$a" "$tmp/a.keep2" || fail "compare --out FILE changed the deck file"
expect 2 "--shrink-out: expected a file or directory name, got ''" \
  "$strata" fuzz --replay "$tmp/none.toml" --shrink --shrink-out ''
expect 2 "--force: expected --out DIR, --games-out FILE or --resume DIR too" \
  "${sim[@]}" --games 2 --force
expect 2 "parameter 'pass': given twice; expected it once" \
  "${sim[@]}" --games 2 --policies random:pass=0.5,pass=0.1

# ---- 7. Bounded reads, bounded threads.
mkdir "$tmp/zero"
ln -s /dev/zero "$tmp/zero/study.toml"
expect 2 "study.toml: larger than 64 MiB, the most a study file may hold" \
  "$strata" sim --resume "$tmp/zero"
ln -s /dev/zero "$tmp/zero.txt"
expect 2 "$tmp/zero.txt: larger than 64 MiB, the most a deck file may hold" \
  "$strata" sim --threads 2 --games 2 --decks "$tmp/zero.txt,$b"
expect 2 "--threads: expected 0 (all cores) to " "$strata" sim --decks "$a,$b" --games 2 --threads 1024

# ---- 8. Messages that name the right thing.
# (a folder in --decks stands for its decks; where one deck file is expected,
# a folder is named as such)
expect 2 "$tmp: is a directory; expected a deck file" "$strata" compare "$tmp" "$b" --games 2
expect 2 "--decks: expected a file name, got the flag '--threads' (a value missing?)" "$strata" sim --decks , --threads 2
expect 2 "--against: expected a file or directory name, got ''" \
  "$strata" compare "$a" "$b" --against ''
expect 2 "unknown command 'simulate' (did you mean 'sim'?)" "$strata" simulate
expect 2 "--depth" "$strata" perft --depth 0 "$src/tests/perft/one_forest.toml"
printf '200 Mountain\n200 Forest\n200 Island\n' >"$tmp/big.txt"
expect 2 "big.txt:3: expected at most 256 cards in the main deck (a game holds 512 objects, two decks); this line makes it 600" \
  "$strata" sim --threads 2 --games 2 --decks "$tmp/big.txt,$b"
printf '4 %s\n' "$(head -c 1000000 /dev/zero | tr '\0' 'y')" >"$tmp/longname.txt"
"$strata" sim --threads 2 --games 2 --decks "$tmp/longname.txt,$b" >"$tmp/out" 2>&1 && fail "a 1 MB card name loaded"
[ "$(wc -c <"$tmp/out")" -lt 2000 ] || fail "a 1 MB name echoed in full ($(wc -c <"$tmp/out") bytes)"
grep -q -F "(1000000 bytes)" "$tmp/out" || { head -c 500 "$tmp/out"; fail "no length for a long name"; }
# A new study onto a complete one: the same.
"${sim[@]}" --games 2 --out "$tmp/done" >/dev/null 2>&1 || fail "a short study"
expect 2 ", complete; give another directory, or --force to replace it" \
  "${sim[@]}" --games 2 --out "$tmp/done"
# --resume keeps the study's --checkpoint-seconds.
"${sim[@]}" --games 600 --out "$tmp/cp" --checkpoint-seconds 7 --stop-after-blocks 1 >/dev/null 2>&1
grep -q '^checkpoint_seconds = 7' "$tmp/cp/study.toml" || fail "checkpoint_seconds not saved"
"$strata" sim --resume "$tmp/cp" --stop-after-blocks 1 >/dev/null 2>&1
grep -q '^checkpoint_seconds = 7' "$tmp/cp/study.toml" || fail "--resume forgot --checkpoint-seconds"
echo PASS
