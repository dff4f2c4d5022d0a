"""The ludus package from Python: loading, positions, actions, players and analyses."""

import json
import pathlib
import random

import numpy as np
import pytest

import ludus

ALL = [
    "oware", "kalah", "sat-gharva", "sat-gharva-choice", "uuholo", "toguz-korgool", "omweso",
    "backgammon", "had", "plakoto", "fevga", "tavli", "long-nardy", "acey-deucey", "mughrabieh",
    "backgammon-money", "backgammon-match",
]


def play_out(state, rng, plies=None):
    """Random actions (and rolls) to the end, or for `plies` steps."""
    steps = 0
    while not state.is_terminal() and (plies is None or steps < plies):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return state


def test_load_by_name_and_text():
    game = ludus.load("oware")
    assert (game.name, game.family) == ("oware", "sowing")
    assert game.player_names == ("South", "North")
    with open(__file__.replace("python/tests/test_ludus.py", "rules/oware.toml")) as f:
        assert ludus.loads(f.read()).name == "oware"


def test_rules_errors_are_located():
    with pytest.raises(ludus.RulesError) as e:
        ludus.loads('[game]\nname = "x"\nfamily = "sowin"\n')
    text = str(e.value)
    assert "unknown family `sowin`" in text and "<rules>:3:" in text
    assert "did you mean `sowing`?" in text
    with pytest.raises(ValueError, match="no bundled game or file named `nope`"):
        ludus.load("nope")


def test_oware_start():
    game = ludus.load("oware")
    state = game.new_initial_state(first=0)
    assert state.current_player() == 0 and not state.is_chance_node()
    assert state.legal_actions() == list(range(6))
    assert game.num_distinct_actions() == 15 and game.max_chance_outcomes() == 0
    obs = state.observation_tensor()
    assert obs.dtype == np.float32 and obs.shape == (game.observation_tensor_size(),) == (16,)
    assert np.allclose(obs[:12], 4 / 48) and list(obs[12:]) == [0, 0, 1, 0]
    assert "South" in str(state)
    assert json.loads(state.to_json())["to_move"] == 0


def test_moves_by_text_and_action_agree():
    game = ludus.load("oware")
    a, b = game.new_initial_state(first=0), game.new_initial_state(first=0)
    a.apply_move("3")
    b.apply_action(2)
    assert a == b and a.current_player() == 1
    assert [m["text"] for m in b.legal_moves()] == ["1", "2", "3", "4", "5", "6"]


def test_bad_moves_raise_and_change_nothing():
    game = ludus.load("backgammon")
    state = game.new_initial_state(first=0, seed=1)
    before = state.to_json()
    with pytest.raises(ValueError, match="no move now"):
        state.apply_move("24/18")
    with pytest.raises(ValueError, match="the rolls are 0 to 20"):
        state.apply_action(21)
    state.apply_roll([6, 1])
    before = state.to_json()
    with pytest.raises(ValueError, match="is not legal"):
        state.apply_move("24/10")
    with pytest.raises(ValueError, match="cannot read"):
        state.apply_move("banana")
    with pytest.raises(ValueError, match="is not legal here"):
        state.apply_action(-1)
    assert state.to_json() == before
    state.apply_move("13/7 8/7")
    assert state.is_chance_node() and state.current_player() == -1


def test_chance_outcomes_are_the_dice():
    game = ludus.load("had")
    state = game.new_initial_state(first=0)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == game.max_chance_outcomes() == 21
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert state.action_to_string(0) == "6-6"
    state.apply_action(0)
    assert state.current_player() == 0 and state.chance_outcomes() == []


# Rules files whose moves go beyond the plain ones: sowing moves that pause for a pit to be
# picked (after a capture, or for the captured stones), their picks actions of their own; tables
# steps that move nothing, moves of any length and shared points.
PICKING = [
    str(pathlib.Path(__file__).parents[2] / "docs" / "games" / path)
    for path in [
        "tshuba.toml", "mancala-games/sameside.toml",
        # stones placed from hand, the choice of sides, gifts; a start dealt at random
        "lib-al-aqil.toml", "mancala-games/mangala-i.toml",
        # tables steps that move nothing (a die striking, stacks turned over), moves of any
        # length (optional dice), points both sides share, steps whose order matters
        "ketch-dolt.toml", "yahoudieh.toml", "contrare-puff.toml", "blocking-backgammon.toml",
        # doubles whose every move is any number, six steps a move
        "dubblets.toml",
        # checkers borne off entering again from the pool
        "tables-rabbatuees.toml",
        # a first turn played with the opponent's checkers; points scored during play
        "julbahar.toml",
    ]
]


def test_a_start_dealt_at_random_follows_the_seed():
    game = ludus.load(PICKING[3])
    deal = lambda seed: json.loads(game.new_initial_state(first=0, seed=seed).to_json())["pits"]
    assert deal(3) == deal(3) and deal(3) != deal(4)
    assert sum(map(sum, deal(5))) == 70 and min(map(min, deal(5))) >= 2


@pytest.mark.parametrize("name", ALL + PICKING)
def test_random_games_keep_the_action_space(name):
    """Every legal action is in the space, distinct, and plays the move it names."""
    game = ludus.load(name)
    rng = random.Random(7)
    size = game.num_distinct_actions()
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and state.plies() < 300:
            if state.is_chance_node():
                state.roll_dice()
                continue
            actions = state.legal_actions()
            assert actions == sorted(set(actions)) and all(0 <= a < size for a in actions)
            moves = state.legal_moves(count=state.legal_count())
            assert sorted(m["action"] for m in moves) == actions
            move = rng.choice(moves)
            assert state.action_to_string(move["action"]) == move["text"]
            by_text = state.clone()
            by_text.apply_move(move["text"])
            state.apply_action(move["action"])
            assert by_text == state
            assert len(state.observation_tensor()) == game.observation_tensor_size()


def test_action_space_sizes():
    assert ludus.load("backgammon").num_distinct_actions() == 26_294_360  # C(160, 4)
    # The cube's five decisions after the moves: double, roll, take, drop, beaver.
    money = ludus.load("backgammon-money")
    assert money.num_distinct_actions() == 26_294_360 + 5
    state = money.new_initial_state(first=0, seed=1)
    state.roll_dice()
    state.apply_action(state.legal_actions()[0])
    moves = 26_294_360
    assert state.legal_actions() == [moves, moves + 1]
    assert state.action_to_string(moves) == "double"
    state.apply_action(moves)
    assert state.legal_actions() == [moves + 2, moves + 3]
    assert state.action_to_string(moves + 3) == "drop"
    # The observation shows the cube: 2 after Black's double and White's take, White's.
    assert money.observation_tensor_size() == 67
    before = state.observation_tensor()
    assert list(before[-5:-2]) == [0.0, 0.0, 0.0]
    state.apply_action(moves + 2)
    after = state.observation_tensor()
    assert list(after[-5:-2]) == pytest.approx([0.1, 1.0, 0.0])
    # A match adds the points each player needs, a share of the target.
    match = ludus.load("backgammon-match")
    assert match.observation_tensor_size() == 69
    obs = match.new_initial_state(first=0, seed=1).observation_tensor()
    assert list(obs[-4:-2]) == [1.0, 1.0]
    assert ludus.load("uuholo").num_distinct_actions() == 35


def test_clone_is_independent_and_json_round_trips():
    game = ludus.load("kalah")
    state = play_out(game.new_initial_state(first=0, seed=3), random.Random(1), plies=5)
    copy = state.clone()
    play_out(copy, random.Random(2), plies=3)
    assert copy != state
    again = game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    with pytest.raises(ValueError):
        game.state_from_json('{"to_move": 7}')


def test_returns_at_the_end():
    game = ludus.load("oware")
    state = play_out(game.new_initial_state(first=0, seed=1), random.Random(3))
    assert state.is_terminal() and state.current_player() == -4
    winner = state.outcome_dict()["winner"]
    expected = [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]
    assert state.returns() == expected
    with pytest.raises(ValueError, match="the game is over"):
        state.apply_action(0)


def test_matches_go_on():
    game = ludus.load("sat-gharva")
    state = play_out(game.new_initial_state(first=0, seed=1), random.Random(4))
    assert state.match_standing()["game"] == 1
    nxt = state.next_game()
    assert nxt is not None and nxt.match_standing()["game"] == 2 and not nxt.is_terminal()


def test_computer_players():
    game = ludus.load("backgammon")
    state = game.new_initial_state(first=0, seed=5)
    with pytest.raises(ValueError, match="dice first"):
        state.best_move("greedy")
    state.apply_roll([3, 1])
    assert state.best_move("alphabeta:d1") == "8/5 6/5"
    for player in ("random", "greedy", "mcts:200"):
        state.clone().apply_move(state.best_move(player))
    with pytest.raises(ValueError, match="unknown player `mtcs`"):
        state.best_move("mtcs")


def test_analyze():
    report = ludus.analyze("oware", players=("greedy", "random"), games=20, seed=1)
    assert report["rules"] == "oware" and report["games"] == 20
    assert report["players"] == ["greedy", "random"]
    assert sum(report["wins"]) + report["draws"] == 20
    with pytest.raises(ValueError, match="bad budget"):
        ludus.analyze("oware", players=("mcts:x", "random"))


def test_analyze_refuses_what_the_command_line_refuses():
    # As `ludus analyze --games 0` and `--players human,random`.
    with pytest.raises(ValueError, match="`games` must be 1 to 1000000000000, not 0"):
        ludus.analyze("oware", games=0)
    with pytest.raises(ValueError, match="`players` must be computer players"):
        ludus.analyze("oware", players=("human", "random"))


def test_play_random_games():
    counts = ludus.load("oware").play_random_games(200, seed=1)
    assert counts["games"] == 200 and sum(counts["wins"]) + counts["draws"] == 200
    assert counts["plies"] > 200 * 20
    assert counts == ludus.load("oware").play_random_games(200, seed=1) | {
        "seconds": counts["seconds"]
    }


def test_max_plies():
    game = ludus.load("oware", max_plies=10)
    state = play_out(game.new_initial_state(first=0, seed=1), random.Random(1))
    assert state.plies() <= 10
    with pytest.raises(ValueError, match="max_plies must be 1 to"):
        ludus.load("oware", max_plies=0)


def _ludus_binary():
    """The `ludus` command built beside this package (CI builds it first), else on PATH."""
    import pathlib
    import shutil

    root = pathlib.Path(__file__).resolve().parents[2]
    for profile in ("checked", "release", "debug"):
        path = root / "target" / profile / "ludus"
        if path.exists():
            return str(path)
    return shutil.which("ludus")


def _table_record(name, seats, seed):
    table = ludus.Table(ludus.load(name), players=seats, first=0, seed=seed)
    for _ in range(100_000):
        awaiting = table.awaiting()
        if awaiting == "roll":
            table.roll()
        elif awaiting == "move":
            table.computer()
        elif awaiting == "next game":
            table.next_game()
        else:
            break
    return table.record()


@pytest.mark.parametrize(
    "name,seats,seed",
    [
        ("kalah", ("random", "greedy"), 3),
        ("backgammon", ("random", "greedy"), 5),
        ("tavli", ("greedy", "random"), 2),
        ("sat-gharva", ("greedy", "greedy"), 4),
    ],
)
def test_a_table_writes_the_record_ludus_play_writes(name, seats, seed, tmp_path):
    import subprocess

    binary = _ludus_binary()
    if binary is None:
        pytest.skip("the `ludus` command is not built: run `cargo build --release` first")
    path = tmp_path / "game.jsonl"
    subprocess.run(
        [binary, "play", name, "--south", seats[0], "--north", seats[1], "--seed", str(seed),
         "--first", "0", "--record", str(path)],
        check=True,
        capture_output=True,
    )
    assert _table_record(name, seats, seed) == path.read_text()


def test_a_table_undoes_refuses_and_ends_by_agreement():
    table = ludus.Table(ludus.load("kalah"), players=("human", "greedy"), first=0, seed=1)
    with pytest.raises(ValueError, match="played by a person"):
        table.computer()
    with pytest.raises(ValueError, match="nothing to undo"):
        table.undo()
    table.play("1")
    assert table.awaiting() == "move"
    before = table.record()
    with pytest.raises(ValueError):
        table.play("9")
    assert table.record() == before
    table.computer()
    table.undo()
    assert table.record().splitlines()[-1] == '{"undo":2}'
    assert table.state().plies() == 0
    uuholo = ludus.Table(ludus.load("uuholo"), players=("human", "human"), first=0)
    assert uuholo.offer_end(accepted=True)
    assert uuholo.awaiting() == "nothing"
    assert '"agreed":true' in uuholo.record()


def test_a_turn_of_a_hundred_thousand_moves_is_played_step_by_step():
    """Acey-deucey's 1-2 with the checkers spread (146,771 whole moves): one die at a time."""
    import os
    import resource

    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "spread-deucey.toml")
    state = ludus.load(path).new_initial_state(first=0, seed=1)
    state.apply_roll([1, 2])
    steps = 0
    while not state.is_chance_node():
        moves = state.legal_moves()
        assert len(moves) == state.legal_count()
        assert 1 <= len(moves) <= 160
        assert all("die" in m["json"] for m in moves)
        assert len(set(state.legal_actions())) == len(moves)
        state.apply_move(moves[-1]["text"])
        steps += 1
    # The 1 and the 2, then the double four times; the mover rolls again.
    assert steps == 6
    assert state.current_player() == 0 or state.is_chance_node()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert peak_kb < 300 * 1024, f"peak memory {peak_kb} KB"


def test_store_moves_and_chosen_lifts_are_actions_of_their_own():
    # Okwe (Nigeria): some or all of the store sown in place of a move, all of a pit otherwise.
    root = pathlib.Path(__file__).resolve().parents[2]
    game = ludus.load(str(root / "docs/games/okwe-nigeria.toml"))
    state = game.new_initial_state(first=0)
    moves = state.legal_moves()
    texts = [m["text"] for m in moves]
    assert texts[:2] == ["1", "2"] and "s" in texts and "s:1" in texts
    actions = [m["action"] for m in moves]
    assert len(set(actions)) == len(actions) and max(actions) < game.num_distinct_actions()
    store = next(m for m in moves if m["text"] == "s:1")
    assert store["json"] == {"text": "s:1", "store": True, "lift": 1}
    a, b = game.new_initial_state(first=0), game.new_initial_state(first=0)
    a.apply_move("s:1")
    b.apply_action(store["action"])
    assert a == b and a.current_player() == 1
    play_out(game.new_initial_state(first=0), random.Random(3), plies=300)
