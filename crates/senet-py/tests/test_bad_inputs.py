"""Every public function and constructor refuses hostile arguments with a `SenetError`
subclass (a `ValueError`) whose message starts with the argument's name: never a
`TypeError`, an `OverflowError`, a panic or a message over several lines."""

import pathlib

import numpy as np
import pytest

import senet

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from senet.envs import SenetAECEnv, SenetEnv, SenetVectorEnv  # noqa: E402

BIG = 2**70
HUGE = 2**200


def game():
    return senet.Game("regency")


def moving_game():
    g = senet.Game("regency")
    g.throw(1)
    return g


def rng():
    return senet.Rng(1)


def summary():
    return senet.Match("regency").play(0, 2)


def reset_env():
    env = SenetEnv("regency")
    env.reset(seed=1)
    return env


def reset_vec():
    env = SenetVectorEnv(2, "regency")
    env.reset(seed=1)
    return env


# (argument, call): each call passes one hostile value of the argument named first.
CASES = [
    # Ruleset
    ("spec", lambda: senet.Ruleset(None)),
    ("spec", lambda: senet.Ruleset(5)),
    ("spec", lambda: senet.Ruleset(["regency"])),
    ("spec", lambda: senet.Ruleset("")),
    ("spec", lambda: senet.Ruleset("chess")),
    ("spec", lambda: senet.Ruleset("regency(trap=2**70)")),
    ("mv", lambda: senet.Ruleset("regency").encode_move(5)),
    ("mv", lambda: senet.Ruleset("regency").encode_move(None)),
    ("mv", lambda: senet.Ruleset("regency").encode_move("99-100")),
    ("codes", lambda: senet.Ruleset("regency").decode_action(-1)),
    ("codes", lambda: senet.Ruleset("regency").decode_action(BIG)),
    ("codes", lambda: senet.Ruleset("regency").decode_action(1.5)),
    ("codes", lambda: senet.Ruleset("regency").decode_action(True)),
    ("codes", lambda: senet.Ruleset("regency").decode_action("3")),
    ("codes", lambda: senet.Ruleset("regency").decode_action(None)),
    ("codes", lambda: senet.Ruleset("regency").decode_action([1] * 100)),
    # Rng
    ("seed", lambda: senet.Rng(-1)),
    ("seed", lambda: senet.Rng(BIG)),
    ("seed", lambda: senet.Rng(1.5)),
    ("seed", lambda: senet.Rng(True)),
    ("seed", lambda: senet.Rng(None)),
    ("seed", lambda: senet.Rng("7")),
    ("stream", lambda: senet.Rng(1, stream=-1)),
    ("stream", lambda: senet.Rng(1, stream=[1])),
    # Game
    ("rules", lambda: senet.Game(5)),
    ("rules", lambda: senet.Game(1.5)),
    ("rules", lambda: senet.Game(["regency"])),
    ("rules", lambda: senet.Game("chess")),
    ("position", lambda: senet.Game("regency", position=5)),
    ("position", lambda: senet.Game("regency", position="nonsense")),
    ("position", lambda: senet.Game("regency", position=["x"])),
    ("text", lambda: senet.Game.from_record(None)),
    ("text", lambda: senet.Game.from_record(5)),
    ("text", lambda: senet.Game.from_record("rules regency\nthrow 9\n")),
    ("text", lambda: senet.Game.from_json(b"{}")),
    ("text", lambda: senet.Game.from_json("{")),
    ("value", lambda: game().throw(-1)),
    ("value", lambda: game().throw(BIG)),
    ("value", lambda: game().throw(1.5)),
    ("value", lambda: game().throw(True)),
    ("value", lambda: game().throw("3")),
    ("value", lambda: game().throw(0)),
    ("value", lambda: game().throw(9)),
    ("value", lambda: game().throw()),
    ("value", lambda: game().throw(3, rng=rng())),
    ("rng", lambda: game().throw(rng=5)),
    ("rng", lambda: game().throw(rng="x")),
    ("mv", lambda: moving_game().play(-1)),
    ("mv", lambda: moving_game().play(BIG)),
    ("mv", lambda: moving_game().play(HUGE)),
    ("mv", lambda: moving_game().play(1.5)),
    ("mv", lambda: moving_game().play(True)),
    ("mv", lambda: moving_game().play(None)),
    ("mv", lambda: moving_game().play(["1-2"])),
    ("mv", lambda: moving_game().play("nonsense")),
    ("mv", lambda: moving_game().play("29-30")),
    ("code", lambda: moving_game().play_code(-1)),
    ("code", lambda: moving_game().play_code(BIG)),
    ("code", lambda: moving_game().play_code(1.5)),
    ("code", lambda: moving_game().play_code(None)),
    ("code", lambda: moving_game().play_code("3")),
    ("rng", lambda: game().play_random(None)),
    ("rng", lambda: game().play_random(5)),
    ("max_turns", lambda: game().play_random(rng(), max_turns=-1)),
    ("max_turns", lambda: game().play_random(rng(), max_turns=BIG)),
    ("max_turns", lambda: game().play_random(rng(), max_turns=1.5)),
    ("max_turns", lambda: game().play_random(rng(), max_turns=None)),
    ("seed", lambda: setattr(game(), "seed", -1)),
    ("seed", lambda: setattr(game(), "seed", BIG)),
    ("seed", lambda: setattr(game(), "seed", "7")),
    # Player, Tables
    ("spec", lambda: senet.Player(None)),
    ("spec", lambda: senet.Player(5)),
    ("spec", lambda: senet.Player("robot")),
    ("spec", lambda: senet.Player("mcts:-1")),
    ("spec", lambda: senet.Player("expectiminimax:99999999999999999999999")),
    ("rules", lambda: senet.Player("greedy", 5)),
    ("tables", lambda: senet.Player("perfect:1", "regency", tables=5)),
    ("tables", lambda: senet.Player("perfect:1", "regency", tables="/nonexistent/t")),
    ("seed", lambda: senet.Player("greedy", seed=-1)),
    ("seed", lambda: senet.Player("greedy", seed=BIG)),
    ("seed", lambda: senet.Player("greedy", seed=1.5)),
    ("seed", lambda: senet.Player("greedy", seed=None)),
    ("game", lambda: senet.Player("greedy").analyse("x")),
    ("game", lambda: senet.Player("greedy").choose(None)),
    ("game", lambda: senet.Player("greedy", "kendall").choose(moving_game())),
    ("rng", lambda: senet.Player("random").choose(moving_game(), rng=5)),
    ("rules", lambda: senet.Tables.solve(None, 1)),
    ("max_pieces", lambda: senet.Tables.solve("regency", -1)),
    ("max_pieces", lambda: senet.Tables.solve("regency", BIG)),
    ("max_pieces", lambda: senet.Tables.solve("regency", 1.5)),
    ("max_pieces", lambda: senet.Tables.solve("regency", None)),
    ("path", lambda: senet.Tables.read("regency", 5)),
    ("path", lambda: senet.Tables.read("regency", None)),
    ("path", lambda: senet.Tables.read("regency", "/nonexistent/t")),
    # simulate, Match, Summary
    ("rules", lambda: senet.simulate(5)),
    ("games", lambda: senet.simulate(games=-1)),
    ("games", lambda: senet.simulate(games=0)),
    ("games", lambda: senet.simulate(games=BIG)),
    ("games", lambda: senet.simulate(games=1.5)),
    ("games", lambda: senet.simulate(games=True)),
    ("games", lambda: senet.simulate(games=None)),
    ("games", lambda: senet.simulate(games="10")),
    ("games", lambda: senet.simulate(games=[10])),
    ("seed", lambda: senet.simulate(games=1, seed=-1)),
    ("seed", lambda: senet.simulate(games=1, seed=BIG)),
    ("seed", lambda: senet.simulate(games=1, seed=1.5)),
    ("seed", lambda: senet.simulate(games=1, seed=None)),
    ("players", lambda: senet.simulate(games=1, players=5)),
    ("players", lambda: senet.simulate(games=1, players=["greedy"])),
    ("players", lambda: senet.simulate(games=1, players=[1, 2])),
    ("players", lambda: senet.simulate(games=1, players="greedy,robot")),
    ("players", lambda: senet.simulate(games=1, players=("perfect:3", "random"))),
    ("tables", lambda: senet.simulate(games=1, tables=5)),
    ("tables", lambda: senet.simulate(games=1, tables=b"file")),
    ("turn_cap", lambda: senet.simulate(games=1, turn_cap=0)),
    ("turn_cap", lambda: senet.simulate(games=1, turn_cap=-5)),
    ("turn_cap", lambda: senet.simulate(games=1, turn_cap=BIG)),
    ("turn_cap", lambda: senet.simulate(games=1, turn_cap=None)),
    ("threads", lambda: senet.simulate(games=1, threads=-1)),
    ("threads", lambda: senet.simulate(games=1, threads=10**6)),
    ("threads", lambda: senet.simulate(games=1, threads=1.5)),
    ("rules", lambda: senet.Match(["regency"])),
    ("seed", lambda: senet.Match(seed=-1)),
    ("turn_cap", lambda: senet.Match(turn_cap=1.5)),
    ("start", lambda: senet.Match().play(-1, 5)),
    ("start", lambda: senet.Match().play(None, 5)),
    ("stop", lambda: senet.Match().play(0, BIG)),
    ("stop", lambda: senet.Match().play(5, 2)),
    ("stop", lambda: senet.Match().play(0, 10**10)),
    ("threads", lambda: senet.Match().play(0, 1, threads="2")),
    ("summary", lambda: senet.Match().report(None)),
    ("summary", lambda: senet.Match().report({})),
    ("json", lambda: senet.Summary(5)),
    ("json", lambda: senet.Summary("{")),
    ("json", lambda: senet.Summary("x\ny")),
    ("other", lambda: summary().merge(None)),
    ("other", lambda: summary().merge(5)),
    # analyse
    ("game_or_record", lambda: senet.analyse(None)),
    ("game_or_record", lambda: senet.analyse(5)),
    ("game_or_record", lambda: senet.analyse("nonsense")),
    ("player", lambda: senet.analyse(game(), player=5)),
    ("player", lambda: senet.analyse(game(), player="robot")),
    ("player", lambda: senet.analyse(game(), player="random")),
    ("tables", lambda: senet.analyse(game(), tables=5)),
    ("tables", lambda: senet.analyse(game(), tables=b"x")),
    ("tables", lambda: senet.analyse(game(), tables="/nonexistent/t")),
    ("seed", lambda: senet.analyse(game(), seed=-1)),
    ("seed", lambda: senet.analyse(game(), seed=BIG)),
    ("seed", lambda: senet.analyse(game(), seed=1.5)),
    ("seed", lambda: senet.analyse(game(), seed=None)),
    # SenetEnv
    ("rules", lambda: SenetEnv(5)),
    ("rules", lambda: SenetEnv("chess")),
    ("opponent", lambda: SenetEnv(opponent=5)),
    ("opponent", lambda: SenetEnv(opponent="robot")),
    ("opponent", lambda: SenetEnv("kendall", opponent="perfect:3")),
    ("agent", lambda: SenetEnv(agent="red")),
    ("agent", lambda: SenetEnv(agent=None)),
    ("turn_cap", lambda: SenetEnv(turn_cap=-1)),
    ("turn_cap", lambda: SenetEnv(turn_cap=BIG)),
    ("turn_cap", lambda: SenetEnv(turn_cap="10")),
    ("turn_cap", lambda: SenetEnv(turn_cap=1.5)),
    ("tables", lambda: SenetEnv(tables=5)),
    ("illegal", lambda: SenetEnv(illegal="maybe")),
    ("illegal", lambda: SenetEnv(illegal=None)),
    ("render_mode", lambda: SenetEnv(render_mode="human")),
    ("render_mode", lambda: SenetEnv(render_mode=5)),
    ("action_encoding", lambda: SenetEnv(action_encoding="onehot")),
    ("action_encoding", lambda: SenetEnv(action_encoding=["fixed"])),
    ("seed", lambda: SenetEnv().reset(seed=-1)),
    ("seed", lambda: SenetEnv().reset(seed=1.5)),
    ("seed", lambda: SenetEnv().reset(seed="1")),
    ("action", lambda: reset_env().step(BIG)),
    ("action", lambda: reset_env().step(1.5)),
    ("action", lambda: reset_env().step(None)),
    ("action", lambda: reset_env().step("3")),
    ("action", lambda: reset_env().step([1])),
    # SenetVectorEnv
    ("num_envs", lambda: SenetVectorEnv(0)),
    ("num_envs", lambda: SenetVectorEnv(-1)),
    ("num_envs", lambda: SenetVectorEnv(BIG)),
    ("num_envs", lambda: SenetVectorEnv(1 << 20)),
    ("num_envs", lambda: SenetVectorEnv(1.5)),
    ("num_envs", lambda: SenetVectorEnv(None)),
    ("num_envs", lambda: SenetVectorEnv("4")),
    ("rules", lambda: SenetVectorEnv(2, None)),
    ("opponent", lambda: SenetVectorEnv(2, opponent=None)),
    ("turn_cap", lambda: SenetVectorEnv(2, turn_cap=0)),
    ("seed", lambda: SenetVectorEnv(2).reset(seed=-1)),
    ("actions", lambda: reset_vec().step(np.array([0.5, 1.5]))),
    ("actions", lambda: reset_vec().step(np.array([0, 0, 0]))),
    ("actions", lambda: reset_vec().step(None)),
    ("actions", lambda: reset_vec().step("ab")),
    ("actions", lambda: reset_vec().step(np.array([2**64 - 1, 0], dtype=np.uint64))),
    ("actions", lambda: reset_vec().step([[0, 0]])),
    ("index", lambda: reset_vec().game(2)),
    ("index", lambda: reset_vec().game(-1)),
    ("index", lambda: reset_vec().game(None)),
    # SenetAECEnv
    ("rules", lambda: SenetAECEnv(5)),
    ("turn_cap", lambda: SenetAECEnv(turn_cap=0)),
    ("turn_cap", lambda: SenetAECEnv(turn_cap="5")),
    ("turn_cap", lambda: SenetAECEnv(turn_cap=BIG)),
    ("illegal", lambda: SenetAECEnv(illegal=5)),
    ("render_mode", lambda: SenetAECEnv(render_mode="rgb")),
    ("action_encoding", lambda: SenetAECEnv(action_encoding=None)),
    ("seed", lambda: SenetAECEnv().reset(seed=-3)),
]


def _id(case):
    name, call = case
    return name


@pytest.mark.parametrize(
    "argument, call", CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)]
)
def test_a_bad_argument_raises_a_senet_error_naming_it(argument, call):
    with pytest.raises(senet.SenetError) as raised:
        call()
    error = raised.value
    assert isinstance(error, ValueError)
    message = str(error)
    assert message.startswith(f"{argument}"), message
    assert "\n" not in message, message


def test_the_audit_covers_every_public_callable():
    assert len(CASES) >= 100
    names = {name for name, _ in CASES}
    assert {"spec", "rules", "games", "seed", "num_envs", "action", "actions"} <= names


def test_distributed_arguments_are_refused_before_ray_starts():
    distributed = pytest.importorskip("senet.distributed")
    for kwargs, name in [
        ({"games": -1}, "games"),
        ({"games": 1.5}, "games"),
        ({"games": BIG}, "games"),
        ({"tasks": 0}, "tasks"),
        ({"tasks": "2"}, "tasks"),
        ({"threads_per_task": None}, "threads_per_task"),
        ({"seed": -1}, "seed"),
        ({"rules": 5}, "rules"),
        ({"players": 5}, "players"),
        ({"tables": 5}, "tables"),
        ({"turn_cap": BIG}, "turn_cap"),
    ]:
        with pytest.raises(senet.SenetError, match=f"^{name}"):
            distributed.simulate(**kwargs)


def test_paths_are_accepted_as_path_objects(tmp_path: pathlib.Path):
    with pytest.raises(senet.TablesError, match="^path: "):
        senet.Tables.read("regency", tmp_path / "missing")
