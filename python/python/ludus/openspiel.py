"""Any Ludus rules file as an OpenSpiel game, so OpenSpiel's algorithms (MCTS, ...) play it.

    import pyspiel, ludus.openspiel
    name = ludus.openspiel.register("sat-gharva")      # "ludus_sat_gharva"
    game = pyspiel.load_game(name)

The OpenSpiel game is one game of the rules (one round of a match), player 0 first, its dice
explicit chance nodes; actions are Ludus's fixed action space (see the README): whole turns, or
in a tables game loaded with `steps` one action a die.
"""

import pyspiel

import ludus

# OpenSpiel counts actions in a C++ int.
_MAX_ACTIONS = 2**31 - 1


def register(rules, short_name=None, max_plies=None, steps=None):
    """Registers the rules (a bundled name or a path) as an OpenSpiel game; returns its name.
    `max_plies` ends each game after so many plies, as `ludus play --max-plies` does. `steps`
    (tables games) plays every turn a step at a time, one action a die (Backgammon: 157
    actions); by default whole turns are actions where they fit OpenSpiel's int, else steps."""
    game = ludus.load(rules, max_plies=max_plies, steps=bool(steps))
    if steps is None and game.family == "tables" and game.num_distinct_actions() > _MAX_ACTIONS:
        game = ludus.load(rules, max_plies=max_plies, steps=True)
    if game.num_distinct_actions() > _MAX_ACTIONS:
        raise ValueError(
            f"{game.name}: {game.num_distinct_actions()} actions do not fit OpenSpiel's int"
        )
    short_name = short_name or "ludus_" + game.name.replace("-", "_")
    dice = game.max_chance_outcomes() > 0
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"Ludus {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if dice
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    # A tables ply is a roll and a move (or a step for each die); a sowing ply one move.
    game_info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=game.max_chance_outcomes(),
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=(1 + game.max_turn_decisions()) * game.max_game_length(),
    )

    class LudusGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})
            self.ludus = game

        def new_initial_state(self):
            return LudusState(self, game.new_initial_state(first=0, seed=0))

    pyspiel.register_game(game_type, LudusGame)
    return short_name


class LudusState(pyspiel.State):
    """An OpenSpiel state around a `ludus.State` (copied with it by `clone`)."""

    def __init__(self, game, state):
        super().__init__(game)
        self.state = state

    def current_player(self):
        return self.state.current_player()

    def _legal_actions(self, player):
        return self.state.legal_actions()

    def chance_outcomes(self):
        return self.state.chance_outcomes()

    def _apply_action(self, action):
        self.state.apply_action(action)

    def _action_to_string(self, player, action):
        return self.state.action_to_string(action)

    def is_terminal(self):
        return self.state.is_terminal()

    def returns(self):
        return self.state.returns()

    def __str__(self):
        return str(self.state)
