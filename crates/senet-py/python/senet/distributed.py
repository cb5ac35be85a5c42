"""Seeded simulations spread over a Ray cluster, with the single-process result.

Game ``i`` of a run draws every throw and random choice from ChaCha8 stream ``i`` of the
seed, so the games do not depend on which worker plays them: ``simulate`` splits the game
indices into contiguous ranges, plays each range in a Ray task (``Match.play``) and merges
the partial ``Summary`` objects, which merge exactly. The result is identical to
``senet.simulate`` (and to ``senet simulate --json``) for the same arguments, on any number
of workers and tasks.

Call ``ray.init(...)`` first (``ray.init(address="auto")`` joins a running cluster); without
it ``simulate`` starts a local one (``ray.init()``), which lasts until ``ray.shutdown()`` or
the end of the process.
"""

from __future__ import annotations

import operator
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


def _int(name: str, value: Any, lo: int, hi: int) -> int:
    """An integer argument from ``lo`` to ``hi`` (not a bool); anything else raises
    ``SenetError`` naming the argument."""
    if not isinstance(value, bool):
        try:
            number = operator.index(value)
        except TypeError:
            pass
        else:
            if lo <= number <= hi:
                return number
    text = repr(value).replace("\n", " ")[:60]
    raise senet.SenetError(
        f"{name}: expected an integer from {lo} to {hi}, not {type(value).__name__} {text}"
    )


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
    solves its tables in each task. Without a running Ray (``ray.is_initialized()``) it
    starts a local one with ``ray.init()``.
    """
    # Refuses bad arguments here, before Ray starts or any task does.
    games = _int("games", games, 1, 10**12)
    if tasks is not None:
        tasks = _int("tasks", tasks, 1, 1_000_000)
    threads_per_task = _int("threads_per_task", threads_per_task, 1, 1024)
    if isinstance(tables, os.PathLike):
        tables = os.fspath(tables)
    run = senet.Match(rules, players, seed=seed, turn_cap=turn_cap, tables=tables)
    rules = run.rules.spec
    players = tuple(players.split(",")) if isinstance(players, str) else tuple(players)
    seed = run.seed
    turn_cap = run.turn_cap

    import ray

    if not ray.is_initialized():
        ray.init()
    if tasks is None:
        tasks = max(1, int(ray.available_resources().get("CPU", 1)))
    # A task plays at most 10**9 games (Match.play's limit).
    tasks = max(tasks, -(-games // 1_000_000_000))
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
