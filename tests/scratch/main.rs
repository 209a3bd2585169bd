//! A user's agent crate, built outside the workspace by tests/scratch/run.sh:
//! typed memory, memory from serde_json, an async rephraser on tokio's
//! multi-thread runtime, and the context shared across tasks.

mod responses {
    utter::include_responses!("agent");
}

// The same agent through build.rs, as docs/typed-api.md writes it.
mod built {
    include!(concat!(env!("OUT_DIR"), "/responses.rs"));
}

use std::sync::Arc;

use responses::{Memory, ReplacementReason, Response, Skill};

/// A rephraser that would call an LLM; here it waits a little and rewords.
struct Llm;

impl utter::AsyncRephraser for Llm {
    type Error = std::io::Error;
    async fn rephrase(&mut self, text: &str) -> Result<String, std::io::Error> {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        Ok(format!("(reworded) {text}"))
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // State from a JSON document, through serde_json, into the typed memory.
    let document: serde_json::Value = serde_json::json!({
        "card_replace": {"replacement_reason": "stolen", "replacement_fee": 0.0},
        "project": {"customer_name": "Ada"}
    });
    let mut memory = Memory::new();
    for a in utter::json::memory_assignments_from(document)? {
        memory.set(&a.namespace, &a.entry, a.value)?;
    }
    assert_eq!(memory.card_replace.replacement_reason, Some(ReplacementReason::Stolen));

    // The generated items docs/typed-api.md lists, both ways.
    assert_eq!(Response::ALL.len(), built::Response::ALL.len());
    for response in Response::ALL {
        assert_eq!(Response::from_name(response.name()), Some(*response));
        assert!(built::Response::from_name(response.name()).is_some());
    }
    assert_eq!(Skill::ALL.len(), responses::SKILLS.len());
    for (skill, id) in Skill::ALL.iter().zip(responses::SKILLS) {
        assert_eq!(skill.id(), *id);
        assert_eq!(id.parse::<Skill>().ok(), Some(*skill));
    }
    assert!("card_replac".parse::<Skill>().is_err());
    let _: &utter::SkillResponses<Response> = Skill::CardReplace.responses();

    // Shared across tasks of the multi-thread runtime.
    let memory = Arc::new(memory);
    let mut tasks = Vec::new();
    for response in [
        Response::UtterAskShipping,
        Response::UtterCardReplacementFee,
        Response::UtterStolenWarning,
    ] {
        let memory = Arc::clone(&memory);
        tasks.push(tokio::spawn(async move {
            let delivery = memory.view(Skill::CardReplace).deliver(response);
            let spoken = delivery.speak_async(&mut Llm).await;
            (response, spoken.rephrased, spoken.text.into_owned())
        }));
    }
    for task in tasks {
        let (response, rephrased, text) = task.await?;
        // Only the variant that opts in (`metadata.rephrase: true`) is reworded.
        assert_eq!(rephrased, response == Response::UtterAskShipping, "{response:?}");
        assert_eq!(rephrased, text.starts_with("(reworded) "));
        println!("{text}");
    }
    Ok(())
}
