import pytest

ray = pytest.importorskip("ray")

import senet  # noqa: E402
import senet.distributed  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_simulate_starts_a_local_ray_when_none_runs():
    """Placed first: no test before it has started Ray."""
    if ray.is_initialized():
        ray.shutdown()
    try:
        got = senet.distributed.simulate("regency", games=50, seed=5, tasks=2)
        assert ray.is_initialized()
        assert got == senet.simulate("regency", games=50, seed=5)
    finally:
        ray.shutdown()


def test_split_covers_the_games_once_in_order():
    assert senet.distributed.split(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert senet.distributed.split(2, 5) == [(0, 1), (1, 2)]
    assert senet.distributed.split(7, 1) == [(0, 7)]


@pytest.mark.parametrize(
    "rules, players, games",
    [
        ("regency", ("greedy", "random"), 400),
        ("kendall(trap=true)", ("random", "random"), 1000),
        ("piccione", ("mcts:15", "expectiminimax:1"), 30),
    ],
)
def test_ray_tasks_give_the_single_process_summary(cluster, rules, players, games):
    expected = senet.simulate(rules, games=games, seed=21, players=players)
    for tasks in (1, 2, 7):
        got = senet.distributed.simulate(rules, games=games, seed=21, players=players, tasks=tasks)
        assert got == expected, f"{tasks} tasks"
    assert senet.distributed.simulate(rules, games=games, seed=21, players=players) == expected


def test_perfect_players_solve_their_tables_in_each_task(cluster):
    args = dict(games=40, seed=3, players=("perfect:1", "greedy"))
    assert senet.distributed.simulate("regency", tasks=2, **args) == senet.simulate("regency", **args)


def test_bad_arguments_are_refused_before_any_task(cluster):
    with pytest.raises(senet.PlayerError):
        senet.distributed.simulate(players=("greedy", "robot"))
    with pytest.raises(senet.RulesetError):
        senet.distributed.simulate("chess")
