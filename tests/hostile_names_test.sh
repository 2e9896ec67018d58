#!/bin/bash
# Every file strata writes parses with a standard parser, whatever the names
# in it hold (issue 40, class 2): a deck label (its file name) with control
# characters (a carriage return among them), a quote, a backslash, DEL and
# a byte that is no UTF-8, and a card named with quotes, backslashes and
# accents, through study.toml, summary.json, games.jsonl, matchups.csv,
# cards.csv, compare's opponents.csv, ablate's cards.csv, a fuzz failure file and
# `strata fuzz --replay` of that file. Names that are valid UTF-8 come
# back exactly; the stray byte comes back as U+FFFD.
# Then cards named with an apostrophe and no space (Will-o'-the-Wisp, which
# toml++ would print as a bare key), a double quote, a dot and '=', and
# unicode (a card name cannot hold '#': the deck label, its file name, does),
# in a deck labelled with '#', '[', ']', '=', '.' and an apostrophe, through
# study.toml (tomllib), a --resume, shards and their merge, replay --from,
# report.html (html.parser) and every other output above.
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
wisps=("Will-o'-the-Wisp" 'Quote"Wisp' 'Dot.Wisp=1' 'Wïsp_Ünïcödé')
for w in "${wisps[@]}"; do
  # Will-o'-the-Wisp is a card of the pool (data/cards/revised_fourth.toml).
  [ "$w" = "Will-o'-the-Wisp" ] && continue
  # Basic strings: escape the backslash and the quote.
  e=${w//\\/\\\\}; e=${e//\"/\\\"}
  printf '[[card]]\nname = "%s"\ncost = "R"\ntypes = ["Creature"]\npower = 2\ntoughness = 1\n' "$e" >>"$tmp/cards.toml"
done
wlabel="Wisp's #1 [a.b]=c"
wdeck="$tmp/$wlabel.txt"
printf '20 Mountain\n4 %s\n4 %s\n4 %s\n4 %s\n4 Lightning Bolt\n' "${wisps[@]}" >"$wdeck"
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

# The wisps: a study stopped after a block, resumed, replayed; two shards
# merged; the fuzz failure file of the wisp deck replayed.
wsim=("${cards[@]}" sim --decks "$wdeck,$other" --games 600 --threads 2 --seed 4)
# (An interrupted study exits nonzero.)
"${wsim[@]}" --out "$tmp/w" --games-out --stop-after-blocks 1 --report >"$tmp/out" 2>&1
grep -q "study.toml (partial)" "$tmp/out" || { cat "$tmp/out"; fail "wisp sim failed"; }
"${cards[@]}" sim --resume "$tmp/w" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "wisp --resume refused"; }
"${cards[@]}" sim --resume "$tmp/w" --report >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "wisp --resume --report refused"; }
"${cards[@]}" replay --from "$tmp/w" --game 3 --quiet >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "wisp replay --from refused"; }
for i in 1 2; do
  "${wsim[@]}" --shard $i/2 --out "$tmp/w$i" --games-out >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "wisp shard $i failed"; }
done
"${cards[@]}" merge "$tmp/w1" "$tmp/w2" --out "$tmp/wm" --report >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "wisp merge refused"; }
cmp -s "$tmp/w/matchups.csv" "$tmp/wm/matchups.csv" || fail "wisp: merged matchups.csv differs from the resumed study's"
"${cards[@]}" replay --from "$tmp/wm" --game 3 --quiet >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "replay --from the merge refused"; }
"${cards[@]}" fuzz --decks "$wdeck,$other" --games 4 --seed 5 --threads 1 --canary power:1 \
  --failures "$tmp/wf" --replay-every 0 >"$tmp/fuzz" 2>&1
[ $? -eq 1 ] || { cat "$tmp/fuzz"; fail "the wisp canary fuzz run found nothing"; }
for f in "$tmp/wf"/*.toml; do
  "${cards[@]}" fuzz --replay "$f" --canary power:1 >"$tmp/replay" 2>&1
  grep -q "violated: canary: " "$tmp/replay" || { cat "$tmp/replay"; fail "wisp fuzz --replay $f"; }
done
# A shrunk scenario of a failure with wisps only (the wisp deck against
# itself): it parses and names a wisp.
"${cards[@]}" fuzz --decks "$wdeck,$wdeck" --games 2 --seed 5 --threads 1 --canary power:1 \
  --failures "$tmp/wf2" --replay-every 0 >"$tmp/fuzz" 2>&1
wfail=$(ls "$tmp/wf2"/*.toml | head -1)
"${cards[@]}" fuzz --replay "$wfail" --canary power:1 --shrink --shrink-budget 40 \
  --shrink-out "$tmp/wisp.scenario.toml" >"$tmp/out" 2>&1
[ -s "$tmp/wisp.scenario.toml" ] || { cat "$tmp/out"; fail "no shrunk wisp scenario"; }
python3 - "$tmp/wisp.scenario.toml" "${wisps[@]}" <<'PY' || fail "the shrunk wisp scenario does not parse or names no wisp"
import sys, tomllib
s = tomllib.load(open(sys.argv[1], "rb"))
assert any(o["card"] in sys.argv[2:] for o in s.get("object", [])), [o["card"] for o in s.get("object", [])]
PY

# A study.toml as strata wrote it before [[card_fingerprints]]: a table of
# card name = fingerprint, Will-o'-the-Wisp as a bare key that no TOML
# reader parses; strata still reads it (replay --from, merge, --resume).
old() {
  python3 - "$1" <<'PY' || fail "could not write the old [card_fingerprints] of $1"
import re, sys, tomllib
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
fps = tomllib.loads(text)["card_fingerprints"]
text = re.sub(r"card_fingerprints = \[\n(?: +\{.*\},?\n)*\]\n", "", text)
assert "card_fingerprints]" not in text
def key(n):  # as toml++ printed it
    if re.fullmatch(r"[A-Za-z0-9_'-]+", n): return n
    if "'" not in n: return f"'{n}'"
    return '"' + n.replace("\\", "\\\\").replace('"', '\\"') + '"'
text += "\n[card_fingerprints]\n" + "".join(f"{key(e['name'])} = '{e['fingerprint']}'\n" for e in fps)
open(path, "w", encoding="utf-8").write(text)
PY
}
cp -r "$tmp/w" "$tmp/wold"; old "$tmp/wold/study.toml"
grep -q "^Will-o'-the-Wisp = " "$tmp/wold/study.toml" || fail "the old study.toml lacks the bare key"
"${cards[@]}" replay --from "$tmp/wold" --game 3 --quiet >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "replay --from an old study.toml refused"; }
"${cards[@]}" sim --resume "$tmp/wold" --report >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "--resume of an old study.toml refused"; }
for i in 1 2; do cp -r "$tmp/w$i" "$tmp/wold$i"; old "$tmp/wold$i/study.toml"; done
"${cards[@]}" merge "$tmp/wold1" "$tmp/wold2" --out "$tmp/woldm" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "merge of old shards refused"; }
cmp -s "$tmp/wm/matchups.csv" "$tmp/woldm/matchups.csv" || fail "old shards merged to other numbers"

python3 - "$tmp" "$label" "$card" "$crlabel" "$wlabel" "${wisps[@]}" <<'PY' || fail "an output does not parse or lost a name"
import csv, glob, json, sys, tomllib
tmp, label, card, crlabel = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
wlabel, wisps = sys.argv[5], sys.argv[6:]
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
import html.parser
class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.text = []
    def handle_data(self, d): self.text.append(d)
for d in ("w", "wm", "w1", "w2"):
    with open(f"{tmp}/{d}/study.toml", "rb") as f:
        study = tomllib.load(f)
    fps = study["card_fingerprints"]
    names = {e["name"] for e in fps} if isinstance(fps, list) else set(fps)
    for w in wisps:
        check(f"{d}/study.toml: the fingerprint of {w!r}", w in names)
    check(f"{d}/study.toml: the wisp deck", any(x["name"] == wlabel and wisps[0] in x["cards"]
                                               for x in study["decks"]))
    with open(f"{tmp}/{d}/summary.json", encoding="utf-8") as f:
        got = set(strings(json.load(f)))
    with open(f"{tmp}/{d}/cards.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    with open(f"{tmp}/{d}/games.jsonl", encoding="utf-8") as f:
        for l in f: json.loads(l)
    for w in wisps:
        check(f"{d}/summary.json: {w!r}", w in got)
        check(f"{d}/cards.csv: {w!r}", any(w in r for r in rows))
    check(f"{d}/summary.json: the label {wlabel!r}", wlabel in got)
    check(f"{d}/cards.csv: the label {wlabel!r}", any(wlabel in r for r in rows))
for d in ("w", "wm"):
    p = Text()
    with open(f"{tmp}/{d}/report.html", encoding="utf-8") as f:
        p.feed(f.read())
    text = "".join(p.text)
    for w in wisps:
        check(f"{d}/report.html: {w!r}", w in text)
    check(f"{d}/report.html: the label {wlabel!r}", wlabel in text)
named = 0
for path in glob.glob(f"{tmp}/wf/*.toml"):
    with open(path, "rb") as f:
        failure = tomllib.load(f)
    named += wisps[0] in failure["deck_a"] + failure["deck_b"]
check("a wisp failure file names Will-o'-the-Wisp", named > 0)
print("all outputs parse")
PY
echo "PASS"
