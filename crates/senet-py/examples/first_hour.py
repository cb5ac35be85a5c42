"""Your first hour with senet: an agent that learns to beat the greedy player, NumPy only.

The agent is TD-Gammon's recipe at toy size: a network with one hidden layer estimates
Black's chance of winning from a position, the agent plays the move whose resulting
position (the *afterstate*, from ``Game.afterstates()``) is best for the side moving, and
after every move the estimate of the previous afterstate is pulled toward the estimate of
the next one (TD(lambda)), the game's result at the end. It learns by playing itself; the
dice (here, throwing sticks) explore for it. Every few hundred games it plays a match
against the engine's greedy player, half the games in each seat, and the learning curve of
those matches is what ``--plot`` draws.

    python crates/senet-py/examples/first_hour.py --games 3000 --plot curve.png

Everything is seeded: the same arguments give the same network and the same curve.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

import senet


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


@dataclass
class ValueNet:
    """Black's winning chance of a position: observation -> hidden sigmoids -> sigmoid."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    @classmethod
    def new(cls, inputs: int, hidden: int, rng: np.random.Generator) -> "ValueNet":
        return cls(
            w1=rng.normal(0.0, 0.1, (inputs, hidden)),
            b1=np.zeros(hidden),
            w2=rng.normal(0.0, 0.1, hidden),
            b2=0.0,
        )

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The value of each row of ``observations``."""
        hidden = sigmoid(observations @ self.w1 + self.b1)
        return sigmoid(hidden @ self.w2 + self.b2)

    def value_and_gradient(self, x: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The value of one observation and its gradient for each parameter."""
        hidden = sigmoid(x @ self.w1 + self.b1)
        value = float(sigmoid(hidden @ self.w2 + self.b2))
        slope = value * (1.0 - value)
        d_hidden = slope * self.w2 * hidden * (1.0 - hidden)
        return value, [np.outer(x, d_hidden), d_hidden, slope * hidden, np.array(slope)]

    def parameters(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, np.array(self.b2)]

    def step(self, direction: list[np.ndarray], size: float) -> None:
        self.w1 += size * direction[0]
        self.b1 += size * direction[1]
        self.w2 += size * direction[2]
        self.b2 += size * float(direction[3])


def best_move(net: ValueNet, game: senet.Game) -> tuple[str, np.ndarray, float]:
    """The move whose afterstate is best for the side to move, that afterstate and its value
    (the game's result where the move ends it)."""
    moves, observations, results = game.afterstates()
    values = np.where(np.isnan(results), net.values(observations), results)
    pick = int(np.argmax(values) if game.side == "black" else np.argmin(values))
    return moves[pick], observations[pick], float(values[pick])


def self_play_game(net: ValueNet, rules: senet.Ruleset, rng: senet.Rng, alpha: float,
                   lam: float, max_actions: int = 5000) -> None:
    """One game of the network against itself, learning after each move."""
    game = senet.Game(rules)
    traces: list[np.ndarray] | None = None
    previous_value = 0.0
    for _ in range(max_actions):
        if game.phase == "over":
            return
        if game.phase == "throw":
            game.throw(rng=rng)
            continue
        move, x, value = best_move(net, game)
        game.play(move)
        if traces is not None:
            # TD error between consecutive afterstates; a move that ends the game is scored
            # by its result, which the network does not need to learn.
            net.step(traces, alpha * (value - previous_value))
        if game.phase == "over":
            return
        previous_value, gradient = net.value_and_gradient(x)
        traces = gradient if traces is None else [lam * t + g for t, g in zip(traces, gradient)]


def match_against(net: ValueNet, opponent: str, rules: senet.Ruleset, games: int,
                  seed: int) -> float:
    """The network's share of ``games`` against ``opponent``, half as Black, half as White
    (draws and games stopped at the cap count a half)."""
    other = senet.Player(opponent, rules, seed=seed)
    score = 0.0
    for i in range(games):
        net_side = "black" if i % 2 == 0 else "white"
        rng = senet.Rng(seed, i)
        game = senet.Game(rules)
        for _ in range(20_000):
            if game.phase != "throw" and game.phase != "move":
                break
            if game.phase == "throw":
                game.throw(rng=rng)
            elif game.side == net_side:
                game.play(best_move(net, game)[0])
            else:
                game.play(other.choose(game, rng=rng))
        winner = game.outcome["winner"] if game.outcome else None
        score += 1.0 if winner == net_side else 0.5 if winner is None else 0.0
    return score / games


@dataclass
class Curve:
    """The match results along the training: games played, opponent, share, seconds."""

    points: list[tuple[int, str, float, float]] = field(default_factory=list)


def train(rules: str = "regency", games: int = 3000, hidden: int = 40, alpha: float = 0.1,
          lam: float = 0.7, seed: int = 2026, every: int = 500, match_games: int = 400,
          opponents: tuple[str, ...] = ("greedy",), log=print) -> tuple[ValueNet, Curve]:
    """Trains a network by self-play for ``games`` games, measuring it every ``every``."""
    ruleset = senet.Ruleset(rules)
    net = ValueNet.new(ruleset.observation_size, hidden, np.random.default_rng(seed))
    curve = Curve()
    started = time.process_time()

    def measure(played: int) -> None:
        for opponent in opponents:
            share = match_against(net, opponent, ruleset, match_games, seed + 1 + played)
            seconds = time.process_time() - started
            curve.points.append((played, opponent, share, seconds))
            margin = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / match_games)
            log(f"{played:6d} games  {seconds:7.1f} s CPU  vs {opponent}: "
                f"{100 * share:5.1f}% ± {100 * margin:.1f}")

    measure(0)
    for i in range(games):
        self_play_game(net, ruleset, senet.Rng(seed, 1_000_000 + i), alpha, lam)
        if (i + 1) % every == 0 or i + 1 == games:
            measure(i + 1)
    return net, curve


def plot(curve: Curve, path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=120)
    for opponent in sorted({p[1] for p in curve.points}):
        xs = [p[0] for p in curve.points if p[1] == opponent]
        ys = [100 * p[2] for p in curve.points if p[1] == opponent]
        ax.plot(xs, ys, marker="o", label=f"against {opponent}")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("self-play games")
    ax.set_ylabel("share of match games won (%)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="regency")
    parser.add_argument("--games", type=int, default=3000, help="self-play games")
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--every", type=int, default=500, help="games between matches")
    parser.add_argument("--match-games", type=int, default=400)
    parser.add_argument("--opponents", default="greedy", help="comma-separated players")
    parser.add_argument("--csv", help="write the curve as CSV")
    parser.add_argument("--plot", help="draw the curve (needs matplotlib)")
    args = parser.parse_args(argv)
    for name in ("games", "hidden", "every", "match_games"):
        value = getattr(args, name)
        if not 1 <= value <= 10_000_000:
            parser.error(f"--{name.replace('_', '-')}: expected 1 to 10,000,000, not {value}")
    try:
        _, curve = train(args.rules, args.games, args.hidden, args.alpha, args.lam, args.seed,
                         args.every, args.match_games, tuple(args.opponents.split(",")))
    except senet.SenetError as error:
        print(f"first_hour: {error}", file=sys.stderr)
        return 2
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["games", "opponent", "share", "cpu_seconds"])
            writer.writerows(curve.points)
    if args.plot:
        plot(curve, args.plot, f"{args.rules}: TD(λ) self-play, NumPy, {args.hidden} hidden")
    return 0


if __name__ == "__main__":
    sys.exit(main())
