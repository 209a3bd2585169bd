//! The example agent compiled into this binary by `include_responses!`:
//! a few deliveries for sample memory.

mod responses {
    utter::include_responses!("../card-agent");
}

use responses::Response;
use utter::Context;

fn main() -> Result<(), utter::UndeclaredEntry> {
    let mut memory = responses::memory();
    memory.set("project", "customer_name", "Ada")?;
    memory.set("card_replace", "replacement_reason", "stolen")?;
    memory.set("card_replace", "replacement_fee", 7.5)?;
    memory.set("card_replace", "order_shipping_summary", "rush")?;

    let card_replace = Context::for_skill(&memory, "card_replace");
    for response in [
        Response::UtterCardReplacementFee,
        Response::UtterCardReplaceCompleted,
        Response::UtterAskShipping,
        Response::UtterAskWantsToContinue,
    ] {
        let delivery = responses::deliver(response, &card_replace);
        println!(
            "{:<32} variant {:?}{}: {}",
            response.name(),
            delivery.variant,
            if delivery.rephrase { " (rephrase)" } else { "" },
            delivery.text
        );
    }
    // What skill.md wires up, typed: no response names looked up at run time.
    let skill = responses::Skill::CardReplace.responses();
    for &response in skill.on_activate {
        println!(
            "on activate: {}",
            responses::deliver(response, &card_replace).text
        );
    }
    for trigger in skill.when {
        if trigger.holds(&card_replace) {
            println!(
                "when: {}",
                responses::deliver(trigger.response, &card_replace).text
            );
        }
    }
    if let Some(on_success) = skill
        .tool("process_card_replacement")
        .and_then(|t| t.on_success)
    {
        println!(
            "on_success: {}",
            responses::deliver(on_success, &card_replace).text
        );
    }

    let unknown = responses::deliver_name("utter_not_there", &card_replace);
    println!(
        "{:<32} fallback {}: {}",
        unknown.response, unknown.fallback, unknown.text
    );
    Ok(())
}
