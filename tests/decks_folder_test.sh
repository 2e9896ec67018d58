#!/bin/bash
# Decks from a folder (issue 38): a folder in --decks (sim, replay, play,
# fuzz) or --against (compare, ablate, swap) stands for its *.txt files,
# sorted by name, not recursive; folders and files mix. A study of a folder
# is the study of its files listed (the same matchups.csv), records the
# files (so --resume and replay --from need no folder), and a resumed one
# ends as the uninterrupted one. Refused with one message, exit 2 and no
# game: a folder with no deck, a study of fewer than two decks, a file
# reached twice (but the same file twice alone: a deck against itself), a
# folder for --gauntlet, and a folder that cannot be read (when not root).
# Usage: decks_folder_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"
classic="$src/data/decks/classic"
burn="$src/data/decks/red_burn.txt"
files=$(ls "$classic"/*.txt | paste -sd, -)
n=$(ls "$classic"/*.txt | wc -l)
[ "$n" -ge 3 ] || fail "data/decks/classic holds $n decks"

# A folder: the same study as its files listed, every pair once.
"$strata" sim --decks "$classic" --games 8 --threads 2 --out "$tmp/folder" >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "sim --decks FOLDER"; }
"$strata" sim --decks "$files" --games 8 --threads 2 --out "$tmp/files" >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "sim --decks FILES"; }
cmp "$tmp/folder/matchups.csv" "$tmp/files/matchups.csv" ||
  fail "a folder's study differs from its files'"
rows=$(($(wc -l <"$tmp/folder/matchups.csv") - 1))
[ "$rows" -eq $((n * (n - 1) / 2)) ] || fail "$rows matchups for $n decks"
# Sorted by name: the first matchup is the first two files.
first=$(ls "$classic"/*.txt | head -1 | xargs basename -s .txt)
second=$(ls "$classic"/*.txt | sed -n 2p | xargs basename -s .txt)
sed -n 2p "$tmp/folder/matchups.csv" | grep -q "^$first,$second," ||
  fail "the first matchup is not $first vs $second: $(sed -n 2p "$tmp/folder/matchups.csv")"
# study.toml records the files, not the folder.
[ "$(grep -c "^path = '$classic/[a-z_]*\.txt'$" "$tmp/folder/study.toml")" -eq "$n" ] ||
  fail "study.toml does not list the folder's $n files"

# Folders and files mixed: one more deck, every pair once.
"$strata" sim --decks "$classic,$burn" --games 4 --threads 2 --out "$tmp/mixed" >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "sim --decks FOLDER,FILE"; }
rows=$(($(wc -l <"$tmp/mixed/matchups.csv") - 1))
[ "$rows" -eq $(((n + 1) * n / 2)) ] || fail "$rows matchups for $n + 1 decks"
grep -q ",red_burn," "$tmp/mixed/matchups.csv" || fail "red_burn not in the mixed study"

# replay --from plays the game replay --decks FOLDER plays (a resumed
# folder study: decks_folder_resume_test.sh).
"$strata" replay --from "$tmp/folder" --matchup 5 --game 3 >"$tmp/from" 2>&1 || fail "replay --from"
"$strata" replay --decks "$classic" --games 8 --matchup 5 --game 3 >"$tmp/flags" 2>&1 ||
  fail "replay --decks FOLDER"
cmp "$tmp/from" "$tmp/flags" || fail "replay --from and replay --decks FOLDER differ"

# --against FOLDER: compare, ablate and swap play its decks as opponents.
expect 0 "against the same $n opponents" \
  "$strata" compare "$burn" "$src/data/decks/rg_aggro.txt" --against "$classic" --games 4 --threads 2
expect 0 "against the same $((n + 1)) opponents" "$strata" ablate "$burn" \
  --against "$classic,$src/data/decks/green_stompy.txt" --games 4 --threads 2
# fuzz --decks FOLDER.
expect 0 "no violation" "$strata" fuzz --decks "$classic" --games 8 --seed 3 --threads 1

# What a folder holds: *.txt files only, not those of its subfolders.
mkdir -p "$tmp/mine/sub" "$tmp/empty"
cp "$classic/zoo.txt" "$classic/sligh.txt" "$tmp/mine/"
cp "$classic/the_deck.txt" "$tmp/mine/sub/"
cp "$classic/mono_black.txt" "$tmp/mine/notes.dck"
expect 0 "sligh" "$strata" sim --decks "$tmp/mine" --games 4 --threads 1
grep -q "the_deck\|notes" "$tmp/out" && fail "a subfolder's or a .dck file's deck was played"
grep -q "^sligh  *zoo  *4 " "$tmp/out" || { cat "$tmp/out"; fail "not sligh vs zoo"; }

# Refused: one message, exit 2, no game (no matchup line, no game log).
refused() {
  expect 2 "$@"
  grep -q "games  *A win\|^T[0-9]" "$tmp/out" && { cat "$tmp/out"; fail "a game ran: ${*:2}"; }
  [ "$(wc -l <"$tmp/out")" -eq 1 ] || { cat "$tmp/out"; fail "not one message: ${*:2}"; }
}
refused "--decks $tmp/empty: expected deck files (NAME.txt) in the folder, found none" \
  "$strata" sim --decks "$tmp/empty,$burn"
refused "--against $tmp/empty: expected deck files (NAME.txt) in the folder, found none" \
  "$strata" compare "$burn" "$burn" --against "$tmp/empty"
mkdir "$tmp/lone" && cp "$burn" "$tmp/lone/"
refused "--decks: expected at least two deck files, got 1: $tmp/lone/red_burn.txt" \
  "$strata" sim --decks "$tmp/lone"
refused "--decks: the deck file $classic/zoo.txt is given twice (in the folder $classic and as $classic/zoo.txt); expected each deck once" \
  "$strata" sim --decks "$classic,$classic/zoo.txt"
refused "--decks: the deck file $burn is given twice (as $burn and as $burn); expected each deck once" \
  "$strata" sim --decks "$burn,$src/data/decks/rg_aggro.txt,$burn"
# The same file by another spelling, through a link.
ln -s "$classic" "$tmp/link"
refused "--decks: the deck file $tmp/link/artifact_prison.txt is given twice (in the folder $classic and in the folder $tmp/link)" \
  "$strata" sim --decks "$classic,$tmp/link"
refused "--against: the deck file $burn is given twice (as $burn and as $burn); expected each deck once" \
  "$strata" ablate "$classic/zoo.txt" --against "$burn,$burn"
refused "--against: the deck file $classic/sligh.txt is given twice" \
  "$strata" swap "$burn" --candidates Shock --against "$classic,$classic/sligh.txt"
refused "--decks: the deck file $classic/zoo.txt is given twice" \
  "$strata" fuzz --decks "$classic,$classic/zoo.txt" --games 2
refused "--gauntlet $classic: expected one deck file (the tested deck), got a folder" \
  "$strata" sim --decks "$classic" --gauntlet "$classic"
refused "--decks: expected two deck files, A first, got $((n + 1))" "$strata" play --decks "$classic,$burn"
# A deck against itself stays: the same file twice, alone.
expect 0 "red_burn (2)" "$strata" sim --decks "$burn,$burn" --games 4 --threads 1
expect 0 "result: " "$strata" play --decks "$burn,$burn" --quiet
# A gauntlet deck given by another spelling is the folder's deck, not a new one.
expect 0 "sligh" "$strata" sim --decks "$classic" --gauntlet "$classic/../classic/sligh.txt" \
  --games 4 --threads 1
[ "$(grep -c -E "^sligh +[a-z_]+ +4 " "$tmp/out")" -eq $((n - 1)) ] || { cat "$tmp/out"; fail "the gauntlet deck was added twice"; }
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$tmp/locked" && cp "$burn" "$tmp/locked/" && chmod 000 "$tmp/locked"
  refused "--decks $tmp/locked: cannot read the folder: Permission denied" \
    "$strata" sim --decks "$tmp/locked,$burn"
  chmod 700 "$tmp/locked"
fi
echo "decks from folders: ok"
