//! Delivery allocates nothing for a literal text and exactly once for an
//! interpolated one, in generated code and in the interpreter; the typed
//! path renders into a reused buffer with no allocation at all.

use std::hint::black_box;

use allocation_counter::measure;
use utter::Context;

mod card_agent {
    utter::include_responses!("../examples/card-agent");
}

use card_agent::{ReplacementReason, Response, Skill};

fn memory() -> card_agent::Memory {
    let mut memory = card_agent::memory();
    memory
        .set("card_replace", "replacement_reason", "stolen")
        .unwrap();
    memory
        .set("card_replace", "order_shipping_summary", "rush")
        .unwrap();
    memory.set("card_replace", "replacement_fee", 2.5).unwrap();
    memory.set("project", "customer_name", "Ada").unwrap();
    memory
}

#[test]
fn generated_literal_delivery_allocates_nothing() {
    let memory = memory();
    let ctx = Context::for_skill(&memory, Skill::CardReplace);
    for response in [
        Response::UtterGoodbye,
        Response::UtterCardReplacementFee,
        Response::UtterAskShipping,
    ] {
        let info = measure(|| {
            black_box(card_agent::deliver(black_box(response), &ctx));
        });
        assert_eq!(info.count_total, 0, "{response:?}");
    }
    let info = measure(|| {
        black_box(card_agent::deliver_name(
            black_box("utter_not_defined"),
            &ctx,
        ));
    });
    assert_eq!(info.count_total, 0, "fallback");
}

#[test]
fn generated_interpolated_delivery_allocates_once() {
    let memory = memory();
    let ctx = Context::for_skill(&memory, Skill::CardReplace);
    for response in [
        Response::UtterCardReplaceCompleted,
        Response::UtterAskWantsToContinue,
    ] {
        let info = measure(|| {
            let d = card_agent::deliver(black_box(response), &ctx);
            assert!(!d.text.contains('{'), "{}", d.text);
            black_box(d);
        });
        assert_eq!(info.count_total, 1, "{response:?}");
    }
    // Three placeholders, one of them a float: still one allocation.
    memory_with_fee_text();
}

fn memory_with_fee_text() {
    let mut memory = memory();
    memory
        .set("card_replace", "replacement_reason", "lost")
        .unwrap();
    let ctx = Context::for_skill(&memory, Skill::CardReplace);
    let info = measure(|| {
        let d = card_agent::deliver(Response::UtterCardReplacementFee, &ctx);
        assert_eq!(d.text, "A fee of $2.5 applies for lost-card replacement.");
        black_box(d);
    });
    assert_eq!(info.count_total, 1);
}

#[test]
fn typed_rendering_into_a_reused_buffer_allocates_nothing() {
    let mut memory = memory();
    memory.card_replace.replacement_reason = Some(ReplacementReason::Lost);
    let view = memory.view(Skill::CardReplace);
    let mut text = String::with_capacity(256);
    for response in [
        Response::UtterCardReplacementFee,
        Response::UtterCardReplaceCompleted,
        Response::UtterAskWantsToContinue,
        Response::UtterGoodbye,
    ] {
        let info = measure(|| {
            text.clear();
            view.render(black_box(response))
                .write_to(&mut text)
                .unwrap();
            black_box(&text);
        });
        assert_eq!(info.count_total, 0, "{response:?}: {text}");
        assert!(!text.is_empty() && !text.contains('{'), "{text}");
    }
    text.clear();
    view.render(Response::UtterCardReplacementFee)
        .write_to(&mut text)
        .unwrap();
    assert_eq!(text, "A fee of $2.5 applies for lost-card replacement.");
}

#[test]
fn interpreted_delivery_allocates_the_same() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/card-agent");
    let registry = utter_compiler::Registry::load_strict(&dir).unwrap();
    let mut memory = utter::SlotMemory::new(&registry.entries);
    memory
        .set("card_replace", "order_shipping_summary", "rush")
        .unwrap();
    let ctx = Context::for_skill(&memory, Skill::CardReplace);
    let interpreter = registry.interpreter();
    let info = measure(|| {
        black_box(interpreter.deliver(black_box("utter_goodbye"), &ctx));
    });
    assert_eq!(info.count_total, 0);
    let info = measure(|| {
        black_box(interpreter.deliver(black_box("utter_card_replace_completed"), &ctx));
    });
    assert_eq!(info.count_total, 1);
}
