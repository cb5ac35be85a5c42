import json
import pickle
import subprocess

import pytest

import senet

def test_the_bindings_and_the_command_list_the_same_rulesets(senet_bin):
    """Both read the one registry: the same ids in the same order."""
    listed = subprocess.run(
        [senet_bin, "rules", "--ids"], check=True, capture_output=True, text=True
    ).stdout.split()
    assert [info["id"] for info in senet.rulesets()] == listed


@pytest.mark.parametrize(
    "rules, players, games, seed",
    [
        ("regency", ("greedy", "random"), 300, 5),
        ("kendall", ("random", "random"), 2000, 3),
        ("piccione", ("expectiminimax:1", "mcts:20"), 40, 11),
        ("regency(house_of_water=true)", ("perfect:1", "greedy"), 60, 2),
    ],
)
def test_simulate_is_senet_simulate_json(senet_bin, rules, players, games, seed):
    command = [
        senet_bin, "simulate", "--json", "--rules", rules, "--players", ",".join(players),
        "--games", str(games), "--seed", str(seed),
    ]
    expected = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    assert senet.simulate(rules, games=games, seed=seed, players=players) == expected
    assert senet.simulate(rules, games=games, seed=seed, players=",".join(players), threads=3) == expected


def test_match_parts_merge_to_the_whole_run():
    run = senet.Match("bell", ("greedy", "random"), seed=9)
    whole = run.play(0, 120)
    parts = senet.Summary()
    for start, stop in [(70, 120), (0, 33), (33, 70)]:
        parts.merge(pickle.loads(pickle.dumps(run.play(start, stop, threads=2))))
    assert parts == whole and whole.games == 120
    assert sum(whole.player_wins) <= 120
    assert run.report(parts) == run.report(whole)
    assert run.players == ("greedy", "random")


def test_bad_simulations_raise():
    with pytest.raises(senet.PlayerError):
        senet.simulate(players=("greedy", "robot"))
    with pytest.raises(senet.PlayerError):
        senet.simulate(players=("greedy",))
    with pytest.raises(senet.RulesetError):
        senet.simulate("chess")
    with pytest.raises(senet.SenetError):
        senet.simulate(games=0)
    with pytest.raises(senet.TablesError):
        senet.simulate(players=("perfect:3", "random"), games=1)
    with pytest.raises(senet.TablesError):
        senet.simulate("bell", players=("perfect:1", "random"), games=1)
    with pytest.raises(senet.SenetError):
        senet.Match().play(5, 2)
    # Every budget has a cap, refused before any game is played.
    with pytest.raises(senet.SenetError, match="^games: .* to 1000000000"):
        senet.simulate(games=10**12)
    with pytest.raises(senet.SenetError, match="^threads: .* to 1024"):
        senet.simulate(games=1, threads=10**6)


def test_players_analyse_and_choose_legal_moves():
    rules = senet.Ruleset("regency")
    game = senet.Game(rules)
    game.throw(2)
    for name in ("random", "greedy", "expectiminimax:2", "mcts:30"):
        player = senet.Player(name, rules, seed=1)
        assert player.name == name
        analysis = player.analyse(game)
        assert [m for m, _ in analysis["moves"]] == game.legal_moves()
        assert analysis["chosen"] in game.legal_moves()
        assert analysis["kind"] and analysis["meaning"]
        assert player.choose(game, senet.Rng(2)) in game.legal_moves()


def test_the_learned_player_plays_where_weights_exist():
    for rules in ("regency", "bell", "kendall(throw_timing=immediate)"):
        game = senet.Game(senet.Ruleset(rules))
        player = senet.Player("learned", rules, seed=1)
        assert player.name == "learned:2"
        while not game.legal_moves():
            game.throw(2)
        analysis = player.analyse(game)
        assert analysis["kind"] in ("estimated_win_probability", "forced")
        assert analysis["chosen"] in game.legal_moves()
    with pytest.raises(senet.PlayerError, match="senet train"):
        senet.Player("learned", "regency(house_of_water=true)")


def test_perfect_players_play_from_tables(tmp_path):
    rules = senet.Ruleset("regency")
    tables = senet.Tables.solve(rules, 2)
    assert tables.max_pieces == 2 and tables.rules == rules
    player = senet.Player("perfect", rules, tables=tables)
    assert player.name == "perfect:2"
    # Two Black pieces, each with a move of 1.
    game = senet.Game(rules, position="." * 23 + "B.B..W. b")
    game.throw(1)
    assert len(game.legal_moves()) == 2
    analysis = player.analyse(game)
    assert analysis["kind"] == "exact_win_probability"
    assert all(0.0 <= v <= 1.0 for _, v in analysis["moves"])
    with pytest.raises(senet.PlayerError):
        senet.Player("perfect", "regency(house_of_water=true)", tables=tables)
    with pytest.raises(senet.TablesError):
        senet.Tables.read(rules, tmp_path / "missing.bin")
    with pytest.raises(senet.PlayerError):
        senet.Player("greedy", "kendall").analyse(game)
    with pytest.raises(senet.PlayerError):
        senet.Player("alphazero", rules)
    assert senet.Player("expectiminimax:3").choose(game) in game.legal_moves()


def test_kendall_default_rules_play_perfect_from_one_piece_tables():
    # Stored throws: one piece a side is solved when the run starts, two are not.
    result = senet.simulate("kendall", games=4, seed=1, players=("perfect:1", "random"))
    assert result["players"][0]["name"] == "perfect:1"
    with pytest.raises(senet.TablesError, match="more than 1 pieces a side of kendall"):
        senet.simulate("kendall", players=("perfect", "random"), games=1)


def test_table_files_from_senet_solve_are_read(senet_bin, tmp_path):
    path = tmp_path / "regency-1.bin"
    subprocess.run(
        [senet_bin, "solve", "--rules", "regency", "--pieces", "1", "--out", str(path)],
        check=True, capture_output=True,
    )
    tables = senet.Tables.read("regency", path)
    assert tables.max_pieces == 1
    expected = senet.simulate(games=20, players=("perfect:1", "random"), tables=str(path))
    assert expected["players"][0]["name"] == "perfect:1"
    with pytest.raises(senet.TablesError):
        senet.Tables.read("regency(house_of_water=true)", path)
