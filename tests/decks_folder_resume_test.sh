#!/bin/bash
# Decks from a folder (issue 38), the long half of decks_folder_test.sh:
# a study of a folder records its files, so an interrupted one resumes
# with or without the folder named again (named with another deck: refused)
# and ends as the uninterrupted one; swap and compare play a folder of
# opponents, and a compare kept with --out resumes with no folder. Hundreds
# of games each: scripts/sanitize leaves this test to the release build.
# Usage: decks_folder_resume_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"
classic="$src/data/decks/classic"
burn="$src/data/decks/red_burn.txt"
n=$(ls "$classic"/*.txt | wc -l)
[ "$n" -ge 3 ] || fail "data/decks/classic holds $n decks"

# Interrupted and resumed: the uninterrupted study's figures.
"$strata" sim --decks "$classic" --games 600 --threads 2 --out "$tmp/r" --stop-after-blocks 3 \
  >/dev/null 2>&1
[ $? -eq 130 ] || fail "the stopped study did not exit 130"
expect 2 "--resume $tmp/r: not the study's --decks/--gauntlet" \
  "$strata" sim --resume "$tmp/r" --decks "$classic,$burn"
expect 0 "health: " "$strata" sim --resume "$tmp/r" --decks "$classic" --threads 2
"$strata" sim --decks "$classic" --games 600 --threads 2 --out "$tmp/whole" >/dev/null 2>&1 ||
  fail "the uninterrupted study"
cmp "$tmp/r/matchups.csv" "$tmp/whole/matchups.csv" || fail "resumed != uninterrupted"

# --against FOLDER for swap and compare.
expect 0 "against the same $n opponents" \
  "$strata" swap "$burn" --candidates Shock --against "$classic" --games 256 --threads 2
# compare kept with --out: study.toml lists the opponents' files, and a
# resume needs no folder.
"$strata" compare "$burn" "$src/data/decks/rg_aggro.txt" --against "$classic" --games 600 \
  --threads 2 --out "$tmp/c" --stop-after-waves 1 >/dev/null 2>&1
[ $? -eq 130 ] || fail "the stopped compare did not exit 130"
grep -q -F "'$classic/zoo.txt'" "$tmp/c/study.toml" || fail "compare's study.toml lacks the files"
expect 0 "overall" "$strata" compare --resume "$tmp/c" --threads 2
echo "decks from folders, resumed: ok"
