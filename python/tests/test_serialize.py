"""Positions and games pickle, copy and serialize exactly: the form replays every step, so the
restored position is the same one, its dice and players drawing as they would have."""

import copy
import json
import pathlib
import pickle
import random

import pytest

import ludus

BUNDLED = sorted(p.stem for p in (pathlib.Path(__file__).parents[2] / "rules").glob("*.toml"))


def random_steps(state, rng, steps):
    """`steps` random moves and rolls (starting the next game of a match when one ends)."""
    for _ in range(steps):
        if state.is_terminal():
            state = state.next_game()
            if state is None:
                break
        elif state.is_chance_node():
            state.roll_dice()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", BUNDLED)
def test_every_position_of_a_game_pickles_exactly(name):
    rng = random.Random(name)
    game = ludus.load(name, max_plies=40)
    state = game.new_initial_state(seed=7)
    for _ in range(6):
        for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state),
                      ludus.deserialize_state(state.serialize())):
            assert again == state and again.to_json() == state.to_json()
            assert again.legal_actions() == state.legal_actions()
            assert again.plies() == state.plies() and str(again) == str(state)
        nxt = random_steps(state, rng, 15)
        if nxt is None:
            break
        state = nxt
    assert pickle.loads(pickle.dumps(game)) == game


def test_a_restored_position_draws_what_the_original_draws():
    state = ludus.load("backgammon").new_initial_state(first=0, seed=3)
    state.roll_dice()
    state.apply_move(state.best_move("random"))
    again = pickle.loads(pickle.dumps(state))
    assert [again.roll_dice() for _ in range(1)] == [state.roll_dice()]
    assert again.best_move("random") == state.best_move("random")


def test_the_next_game_of_a_match_pickles_with_the_match():
    game = ludus.load("backgammon-match")
    state = game.new_initial_state(first=0, seed=5)
    rng = random.Random(5)
    while state.match_standing()["game"] < 3:
        state = random_steps(state, rng, 1)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.match_standing() == state.match_standing()


def test_a_table_position_keeps_the_forced_opening():
    # Uuholo's first move is forced (pit 2): the record, the STATE and the form all keep it.
    game = ludus.load("uuholo")
    table = ludus.Table(game, first=0, seed=1)
    state = table.state()
    assert state.legal_actions() == [1]
    assert game.state_from_json(state.to_json()).legal_actions() == [1]
    assert pickle.loads(pickle.dumps(state)).legal_actions() == [1]
    table.play("2")
    assert pickle.loads(pickle.dumps(table.state())) == table.state()


def test_a_loaded_rules_text_pickles_with_its_text(tmp_path):
    text = (pathlib.Path(__file__).parents[2] / "rules" / "kalah.toml").read_text()
    game = ludus.loads(text.replace("stones = 4", "stones = 3"))
    state = game.new_initial_state(first=1)
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.legal_actions() == state.legal_actions()
    position = json.loads(again.to_json())
    assert sum(map(sum, position["pits"])) + sum(position["stores"]) == 36


def test_a_corrupt_form_is_refused_with_where_and_why():
    state = ludus.load("oware").new_initial_state(first=0, seed=1)
    for a in (0, 1, 2):
        state.apply_action(state.legal_actions()[a % len(state.legal_actions())])
    form = json.loads(state.serialize())
    form["history"][1] = {"move": 14}
    with pytest.raises(ValueError, match=r"step 2 of the serialized position: action 14 is not legal"):
        ludus.deserialize_state(json.dumps(form))
    form["game"]["rules"] = "[game]\nname = 3\n"
    with pytest.raises(ludus.RulesError):
        ludus.deserialize_state(json.dumps(form))
    for bad in ("", "{}", "[1, 2]", '{"game": 1}'):
        with pytest.raises(ValueError, match="not a serialized Ludus position"):
            ludus.deserialize_state(bad)
