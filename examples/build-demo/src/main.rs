//! The example agent compiled by `build.rs` into `$OUT_DIR/responses.rs`:
//! delivers the card-replacement fee for each reason, from each skill's view.

mod responses {
    include!(concat!(env!("OUT_DIR"), "/responses.rs"));
}

use responses::Response;
use utter::{Context, Rephraser};

/// Stands in for an LLM call: rewords by shouting.
struct Shout;

impl Rephraser for Shout {
    type Error = std::convert::Infallible;
    fn rephrase(&mut self, text: &str) -> Result<String, Self::Error> {
        Ok(text.to_uppercase())
    }
}

fn main() -> Result<(), utter::UndeclaredEntry> {
    for reason in ["lost", "stolen", "damaged"] {
        let mut memory = responses::memory();
        memory.set("card_replace", "replacement_reason", reason)?;
        memory.set("card_replace", "replacement_fee", 5)?;
        let own = Context::for_skill(&memory, "card_replace");
        let other = Context::for_skill(&memory, "identity_check");
        let fee = Response::UtterCardReplacementFee;
        println!(
            "{reason:>8} (card_replace):   {}",
            responses::deliver(fee, &own).text
        );
        println!(
            "{reason:>8} (identity_check): {}",
            responses::deliver(fee, &other).text
        );
    }
    let memory = responses::memory();
    let spoken =
        responses::deliver(Response::UtterAskShipping, &Context::new(&memory)).speak(&mut Shout);
    println!("rephrased: {} ({})", spoken.text, spoken.rephrased);
    Ok(())
}
