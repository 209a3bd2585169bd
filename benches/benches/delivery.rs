//! Delivery through (a) generated code, (b) the interpreter, (c) minijinja
//! and (d) a bare match, side by side in one run; then scaling in N, and the
//! cost of expanding `include_responses!`.

use std::hint::black_box;
use std::sync::LazyLock;

use divan::Bencher;
use utter::{Context, SlotMemory};
use utter_benches::{
    CASES, JinjaRegistry, agent_dir, bench_values, floor, generated, generated_for, scaled_name,
    scaled_values, typed_compact_memory, typed_compact_response, typed_memory, typed_response,
};
use utter_compiler::{Agent, OpenOptions, Registry, codegen};

fn main() {
    divan::main();
}

fn name_of(case: &str) -> &'static str {
    CASES
        .iter()
        .find(|(c, _)| *c == case)
        .map(|(_, n)| *n)
        .expect("a known case")
}

const CASE_NAMES: &[&str] = &[
    "literal",
    "first_true",
    "last_true",
    "default_after_10",
    "error_skipped",
    "three_placeholders",
    "missing_name",
];

fn slots<S: AsRef<str>, V: AsRef<[S]>>(
    entries: &'static [utter::Entry<S, V>],
) -> SlotMemory<'static, S, V> {
    let mut memory = SlotMemory::new(entries);
    for (ns, entry, value) in bench_values() {
        memory.set(ns, entry, value).expect("declared");
    }
    memory
}

static GENERATED_MEMORY: LazyLock<SlotMemory<'static>> =
    LazyLock::new(|| slots(&generated::bench::ENTRIES));
static INTERPRETED: LazyLock<Registry> =
    LazyLock::new(|| Registry::load_strict(&agent_dir("bench")).expect("valid"));
static INTERPRETED_MEMORY: LazyLock<SlotMemory<'static, String, Vec<String>>> =
    LazyLock::new(|| slots(&INTERPRETED.entries));

thread_local! {
    static JINJA: (JinjaRegistry, minijinja::Value) =
        (JinjaRegistry::load(&agent_dir("bench")), JinjaRegistry::context(&bench_values(), "bench"));
}

mod delivery {
    use super::*;

    #[divan::bench(args = CASE_NAMES)]
    fn a_generated(b: Bencher, case: &str) {
        let name = name_of(case);
        let ctx = Context::for_skill(&*GENERATED_MEMORY, generated::bench::Skill::Bench);
        b.bench_local(|| generated::bench::deliver_name(black_box(name), &ctx));
    }

    /// The typed path: typed memory, the `Response` enum, a `Delivery`.
    #[divan::bench(args = CASE_NAMES)]
    fn a_typed_deliver(b: Bencher, case: &str) {
        let memory = typed_memory();
        let view = memory.view(generated::typed::Skill::Bench);
        match typed_response(case) {
            Some(response) => b.bench_local(|| view.deliver(black_box(response))),
            None => {
                let name = name_of(case);
                let ctx = view.context();
                b.bench_local(|| generated::typed::deliver_name(black_box(name), &ctx));
            }
        }
    }

    /// The typed path on the compact form (what agents above the
    /// threshold get): the program walked by the runtime's evaluator.
    #[divan::bench(args = CASE_NAMES)]
    fn a_compact_deliver(b: Bencher, case: &str) {
        let memory = typed_compact_memory();
        let view = memory.view(generated::typed_compact::Skill::Bench);
        match typed_compact_response(case) {
            Some(response) => b.bench_local(|| view.deliver(black_box(response))),
            None => {
                let name = name_of(case);
                let ctx = view.context();
                b.bench_local(|| generated::typed_compact::deliver_name(black_box(name), &ctx));
            }
        }
    }

    /// The typed path rendering into a reused buffer (no allocation).
    #[divan::bench(args = CASE_NAMES)]
    fn a_typed_render(b: Bencher, case: &str) {
        use std::fmt::Write;
        let memory = typed_memory();
        let view = memory.view(generated::typed::Skill::Bench);
        let mut buffer = String::with_capacity(256);
        match typed_response(case) {
            Some(response) => b.bench_local(|| {
                buffer.clear();
                view.render(black_box(response)).push_to(&mut buffer);
                buffer.len()
            }),
            None => {
                let name = name_of(case);
                b.bench_local(|| {
                    buffer.clear();
                    let _ = buffer.write_str(black_box(name));
                    buffer.len()
                });
            }
        }
    }

    #[divan::bench(args = CASE_NAMES)]
    fn b_interpreter(b: Bencher, case: &str) {
        let name = name_of(case);
        let ctx = Context::for_skill_id(&*INTERPRETED_MEMORY, "bench", &INTERPRETED.skills)
            .expect("a skill of the agent");
        let interpreter = INTERPRETED.interpreter();
        b.bench_local(|| interpreter.deliver(black_box(name), &ctx));
    }

    #[divan::bench(args = CASE_NAMES)]
    fn c_minijinja(b: Bencher, case: &str) {
        let name = name_of(case);
        JINJA.with(|(registry, ctx)| b.bench_local(|| registry.deliver(black_box(name), ctx)));
    }

    #[divan::bench(args = CASE_NAMES)]
    fn d_match(b: Bencher, case: &str) {
        let name = name_of(case);
        b.bench_local(|| floor(black_box(name)));
    }
}

mod scaling {
    use super::*;

    const SIZES: &[usize] = &[10, 100, 1_000, 10_000];

    #[divan::bench(args = SIZES)]
    fn a_generated(b: Bencher, n: usize) {
        let (deliver, entries) = generated_for(n).expect("compiled in");
        let mut memory = SlotMemory::new(entries);
        for (ns, entry, value) in scaled_values() {
            memory.set(ns, entry, value).expect("declared");
        }
        let ctx = Context::for_skill_id(&memory, "bench", &["bench"]).expect("a skill");
        let name = scaled_name(n);
        assert_eq!(deliver(&name, &ctx).variant, Some(1));
        b.bench_local(|| deliver(black_box(&name), &ctx));
    }

    #[divan::bench(args = SIZES)]
    fn b_interpreter(b: Bencher, n: usize) {
        let registry = Registry::load_strict(&agent_dir(&format!("n{n}"))).expect("valid");
        let mut memory = SlotMemory::new(&registry.entries);
        for (ns, entry, value) in scaled_values() {
            memory.set(ns, entry, value).expect("declared");
        }
        let ctx = Context::for_skill_id(&memory, "bench", &registry.skills).expect("a skill");
        let name = scaled_name(n);
        let interpreter = registry.interpreter();
        assert_eq!(interpreter.deliver(&name, &ctx).variant, Some(1));
        b.bench_local(|| interpreter.deliver(black_box(&name), &ctx));
    }

    #[divan::bench(args = SIZES)]
    fn c_minijinja(b: Bencher, n: usize) {
        let registry = JinjaRegistry::load(&agent_dir(&format!("n{n}")));
        let ctx = JinjaRegistry::context(&scaled_values(), "bench");
        let name = scaled_name(n);
        b.bench_local(|| registry.deliver(black_box(&name), &ctx));
    }

    /// What `include_responses!` does for an N-response agent: read,
    /// check, lower and generate the tokens.
    #[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
    fn expansion(b: Bencher, n: usize) {
        let dir = agent_dir(&format!("n{n}"));
        b.bench_local(|| {
            let agent = Agent::open(&dir, OpenOptions::default()).expect("readable");
            codegen::expand(&agent, proc_macro2::Span::call_site(), &[]).to_string()
        });
    }
}

/// The fact guard a rephrase passes through (once per LLM call): a
/// faithful answer checked in full, and an answer that lost a figure.
mod fact_guard {
    use super::black_box;
    use utter::{Delivery, FactGuard, Filled};

    fn delivery() -> Delivery<'static> {
        Delivery {
            text: "Your card ending 4242 ships via rush delivery in 1 to 2 business days; a fee of $7.5 applies.".into(),
            response: "utter_shipping",
            variant: Some(0),
            rephrase: true,
            fallback: false,
            wording: None,
            guard: FactGuard::On {
                filled: vec![
                    Filled::new("session.card.last_four", "4242"),
                    Filled::new("session.card.speed", "rush"),
                    Filled::new("session.card.fee", "7.5"),
                ]
                .into(),
            },
        }
    }

    #[divan::bench]
    fn faithful(bencher: divan::Bencher) {
        let answer = "Your card ending 4242 ships by RUSH delivery in 1 to 2 business days, for a $7.50 fee.";
        bencher.with_inputs(delivery).bench_values(|d| {
            let spoken = d.speak_with(|_| answer.to_owned());
            assert!(spoken.rephrased, "{:?}", spoken.refused);
            black_box(spoken)
        });
    }

    /// The guard alone on the same sentence: what a rephrase costs
    /// beyond the rephraser (the goal: at most 3 µs).
    #[divan::bench]
    fn check_alone(bencher: divan::Bencher) {
        let FactGuard::On { filled } = delivery().guard else {
            unreachable!("the bench delivery is guarded")
        };
        let reviewed = delivery().text;
        let answer = "Your card ending 4242 ships by RUSH delivery in 1 to 2 business days, for a $7.50 fee.";
        bencher.bench(|| {
            utter::check_facts(black_box(&reviewed), black_box(&filled), black_box(answer))
                .expect("faithful")
        });
    }

    #[divan::bench]
    fn refused(bencher: divan::Bencher) {
        let answer = "Your card ending 4224 ships soon; no fee applies.";
        bencher
            .with_inputs(delivery)
            .bench_values(|d| black_box(d.speak_with(|_| answer.to_owned())).rephrased);
    }
}

/// The guard's cost by the texts' length (issue 67, item 7): a realistic
/// rephrase repeated to the size, an adversarial one (single digits, each
/// a figure), and the tagged protocol's request and check on the same
/// realistic text.
mod guard_by_size {
    use divan::black_box;

    const SENTENCE: &str = "Your card ending 4242 ships via rush delivery within 2 business days, for a $7.50 fee. ";
    const REPHRASED: &str = "Your card ending 4242 is sent by rush delivery within 2 business days, with a $7.50 fee. ";

    /// `text` repeated as often as the reviewed sentence fills `size`
    /// bytes (the answer as often as the reviewed text).
    fn sized(text: &str, size: usize) -> String {
        text.repeat(size.div_ceil(SENTENCE.len()))
    }

    #[divan::bench(args = [100, 1_000, 10_000, 100_000])]
    fn realistic(bencher: divan::Bencher, size: usize) {
        let (reviewed, answer) = (sized(SENTENCE, size), sized(REPHRASED, size));
        let verdict = utter::check_facts(&reviewed, &[], &answer);
        assert!(verdict.is_ok(), "{size}: {verdict:?}");
        bencher.bench(|| utter::check_facts(black_box(&reviewed), &[], black_box(&answer)).is_ok());
    }

    /// Each digit a figure: the most figures a text of its length holds.
    #[divan::bench(args = [100, 1_000, 10_000, 100_000])]
    fn single_digits(bencher: divan::Bencher, size: usize) {
        let digits = "1 2 ".repeat(size / 4);
        bencher.bench(|| utter::check_facts(black_box(&digits), &[], black_box(&digits)).is_ok());
    }

    #[divan::bench(args = [100, 1_000, 10_000, 100_000])]
    fn tagged(bencher: divan::Bencher, size: usize) {
        let reviewed = sized(SENTENCE, size);
        let context = utter::RephraseContext::default();
        bencher.bench(|| {
            let request = utter::RephraseRequest::new(black_box(&reviewed), &[], &context);
            let answer = request.tagged_text().to_owned();
            request.write_back(&answer, true).is_ok()
        });
    }
}
