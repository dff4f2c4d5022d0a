#![no_main]
//! Engine protocol: the input's lines after a `load` of a bundled game (byte 0 picks it among
//! `rules::BUNDLED`) and a seeded `new`, so that play, roll, set and next are reached.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((pick, requests)) = data.split_first() else {
        return;
    };
    let bundled = ludus::rules::BUNDLED;
    let (name, _) = bundled[usize::from(*pick) % bundled.len()];
    let mut input = format!("{{\"op\":\"load\",\"rules\":\"{name}\"}}\n").into_bytes();
    input.extend_from_slice(b"{\"op\":\"new\",\"seed\":1}\n");
    input.extend_from_slice(requests);
    ludus::protocol::run(&input[..], std::io::sink(), &ludus::limits::LIMITS).unwrap();
});
