//! Runs one delivery case many times, for instruction counts that do not
//! drift like timings: `valgrind --tool=callgrind` counts this process at
//! two iteration counts, and the difference divided by the extra
//! iterations is the cost of one delivery (see `instructions.sh`).
//!
//! `instructions PATH CASE ITERATIONS`, PATH one of `hand_deliver`,
//! `hand_render` (the hand-written anchor), `typed_deliver`, `typed_render`
//! (`push_to` a `String`), `typed_write_to` (`write_to` the same `String`),
//! `compact_deliver`, `generated`, `interpreter`, `minijinja`, `match`.
//!
//! Every path is its own `#[inline(never)]` loop with its inputs through
//! `black_box`, so each is compiled in the same context: a count does not
//! depend on what else `main` holds (inlining into one large `main` moved
//! the literal case from 13 to 52 instructions with the library unchanged).

use std::hint::black_box;

use utter::{Context, SlotMemory};
use utter_benches::hand::{self, HandMemory, HandResponse};
use utter_benches::{
    CASES, JinjaRegistry, agent_dir, bench_values, floor, generated, generated_for, scaled_name,
    scaled_values, typed_compact_memory, typed_compact_response, typed_memory, typed_response,
};

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
        "hand_deliver" => hand_deliver(case, name, iterations),
        "hand_render" => hand_render(case, name, iterations),
        "typed_deliver" => typed_deliver(case, name, iterations),
        "typed_render" => typed_render(case, name, iterations),
        "typed_write_to" => typed_write_to(case, name, iterations),
        "compact_deliver" => compact_deliver(case, name, iterations),
        "minijinja" => minijinja(name, iterations),
        "generated" => generated_by_name(name, iterations),
        "interpreter" => interpreter(name, iterations),
        "match" => bare_match(name, iterations),
        other => panic!("unknown path {other}"),
    };
    black_box(sum);
}

#[inline(never)]
fn hand_deliver(case: &str, name: &str, iterations: usize) -> usize {
    let memory = HandMemory::bench();
    let response = HandResponse::of_case(case);
    let mut sum = 0;
    for _ in 0..iterations {
        sum += match black_box(response) {
            Some(r) => hand::deliver(black_box(&memory), r).text.len(),
            None => black_box(name).len(),
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
        buffer.clear();
        match black_box(response) {
            Some(r) => hand::render(black_box(&memory), r, &mut buffer),
            None => buffer.push_str(black_box(name)),
        }
        sum += buffer.len();
    }
    sum
}

#[inline(never)]
fn typed_deliver(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let view = memory.view(generated::typed::Skill::Bench);
    let response = typed_response(case);
    let mut sum = 0;
    for _ in 0..iterations {
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
    let view = memory.view(generated::typed::Skill::Bench);
    let response = typed_response(case);
    let mut buffer = String::with_capacity(256);
    let mut sum = 0;
    for _ in 0..iterations {
        buffer.clear();
        match black_box(response) {
            Some(r) => view.render(r).push_to(&mut buffer),
            None => buffer.push_str(black_box(name)),
        }
        sum += buffer.len();
    }
    sum
}

/// [`typed_render`] through `write_to` (any `fmt::Write`, here a `String`).
#[inline(never)]
fn typed_write_to(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let view = memory.view(generated::typed::Skill::Bench);
    let response = typed_response(case);
    let mut buffer = String::with_capacity(256);
    let mut sum = 0;
    for _ in 0..iterations {
        buffer.clear();
        match black_box(response) {
            Some(r) => view.render(r).write_to(&mut buffer).expect("a String"),
            None => buffer.push_str(black_box(name)),
        }
        sum += buffer.len();
    }
    sum
}

#[inline(never)]
fn compact_deliver(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_compact_memory();
    let view = memory.view(generated::typed_compact::Skill::Bench);
    let response = typed_compact_response(case);
    let mut sum = 0;
    for _ in 0..iterations {
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
fn interpreter(name: &str, iterations: usize) -> usize {
    let registry = utter_compiler::Registry::load_strict(&agent_dir("bench")).expect("valid");
    let mut memory = SlotMemory::new(&registry.entries);
    for (ns, entry, value) in bench_values() {
        memory.set(ns, entry, value).expect("declared");
    }
    let ctx = Context::for_skill_id(&memory, "bench", &registry.skills).expect("a skill");
    let interpreter = registry.interpreter();
    let mut sum = 0;
    for _ in 0..iterations {
        sum += interpreter.deliver(black_box(name), &ctx).text.len();
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
