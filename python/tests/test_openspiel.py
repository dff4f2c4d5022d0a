"""OpenSpiel plays Ludus games through the adapter: its MCTS bot, its own game tests with
serialization, its RL environment and a learner from its library."""

import copy
import pathlib
import pickle

import numpy as np
import pytest

import ludus

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import mcts, random_agent, tabular_qlearner  # noqa: E402

import ludus.openspiel  # noqa: E402


def play_randomly(state, rng, steps=None, bot=None):
    """Chance outcomes drawn by their probabilities and random legal actions (or `bot`'s), to
    the end or for `steps` steps."""
    while not state.is_terminal() and steps != 0:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif bot is not None:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        steps = None if steps is None else steps - 1
    return state


def play_with_mcts(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    return play_randomly(game.new_initial_state(), rng, bot=bot)


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


BUNDLED = sorted(p.stem for p in (pathlib.Path(__file__).parents[2] / "rules").glob("*.toml"))


def registered(rules, kind, **options):
    """Registers a bundled game for a test (tables games a die at a time: OpenSpiel's own
    tests list every action of the space in every position)."""
    if ludus.load(rules).family == "tables":
        options.setdefault("steps", True)
    short = f"t_{kind}_{rules.replace('-', '_')}"
    return pyspiel.load_game(ludus.openspiel.register(rules, short, max_plies=120, **options))


@pytest.mark.parametrize("rules", BUNDLED)
def test_openspiel_random_sim_test_with_serialization(rules):
    pyspiel.random_sim_test(registered(rules, "sim"), num_sims=1, serialize=True, verbose=False)
    match = registered(rules, "match", episode="match", returns="points")
    pyspiel.random_sim_test(match, num_sims=1, serialize=True, verbose=False)


def test_openspiel_random_sim_test_with_whole_turns_as_actions():
    # Hypergammon's whole turns are C(160, 4) actions, as Backgammon's: OpenSpiel's test lists
    # every one of them in every position, so one game of the smaller board.
    name = ludus.openspiel.register("hypergammon", "t_whole_hypergammon", max_plies=60)
    game = pyspiel.load_game(name)
    assert game.num_distinct_actions() == 26_294_360
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("rules", BUNDLED)
def test_openspiel_states_pickle_copy_and_serialize(rules):
    game = registered(rules, "pickle")
    rng = np.random.RandomState(2)
    state = play_randomly(game.new_initial_state(), rng, steps=40)
    copies = [
        pickle.loads(pickle.dumps(state)),
        copy.deepcopy(state),
        game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ]
    for again in copies:
        assert again.history() == state.history() and str(again) == str(state)
        assert again.state == state.state
        assert again.observation_tensor(0) == state.observation_tensor(0)
    assert pickle.loads(pickle.dumps(game)).get_type().short_name == game.get_type().short_name


@pytest.mark.parametrize("rules", BUNDLED)
def test_rl_environment_plays_whole_games(rules):
    game = registered(rules, "rl")
    env = rl_environment.Environment(game, seed=3)
    size = ludus.load(rules).observation_tensor_size()
    for _ in range(2):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == size
            step = env.step([step.observations["legal_actions"][player][0]])
        assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])


def test_observations_and_information_states():
    game = registered("oware", "obs")
    state = game.new_initial_state()
    state.apply_action(2)
    assert len(state.observation_tensor(0)) == 16 == game.observation_tensor_size()
    assert "ply 1" in state.observation_string(0)
    assert state.information_state_string(0) == "2"
    # A position reached by two paths: one observation, two information states.
    a, b = game.new_initial_state(), game.new_initial_state()
    for x in (0, 0, 1, 1):
        a.apply_action(x)
    for x in (1, 1, 0, 0):
        b.apply_action(x)
    if a.state == b.state:
        assert a.observation_string(0) == b.observation_string(0)
        assert a.information_state_string(0) != b.information_state_string(0)
        assert str(a) != str(b)


def test_returns_by_points_count_gammons_and_the_cube():
    game = registered("backgammon-money", "points", returns="points")
    # A backgammon (3) at the highest cube (`[cube] max`, by default 1024).
    assert game.max_utility() == 3 * 1024 and game.min_utility() == -game.max_utility()
    # Backgammon as OpenSpiel plays it scores single games.
    assert registered("backgammon", "points", returns="points").max_utility() == 1
    rng = np.random.RandomState(4)
    seen = set()
    for _ in range(30):
        state = game.new_initial_state()
        play_randomly(state, rng)
        outcome = state.state.outcome_dict()
        points = max(outcome["scores"])
        winner = outcome["winner"]
        if winner is None:
            assert state.returns() == [0.0, 0.0]
            continue
        assert state.returns()[winner] == points == -state.returns()[1 - winner]
        seen.add(points)
    assert len(seen) > 1  # single games and gammons (or a doubled cube) among random games


def test_a_match_as_one_episode():
    game = registered("backgammon-match", "episode", episode="match")
    assert game.max_chance_outcomes() == 21
    rng = np.random.RandomState(6)
    state = play_randomly(game.new_initial_state(), rng)
    standing = state.state.match_standing()
    assert standing["over"] and standing["game"] > 1
    assert state.returns()[standing["winner"]] == 1.0


def test_q_learning_from_openspiel_learns_a_small_kalah():
    # OpenSpiel's tabular Q-learner against its random agent, on Kalah with three pits a side
    # and three stones a pit, measured against random play in the same run.
    text = (pathlib.Path(__file__).parents[2] / "rules" / "kalah.toml").read_text()
    text = text.replace("pits = 6", "pits = 3").replace("stones = 4", "stones = 3")
    name = ludus.openspiel.register(ludus.loads(text), "t_kalah_3_3")
    env = rl_environment.Environment(pyspiel.load_game(name), seed=1)
    actions = env.action_spec()["num_actions"]
    np.random.seed(1)
    learner = tabular_qlearner.QLearner(0, actions)
    opponent = random_agent.RandomAgent(1, actions)

    def won(players, games, learn):
        wins = 0
        for _ in range(games):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                step = env.step([players[player].step(step, is_evaluation=not learn).action])
            for p in players:
                p.step(step, is_evaluation=not learn)
            wins += step.rewards[0] > 0
        return wins / games

    by_chance = won([random_agent.RandomAgent(0, actions), opponent], 400, False)
    won([learner, opponent], 2000, True)
    learned = won([learner, opponent], 400, False)
    assert learned > by_chance + 0.25, (learned, by_chance)
