#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/README.md) from
the bundled cards, decks, scenarios and a study.toml. Deterministic: running
it again gives the same files. Usage: tests/fuzz/make_corpus.py [STUDY_TOML]
(by default the study.toml committed in corpus_loaders is kept)."""
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAME = os.path.join(HERE, "corpus_game")
LOADERS = os.path.join(HERE, "corpus_loaders")


def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def game_corpus():
    rng = random.Random(12)
    decks = sorted(f for f in os.listdir(os.path.join(ROOT, "data", "decks")) if f.endswith(".txt"))
    # Bundled decks: byte 0 has bit 3 set, then one byte per deck.
    for i in range(10):
        edition, first = i % 3, i % 2
        head = bytes([edition | first << 2 | 8, i % len(decks), (i * 3 + 1) % len(decks)])
        seed = rng.randbytes(4)
        write(GAME, f"bundled_{i:02d}", head + seed + rng.randbytes(rng.choice([300, 600, 1200])))
    # Decks built from the bytes: colour pair, 11 spell picks, a non-basic
    # land byte and a land-count byte, for each deck.
    for i in range(10):
        edition, first = i % 3, (i // 3) % 2
        deck_bytes = b""
        for _ in range(2):
            deck_bytes += bytes([rng.randrange(10)]) + rng.randbytes(11) + rng.randbytes(2)
        body = rng.randbytes(rng.choice([300, 600, 1200]))
        write(GAME, f"built_{i:02d}", bytes([edition | first << 2]) + deck_bytes + rng.randbytes(4) + body)
    # Mostly the first action (often a pass): long, quiet games.
    write(GAME, "passive_bundled", bytes([8 | 1, 0, 6]) + b"\x01\x02\x03\x04" + bytes(800))


def cards_of(path):
    """The [[card]] tables of a card file, as text."""
    text = open(path, encoding="utf-8").read()
    parts = re.split(r"(?m)^(?=\[\[card\]\])", text)
    return [p for p in parts if p.startswith("[[card]]")]


def loaders_corpus(study):
    cards_dir = os.path.join(ROOT, "data", "cards")
    n = 0
    # 0: card files into an empty database: single cards from every file.
    for f in sorted(os.listdir(cards_dir)):
        cards = cards_of(os.path.join(cards_dir, f))
        for card in cards[:: max(1, len(cards) // 4)][:4]:
            write(LOADERS, f"card_{n:02d}", b"\x00" + card.encode())
            n += 1
    write(LOADERS, "cards_basic_lands", b"\x00" + open(os.path.join(cards_dir, "basic_lands.toml"), "rb").read())
    # 1: a card on top of the pool, renamed so it does not clash.
    for i, card in enumerate(cards_of(os.path.join(cards_dir, "layers.toml"))[:3]):
        card = re.sub(r'(?m)^name = "', 'name = "Fuzz ', card, count=1)
        write(LOADERS, f"card_on_pool_{i}", b"\x01" + card.encode())
    for f in sorted(os.listdir(os.path.join(ROOT, "tests", "bad_cards"))):
        write(LOADERS, "bad_" + f, b"\x00" + open(os.path.join(ROOT, "tests", "bad_cards", f), "rb").read())
    # 2: decks.
    decks_dir = os.path.join(ROOT, "data", "decks")
    for f in sorted(os.listdir(decks_dir)):
        write(LOADERS, "deck_" + f, b"\x02" + open(os.path.join(decks_dir, f), "rb").read())
    write(LOADERS, "deck_bad", b"\x02" + b"4 Lightning Bolt\n4 Lightnin Bolt\nSideboard\nx Forest\n")
    # 3: scenarios: small ones (each is run, so they are kept short) and bad ones.
    scen_dir = os.path.join(ROOT, "tests", "scenarios")
    small = sorted(os.listdir(scen_dir), key=lambda f: (os.path.getsize(os.path.join(scen_dir, f)), f))
    for f in small[:10] + ["card_forest.toml", "t13_energy_flux_buries.toml"]:
        write(LOADERS, "scenario_" + f, b"\x03" + open(os.path.join(scen_dir, f), "rb").read())
    for f in ["unknown_card.toml", "never_legal.toml", "after_step_wrong.toml"]:
        write(LOADERS, "bad_scenario_" + f, b"\x03" + open(os.path.join(ROOT, "tests", "bad_scenarios", f), "rb").read())
    # 4: study.toml.
    if study:
        text = open(study, "rb").read()
        # No machine paths.
        text = re.sub(rb"'/[^']*/(data/[^']*)'", rb"'\1'", text)
        text = re.sub(rb"(?m)^command = '[^' ]*/strata ", rb"command = 'strata ", text)
        text = re.sub(rb"--out [^' ]*", rb"--out study", text)
        write(LOADERS, "study", b"\x04" + text)
    write(LOADERS, "study_bad", b"\x04" + b"cards = ['data/cards']\nseed = 'x'\ngames = -1\n")


if __name__ == "__main__":
    game_corpus()
    loaders_corpus(sys.argv[1] if len(sys.argv) > 1 else None)
