//! Runs one delivery case many times, for instruction counts that do not
//! drift like timings: `valgrind --tool=callgrind` counts this process at
//! two iteration counts, and the difference divided by the extra
//! iterations is the cost of one delivery (see `instructions.sh`).
//!
//! `instructions PATH CASE ITERATIONS`, PATH one of `hand_deliver`,
//! `hand_render`, `hand_write` (the hand-written anchor), `typed_deliver`,
//! `typed_render` (`push_to` a `String`), `typed_write_to` (`write_to` a
//! `fmt::Write`), `compact_deliver`, `generated`, `interpreter`,
//! `minijinja`, `match`.
//!
//! Every path is its own `#[inline(never)]` loop with its inputs through
//! `black_box`, so each is compiled in the same context: a count does not
//! depend on what else `main` holds (inlining into one large `main` moved
//! the literal case from 13 to 52 instructions with the library unchanged).
//! The earlier harness: the generated paths read their memory as it is;
//! `fair.rs` (issue 48) makes it opaque on every iteration for every path.

use std::hint::black_box;

use utter::{Context, SlotMemory};
use utter_benches::{
    CASES, JinjaRegistry, agent_dir, bench_values, floor, generated, generated_for, scaled_name,
    scaled_values,
};

#[path = "../paths.rs"]
mod paths;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, case, iterations] = args.as_slice() else {
        eprintln!("usage: instructions PATH CASE ITERATIONS");
        std::process::exit(2);
    };
    let iterations: usize = iterations.parse().expect("a number of iterations");
    if let Some(n) = path.strip_prefix("scaled_") {
        // The scaling benchmark's delivery: a middle response of N.
        let n: usize = n.parse().expect("scaled_N");
        let (deliver, entries) = generated_for(n).expect("a compiled size");
        let mut memory = SlotMemory::new(entries);
        for (ns, entry, value) in scaled_values() {
            memory.set(ns, entry, value).expect("declared");
        }
        let ctx = Context::for_skill_id(&memory, "bench", &["bench"]).expect("a skill");
        let name = scaled_name(n);
        let mut sum = 0;
        for _ in 0..iterations {
            sum += deliver(black_box(&name), &ctx).text.len();
        }
        black_box(sum);
        return;
    }
    let name = CASES
        .iter()
        .find(|(c, _)| c == case)
        .map(|(_, n)| *n)
        .expect("a known case");
    let sum = match path.as_str() {
        "hand_deliver" => paths::hand_deliver(case, name, iterations),
        "hand_render" => paths::hand_render(case, name, iterations),
        "hand_write" => paths::hand_write(case, name, iterations),
        "typed_deliver" => paths::typed_deliver::<false>(case, name, iterations),
        "typed_render" => paths::typed_render::<false>(case, name, iterations),
        "typed_write_to" => paths::typed_write_to::<false>(case, name, iterations),
        "compact_deliver" => paths::compact_deliver::<false>(case, name, iterations),
        "minijinja" => minijinja(name, iterations),
        "generated" => generated_by_name(name, iterations),
        "interpreter" => paths::interpreter::<false>(name, iterations),
        "match" => bare_match(name, iterations),
        other => panic!("unknown path {other}"),
    };
    black_box(sum);
}

#[inline(never)]
fn minijinja(name: &str, iterations: usize) -> usize {
    let registry = JinjaRegistry::load(&agent_dir("bench"));
    let ctx = JinjaRegistry::context(&bench_values(), "bench");
    let mut sum = 0;
    for _ in 0..iterations {
        sum += registry.deliver(black_box(name), &ctx).len();
    }
    sum
}

#[inline(never)]
fn generated_by_name(name: &str, iterations: usize) -> usize {
    let mut memory = SlotMemory::new(&generated::bench::ENTRIES);
    for (ns, entry, value) in bench_values() {
        memory.set(ns, entry, value).expect("declared");
    }
    let ctx = Context::for_skill(&memory, generated::bench::Skill::Bench);
    let mut sum = 0;
    for _ in 0..iterations {
        sum += generated::bench::deliver_name(black_box(name), &ctx)
            .text
            .len();
    }
    sum
}

#[inline(never)]
fn bare_match(name: &str, iterations: usize) -> usize {
    let mut sum = 0;
    for _ in 0..iterations {
        sum += floor(black_box(name)).len();
    }
    sum
}
