//! The delivery loops both harnesses count, one `#[inline(never)]` loop
//! per path, compiled into each binary (a crate of its own, as a user's
//! binary is to the crate holding their agent; `#[path]`-included, not a
//! module of the library). The hand-written paths read their memory
//! through `black_box` on every iteration; the generated paths do when
//! `OPAQUE` (the fair harness, `fair.rs`), and read it as it is when not
//! (`instructions.rs`, the earlier harness, kept for comparison).

use std::fmt::Write as _;
use std::hint::black_box;

use utter::{Context, SlotMemory};
use utter_benches::hand::{self, HandMemory, HandResponse};
use utter_benches::{
    agent_dir, bench_values, generated, typed_compact_memory, typed_compact_response, typed_memory,
    typed_response,
};

/// `value`, opaque to the optimiser when `OPAQUE`.
#[inline(always)]
fn opaque<const OPAQUE: bool, T>(value: &T) -> &T {
    if OPAQUE { black_box(value) } else { value }
}

/// A `fmt::Write` sink that is not a `String` (what `write_to` serves: a
/// socket buffer, a formatter): it keeps the bytes, as a `String` would.
#[derive(Default)]
pub struct Sink(Vec<u8>);

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
pub fn hand_deliver(case: &str, name: &'static str, iterations: usize) -> usize {
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
pub fn hand_render(case: &str, name: &str, iterations: usize) -> usize {
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
pub fn hand_write(case: &str, name: &str, iterations: usize) -> usize {
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
pub fn typed_deliver<const OPAQUE: bool>(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let mut sum = 0;
    for _ in 0..iterations {
        let view = opaque::<OPAQUE, _>(&memory).view(generated::typed::Skill::Bench);
        sum += delivered_len(&view, black_box(response), name);
    }
    sum
}

/// The length of what `view` delivers for `response` (by `name` when the
/// agent has no such response): what each typed delivery loop adds up.
#[inline(always)]
fn delivered_len(
    view: &generated::typed::View<'_>,
    response: Option<generated::typed::Response>,
    name: &str,
) -> usize {
    match response {
        Some(r) => view.deliver(r).text.len(),
        None => view.deliver_name(black_box(name)).text.len(),
    }
}

/// [`typed_deliver`] with the view made once and opaque on every
/// iteration (`black_box(&view)`), as a caller that keeps a view has it.
/// Only the fair harness asks it (`instructions` includes this file too).
#[allow(dead_code)]
#[inline(never)]
pub fn typed_deliver_view(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let view = memory.view(generated::typed::Skill::Bench);
    let mut sum = 0;
    for _ in 0..iterations {
        sum += delivered_len(black_box(&view), black_box(response), name);
    }
    sum
}

#[inline(never)]
pub fn typed_render<const OPAQUE: bool>(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let mut buffer = String::with_capacity(256);
    let mut sum = 0;
    for _ in 0..iterations {
        let view = opaque::<OPAQUE, _>(&memory).view(generated::typed::Skill::Bench);
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
pub fn typed_write_to<const OPAQUE: bool>(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_memory();
    let response = typed_response(case);
    let mut sink = Sink::default();
    let mut sum = 0;
    for _ in 0..iterations {
        let view = opaque::<OPAQUE, _>(&memory).view(generated::typed::Skill::Bench);
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
pub fn compact_deliver<const OPAQUE: bool>(case: &str, name: &str, iterations: usize) -> usize {
    let memory = typed_compact_memory();
    let response = typed_compact_response(case);
    let mut sum = 0;
    for _ in 0..iterations {
        let view = opaque::<OPAQUE, _>(&memory).view(generated::typed_compact::Skill::Bench);
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
pub fn interpreter<const OPAQUE: bool>(name: &str, iterations: usize) -> usize {
    let registry = utter_compiler::Registry::load_strict(&agent_dir("bench")).expect("valid");
    let mut memory = SlotMemory::new(&registry.entries);
    for (ns, entry, value) in bench_values() {
        memory.set(ns, entry, value).expect("declared");
    }
    let interpreter = registry.interpreter();
    let mut sum = 0;
    for _ in 0..iterations {
        let memory = opaque::<OPAQUE, _>(&memory);
        let ctx = Context::for_skill_id(memory, "bench", &registry.skills).expect("a skill");
        sum += interpreter.deliver(black_box(name), &ctx).text.len();
    }
    sum
}
