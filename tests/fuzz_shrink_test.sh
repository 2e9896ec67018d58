#!/bin/bash
# strata fuzz --shrink end to end, with a deliberately false invariant (the
# canary: no creature has power 4 or more) standing in for a rules bug: a
# run writes failure files and shrinks each to a scenario that `strata
# scenario --canary` fails by that invariant; --replay --shrink does the
# same for one file; bad input gets one message and a non-zero exit.
# Usage: fuzz_shrink_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"  # $tmp, fail, expect
# Two fixed decks (copies kept in tests/decks, not the bundled ones), not
# random decks from the pool: each card added to the pool moved the random
# decks of seed 5, and once (Stasis) made one of its games 39 turns long,
# the shrink of it 40 s (800 s under ASan). With these decks the games
# depend only on these cards; --shrink-budget bounds each shrink anyway.
decks="$src/tests/decks/shrink_green.txt,$src/tests/decks/shrink_white.txt"
fuzz=("$strata" --cards "$src/data/cards" fuzz --threads 1 --decks "$decks" --shrink-budget 150)
scenario=("$strata" --cards "$src/data/cards" scenario)

# A run that breaks the canary: failure files, each shrunk beside it.
expect 1 "shrunk canary from the start of" "${fuzz[@]}" --games 8 --seed 5 --canary power:4 \
  --failures "$tmp/f" --shrink
cat "$tmp/out"
n=$(ls "$tmp/f"/*.scenario.toml | wc -l)
[ "$n" -ge 2 ] || fail "expected shrunk scenarios, found $n"
for s in "$tmp/f"/*.scenario.toml; do
  # Small: a handful of objects, not the 80 cards of the game (2 to 8
  # with these decks).
  objects=$(grep -c '^\[\[object\]\]' "$s")
  [ "$objects" -le 12 ] || fail "$s has $objects objects"
  expect 1 "invariant canary: " "${scenario[@]}" --canary power:4 "$s"
  grep -q "^FAIL fuzz seed 5 game" "$tmp/out" || fail "no FAIL line for $s"
  # Without the canary nothing is broken.
  expect 0 "1 passed, 0 failed" "${scenario[@]}" "$s"
done

# One failure file, shrunk to a named file.
first=$(ls "$tmp/f"/seed5-game*.toml | grep -v scenario | head -1)
expect 0 "scenario: $tmp/one.toml" "${fuzz[@]}" --replay "$first" --canary power:4 --shrink \
  --shrink-out "$tmp/one.toml"
expect 1 "invariant canary: " "${scenario[@]}" --canary power:4 "$tmp/one.toml"

# No file is replaced without --force (issue 40): a named --shrink-out that
# exists is refused before any work; the files the fuzzer names itself go
# beside the old ones (NAME.1.toml), which stay as they were.
expect 2 "--shrink-out $tmp/one.toml: the file exists; give --force to replace it" \
  "${fuzz[@]}" --replay "$first" --canary power:4 --shrink --shrink-out "$tmp/one.toml"
expect 0 "scenario: $tmp/one.toml" "${fuzz[@]}" --replay "$first" --canary power:4 --shrink \
  --shrink-out "$tmp/one.toml" --force
cp "$first" "$tmp/first.kept"
expect 1 "replay: strata fuzz --replay ${first%.toml}.1.toml" "${fuzz[@]}" --games 8 --seed 5 \
  --canary power:4 --failures "$tmp/f"
cmp -s "$first" "$tmp/first.kept" || fail "a second run replaced $first"
expect 1 "replay: strata fuzz --replay $first" "${fuzz[@]}" --games 8 --seed 5 --canary power:4 \
  --failures "$tmp/f" --force
[ ! -e "${first%.toml}.2.toml" ] || fail "--force wrote beside instead of replacing"

# Bad input: one message each.
expect 2 "--shrink $first: every invariant holds in this game as it replays: nothing to shrink" \
  "${fuzz[@]}" --replay "$first" --shrink --shrink-out "$tmp/two.toml"
[ ! -e "$tmp/two.toml" ] || fail "a scenario was written for a healthy game"
expect 2 "--shrink: can't write $tmp/no/such/dir/x.toml" "${fuzz[@]}" --replay "$first" \
  --canary power:4 --shrink --shrink-out "$tmp/no/such/dir/x.toml"
printf 'run_seed = "1"\n' > "$tmp/bad.toml"
expect 2 "key 'game_seed': expected a number in a string" "${fuzz[@]}" --replay "$tmp/bad.toml" \
  --shrink
expect 2 "--canary: expected power:N with N from 1 to 1000, got 'toughness:3'" "${fuzz[@]}" \
  --games 1 --canary toughness:3
expect 2 "--canary: expected power:N with N from 1 to 1000, got 'power:0'" "${scenario[@]}" \
  --canary power:0 "$tmp/one.toml"
expect 2 "--shrink-out goes with --replay FILE --shrink" "${fuzz[@]}" --games 1 \
  --shrink-out "$tmp/x.toml"
echo "fuzz --shrink: ok"
