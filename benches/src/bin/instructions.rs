//! Runs one delivery case many times, for instruction counts that do not
//! drift like timings: `valgrind --tool=callgrind` counts this process at
//! two iteration counts, and the difference divided by the extra
//! iterations is the cost of one delivery (see `instructions.sh`).
//!
//! `instructions PATH CASE ITERATIONS`, PATH one of `typed_deliver`,
//! `typed_render`, `compact_deliver`, `generated`, `interpreter`,
//! `minijinja`, `match`.

use std::hint::black_box;

use utter::{Context, SlotMemory};
use utter_benches::{
    CASES, JinjaRegistry, agent_dir, bench_values, floor, generated, generated_for, scaled_name,
    scaled_values, typed_compact_memory,
    typed_compact_response, typed_memory, typed_response,
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
    let mut sum = 0usize;
    match path.as_str() {
        "typed_deliver" => {
            let memory = typed_memory();
            let view = memory.view(generated::typed::Skill::Bench);
            let response = typed_response(case);
            for _ in 0..iterations {
                sum += match response {
                    Some(r) => view.deliver(black_box(r)).text.len(),
                    None => generated::typed::deliver_name(black_box(name), &view.context())
                        .text
                        .len(),
                };
            }
        }
        "typed_render" => {
            let memory = typed_memory();
            let view = memory.view(generated::typed::Skill::Bench);
            let response = typed_response(case);
            let mut buffer = String::with_capacity(256);
            for _ in 0..iterations {
                buffer.clear();
                match response {
                    Some(r) => view.render(black_box(r)).write_to(&mut buffer).expect("a String"),
                    None => buffer.push_str(black_box(name)),
                }
                sum += buffer.len();
            }
        }
        "compact_deliver" => {
            let memory = typed_compact_memory();
            let view = memory.view(generated::typed_compact::Skill::Bench);
            let response = typed_compact_response(case);
            for _ in 0..iterations {
                sum += match response {
                    Some(r) => view.deliver(black_box(r)).text.len(),
                    None => generated::typed_compact::deliver_name(black_box(name), &view.context())
                        .text
                        .len(),
                };
            }
        }
        "minijinja" => {
            let registry = JinjaRegistry::load(&agent_dir("bench"));
            let ctx = JinjaRegistry::context(&bench_values(), "bench");
            for _ in 0..iterations {
                sum += registry.deliver(black_box(name), &ctx).len();
            }
        }
        "generated" => {
            let mut memory = SlotMemory::new(&generated::bench::ENTRIES);
            for (ns, entry, value) in bench_values() {
                memory.set(ns, entry, value).expect("declared");
            }
            let ctx = Context::for_skill(&memory, generated::bench::Skill::Bench);
            for _ in 0..iterations {
                sum += generated::bench::deliver_name(black_box(name), &ctx).text.len();
            }
        }
        "interpreter" => {
            let registry = utter_compiler::Registry::load_strict(&agent_dir("bench")).expect("valid");
            let mut memory = SlotMemory::new(&registry.entries);
            for (ns, entry, value) in bench_values() {
                memory.set(ns, entry, value).expect("declared");
            }
            let ctx = Context::for_skill_id(&memory, "bench", &registry.skills).expect("a skill");
            let interpreter = registry.interpreter();
            for _ in 0..iterations {
                sum += interpreter.deliver(black_box(name), &ctx).text.len();
            }
        }
        "match" => {
            for _ in 0..iterations {
                sum += floor(black_box(name)).len();
            }
        }
        other => panic!("unknown path {other}"),
    }
    black_box(sum);
}
