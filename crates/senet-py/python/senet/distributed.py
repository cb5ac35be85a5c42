"""Seeded simulations spread over a Ray cluster, with the single-process result.

Game ``i`` of a run draws every throw and random choice from ChaCha8 stream ``i`` of the
seed, so the games do not depend on which worker plays them: ``simulate`` splits the game
indices into contiguous ranges, plays each range in a Ray task (``Match.play``) and merges
the partial ``Summary`` objects, which merge exactly. The result is identical to
``senet.simulate`` (and to ``senet simulate --json``) for the same arguments, on any number
of workers and tasks.

Call ``ray.init(...)`` first (``ray.init(address="auto")`` joins a running cluster); without
it Ray starts a local one.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

import senet


def _play_part(
    rules: str,
    players: Sequence[str],
    seed: int,
    turn_cap: int,
    tables: Optional[str],
    start: int,
    stop: int,
    threads: int,
) -> senet.Summary:
    run = senet.Match(rules, players, seed=seed, turn_cap=turn_cap, tables=tables)
    return run.play(start, stop, threads=threads)


def split(games: int, parts: int) -> list[tuple[int, int]]:
    """Splits ``range(games)`` into at most ``parts`` contiguous, non-empty ranges."""
    parts = max(1, min(parts, games))
    size, extra = divmod(games, parts)
    ranges = []
    start = 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        ranges.append((start, stop))
        start = stop
    return ranges


def simulate(
    rules: Union[str, senet.Ruleset] = "regency",
    games: int = 10_000,
    seed: int = 0,
    players: Union[str, Sequence[str]] = ("random", "random"),
    tables: Optional[Union[str, os.PathLike]] = None,
    turn_cap: int = senet.DEFAULT_TURN_CAP,
    tasks: Optional[int] = None,
    threads_per_task: int = 1,
) -> dict[str, Any]:
    """Plays ``games`` seeded games between two players on a Ray cluster.

    Returns the same dict as ``senet.simulate`` with the same arguments. ``tasks`` (default:
    the cluster's CPUs) is the number of Ray tasks; each plays its range of games on
    ``threads_per_task`` threads. ``tables`` is the path of a table file for a perfect
    player, readable on every node; without it a perfect player of at most 2 pieces a side
    solves its tables in each task.
    """
    import ray

    if isinstance(players, str):
        players = players.split(",")
    players = tuple(players)
    rules = str(rules)
    if tables is not None:
        tables = os.fspath(tables)
    # Refuses bad arguments here, before any task starts.
    run = senet.Match(rules, players, seed=seed, turn_cap=turn_cap, tables=tables)
    if games < 1:
        raise senet.SenetError("games must be at least 1")
    if tasks is None:
        tasks = max(1, int(ray.available_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=threads_per_task)(_play_part)
    parts = [
        remote.remote(rules, players, seed, turn_cap, tables, start, stop, threads_per_task)
        for start, stop in split(games, tasks)
    ]
    total = senet.Summary()
    for part in ray.get(parts):
        total.merge(part)
    return run.report(total)


__all__ = ["simulate", "split"]
