import json
import subprocess

import pytest

import senet

SIDE_KEYS = {
    "decisions", "forced", "total_loss", "error_rate", "inaccuracies", "mistakes", "blunders",
    "throws", "luck", "start", "result", "luck_adjusted",
}


def played_game(rules, seed, max_turns=None):
    """A game played through the Python API: device throws from a seeded Rng, Black greedy,
    White random."""
    game = senet.Game(rules)
    rng = senet.Rng(seed)
    greedy = senet.Player("greedy", game.rules)
    while game.outcome is None and (max_turns is None or game.turns <= max_turns):
        if game.phase == "throw":
            game.throw(rng=rng)
        elif game.side == "black":
            game.play(greedy.choose(game, rng))
        else:
            game.play(rng.next_u64() % len(game.legal_moves()))
    return game


def test_a_finished_game_has_a_point_per_action_and_chances_in_range():
    game = played_game("regency", 5)
    assert game.outcome is not None
    a = senet.analyse(game)
    assert a["rules"] == "regency" and a["evaluator"] == "learned:2" and a["finished"]
    assert a["tables"] is not None, "auto: the tables that solve in seconds"
    assert [p["actions"] for p in a["points"]] == list(range(len(game.history) + 1))
    assert a["points"][-1]["position"] == game.position
    assert a["points"][0]["position"] == game.start_position
    assert any(p["exact"] for p in a["points"]), "the end is inside the tables"
    assert all(0.0 <= p["black"] <= 1.0 for p in a["points"])
    # One step per action, in order, with what was played.
    assert len(a["steps"]) == len(game.history)
    for step, action in zip(a["steps"], game.history):
        kind, played = action.split(" ", 1)
        assert step["kind"] == kind
        if kind == "throw":
            assert str(step["throw"]) == played
            assert 0.0 <= step["expected"] <= 1.0 and 0.0 <= step["value"] <= 1.0
            assert step["luck"] == pytest.approx(step["value"] - step["expected"])
        else:
            assert step["played"] == played
            assert 0.0 <= step["loss"] <= 1.0
            assert all(0.0 <= m["value"] <= 1.0 for m in step["moves"])
            assert step["best_value"] == max(m["value"] for m in step["moves"])
    # Black's figures, then White's; the winner's result is 1.
    assert [set(s) for s in a["sides"]] == [SIDE_KEYS, SIDE_KEYS]
    winner = ["black", "white"].index(game.outcome["winner"])
    assert a["sides"][winner]["result"] == 1.0 and a["sides"][1 - winner]["result"] == 0.0
    assert sum(s["throws"] for s in a["sides"]) == sum(h.startswith("throw") for h in game.history)
    assert a["summary"].startswith("Black: ") and "White: " in a["summary"]


def test_a_game_a_text_record_and_a_json_record_analyse_alike():
    game = played_game("bell", 2, max_turns=20)
    assert game.outcome is None
    a = senet.analyse(game, "expectiminimax:1")
    assert not a["finished"]
    assert senet.analyse(game.record(), "expectiminimax:1") == a
    assert senet.analyse(game.record_json(), "expectiminimax:1") == a


def cli_analysis(senet_bin, record_path, *flags):
    run = subprocess.run(
        [senet_bin, "analyse", str(record_path), "--json", *flags],
        check=True, capture_output=True, text=True,
    )
    return json.loads(run.stdout)


@pytest.mark.parametrize(
    "rules, seed, max_turns, player, options",
    [
        ("regency", 3, None, None, {}),
        ("bell", 4, None, "expectiminimax:1", {"tables": None}),
        ("kendall", 6, 30, "mcts:20", {"tables": None, "seed": 9}),
        ("regency(house_of_water=true)", 1, 60, "expectiminimax:2", {"tables": None, "seed": 1}),
    ],
)
def test_analyse_is_senet_analyse_json(senet_bin, tmp_path, rules, seed, max_turns, player, options):
    game = played_game(rules, seed, max_turns)
    path = tmp_path / "game.txt"
    path.write_text(game.record())
    flags = []
    if player is not None:
        flags += ["--player", player]
    if "tables" in options:
        flags.append("--no-tables")
    if "seed" in options:
        flags += ["--seed", str(options["seed"])]
    a = senet.analyse(game, player, **options)
    summary = a.pop("summary")
    assert a == cli_analysis(senet_bin, path, *flags)
    text = subprocess.run(
        [senet_bin, "analyse", str(path), *flags], check=True, capture_output=True, text=True
    ).stdout
    assert summary in text


def test_table_files_of_senet_solve_analyse_as_on_the_command_line(senet_bin, tmp_path):
    tables = tmp_path / "regency-1.bin"
    subprocess.run(
        [senet_bin, "solve", "--rules", "regency", "--pieces", "1", "--out", str(tables)],
        check=True, capture_output=True,
    )
    game = played_game("regency", 8)
    path = tmp_path / "game.txt"
    path.write_text(game.record())
    a = senet.analyse(game, "expectiminimax:1", tables=tables)
    assert a["tables"].startswith("regency endgames, up to 1 piece")
    del a["summary"]
    assert a == cli_analysis(
        senet_bin, path, "--player", "expectiminimax:1", "--tables", str(tables)
    )
    assert senet.analyse(game, "expectiminimax:1", tables=str(tables))["points"] == a["points"]
    # The same tables given as senet.Tables.
    solved = senet.Tables.read("regency", tables)
    assert senet.analyse(game, "expectiminimax:1", tables=solved)["points"] == a["points"]
    with pytest.raises(senet.TablesError, match="^tables: "):
        senet.analyse(played_game("regency(house_of_water=true)", 1, 10), tables=tables)


@pytest.mark.parametrize(
    "game_or_record, kwargs, error, argument",
    [
        ("rules chess\n", {}, senet.RecordError, "game_or_record"),
        ("rules regency\nthrow 3\nmove 1-30\n", {}, senet.RecordError, "game_or_record"),
        ('{"rules": 1}', {}, senet.RecordError, "game_or_record"),
        (None, {"player": "greedy"}, senet.PlayerError, "player"),
        (None, {"player": "random"}, senet.PlayerError, "player"),
        (None, {"player": "robot"}, senet.PlayerError, "player"),
        (None, {"player": "mcts:1000000000"}, senet.PlayerError, "player"),
        (None, {"player": "perfect:2", "tables": None}, senet.PlayerError, "player"),
        (None, {"player": "learned"}, senet.PlayerError, "player"),
        (None, {"tables": "/no/such/tables.bin"}, senet.TablesError, "tables"),
        (None, {"tables": senet.Tables.solve("regency", 1)}, senet.TablesError, "tables"),
        (None, {"seed": -1}, senet.SenetError, "seed"),
        (None, {"seed": 2**64}, senet.SenetError, "seed"),
    ],
)
def test_bad_arguments_raise_value_errors_naming_them(game_or_record, kwargs, error, argument):
    # A house rule without learned weights, with no endgames of its own in the tables above.
    game = game_or_record or played_game("regency(house_of_water=true)", 1, 5)
    with pytest.raises(error, match=f"^{argument}: ") as raised:
        senet.analyse(game, **kwargs)
    assert isinstance(raised.value, senet.SenetError) and isinstance(raised.value, ValueError)


def test_arguments_of_the_wrong_type_are_senet_errors_naming_them():
    game = senet.Game()
    for kwargs in ({"tables": 3}, {"seed": "7"}, {"player": 2}):
        (name,) = kwargs
        with pytest.raises(senet.SenetError, match=f"^{name}: "):
            senet.analyse(game, **kwargs)
    with pytest.raises(senet.RecordError, match="^game_or_record: "):
        senet.analyse(42)


def test_the_same_seed_gives_the_same_analysis():
    game = played_game("regency", 12, max_turns=25)
    first = senet.analyse(game, "mcts:30", seed=7)
    assert senet.analyse(game, "mcts:30", seed=7) == first
    # The seed is used: another one draws other playouts.
    assert senet.analyse(game, "mcts:30", seed=8)["points"] != first["points"]
    # Evaluators that do not draw ignore it.
    assert senet.analyse(game, seed=1) == senet.analyse(game, seed=2)
