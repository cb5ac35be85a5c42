"""Reinforcement-learning environments for every ruleset.

- ``SenetEnv``: Gymnasium, one agent against a built-in player (``opponent``).
- ``SenetVectorEnv``: Gymnasium vector environment, ``num_envs`` such games stepped in one
  call into Rust.
- ``SenetAECEnv`` (and ``aec_env``): PettingZoo AEC, two agents ``"black"`` and ``"white"``.

Throws happen inside the environments: an agent only ever chooses moves. Observations are
dicts of ``"observation"`` (``float32``, ``Ruleset.observation_size`` values: Black's and
White's piece planes over squares 1..30, pieces off, in hand and captured per side, the
side to act, then the ruleset's position fields, see ``Game.observation``) and
``"action_mask"`` (``int8``, one value per action; 1 marks the legal ones).

Actions (``action_encoding``):

- ``"fixed"`` (the default): the configuration's fixed action codes, ``Discrete(N)`` with
  ``N = Ruleset.action_count`` (docs/action-codes.md): a code means the same move in every
  position (the place a piece leaves x the place it reaches, x the throw spent where a
  player holds several throws, plus the passes and an end code). A split move (Piccione's
  ``3-5,8-10``) is one code per step: the agent acts again, with the mask of the codes that
  may follow, until the move is whole; the observation's ``"partial_move"`` (``int64``,
  ``MAX_STEPS`` values, -1 padded) holds the codes chosen so far.
- ``"index"``: action ``i`` plays the ``i``-th legal move in the engine's generation order
  (``Game.legal_moves()``), ``Discrete(MOVE_LIST_CAPACITY)``; an action means a different
  move in every position.

Every environment also has ``action_masks()``, the current mask (the convention of
masking wrappers). Actions must be integers (a Python or NumPy integer): a float or a bool
raises ``SenetError``.

Rewards: +1 for a win, -1 for a loss, 0 for a draw or a game stopped at the turn
cap (``truncated``).

Seeding: ``reset(seed=s)`` makes the episode a function of ``s`` alone (every throw and
every random choice of the opponent); later resets without a seed continue from the
generator ``s`` started, so a run of episodes repeats exactly.
"""

from __future__ import annotations

from typing import Any, Optional

import operator

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import senet
from senet._senet import EnvCore, VecEnvCore

_MASK = senet.MOVE_LIST_CAPACITY
_STEPS = senet.MAX_STEPS
_SEED_BOUND = 2**63
_ENCODINGS = ("fixed", "index")


def _describe(value: Any) -> str:
    text = repr(value).replace("\n", " ")
    if len(text) > 60:
        text = text[:60] + "…"
    return f"{type(value).__name__} {text}"


def _int(name: str, value: Any, lo: int, hi: int) -> int:
    """An integer argument from ``lo`` to ``hi`` (a Python or NumPy integer, not a bool);
    anything else raises ``SenetError`` naming the argument."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            number = operator.index(value)
        except TypeError:
            pass
        else:
            if lo <= number <= hi:
                return number
    raise senet.SenetError(
        f"{name}: expected an integer from {lo} to {hi}, not {_describe(value)}"
    )


def _seed(seed: Any) -> Optional[int]:
    """A reset seed: None or an integer from 0 to 2**64 - 1."""
    return None if seed is None else _int("seed", seed, 0, 2**64 - 1)


def _render_mode(render_mode: Any) -> Optional[str]:
    if render_mode is not None and render_mode != "ansi":
        raise senet.SenetError(
            f'render_mode: expected None or "ansi", not {_describe(render_mode)}'
        )
    return render_mode


def _encoding(action_encoding: str) -> str:
    if not isinstance(action_encoding, str) or action_encoding not in _ENCODINGS:
        raise senet.SenetError(
            f'action_encoding: expected "fixed" or "index", not {_describe(action_encoding)}'
        )
    return action_encoding


def _actions(rules: senet.Ruleset, action_encoding: str) -> int:
    return rules.action_count if action_encoding == "fixed" else _MASK


def _action(action: Any) -> int:
    """An integral action: a Python or NumPy integer (also a 0-d integer array); a bool,
    a float or anything else raises ``SenetError`` naming the argument."""
    if isinstance(action, (bool, np.bool_)) or (
        isinstance(action, np.ndarray) and action.dtype == np.bool_
    ):
        raise senet.SenetError(f"action must be an integer, not the bool {action!r}")
    try:
        action = operator.index(action)
    except TypeError:
        raise senet.SenetError(
            f"action must be an integer, not {_describe(action)}"
        ) from None
    if not -(2**63) <= action < 2**63:
        raise senet.SenetError(f"action {action} is out of range")
    return action


def _spaces(
    rules: senet.Ruleset, turn_cap: int, action_encoding: str = "fixed"
) -> tuple[spaces.Dict, spaces.Discrete]:
    # The largest value: a turn counter (at most the turn cap and one), or a count field
    # such as Piccione's extra throws (at most 255); pieces and squares are far below.
    high = float(max(turn_cap + 1, 255))
    n = _actions(rules, action_encoding)
    entries = {
        "observation": spaces.Box(
            low=0.0, high=high, shape=(rules.observation_size,), dtype=np.float32
        ),
        "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
    }
    if action_encoding == "fixed":
        entries["partial_move"] = spaces.Box(
            low=-1, high=n - 1, shape=(_STEPS,), dtype=np.int64
        )
    return spaces.Dict(entries), spaces.Discrete(n)


def _partial(codes: list[int]) -> np.ndarray:
    out = np.full(_STEPS, -1, dtype=np.int64)
    out[: len(codes)] = codes
    return out


def _rules(rules: Any) -> senet.Ruleset:
    """A ``rules`` argument: a ``Ruleset`` or a specification."""
    if isinstance(rules, senet.Ruleset):
        return rules
    if not isinstance(rules, str):
        raise senet.RulesetError(
            "rules: expected a specification such as \"kendall(trap=true)\" or a "
            f"senet.Ruleset, not {_describe(rules)}"
        )
    return senet.Game(rules).rules


class SenetEnv(gym.Env):
    """One game against a built-in player.

    ``rules``: a ruleset specification or ``Ruleset``; ``opponent``: a player name
    (``random``, ``greedy``, ``expectiminimax:2``, ``mcts:200``, ``perfect:2``…); ``agent``:
    the side the agent plays (``"black"`` moves first); ``illegal``: ``"lose"`` (an illegal
    action ends the episode with reward -1 and ``info["illegal_action"]``) or ``"raise"``
    (``MoveError``); ``action_encoding``: ``"fixed"`` codes or legal-move ``"index"``.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: Any = "regency",
        opponent: str = "random",
        agent: str = "black",
        turn_cap: int = senet.DEFAULT_TURN_CAP,
        tables: Any = None,
        illegal: str = "lose",
        render_mode: Optional[str] = None,
        action_encoding: str = "fixed",
    ) -> None:
        self.rules = _rules(rules)
        self.action_encoding = _encoding(action_encoding)
        self.render_mode = _render_mode(render_mode)
        self._core = EnvCore(
            self.rules, opponent, agent, turn_cap, tables, illegal, action_encoding
        )
        self.observation_space, self.action_space = _spaces(
            self.rules, turn_cap, action_encoding
        )
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)

    def _observation(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        self._mask = mask
        out = {"observation": obs, "action_mask": mask}
        if self.action_encoding == "fixed":
            out["partial_move"] = _partial(self._core.partial_codes())
        return out

    def action_masks(self) -> np.ndarray:
        """The mask of the current decision (all zeros once the episode has ended)."""
        return self._mask.copy()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=_seed(seed))
        while True:
            # An episode that ends before the agent's first move is skipped.
            episode_seed = int(self.np_random.integers(0, _SEED_BOUND))
            obs, mask, ended = self._core.reset(episode_seed)
            if not ended:
                return self._observation(obs, mask), {"seed": episode_seed}

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        obs, mask, reward, terminated, truncated, illegal = self._core.step(
            _action(action)
        )
        info = {"illegal_action": True} if illegal else {}
        return (
            self._observation(obs, mask),
            float(reward),
            terminated,
            truncated,
            info,
        )

    def game(self) -> senet.Game:
        """A copy of the game so far."""
        return self._core.game()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            game = self._core.game()
            return f"{game.position}\n{game.legal_moves()}"
        return None


class SenetVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games against built-in players, stepped in one call into Rust.

    Takes the arguments of ``SenetEnv``. A finished game starts again within the same step
    (``autoreset_mode`` ``SAME_STEP``, Gymnasium's convention): the reward and
    ``terminated``/``truncated`` are the finished game's, the observation the new game's
    first, and ``info`` carries the finished game's last observation as
    ``info["final_obs"][i]`` (an object array, None where no game ended; ``info["_final_obs"]``
    marks the ended games) and its info as ``info["final_info"]`` (``"illegal_action"``
    and ``"_illegal_action"`` where an illegal action ended it; ``info["_final_info"]``
    marks the ended games). ``reset(seed=s)`` starts game ``i`` from ChaCha8 stream ``i``
    of ``s``; each game keeps drawing from its own stream through its automatic resets, so
    a run repeats exactly.

    Memory grows with ``num_envs`` and the number of actions (the masks): measured with
    fixed codes, random opponents, after a reset and a step, about 11 KiB a game for
    Regency (963 actions; 712 MiB for 65,536 games), 34 KiB for Kendall (4,812 actions),
    7 KiB with ``action_encoding="index"``; an opponent player adds its own (about 3.5 KiB
    for ``expectiminimax:2``, 8 KiB for ``mcts:50`` on Regency). So ``num_envs`` is at most
    ``min(senet.MAX_ENVS, senet.MAX_MASK_VALUES // actions)``: 65,536 games of 963 actions,
    13,946 of Kendall's; more raises ``SenetError`` naming ``num_envs`` and the cap.

    Ctrl-C interrupts a long ``reset`` or ``step`` (checked every 50 ms) with
    ``KeyboardInterrupt``; an interrupted step leaves the games to be reset.
    """

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        rules: Any = "regency",
        opponent: str = "random",
        agent: str = "black",
        turn_cap: int = senet.DEFAULT_TURN_CAP,
        tables: Any = None,
        illegal: str = "lose",
        action_encoding: str = "fixed",
    ) -> None:
        self.rules = _rules(rules)
        self.action_encoding = _encoding(action_encoding)
        self._core = VecEnvCore(
            self.rules,
            num_envs,
            opponent,
            agent,
            turn_cap,
            tables,
            illegal,
            action_encoding,
        )
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(
            self.rules, turn_cap, action_encoding
        )
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(
            self.single_action_space, num_envs
        )
        size = self.rules.observation_size
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._mask = np.zeros(
            (num_envs, self.single_action_space.n), dtype=np.int8
        )
        self._partial = np.full((num_envs, _STEPS), -1, dtype=np.int64)
        self._rewards = np.zeros(num_envs, dtype=np.float32)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._truncated = np.zeros(num_envs, dtype=bool)
        self._final_obs = np.zeros((num_envs, size), dtype=np.float32)
        self._illegal = np.zeros(num_envs, dtype=bool)
        self._np_random = None

    def _observations(self) -> dict[str, np.ndarray]:
        out = {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        if self.action_encoding == "fixed":
            self._core.partial_into(self._partial)
            out["partial_move"] = self._partial.copy()
        return out

    def action_masks(self) -> np.ndarray:
        """The masks of the current decisions, one row per environment."""
        return self._mask.copy()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        seed = _seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = gym.utils.seeding.np_random(seed)
        run_seed = int(self._np_random.integers(0, _SEED_BOUND))
        self._core.reset(run_seed, self._obs, self._mask)
        return self._observations(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict]:
        try:
            actions = np.asarray(actions)
        except (TypeError, ValueError):
            raise senet.SenetError(
                f"actions: expected {self.num_envs} integers, not {_describe(actions)}"
            ) from None
        if actions.dtype.kind not in "iu":
            raise senet.SenetError(
                f"actions must be integers, not an array of {actions.dtype}"
            )
        if actions.shape != (self.num_envs,):
            raise senet.SenetError(
                f"actions: expected {self.num_envs} integers, not an array of shape {actions.shape}"
            )
        if actions.dtype.kind == "u" and actions.size and actions.max() >= 2**63:
            raise senet.SenetError(f"actions: {actions.max()} is out of range")
        self.step_into(np.ascontiguousarray(actions, dtype=np.int64))
        return (
            self._observations(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._final_infos(),
        )

    def _final_infos(self) -> dict[str, Any]:
        """Gymnasium's same-step autoreset info: the final observation and info of every
        game that ended in the last step."""
        ended = self._terminated | self._truncated
        if not ended.any():
            return {}
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(ended):
            obs = {
                "observation": self._final_obs[i].copy(),
                "action_mask": np.zeros(self.single_action_space.n, dtype=np.int8),
            }
            if self.action_encoding == "fixed":
                obs["partial_move"] = np.full(_STEPS, -1, dtype=np.int64)
            final_obs[i] = obs
        final_info: dict[str, Any] = {}
        illegal = self._illegal & ended
        if illegal.any():
            final_info = {"illegal_action": illegal, "_illegal_action": illegal.copy()}
        return {
            "final_obs": final_obs,
            "_final_obs": ended,
            "final_info": final_info,
            "_final_info": ended.copy(),
        }

    def step_into(self, actions: np.ndarray) -> None:
        """Steps without copying: the results stay in ``buffers()``, overwritten by the
        next step (the final observations of the games that ended in ``final_buffers()``).
        For throughput; ``step`` is the Gymnasium call."""
        self._core.step(
            actions,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
            self._final_obs,
            self._illegal,
        )

    def final_buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """The arrays ``step_into`` writes for the games that ended in the step: their last
        observations (rows of the others are stale) and whether an illegal action ended
        them."""
        return self._final_obs, self._illegal

    def buffers(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The arrays ``step_into`` writes: observations, masks, rewards, terminated,
        truncated."""
        return (
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
        )

    def game(self, index: int) -> senet.Game:
        """A copy of the game of environment ``index``."""
        return self._core.game(index)


try:
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - PettingZoo is optional
    AECEnv = object  # type: ignore[assignment,misc]


class SenetAECEnv(AECEnv):  # type: ignore[misc,valid-type]
    """Two agents, ``"black"`` and ``"white"``, playing one game; throws happen inside.

    ``illegal``: ``"raise"`` (``MoveError``, the game unchanged) or ``"lose"`` (the acting
    agent loses, -1, the other wins, +1); ``action_encoding``: ``"fixed"`` codes (a split
    move takes one step of the same agent per code) or legal-move ``"index"``.
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "senet_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Any = "regency",
        turn_cap: int = senet.DEFAULT_TURN_CAP,
        illegal: str = "raise",
        render_mode: Optional[str] = None,
        action_encoding: str = "fixed",
    ) -> None:
        if AECEnv is object:
            raise ImportError("SenetAECEnv needs pettingzoo (pip install pettingzoo)")
        super().__init__()
        if not isinstance(illegal, str) or illegal not in ("raise", "lose"):
            raise senet.SenetError(
                f'illegal: expected "raise" or "lose", not {_describe(illegal)}'
            )
        self.rules = _rules(rules)
        self.action_encoding = _encoding(action_encoding)
        self.turn_cap = _int("turn_cap", turn_cap, 1, 2**32 - 1)
        self.illegal = illegal
        self.render_mode = _render_mode(render_mode)
        self.possible_agents = ["black", "white"]
        self.agents = self.possible_agents[:]
        observation, action = _spaces(self.rules, self.turn_cap, self.action_encoding)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self._np_random = None
        self._no_mask = np.zeros(action.n, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        seed = _seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = gym.utils.seeding.np_random(seed)
        self.episode_seed = int(self._np_random.integers(0, _SEED_BOUND))
        self._rng = senet.Rng(self.episode_seed)
        self.game = senet.Game(self.rules)
        self.game.seed = self.episode_seed
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._throw_and_settle()

    def _throw_and_settle(self) -> None:
        """Throws until a move is due, then gives the turn to its side or ends the game."""
        game = self.game
        while game.phase == "throw" and game.turns <= self.turn_cap:
            game.throw(rng=self._rng)
        if game.phase == "over":
            winner = game.outcome["winner"]
            for agent in self.agents:
                self.rewards[agent] = (
                    0.0 if winner is None else (1.0 if agent == winner else -1.0)
                )
                self.terminations[agent] = True
        elif game.turns > self.turn_cap:
            for agent in self.agents:
                self.truncations[agent] = True
        else:
            self.agent_selection = game.side
            return
        if not hasattr(self, "agent_selection") or self.agent_selection is None:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        acting = (
            agent == self.agent_selection
            and self.game.phase == "move"
            and not (self.terminations[agent] or self.truncations[agent])
        )
        if self.action_encoding == "fixed":
            return {
                "observation": self.game.observation(),
                "action_mask": self.game.action_masks()
                if acting
                else self._no_mask.copy(),
                "partial_move": _partial(self.game.partial_codes() if acting else []),
            }
        return {
            "observation": self.game.observation(),
            "action_mask": self.game.action_mask() if acting else self._no_mask.copy(),
        }

    def action_masks(self) -> np.ndarray:
        """The mask of the agent to act (``agent_selection``)."""
        return self.observe(self.agent_selection)["action_mask"]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        action = _action(action)
        try:
            if self.action_encoding == "fixed":
                if self.game.play_code(action) is None:
                    # A split move goes on: the same agent chooses its next step.
                    self._accumulate_rewards()
                    return
            else:
                self.game.play(action)
        except senet.MoveError:
            if self.illegal == "raise":
                raise
            for other in self.agents:
                self.rewards[other] = -1.0 if other == agent else 1.0
                self.terminations[other] = True
            self.infos[agent] = {"illegal_action": True}
        else:
            self._throw_and_settle()
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self.game.position
        return None

    def close(self) -> None:
        pass


def aec_env(**kwargs: Any) -> SenetAECEnv:
    """``SenetAECEnv(**kwargs)`` with PettingZoo's order-enforcing wrapper."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(SenetAECEnv(**kwargs))


__all__ = ["SenetAECEnv", "SenetEnv", "SenetVectorEnv", "aec_env"]
