#!/bin/bash
# Every file strata writes parses with a standard parser, whatever the names
# in it hold (issue 40, class 2): a deck label (its file name) with control
# characters (a carriage return among them), a quote, a backslash, DEL and
# a byte that is no UTF-8, and a card named with quotes, backslashes and
# accents, through study.toml, summary.json, games.jsonl, matchups.csv,
# cards.csv, compare's opponents.csv, ablate's cards.csv, a fuzz failure file and
# `strata fuzz --replay` of that file. Names that are valid UTF-8 come
# back exactly; the stray byte comes back as U+FFFD.
# Usage: hostile_names_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

card='Ogre "Big" \Mean\ Ünïcödé'
# TOML literal strings keep backslashes as they are: write the file so.
printf '[[card]]\nname = %s\ncost = "2R"\ntypes = ["Creature"]\nsubtypes = ["Ogre"]\npower = 3\ntoughness = 2\n' \
  "'$card'" >"$tmp/cards.toml"
label=$'evil\x01"q\\b\x1b[31m\x7f\tcr\rend\xff'
deck="$tmp/$label.txt"
printf '20 Mountain\n4 %s\n4 Gray Ogre\n4 Lightning Bolt\n4 Raging Goblin\n4 Shock\n' "$card" >"$deck"
other="$src/data/decks/green_stompy.txt"
cards=("$strata" --cards "$src/data/cards" --cards "$tmp/cards.toml")

"${cards[@]}" sim --decks "$deck,$other" --games 300 --threads 2 --seed 3 --out "$tmp/s" \
  --games-out >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "sim failed"; }
# A carriage return alone (no quote, comma or line feed to get the field
# quoted otherwise) ends a CSV row for a standard reader unless quoted:
# through sim's CSVs, and compare's and ablate's (the second writer), with
# the \r deck as the opponent and the card in the deck ablated.
crlabel=$'cr\rend'
crdeck="$tmp/$crlabel.txt"
cp "$deck" "$crdeck"
"${cards[@]}" sim --decks "$crdeck,$other" --games 8 --threads 2 --seed 3 --out "$tmp/cr" \
  >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "sim (\\r) failed"; }
"${cards[@]}" compare "$other" "$other" --against "$crdeck" --games 16 --threads 2 --seed 3 \
  --out "$tmp/c" >"$tmp/cmp" 2>&1 || { cat "$tmp/cmp"; fail "compare failed"; }
"${cards[@]}" ablate "$deck" --against "$other" --games 16 --threads 2 --seed 3 \
  --out "$tmp/a" >"$tmp/abl" 2>&1 || { cat "$tmp/abl"; fail "ablate failed"; }
"${cards[@]}" fuzz --decks "$deck,$other" --games 4 --seed 5 --threads 1 --canary power:3 \
  --failures "$tmp/f" --replay-every 0 >"$tmp/fuzz" 2>&1
[ $? -eq 1 ] || { cat "$tmp/fuzz"; fail "the canary fuzz run found nothing"; }
ls "$tmp/f"/*.toml >/dev/null 2>&1 || fail "no failure file"
for f in "$tmp/f"/*.toml; do
  "${cards[@]}" fuzz --replay "$f" --canary power:3 >"$tmp/replay" 2>&1
  grep -q "violated: canary: " "$tmp/replay" || { cat "$tmp/replay"; fail "fuzz --replay $f"; }
done

python3 - "$tmp" "$label" "$card" "$crlabel" <<'PY' || fail "an output does not parse or lost a name"
import csv, glob, json, sys, tomllib
tmp, label, card, crlabel = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
# The label as the outputs hold it: the byte 0xff (no UTF-8) as U+FFFD.
label = label.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
def strings(x):
    if isinstance(x, str): yield x
    elif isinstance(x, dict):
        for k, v in x.items(): yield k; yield from strings(v)
    elif isinstance(x, list):
        for v in x: yield from strings(v)
def check(what, ok):
    if not ok:
        print("FAIL:", what); sys.exit(1)
with open(f"{tmp}/s/summary.json", "rb") as f:
    summary = json.loads(f.read().decode("utf-8"))
check("summary.json names the deck", label in set(strings(summary)))
check("summary.json names the card", card in set(strings(summary)))
with open(f"{tmp}/s/games.jsonl", "rb") as f:
    lines = f.read().decode("utf-8").splitlines()
check("games.jsonl has 300 lines", len(lines) == 300)
for l in lines:
    g = json.loads(l)
    check("games.jsonl: the deck label round-trips", label in g["seats"])
with open(f"{tmp}/s/study.toml", "rb") as f:
    study = tomllib.load(f)
check("study.toml: the deck label", any(d["name"] == label for d in study["decks"]))
check("study.toml: the card", any(card in d["cards"] for d in study["decks"]))
for name in ("matchups.csv", "cards.csv"):
    with open(f"{tmp}/s/{name}", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    check(f"{name}: the deck label", any(label in r for r in rows))
with open(f"{tmp}/s/cards.csv", newline="", encoding="utf-8") as f:
    check("cards.csv: the card", any(card in r for r in csv.reader(f)))
with open(f"{tmp}/c/opponents.csv", newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
check("opponents.csv: the \\r deck label", [r["opponent"] for r in rows] == [crlabel, "overall"])
for name in ("matchups.csv", "cards.csv"):
    with open(f"{tmp}/cr/{name}", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    check(f"{name}: the \\r deck label", any(crlabel in r.values() for r in rows))
    check(f"{name}: every row whole", all(None not in r and None not in r.values() for r in rows))
with open(f"{tmp}/a/cards.csv", newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
check("ablate's cards.csv: the card", any(r["card"] == card for r in rows))
named = 0
for path in glob.glob(f"{tmp}/f/*.toml"):
    with open(path, "rb") as f:
        failure = tomllib.load(f)
    named += card in failure["deck_a"] + failure["deck_b"]
check("a failure file names the card", named > 0)
print("all outputs parse")
PY
echo "PASS"
