//! The example agent compiled into this binary by `include_responses!`:
//! typed memory, typed skills, a few deliveries.

mod responses {
    utter::include_responses!("../card-agent");
}

use responses::{ReplacementReason, Response, Skill};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Typed writes: a wrong type or an unknown value does not compile.
    let mut memory = responses::Memory::new();
    memory.project.customer_name = Some("Ada".into());
    memory.card_replace.replacement_reason = Some(ReplacementReason::Stolen);
    memory.card_replace.replacement_fee = Some(7.5);
    // Values that arrive as data are checked against memory.yml's types.
    memory.set("card_replace", "order_shipping_summary", "rush")?;
    if let Err(refused) = memory.set("card_replace", "replacement_fee", "free") {
        println!("refused: {refused}");
    }

    let card_replace = memory.view(Skill::CardReplace);
    let mut text = String::new();
    for response in [
        Response::UtterCardReplacementFee,
        Response::UtterCardReplaceCompleted,
        Response::UtterAskShipping,
        Response::UtterAskWantsToContinue,
    ] {
        // Rendered into one reused buffer: no allocation per delivery.
        let rendered = card_replace.render(response);
        text.clear();
        rendered.write_to(&mut text)?;
        println!(
            "{:<32} variant {:?}{}: {text}",
            response.name(),
            rendered.variant,
            if rendered.rephrase { " (rephrase)" } else { "" },
        );
    }
    // What skill.md wires up, typed: no response names looked up at run time.
    let skill = Skill::CardReplace.responses();
    for &response in skill.on_activate {
        println!("on activate: {}", card_replace.render(response));
    }
    for trigger in skill.when {
        if trigger.holds(&card_replace.context()) {
            println!("when: {}", card_replace.render(trigger.response));
        }
    }
    if let Some(on_success) = skill
        .tool("process_card_replacement")
        .and_then(|t| t.on_success)
    {
        println!("on_success: {}", card_replace.render(on_success));
    }

    // A skill id that arrives as data is checked, never silently another view.
    let from_orchestrator: Result<Skill, _> = "card_replac".parse();
    if let Err(unknown) = from_orchestrator {
        println!("refused: {unknown}");
    }
    let unknown = responses::deliver_name("utter_not_there", &card_replace.context());
    println!(
        "{:<32} fallback {}: {}",
        unknown.response, unknown.fallback, unknown.text
    );
    Ok(())
}
