"""OpenSpiel's own MCTS bot plays Ludus games through the adapter."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

import ludus.openspiel  # noqa: E402


def play_with_mcts(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    return state


@pytest.mark.parametrize("rules", ["sat-gharva", "had"])
def test_mcts_plays_a_whole_game(rules):
    # Sat-gharva's last stones may circle for ever (until the ply guard): a limit ends it.
    name = ludus.openspiel.register(rules, max_plies=300)
    state = play_with_mcts(name)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert state.state.is_terminal() and state.state.plies() <= 300


def test_game_info():
    name = ludus.openspiel.register("backgammon", short_name="ludus_bg_info")
    game = pyspiel.load_game(name)
    assert game.num_distinct_actions() == 26_294_360
    assert game.max_chance_outcomes() == 21
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 21
    clone = state.clone()
    clone.apply_action(0)
    assert state.is_chance_node() and not clone.is_chance_node()


def test_a_game_too_big_for_whole_turn_actions_registers_with_steps():
    # Acey-deucey's whole turns would be C(162, 6) actions: each die is an action instead.
    name = ludus.openspiel.register("acey-deucey", max_plies=60)
    game = pyspiel.load_game(name)
    assert game.num_distinct_actions() == 26 * 6 + 1
    state = play_with_mcts(name)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_backgammon_by_steps_has_a_small_action_space():
    name = ludus.openspiel.register("backgammon", short_name="ludus_bg_steps", steps=True)
    game = pyspiel.load_game(name)
    assert game.num_distinct_actions() == 157  # (24 + 2) x 6 step symbols, and the pass
    # A roll and up to four steps a turn.
    assert game.max_game_length() == 5 * ludus.load("backgammon").max_game_length()
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])  # 6-6 first: four steps
    for _ in range(4):
        assert state.current_player() == 0
        actions = state.legal_actions()
        assert 0 < len(actions) <= 157 and all(0 <= a < 157 for a in actions)
        state.apply_action(actions[0])
    assert state.is_chance_node()
