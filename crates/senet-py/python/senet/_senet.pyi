"""Type stubs of the extension module ``senet._senet`` (re-exported by ``senet``)."""

import os
from typing import Any, Literal, Optional, Sequence, TypedDict, Union

import numpy as np
import numpy.typing as npt

MOVE_LIST_CAPACITY: int
"""The most legal moves a decision can have: the length of an index-encoding action mask."""
MAX_STEPS: int
"""The most steps one move has (Piccione's split throws): the most codes of one move."""
MAX_ENVS: int
"""The most games of one vector environment (65,536)."""
MAX_MASK_VALUES: int
"""The most action-mask values (games x actions) of one vector environment (2**26)."""

class SenetError(ValueError):
    """Bad input refused by the engine; the message is the engine's."""

class RulesetError(SenetError):
    """An unknown ruleset, option or option value."""

class PositionError(SenetError):
    """A position that does not parse or is not a position of the ruleset."""

class MoveError(SenetError):
    """A throw or move that is not legal now, or an action in a finished game."""

class RecordError(SenetError):
    """A game record that does not parse or does not replay."""

class PlayerError(SenetError):
    """An unknown player, a budget out of range, or a player asked about another game."""

class TablesError(SenetError):
    """Endgame tables that cannot be solved or read for this ruleset."""

Side = Literal["black", "white"]
RulesArg = Union[str, "Ruleset"]
TablesArg = Union[str, os.PathLike[str], "Tables", None]

class OptionInfo(TypedDict):
    name: str
    values: list[str]
    default: str
    rules: str
    doc: str

class FieldInfo(TypedDict):
    name: str
    values: str
    default: str
    doc: str

class RulesetInfo(TypedDict):
    id: str
    name: str
    rules_revision: int
    options: list[OptionInfo]
    fields: list[FieldInfo]

def rulesets() -> list[RulesetInfo]:
    """Every ruleset of this build: id, name, rules revision, options and position fields."""

class Rng:
    """A seeded ChaCha8 generator: stream ``stream`` of ``seed``, the generator of game
    ``stream`` of a simulation seeded with ``seed``."""

    def __init__(self, seed: int, stream: int = 0) -> None: ...
    def next_u64(self) -> int:
        """The next 64 random bits."""
    def copy(self) -> "Rng":
        """A copy that continues the same sequence independently."""

class Ruleset:
    """A ruleset with its options, such as ``Ruleset("kendall(trap=true)")``."""

    def __init__(self, spec: str) -> None: ...
    @property
    def id(self) -> str:
        """The ruleset's id."""
    @property
    def spec(self) -> str:
        """The canonical specification (options at their defaults left out)."""
    @property
    def pieces_per_side(self) -> int: ...
    @property
    def rules_text(self) -> str:
        """The rules in plain prose (Markdown) with their rule ids, as ``senet rules`` prints
        them."""
    @property
    def observation_size(self) -> int:
        """Values in an observation of this ruleset (see ``Game.observation``)."""
    def throw_outcomes(self) -> list[tuple[int, int]]:
        """The device's exact distribution: ``(value, weight)`` pairs; a value's probability
        is its weight over the sum of the weights."""
    def info(self) -> RulesetInfo:
        """The registry entry."""
    def supports_endgame(self) -> bool:
        """Whether perfect endgame tables can be solved for this configuration."""
    def observation_fields(self) -> list[tuple[str, int]]:
        """Where each position field starts in an observation: ``(name, offset)``; the value
        at ``offset`` is 1 when the field differs from its default, its value follows."""
    @property
    def action_count(self) -> int:
        """The number of fixed action codes of this configuration (docs/action-codes.md)."""
    def encode_move(self, mv: str) -> list[int]:
        """A move's fixed action codes: one, or one per step of a split move."""
    def decode_action(self, codes: Union[int, list[int]]) -> str:
        """The move (notation) of a code, or of the codes of a split move."""

class Outcome(TypedDict):
    winner: Optional[Side]
    points: tuple[int, int]

class Game:
    """A game of any ruleset, from its initial position or from ``position``.

    Throws are an input like moves: give their value, or an ``Rng`` to throw the ruleset's
    device. A refused throw or move raises ``MoveError`` and leaves the game unchanged.
    """

    def __init__(self, rules: Optional[RulesArg] = None, position: Optional[str] = None) -> None: ...
    @staticmethod
    def from_record(text: str) -> "Game":
        """Loads a record in the text form (``rules …``, ``throw N``, ``move M`` lines)."""
    @staticmethod
    def from_json(text: str) -> "Game":
        """Loads a record in JSON (as ``record_json`` writes it)."""
    @property
    def rules(self) -> Ruleset: ...
    @property
    def phase(self) -> Literal["throw", "move", "over"]: ...
    @property
    def side(self) -> Optional[Side]:
        """The side to act; None once the game is over."""
    @property
    def outcome(self) -> Optional[Outcome]:
        """Winner (None for a draw) and points, once the game is over."""
    def legal_moves(self) -> list[str]:
        """The legal moves in generation order (empty unless a move is due)."""
    def throw(self, value: Optional[int] = None, rng: Optional[Rng] = None) -> int:
        """Throws ``value``, or the device with ``rng``; returns the value."""
    def play(self, mv: Union[str, int]) -> None:
        """Plays a move by its notation (``"9-12"``, ``"pass"``) or its index in
        ``legal_moves()``."""
    def undo(self) -> Optional[str]:
        """Takes back the last action and returns it, or None at the start."""
    def play_random(self, rng: Rng, max_turns: int = 10000) -> bool:
        """Plays on with device throws and random legal moves; True when the game ended."""
    @property
    def position(self) -> str:
        """The current position in the position notation."""
    @property
    def start_position(self) -> str: ...
    @property
    def history(self) -> list[str]:
        """Every action so far: ``"throw 3"``, ``"move 9-12"``."""
    @property
    def turns(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    seed: Optional[int]
    """The seed noted in the record."""
    def record(self) -> str:
        """The record in the text form (docs/notation.md)."""
    def record_json(self) -> str: ...
    def throw_outcomes(self) -> list[tuple[int, int]]: ...
    def observation(self) -> npt.NDArray[np.float32]:
        """The environments' observation: piece planes of Black and White over squares
        1..30, pieces off, in hand and captured per side, the side to act, then the
        ruleset's position fields."""
    def afterstates(
        self,
    ) -> tuple[list[str], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(moves, observations, results)``: each legal move, the observation after it
        (one row per move) and its result for Black (1.0 win, 0.0 loss, 0.5 no winner, NaN
        while the game goes on)."""
    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 at each index of ``legal_moves()``, ``MOVE_LIST_CAPACITY`` values."""
    def legal_action_codes(self) -> list[int]:
        """The fixed action codes playable now (after ``partial_codes()`` in a split move)."""
    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 at each code of ``legal_action_codes()``, ``rules.action_count`` values."""
    def partial_codes(self) -> list[int]:
        """The codes of a split move chosen so far with ``play_code``."""
    def play_code(self, code: int) -> Optional[str]:
        """Plays a fixed action code: the move played, or None while a split move goes on."""
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...

class Tables:
    """Solved endgame tables of one ruleset configuration, for perfect players."""

    @staticmethod
    def solve(rules: RulesArg, max_pieces: int) -> "Tables":
        """Solves the endgames with up to ``max_pieces`` pieces a side."""
    @staticmethod
    def read(rules: RulesArg, path: Union[str, os.PathLike[str]]) -> "Tables":
        """Reads a table file written by ``senet solve`` for this configuration."""
    @property
    def rules(self) -> Ruleset: ...
    @property
    def max_pieces(self) -> int: ...
    def describe(self) -> str: ...

class Analysis(TypedDict):
    moves: list[tuple[str, float]]
    chosen: str
    kind: Literal[
        "exact_win_probability", "estimated_win_probability", "heuristic", "uniform", "forced"
    ]
    meaning: str

class Player:
    """A computer player for games of one ruleset configuration: random, greedy,
    expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS], perfect[:PIECES], learned[:DEPTH]."""

    def __init__(
        self, spec: str, rules: Optional[RulesArg] = None, tables: TablesArg = None, seed: int = 0
    ) -> None: ...
    @property
    def name(self) -> str: ...
    def analyse(self, game: Game, rng: Optional[Rng] = None) -> Analysis:
        """Every legal move with its value, the choice, and what the values mean."""
    def choose(self, game: Game, rng: Optional[Rng] = None) -> str:
        """The player's move."""

class Summary:
    """What a batch of games came to; summaries of disjoint batches merge exactly."""

    def __init__(self, json: Optional[str] = None) -> None: ...
    def merge(self, other: "Summary") -> None: ...
    @property
    def games(self) -> int: ...
    @property
    def player_wins(self) -> tuple[int, int]: ...
    def to_json(self) -> str: ...

class Match:
    """A seeded match between two computer players, as ``senet simulate`` plays it."""

    def __init__(
        self,
        rules: Optional[RulesArg] = None,
        players: Union[str, Sequence[str], None] = None,
        seed: int = 0,
        turn_cap: int = 10000,
        tables: TablesArg = None,
    ) -> None: ...
    @property
    def players(self) -> tuple[str, str]: ...
    @property
    def rules(self) -> Ruleset: ...
    @property
    def seed(self) -> int: ...
    @property
    def turn_cap(self) -> int: ...
    def play(self, start: int, stop: int, threads: int = 0) -> Summary:
        """Plays games ``start..stop`` (ChaCha8 stream i for game i) without the GIL."""
    def report(self, summary: Summary) -> dict[str, Any]:
        """The summary as ``senet simulate --json`` prints it."""

def simulate(
    rules: Optional[RulesArg] = None,
    games: int = 10000,
    seed: int = 0,
    players: Union[str, Sequence[str], None] = None,
    tables: TablesArg = None,
    turn_cap: int = 10000,
    threads: int = 0,
) -> dict[str, Any]:
    """Plays seeded games between two computer players (default random,random) and returns
    what ``senet simulate --json`` prints for the same arguments."""

class Point(TypedDict):
    actions: int
    """Actions played before this point (0: the start)."""
    position: str
    black: float
    """Black's winning chance (White's is one minus it)."""
    exact: bool
    """Read from endgame tables within their proven bound, not estimated."""

ValuedMove = TypedDict("ValuedMove", {"move": str, "value": float})

class ThrowStep(TypedDict):
    kind: Literal["throw"]
    action: int
    side: Side
    throw: int
    expected: float
    """The side's winning chance before the throw, expected over every outcome."""
    value: float
    """The side's winning chance once the throw is known."""
    luck: float
    """``value - expected``."""
    exact: bool

class MoveStep(TypedDict):
    kind: Literal["move"]
    action: int
    side: Side
    played: str
    played_value: float
    best: str
    best_value: float
    loss: float
    """``best_value - played_value``, in winning chance; 0 for a forced move."""
    exact: bool
    forced: bool
    label: Optional[Literal["inaccuracy", "mistake", "blunder"]]
    moves: list[ValuedMove]
    """Every legal move with its value, best first."""

class SideReport(TypedDict):
    decisions: int
    forced: int
    total_loss: float
    error_rate: float
    inaccuracies: int
    mistakes: int
    blunders: int
    throws: int
    luck: float
    start: float
    result: float
    luck_adjusted: float

class GameAnalysis(TypedDict):
    rules: str
    evaluator: str
    tables: Optional[str]
    tables_error_bound: Optional[float]
    finished: bool
    points: list[Point]
    """The winning chance before the first action and after each."""
    steps: list[Union[ThrowStep, MoveStep]]
    sides: list[SideReport]
    """Black's figures, then White's."""
    summary: str

def analyse(
    game_or_record: Union[Game, str],
    player: Optional[str] = None,
    tables: TablesArg = "auto",
    seed: int = 0,
) -> GameAnalysis:
    """Analyses a game (a ``Game``, or a record in the text or JSON form) from its start
    with one evaluator (learned[:DEPTH], expectiminimax[:DEPTH], mcts[:PLAYOUTS],
    perfect[:PIECES]; default: learned:2 where weights come with senet, else
    expectiminimax:2) and endgame tables (``"auto"``: those solved in seconds; ``None``; a
    ``senet solve`` file or ``Tables``). Returns what ``senet analyse --json`` prints, plus
    ``"summary"``; ``seed`` seeds the evaluators that draw (mcts)."""

class EnvCore:
    def __init__(
        self,
        rules: RulesArg,
        opponent: str = "random",
        agent: Side = "black",
        turn_cap: int = 10000,
        tables: TablesArg = None,
        illegal: Literal["lose", "raise"] = "lose",
        action_encoding: Literal["fixed", "index"] = "fixed",
    ) -> None: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def action_count(self) -> int: ...
    def partial_codes(self) -> list[int]: ...
    def reset(self, seed: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], bool]: ...
    def step(
        self, action: int
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], float, bool, bool, bool]: ...
    def game(self) -> Game: ...

class VecEnvCore:
    def __init__(
        self,
        rules: RulesArg,
        num_envs: int,
        opponent: str = "random",
        agent: Side = "black",
        turn_cap: int = 10000,
        tables: TablesArg = None,
        illegal: Literal["lose", "raise"] = "lose",
        action_encoding: Literal["fixed", "index"] = "fixed",
    ) -> None: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def action_count(self) -> int: ...
    def partial_into(self, out: npt.NDArray[np.int64]) -> None: ...
    def reset(self, seed: int, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        final_obs: npt.NDArray[np.float32],
        illegal: npt.NDArray[np.bool_],
    ) -> None: ...
    def game(self, index: int) -> Game: ...
