#![no_main]
//! Move notation: a bundled game played at random to some position (dice rolled for the tables
//! games), then `parse_move` on the fuzzed text. A move it accepts must be legal and its own
//! notation must read back as the same move.
//!
//! Input: byte 0 picks the game, byte 1 the number of random plies (and their seed), bytes 2-3 the
//! dice of the last roll; the rest is the move text.
use ludus::game::{Phase, Playable, Roll};
use rand::{seq::SliceRandom, SeedableRng};

const GAMES: [&str; 5] = ["oware", "backgammon", "had", "mughrabieh", "uuholo"];

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let [pick, plies, d1, d2, text @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let (_, rules) = ludus::rules::BUNDLED
        .iter()
        .find(|(name, _)| *name == GAMES[usize::from(*pick) % GAMES.len()])
        .unwrap();
    let game = ludus::registry::compile(rules).unwrap();
    let dice = [d1 % 6 + 1, d2 % 6 + 1];
    ludus::with_game!(&game, g => parse(g, *plies, dice, text));
});

fn parse<G: Playable>(game: &G, plies: u8, dice: [u8; 2], text: &str) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(u64::from(plies));
    let mut state = game.new_game(usize::from(plies % 2));
    let mut moves = Vec::new();
    for ply in 0..=plies {
        match game.phase(&state) {
            Phase::Over => break,
            Phase::Roll(_) if ply == plies => {
                game.roll(&mut state, &Roll::new(&dice).unwrap()).unwrap()
            }
            Phase::Roll(_) => game
                .roll(&mut state, &game.dice().unwrap().sample(&mut rng))
                .unwrap(),
            Phase::Move(_) if ply == plies => break,
            Phase::Move(_) => {
                game.legal_moves(&state, &mut moves);
                game.play(&mut state, moves.choose(&mut rng).unwrap());
            }
        }
    }
    if let Ok(mv) = game.parse_move(&state, text) {
        game.legal_moves(&state, &mut moves);
        assert!(
            moves.contains(&mv),
            "`{text}` parsed to an illegal move {mv:?}"
        );
        let again = game.parse_move(&state, &game.move_text(&state, &mv));
        assert_eq!(again.as_ref(), Ok(&mv), "`{text}`");
        game.play(&mut state, &mv);
    }
}
