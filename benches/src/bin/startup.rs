//! Start-up cost: from process start to the first delivered response.
//! `startup <a|b|c> <N>`: (a) generated code, (b) the interpreter loading the
//! agent folder, (c) the minijinja alternative loading it.

use utter::{Context, SlotMemory};
use utter_benches::{JinjaRegistry, agent_dir, generated_for, scaled_name, scaled_values};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(kind), Some(n)) = (
        args.get(1),
        args.get(2).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: startup <a|b|c> <10|100|1000|10000>");
        std::process::exit(2);
    };
    let name = scaled_name(n);
    let text = match kind.as_str() {
        "a" => {
            let Some((deliver, entries)) = generated_for(n) else {
                eprintln!("the {n}-response agent is not compiled into this binary");
                std::process::exit(2);
            };
            let mut memory = SlotMemory::new(entries);
            for (ns, entry, value) in scaled_values() {
                memory.set(ns, entry, value).expect("declared");
            }
            deliver(
                &name,
                &Context::for_skill_id(&memory, "bench", &["bench"]).expect("a skill"),
            )
            .text
            .into_owned()
        }
        "b" => {
            let registry =
                utter_compiler::Registry::load_strict(&agent_dir(&format!("n{n}"))).expect("valid");
            let mut memory = SlotMemory::new(&registry.entries);
            for (ns, entry, value) in scaled_values() {
                memory.set(ns, entry, value).expect("declared");
            }
            registry
                .interpreter()
                .deliver(
                    &name,
                    &Context::for_skill_id(&memory, "bench", &["bench"]).expect("a skill"),
                )
                .text
                .into_owned()
        }
        "c" => {
            let registry = JinjaRegistry::load(&agent_dir(&format!("n{n}")));
            registry.deliver(&name, &JinjaRegistry::context(&scaled_values(), "bench"))
        }
        other => {
            eprintln!("unknown implementation `{other}`");
            std::process::exit(2);
        }
    };
    println!("{text}");
}
