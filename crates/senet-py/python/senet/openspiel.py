"""Senet as an OpenSpiel game, for every registered ruleset (needs ``open_spiel``).

Importing this module registers the game ``python_senet`` with ``pyspiel``::

    import pyspiel
    import senet.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_senet", {"rules": "kendall(throw_timing=immediate)"})
    state = game.new_initial_state()

Parameters:

- ``rules``: a ruleset specification (``"regency"``, ``"kendall(trap=true)"``…). OpenSpiel's
  game strings read parentheses as a nested game and commas as the next parameter, so the
  game keeps the specification in a form without parentheses, commas or ``=``:
  ``kendall;trap:true;throw_timing:immediate`` (``spiel_rules``); either form is accepted.
- ``turn_cap``: a game still going when a side would start turn ``turn_cap + 1`` ends as a
  draw (0 for both), as ``senet simulate``'s games do at their cap.

The game: two players, Black (player 0, who moves first) and White (player 1); explicit
chance nodes for the throws, whose outcomes are the throw values with the device's exact
probabilities (``Ruleset.throw_outcomes()``: chance action ``v`` is a throw of ``v``);
player actions are the configuration's fixed action codes (docs/action-codes.md), so
``num_distinct_actions()`` is ``Ruleset.action_count``. A split move (Piccione) is one
action per step, taken by the same player. Terminal rewards: +1 for the winner, -1 for the
loser, 0 for both in a draw or at the turn cap. The observation tensor is
``Game.observation()`` followed by the codes of a split move chosen so far (``MAX_STEPS``
values, -1 padded); it is the same for both players (perfect information).

Serialisation is OpenSpiel's: the game string and the history of actions
(``pyspiel.serialize_game_and_state``), replayed on load.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pyspiel

import senet

SHORT_NAME = "python_senet"
DEFAULT_TURN_CAP = 1000
# Throws and steps of one turn, at most: a bound for OpenSpiel's max_game_length (a turn is
# a throw and one move in most rulesets; extra throws and split moves make a few more).
_ACTIONS_PER_TURN = 40

_DEFAULT_PARAMS = {"rules": senet.Ruleset("regency").spec, "turn_cap": DEFAULT_TURN_CAP}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Senet",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


def spiel_rules(spec: Any) -> str:
    """The form of a ruleset specification kept in OpenSpiel's game strings, without
    parentheses, commas or ``=`` (which OpenSpiel's game strings give meanings of their
    own): ``kendall;trap:true;throw_timing:immediate``."""
    canonical = _ruleset(spec).spec
    if "(" not in canonical:
        return canonical
    rules_id, options = canonical[:-1].split("(", 1)
    return ";".join([rules_id] + [o.replace("=", ":") for o in options.split(",")])


def _ruleset(value: Any) -> senet.Ruleset:
    if isinstance(value, senet.Ruleset):
        return value
    if not isinstance(value, str):
        raise senet.RulesetError(f"rules: a ruleset specification string, not {value!r}")
    if ";" in value and "(" not in value:
        rules_id, *options = value.split(";")
        value = f"{rules_id}({','.join(o.replace(':', '=', 1) for o in options)})"
    try:
        return senet.Ruleset(value)
    except senet.RulesetError as e:
        raise senet.RulesetError(f"rules: {e}") from None


class SenetGame(pyspiel.Game):
    """Senet under one ruleset configuration, for OpenSpiel."""

    def __init__(self, params: Optional[dict] = None) -> None:
        params = dict(params or {})
        rules = _ruleset(params.get("rules", _DEFAULT_PARAMS["rules"]))
        turn_cap = params.get("turn_cap", DEFAULT_TURN_CAP)
        if isinstance(turn_cap, bool) or not isinstance(turn_cap, int) or turn_cap < 1:
            raise senet.SenetError(f"turn_cap: a positive integer, not {turn_cap!r}")
        self.rules = rules
        self.turn_cap = turn_cap
        outcomes = rules.throw_outcomes()
        total = float(sum(w for _, w in outcomes))
        self.chance_outcomes = [(v, w / total) for v, w in outcomes]
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.action_count,
            max_chance_outcomes=max(v for v, _ in outcomes) + 1,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=(turn_cap + 1) * _ACTIONS_PER_TURN,
        )
        super().__init__(
            _GAME_TYPE,
            info,
            {"rules": spiel_rules(rules), "turn_cap": turn_cap},
        )

    def new_initial_state(self) -> "SenetState":
        return SenetState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[dict] = None
    ) -> "SenetObserver":
        return SenetObserver(self, params)


class SenetState(pyspiel.State):
    """A position of the game, with the codes of a split move chosen so far."""

    def __init__(self, game: SenetGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._turn_cap = game.turn_cap
        self._max_length = game.max_game_length()
        self._chance = game.chance_outcomes
        self.game = senet.Game(game.rules)
        self._actions = 0

    def _capped(self) -> bool:
        return self.game.turns > self._turn_cap or self._actions >= self._max_length

    def current_player(self) -> int:
        if self.game.phase == "over" or self._capped():
            return pyspiel.PlayerId.TERMINAL
        if self.game.phase == "throw":
            return pyspiel.PlayerId.CHANCE
        return 0 if self.game.side == "black" else 1

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.legal_action_codes()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._chance)

    def _apply_action(self, action: int) -> None:
        self._actions += 1
        if self.game.phase == "throw":
            self.game.throw(int(action))
        else:
            self.game.play_code(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"throw {action}"
        try:
            return self._rules.decode_action(int(action))
        except senet.SenetError:
            return "end" if action == self._rules.action_count - 1 else str(action)

    def is_terminal(self) -> bool:
        return self.game.phase == "over" or self._capped()

    def returns(self) -> list[float]:
        outcome = self.game.outcome
        if outcome is None or outcome["winner"] is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome["winner"] == "black" else [-1.0, 1.0]

    def information_state_string(self, player: Optional[int] = None) -> str:
        return self._key()

    def observation_string(self, player: Optional[int] = None) -> str:
        return self._key()

    def _key(self) -> str:
        partial = self.game.partial_codes()
        tail = f" partial={'+'.join(map(str, partial))}" if partial else ""
        return f"{self.game.position} turns={self.game.turns}{tail}"

    def __str__(self) -> str:
        return self._key()


class SenetObserver:
    """The observation tensor: ``Game.observation()`` and the split move so far."""

    def __init__(self, game: SenetGame, params: Optional[dict]) -> None:
        if params:
            raise senet.SenetError(f"params: the observer takes none, not {params!r}")
        size = game.rules.observation_size
        self.tensor = np.zeros(size + senet.MAX_STEPS, np.float32)
        self.dict = {
            "observation": self.tensor[:size],
            "partial_move": self.tensor[size:],
        }

    def set_from(self, state: SenetState, player: int) -> None:
        self.dict["observation"][:] = state.game.observation()
        partial = self.dict["partial_move"]
        partial.fill(-1)
        codes = state.game.partial_codes()
        partial[: len(codes)] = codes

    def string_from(self, state: SenetState, player: int) -> str:
        return state._key()


pyspiel.register_game(_GAME_TYPE, SenetGame)

__all__ = ["DEFAULT_TURN_CAP", "SHORT_NAME", "SenetGame", "SenetObserver", "SenetState", "spiel_rules"]
