//! The example agent compiled by `build.rs` into `$OUT_DIR/responses.rs`:
//! delivers the card-replacement fee for each reason, from each skill's view.
//! Generated code meets clippy's pedantic lints like hand-written code
//! (`cargo clippy` in CI denies them here).
#![deny(clippy::pedantic)]

mod responses {
    include!(concat!(env!("OUT_DIR"), "/responses.rs"));
}

use responses::{ReplacementReason, Response, Skill};
use utter::Rephraser;

/// Stands in for an LLM call: rewords by shouting.
struct Shout;

impl Rephraser for Shout {
    type Error = std::convert::Infallible;
    fn rephrase(&mut self, text: &str) -> Result<String, Self::Error> {
        Ok(text.to_uppercase())
    }
}

fn main() {
    for &reason in ReplacementReason::all() {
        let mut memory = responses::Memory::new();
        memory.card_replace.replacement_reason = Some(reason);
        memory.card_replace.replacement_fee = Some(5.0);
        let fee = Response::UtterCardReplacementFee;
        println!(
            "{reason:>12} (card_replace):   {}",
            memory.view(Skill::CardReplace).render(fee)
        );
        println!(
            "{reason:>12} (identity_check): {}",
            memory.view(Skill::IdentityCheck).render(fee)
        );
    }
    let memory = responses::Memory::new();
    let spoken = memory
        .view(None)
        .deliver(Response::UtterAskShipping)
        .speak(&mut Shout);
    println!("rephrased: {} ({})", spoken.text, spoken.rephrased);
}
