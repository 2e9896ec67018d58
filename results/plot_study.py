#!/usr/bin/env python3
"""Plots of a balance study written by `strata sim --out DIR`.

    python3 results/plot_study.py DIR

reads DIR/summary.json (and DIR/cards.csv) and writes, in DIR:
  matchups.png  the matchup matrix as a heatmap: win rate of the row deck
                against the column deck
  win_rates.png each deck's overall win rate with its 95% Wilson interval
                and its Bradley-Terry rating (Elo scale)
  cards.png     per deck, the win rate when each card was drawn against
                when it was not (cards drawn and not drawn in >= 30 games)

Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""
import csv
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    # Debian's python3-matplotlib belongs to /usr/bin/python3; another
    # python3 may come first on PATH (pyenv, a virtualenv).
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath(
            "/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("plot_study.py: needs matplotlib (Debian: apt-get install python3-matplotlib)")


def fail(message):
    sys.exit(f"plot_study.py: {message}")


def load(directory):
    path = os.path.join(directory, "summary.json")
    try:
        with open(path) as f:
            summary = json.load(f)
    except OSError as e:
        fail(f"{path}: {e.strerror} (write a study with `strata sim --out {directory}`)")
    except json.JSONDecodeError as e:
        fail(f"{path}: not JSON: {e}")
    for key in ("decks", "matchups", "policies", "games_per_matchup"):
        if key not in summary:
            fail(f"{path}: no '{key}': not a strata sim summary")
    cards = []
    cards_path = os.path.join(directory, "cards.csv")
    if os.path.exists(cards_path):
        with open(cards_path, newline="") as f:
            cards = list(csv.DictReader(f))
    return summary, cards


def games_played(s):
    """The games each matchup played: with --ci they differ, and
    games_per_matchup is only the cap."""
    games = [m["games"] for m in s["matchups"]]
    if not games:
        return "no games"
    if min(games) == max(games):
        return f"{games[0]} games per matchup"
    return f"{min(games)} to {max(games)} games per matchup"


def subtitle(s):
    return (f"{s['policies'][0]} vs {s['policies'][1]}, rules {s['rules']}, "
            f"{games_played(s)}, seed {s['seed']}")


def plot_matrix(s, directory):
    if "matrix" not in s:
        return None
    decks = s["matrix"]["decks"]
    rates = s["matrix"]["win_rate"]
    n = len(decks)
    grid = [[float("nan") if v is None else 100 * v for v in row] for row in rates]
    fig, ax = plt.subplots(figsize=(1.0 * n + 3.5, 0.8 * n + 2.2))
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for i in range(n):
        for j in range(n):
            v = grid[i][j]
            if v == v:  # not NaN
                ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=9,
                        color="white" if abs(v - 50) > 30 else "black")
    ax.set_xticks(range(n), decks, rotation=40, ha="right")
    ax.set_yticks(range(n), decks)
    ax.set_xlabel("opponent")
    ax.set_title(f"Win % of row deck against column deck\n{subtitle(s)}", fontsize=10)
    fig.colorbar(image, ax=ax, label="win %", shrink=0.8)
    fig.tight_layout()
    out = os.path.join(directory, "matchups.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_win_rates(s, directory):
    decks = sorted(s["decks"], key=lambda d: d["win_rate"])
    names = [d["deck"] for d in decks]
    rate = [100 * d["win_rate"] for d in decks]
    low = [100 * (d["win_rate"] - d["ci95"][0]) for d in decks]
    high = [100 * (d["ci95"][1] - d["win_rate"]) for d in decks]
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(decks) + 1.8))
    ax.errorbar(rate, range(len(decks)), xerr=[low, high], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(50, color="gray", lw=0.8, ls="--")
    for i, d in enumerate(decks):
        label = f"{rate[i]:.1f}%"
        if d.get("rating") is not None:
            label += f"  ({d['rating']:+.0f})"
        ax.annotate(label, (100 * d["ci95"][1], i), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8)
    ax.set_yticks(range(len(decks)), names)
    ax.set_xlim(min(100 * d["ci95"][0] for d in decks) - 5,
                max(100 * d["ci95"][1] for d in decks) + 14)
    ax.set_xlabel("overall win % with 95% Wilson interval (rating, Elo scale)")
    ax.set_title(f"Deck win rates\n{subtitle(s)}", fontsize=10)
    fig.tight_layout()
    out = os.path.join(directory, "win_rates.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_cards(s, cards, directory, min_games=30):
    by_deck = {}
    for row in cards:
        drawn, not_drawn = int(row["drawn"]), int(row["not_drawn"])
        if drawn >= min_games and not_drawn >= min_games:
            by_deck.setdefault(row["deck"], []).append(row)
    if not by_deck:
        return None
    decks = [d["deck"] for d in s["decks"] if d["deck"] in by_deck]
    cols = min(4, len(decks))
    rows = (len(decks) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    for k, deck in enumerate(decks):
        ax = axes[k // cols][k % cols]
        entries = sorted(by_deck[deck],
                         key=lambda r: float(r["drawn_win_rate"]) - float(r["not_drawn_win_rate"]))
        y = range(len(entries))
        ax.scatter([100 * float(r["not_drawn_win_rate"]) for r in entries], y, marker="|",
                   color="gray", label="not drawn")
        ax.errorbar([100 * float(r["drawn_win_rate"]) for r in entries], y,
                    xerr=[[100 * (float(r["drawn_win_rate"]) - float(r["drawn_ci_low"]))
                           for r in entries],
                          [100 * (float(r["drawn_ci_high"]) - float(r["drawn_win_rate"]))
                           for r in entries]],
                    fmt="o", ms=3, capsize=2, color="tab:blue", label="drawn")
        ax.set_yticks(list(y), [r["card"] for r in entries], fontsize=7)
        ax.set_title(deck, fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
        if k == 0:
            ax.legend(fontsize=7, loc="lower right")
    for k in range(len(decks), rows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.suptitle("Deck win % when each card was drawn (95% interval) and when not\n"
                 + subtitle(s), fontsize=10)
    fig.tight_layout()
    out = os.path.join(directory, "cards.png")
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2 if len(argv) != 2 else 0
    directory = argv[1]
    if not os.path.isdir(directory):
        fail(f"{directory}: no such directory")
    summary, cards = load(directory)
    for out in (plot_matrix(summary, directory), plot_win_rates(summary, directory),
                plot_cards(summary, cards, directory)):
        if out:
            print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
