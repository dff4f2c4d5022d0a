"""The Python guide's examples (docs/python.md) run as written."""

import pathlib
import re

import numpy as np
import pytest

README = (pathlib.Path(__file__).parents[2] / "docs" / "python.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_learning_example_learns(capsys):
    pytest.importorskip("pyspiel")
    (block,) = [b for b in BLOCKS if "rl_environment" in b]
    np.random.seed(1)
    names = {}
    exec(compile(block, "README.md", "exec"), names)
    share = float(re.search(r"wins (\d+)%", capsys.readouterr().out).group(1)) / 100
    assert share > 0.8
    # Against random play, player 0 wins about half: what the learner's share is measured by.
    names["agents"][0] = names["random_agent"].RandomAgent(0, names["actions"])
    assert names["play"](400, learn=False) < 0.65
