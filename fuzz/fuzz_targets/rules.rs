#![no_main]
//! Rules loader: any bytes → `rules::compile`; a game that compiles is played for up to 200 plies
//! at random (seeded from the input), diagnostics are rendered.
use ludus::game::{Phase, Playable};
use rand::{seq::SliceRandom, SeedableRng};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match ludus::registry::compile(text) {
        Ok(game) => ludus::with_game!(&game, g => play(g, data.len() as u64)),
        Err(diagnostics) => {
            ludus::diagnostics::render("fuzz.toml", text, &diagnostics);
            ludus::diagnostics::to_json("fuzz.toml", text, &diagnostics);
        }
    }
});

fn play<G: Playable>(game: &G, seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut state = game.new_game(seed as usize % 2);
    let mut moves = Vec::new();
    for _ in 0..200 {
        match game.phase(&state) {
            Phase::Over => match game.next_game(&state, game.next_starter(&state).unwrap_or(0)) {
                Some(next) => state = next,
                None => break,
            },
            Phase::Roll(_) => game
                .roll(&mut state, &game.dice().unwrap().sample(&mut rng))
                .unwrap(),
            Phase::Move(_) => {
                game.legal_moves(&state, &mut moves);
                let mv = moves.choose(&mut rng).expect("a player to move has a move");
                game.move_text(&state, mv);
                game.play(&mut state, mv);
            }
        }
    }
    // What was reached reads back (as `set` would get it) and draws.
    game.state_from_json(&game.state_json(&state)).unwrap();
    game.render(&state, 0);
    game.describe();
}
