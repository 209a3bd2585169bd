//! The fair harness (issue 48): every path as a user's binary has it.
//!
//! - The generated agent and the hand-written anchor live in the library
//!   crate (`utter_benches`); these loops are another crate, as a user's
//!   binary is to the crate holding their agent.
//! - Each path is its own `#[inline(never)]` loop (`src/paths.rs`).
//! - The memory is opaque to the optimiser on every iteration for every
//!   path alike (`black_box(&memory)`, then the view of it as the user
//!   writes it, `memory.view(Skill::Bench)`), and so is the response.
//!
//! `fair PATH CASE ITERATIONS`, PATH one of `hand_deliver`, `hand_render`
//! (into a `String`), `hand_write` (piece by piece into a `fmt::Write`), `typed_deliver`,
//! `typed_deliver_view` (the view made once, `black_box(&view)` on every iteration),
//! `typed_render` (`push_to` a `String`), `typed_write_to` (`write_to` a
//! `fmt::Write`), `compact_deliver`, `interpreter`. `fair.sh` counts each
//! with callgrind.

use std::hint::black_box;

use utter_benches::CASES;

#[path = "../paths.rs"]
mod paths;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, case, iterations] = args.as_slice() else {
        eprintln!("usage: fair PATH CASE ITERATIONS");
        std::process::exit(2);
    };
    let iterations: usize = iterations.parse().expect("a number of iterations");
    let name = CASES
        .iter()
        .find(|(c, _)| c == case)
        .map(|(_, n)| *n)
        .expect("a known case");
    let sum = match path.as_str() {
        "hand_deliver" => paths::hand_deliver(case, name, iterations),
        "hand_render" => paths::hand_render(case, name, iterations),
        "hand_write" => paths::hand_write(case, name, iterations),
        "typed_deliver" => paths::typed_deliver::<true>(case, name, iterations),
        "typed_deliver_view" => paths::typed_deliver_view(case, name, iterations),
        "typed_render" => paths::typed_render::<true>(case, name, iterations),
        "typed_write_to" => paths::typed_write_to::<true>(case, name, iterations),
        "compact_deliver" => paths::compact_deliver::<true>(case, name, iterations),
        "interpreter" => paths::interpreter::<true>(name, iterations),
        other => panic!("unknown path {other}"),
    };
    black_box(sum);
}
