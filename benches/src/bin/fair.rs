//! The fair harness (issue 48): every path as a user's binary has it.
//!
//! - The generated agent and the hand-written anchor live in the library
//!   crate (`utter_benches`); these loops are another crate, as a user's
//!   binary is to the crate holding their agent.
//! - Each path is its own `#[inline(never)]` loop.
//! - The memory is opaque to the optimiser on every iteration for every
//!   path alike (`black_box(&memory)`, then the view of it as the user
//!   writes it, `memory.view(Skill::Bench)`), and so is the response.
//!
//! `fair PATH CASE ITERATIONS`, PATH one of `hand_deliver`, `hand_render`
//! (into a `String`), `hand_write` (piece by piece into a `fmt::Write`), `typed_deliver`,
//! `typed_render` (`push_to` a `String`), `typed_write_to` (`write_to` a
//! `fmt::Write`), `compact_deliver`, `interpreter`. `fair.sh` counts each
//! with callgrind.

use std::fmt::Write as _;
use std::hint::black_box;

use utter::{Context, SlotMemory};
use utter_benches::hand::{self, HandMemory, HandResponse};
use utter_benches::{
    CASES, agent_dir, bench_values, generated, typed_compact_memory, typed_compact_response,
    typed_memory, typed_response,
};

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
        "hand_deliver" => hand_deliver(case, name, iterations),
        "hand_render" => hand_render(case, name, iterations),
        "hand_write" => hand_write(case, name, iterations),
        "typed_deliver" => typed_deliver(case, name, iterations),
        "typed_render" => typed_render(case, name, iterations),
        "typed_write_to" => typed_write_to(case, name, iterations),
        "compact_deliver" => compact_deliver(case, name, iterations),
        "interpreter" => interpreter(name, iterations),
        other => panic!("unknown path {other}"),
    };
    black_box(sum);
}

/// A `fmt::Write` sink that is not a `String` (what `write_to` serves: a
/// socket buffer, a formatter): it keeps the bytes, as a `String` would.
#[derive(Default)]
struct Sink(Vec<u8>);

impl std::fmt::Write for Sink {
    #[inline]
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// The hand-written response of a case: by its enum, or (the missing
/// name) looked up by name as the typed paths look it up.
#[inline(never)]
fn hand_deliver(case: &str, name: &'static str, iterations: usize) -> usize {
    let memory = HandMemory::bench();
    let response = HandResponse::of_case(case);
    let mut sum = 0;
    for _ in 0..iterations {
        let memory = black_box(&memory);
        sum += match black_box(response) {
            Some(r) => hand::deliver(memory, r).text.len(),
            None => hand::deliver_name(memory, black_box(name)).text.len(),
        };
    }
    sum
}

#[inline(never)]
fn hand_render(case: &str, name: &str, iterations: usize) -> usize {
    let memory = HandMemory::bench();
    let response = HandResponse::of_case(case);
    let mut buffer = String::with_capacity(256);
    let mut sum = 0;
    for _ in 0..iterations {
        let memory = black_box(&memory);
        buffer.clear();
        match black_box(response) {
            Some(r) => hand::render(memory, r, &mut buffer),
            None => buffer.push_str(black_box(name)),
        }
        sum += buffer.len();
    }
    sum
}

#[inline(never)]
fn hand_write(case: &str, name: &str, iterations: usize) -> usize {
    let memory = HandMemory::bench();
    let response = HandResponse::of_case(case);
    let mut sink = Sink::default();
    let mut sum = 0;
    for _ in 0..iterations {
        let memory = black_box(&memory);
        sink.0.clear();
        match black_box(response) {
            Some(r) => hand::write(memory, r, &mut sink).expect("a sink"),
            None => sink.write_str(black_box(name)).expect("a sink"),
        }
        sum += sink.0.len();
    }
    sum
}

#[inline(never)]
fn typed_deliver(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let mut sum = 0;
    for _ in 0..iterations {
        let view = black_box(&memory).view(generated::typed::Skill::Bench);
        sum += match black_box(response) {
            Some(r) => view.deliver(r).text.len(),
            None => generated::typed::deliver_name(black_box(name), &view.context())
                .text
                .len(),
        };
    }
    sum
}

#[inline(never)]
fn typed_render(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let mut buffer = String::with_capacity(256);
    let mut sum = 0;
    for _ in 0..iterations {
        let view = black_box(&memory).view(generated::typed::Skill::Bench);
        buffer.clear();
        match black_box(response) {
            Some(r) => view.render(r).push_to(&mut buffer),
            None => buffer.push_str(black_box(name)),
        }
        sum += buffer.len();
    }
    sum
}

#[inline(never)]
fn typed_write_to(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let mut sink = Sink::default();
    let mut sum = 0;
    for _ in 0..iterations {
        let view = black_box(&memory).view(generated::typed::Skill::Bench);
        sink.0.clear();
        match black_box(response) {
            Some(r) => view.render(r).write_to(&mut sink).expect("a sink"),
            None => sink.write_str(black_box(name)).expect("a sink"),
        }
        sum += sink.0.len();
    }
    sum
}

#[inline(never)]
fn compact_deliver(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_compact_memory();
    let response = typed_compact_response(case);
    let mut sum = 0;
    for _ in 0..iterations {
        let view = black_box(&memory).view(generated::typed_compact::Skill::Bench);
        sum += match black_box(response) {
            Some(r) => view.deliver(r).text.len(),
            None => generated::typed_compact::deliver_name(black_box(name), &view.context())
                .text
                .len(),
        };
    }
    sum
}

#[inline(never)]
fn interpreter(name: &str, iterations: usize) -> usize {
    let registry = utter_compiler::Registry::load_strict(&agent_dir("bench")).expect("valid");
    let mut memory = SlotMemory::new(&registry.entries);
    for (ns, entry, value) in bench_values() {
        memory.set(ns, entry, value).expect("declared");
    }
    let interpreter = registry.interpreter();
    let mut sum = 0;
    for _ in 0..iterations {
        let memory = black_box(&memory);
        let ctx = Context::for_skill_id(memory, "bench", &registry.skills).expect("a skill");
        sum += interpreter.deliver(black_box(name), &ctx).text.len();
    }
    sum
}
