"""Ludus from Python: traditional board games from rules files, played by the Rust interpreter.

    import ludus
    game = ludus.load("oware")              # a bundled name or a path; ludus.loads(text)
    state = game.new_initial_state(first=0, seed=1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll_dice()
        else:
            state.apply_move(state.best_move("mcts:100ms"))
    print(state, state.returns())

A game as people play it, with seats, undo and a record that `ludus replay` reads:

    table = ludus.Table(game, players=("human", "greedy"), first=0, seed=1)
    table.play("3"); table.computer(); print(table.record())

`ludus.openspiel` registers any rules file as an OpenSpiel game.
"""

from ._ludus import (
    EngineError,
    Game,
    RulesError,
    State,
    Table,
    analyze,
    deserialize_game,
    deserialize_state,
    load,
    loads,
)

__all__ = [
    "EngineError",
    "Game",
    "RulesError",
    "State",
    "Table",
    "analyze",
    "deserialize_game",
    "deserialize_state",
    "load",
    "loads",
]
