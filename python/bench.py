"""Random Oware from Python: plies per second driven move by move through `ludus` and through
`pyspiel` (OpenSpiel's own C++ Oware), in the same run, then the batch call's rate inside Rust
(compare with `ludus bench oware`).

    python python/bench.py [SECONDS]
"""

import random
import sys
import time

import ludus


def rate(new_game, seconds):
    """Plies per second of uniformly random games from a Python loop."""
    rng = random.Random(1)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / (time.perf_counter() - start)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    oware = ludus.load("oware")
    print(f"ludus, Python loop:   {rate(lambda: oware.new_initial_state(first=0), seconds):>12,.0f} plies/s")
    try:
        import pyspiel
    except ImportError:
        print("pyspiel, Python loop: (open_spiel not installed)")
    else:
        game = pyspiel.load_game("oware")
        print(f"pyspiel, Python loop: {rate(game.new_initial_state, seconds):>12,.0f} plies/s")
    games, counts = 1, {"seconds": 0.0}
    while counts["seconds"] < seconds:
        games *= 2
        counts = oware.play_random_games(games, seed=1)
    per_s = counts["plies"] / counts["seconds"]
    print(f"ludus, batch in Rust: {per_s:>12,.0f} plies/s ({games} games; cf. `ludus bench oware`)")


if __name__ == "__main__":
    main()
