"""Any Ludus rules file as an OpenSpiel game, so OpenSpiel's algorithms (MCTS, ...) play it.

    import pyspiel, ludus.openspiel
    name = ludus.openspiel.register("sat-gharva")      # "ludus_sat_gharva"
    game = pyspiel.load_game(name)

An OpenSpiel episode is one game of the rules (or, with `episode="match"`, a whole match),
player 0 first, its dice explicit chance nodes; actions are Ludus's fixed action space (see
docs/python.md): whole turns, or in a tables game loaded with `steps` one action a die. States and games
pickle, deepcopy and serialize; observations and information states are provided.
"""

import numpy as np
import pyspiel

import ludus

# OpenSpiel counts actions in a C++ int.
_MAX_ACTIONS = 2**31 - 1

# What each registered name was registered with, so that a pickled game is loaded again as
# it was (registering it first in a fresh process).
_REGISTERED = {}


def register(
    rules, short_name=None, max_plies=None, steps=None, returns="win", episode="game"
):
    """Registers the rules (a bundled name, a path or a `ludus.Game`) as an OpenSpiel game;
    returns its name.

    `max_plies` ends each game after so many plies, as `ludus play --max-plies` does. `steps`
    (tables games) plays every turn a step at a time, one action a die (Backgammon: 157
    actions); by default whole turns are actions where they fit OpenSpiel's int, else steps.
    `returns="points"` makes the returns each player's score less the opponent's (a tables game:
    the points won, a gammon 2, times the cube; a sowing game: the stones each holds) instead of
    +1/-1/0. `episode="match"` plays a whole match as one episode (the returns are then the
    match's); who starts a game the rules leave to a draw is a chance node of two outcomes."""
    if returns not in ("win", "points"):
        raise ValueError(f'returns must be "win" or "points", not {returns!r}')
    if episode not in ("game", "match"):
        raise ValueError(f'episode must be "game" or "match", not {episode!r}')
    if isinstance(rules, ludus.Game):
        game = rules
        if max_plies is not None or steps is not None:
            raise ValueError("max_plies and steps are given to ludus.load for a loaded game")
    else:
        game = ludus.load(rules, max_plies=max_plies, steps=bool(steps))
        if steps is None and game.family == "tables" and game.num_distinct_actions() > _MAX_ACTIONS:
            game = ludus.load(rules, max_plies=max_plies, steps=True)
    if game.num_distinct_actions() > _MAX_ACTIONS:
        raise ValueError(
            f"{game.name}: {game.num_distinct_actions()} actions do not fit OpenSpiel's int"
        )
    short_name = short_name or "ludus_" + game.name.replace("-", "_")
    setting = (game.serialize(), returns, episode)
    if short_name in _REGISTERED:
        if _REGISTERED[short_name] != setting:
            raise ValueError(f"{short_name} is registered already, as other rules or options")
        return short_name
    dice = game.max_chance_outcomes() > 0
    match = episode == "match" and game.max_games() > 1
    bound = game.max_score(match) if returns == "points" else 1.0
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"Ludus {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if dice or match
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    # A tables ply is a roll and a move (or a step for each die); a sowing ply one move; a match
    # may add a chance node before each game after the first.
    games = game.max_games() if match else 1
    game_info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=max(game.max_chance_outcomes(), 2 if match else 0),
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=games * (1 + game.max_turn_decisions()) * game.max_game_length()
        + games
        - 1,
    )

    class Registered(LudusGame):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})
            self.ludus = game
            self.returns_by = returns
            self.match = match
            self.short_name = short_name

    Registered.__name__ = Registered.__qualname__ = short_name
    pyspiel.register_game(game_type, Registered)
    _REGISTERED[short_name] = setting
    return short_name


def _load(short_name, form, returns, episode):
    """A registered game (registered first where it is not yet: a game unpickled elsewhere)."""
    if short_name not in _REGISTERED:
        register(ludus.deserialize_game(form), short_name, returns=returns, episode=episode)
    return pyspiel.load_game(short_name)


def _restore(game, history):
    """A state of `game` after `history` (its actions, chance outcomes included), replayed."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class LudusGame(pyspiel.Game):
    """What every registered rules file's game shares."""

    def new_initial_state(self):
        return LudusState(self, self.ludus.new_initial_state(first=0, seed=0))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.ludus.observation_tensor_size(), recall)

    def __reduce__(self):
        setting = _REGISTERED[self.short_name]
        return (_load, (self.short_name, *setting))


class LudusState(pyspiel.State):
    """An OpenSpiel state around a `ludus.State` (copied with it by `clone`). Between the games
    of a match played as one episode, where the rules leave the next game's starter to a
    draw, a chance node: outcome p is player p starting."""

    def __init__(self, game, state):
        super().__init__(game)
        self.state = state
        self._between = False

    def current_player(self):
        if self._between:
            return pyspiel.PlayerId.CHANCE
        if self.state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.state.current_player()

    def _legal_actions(self, player):
        return self.state.legal_actions()

    def chance_outcomes(self):
        if self._between:
            return [(0, 0.5), (1, 0.5)]
        return self.state.chance_outcomes()

    def _apply_action(self, action):
        if self._between:
            self._between = False
            self._next_game(action)
        else:
            self.state.apply_action(action)
        if self.get_game().match and self.state.is_terminal():
            standing = self.state.match_standing()
            if standing is not None and not standing["over"]:
                starter = self.state.next_starter()
                if starter is None:
                    self._between = True
                else:
                    self._next_game(starter)

    def _next_game(self, first):
        # A match also ends at the program's cap on its games: no next game then.
        self.state = self.state.next_game(first=first) or self.state

    def _action_to_string(self, player, action):
        if self._between:
            return f"player {action} starts"
        return self.state.action_to_string(action)

    def is_terminal(self):
        return not self._between and self.state.is_terminal()

    def returns(self):
        # Rewards come at the end (OpenSpiel's terminal reward model).
        if not self.is_terminal():
            return [0.0, 0.0]
        by = self.get_game().returns_by
        if self.get_game().match:
            return self.state.match_returns(by)
        return self.state.returns(by)

    def observation_string(self, player=None):
        return f"{self.state}\nply {self.state.plies()}"

    def __str__(self):
        # Distinct states give distinct strings (algorithms key states by them): the position,
        # the ply and the history (a repetition rule remembers positions the board cannot show).
        return f"{self.observation_string()}\nhistory {self.history_str()}"

    def __reduce__(self):
        return (_restore, (self.get_game(), self.history()))


class _Observer:
    """OpenSpiel's observer: the position as `ludus.State.observation_tensor()` lays it out (the
    same for both players: the game has no hidden information); as a string, the board and the
    ply, or with perfect recall (the information state) the history of actions."""

    def __init__(self, size, recall):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.recall = recall

    def set_from(self, state, player):
        self.tensor[:] = state.state.observation_tensor()

    def string_from(self, state, player):
        if self.recall:
            return state.history_str()
        return state.observation_string(player)
