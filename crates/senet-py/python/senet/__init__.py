"""Senet, the ancient Egyptian race game, from Python.

The engine is the Rust workspace's: seven reconstructions of the rules with their exact
throw distributions, computer players, perfect endgame tables and seeded simulation.

- ``Game("kendall(trap=true)")``: phases, legal moves, throws (a value, or sampled from an
  ``Rng``), moves, undo, positions and records in the text notation and JSON.
- ``Player("expectiminimax:3", rules)``: ``analyse`` (every move's value and what the value
  means) and ``choose``; ``Tables`` for the perfect player.
- ``analyse(game)``: a whole game reviewed, as ``senet analyse --json`` prints it: each
  move's loss of winning chance, each throw's luck, each side's figures, the winning chance
  after every action, and a short summary.
- ``simulate(...)``: seeded games between two players, the summary of
  ``senet simulate --json``; ``Match`` and ``Summary`` split a run into parts that merge
  exactly (``senet.distributed`` spreads them over a Ray cluster).
- ``senet.envs``: Gymnasium and PettingZoo environments (needs ``gymnasium`` and
  ``pettingzoo``); ``import senet`` registers the Gymnasium id ``senet/Senet-v0``. Actions
  are fixed action codes by default (``Ruleset.action_count``, ``Game.play_code``,
  docs/action-codes.md).
- ``senet.openspiel``: the OpenSpiel game ``python_senet`` (needs ``open_spiel``).

Bad input raises a subclass of ``SenetError``, itself a ``ValueError``, with the engine's
message, and leaves the game unchanged.
"""

from senet._senet import (
    MAX_ENVS,
    MAX_MASK_VALUES,
    MAX_STEPS,
    MOVE_LIST_CAPACITY,
    Game,
    Match,
    MoveError,
    Player,
    PlayerError,
    PositionError,
    RecordError,
    Rng,
    Ruleset,
    RulesetError,
    SenetError,
    Summary,
    Tables,
    TablesError,
    analyse,
    rulesets,
    simulate,
)

#: The turn cap of ``simulate`` and the environments when none is given.
DEFAULT_TURN_CAP = 10_000


def _register_gymnasium_envs() -> None:
    """Registers ``senet/Senet-v0`` (``SenetEnv``, and ``SenetVectorEnv`` for
    ``gymnasium.make_vec``) when Gymnasium is installed."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # pragma: no cover - Gymnasium is optional
        return
    if "senet/Senet-v0" not in registry:
        register(
            id="senet/Senet-v0",
            entry_point="senet.envs:SenetEnv",
            vector_entry_point="senet.envs:SenetVectorEnv",
        )


_register_gymnasium_envs()

__all__ = [
    "DEFAULT_TURN_CAP",
    "MAX_ENVS",
    "MAX_MASK_VALUES",
    "MAX_STEPS",
    "MOVE_LIST_CAPACITY",
    "Game",
    "Match",
    "MoveError",
    "Player",
    "PlayerError",
    "PositionError",
    "RecordError",
    "Rng",
    "Ruleset",
    "RulesetError",
    "SenetError",
    "Summary",
    "Tables",
    "TablesError",
    "analyse",
    "rulesets",
    "simulate",
]
