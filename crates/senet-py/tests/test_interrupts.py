"""Ctrl-C (SIGINT) stops the long calls promptly with KeyboardInterrupt: each runs in a
subprocess that sends itself SIGINT from a timer after a second."""

import subprocess
import sys
import textwrap

import pytest

SCRIPT = """
import os, signal, threading, time
import senet
threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
{call}
    print("finished", time.monotonic() - start)
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - start)
"""

CALLS = {
    "simulate": 'senet.simulate("regency", games=10**9, seed=1, players=("random", "random"))',
    "simulate_one_thread": 'senet.simulate("kendall", games=10**9, players=("greedy", "random"), threads=1)',
    "match_play": 'senet.Match("regency", ("expectiminimax:2", "random")).play(0, 10**8)',
    "analyse": 'g = senet.Game("regency"); g.play_random(senet.Rng(3)); senet.analyse(g, player="mcts:200000")',
    "vector_reset": 'from senet.envs import SenetVectorEnv\n'
    'SenetVectorEnv(8192, "kendall", opponent="mcts:3000", agent="white").reset(seed=1)',
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_sigint_stops_a_long_call_within_seconds(name):
    if name == "vector_reset":
        pytest.importorskip("gymnasium")
    code = SCRIPT.format(call=textwrap.indent(CALLS[name], "    "))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    word, seconds = done.stdout.split()
    assert word == "interrupted", done.stdout
    # The signal comes after 1 s; the call notices it within 50 ms plus its current batch.
    assert 1.0 <= float(seconds) < 3.0, seconds


def test_an_interrupted_vector_step_asks_for_a_reset():
    pytest.importorskip("gymnasium")
    code = textwrap.dedent(
        """
        import os, signal, threading
        import numpy as np
        import senet
        from senet.envs import SenetVectorEnv
        env = SenetVectorEnv(4096, "kendall", opponent="mcts:3000")
        env.reset(seed=1)
        actions = env.action_masks().argmax(axis=1)
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            env.step(actions)
            print("finished")
        except KeyboardInterrupt:
            try:
                env.step(actions)
            except senet.SenetError as e:
                print("refused", str(e).split(":")[0])
            env.reset(seed=2)
            env.step(env.action_masks().argmax(axis=1))
            print("reset")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["refused", "actions", "reset"], done.stdout
