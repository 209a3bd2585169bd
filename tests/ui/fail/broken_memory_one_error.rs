// One mistake, one error: a syntax error in a skill's memory.yml gives the
// YAML error only. References into that memory (conditions, placeholders)
// are not reported, and user code naming the entries declared before the
// error compiles against the skeleton.
mod responses {
    utter::include_responses!("ui-fixtures/broken_memory");
}

fn main() {
    let mut memory = responses::Memory::new();
    memory.card.fee = Some(2.5);
    memory.card.reason = Some("lost".to_owned());
    let view = memory.view(responses::Skill::Card);
    let _ = view.deliver(responses::Response::UtterX);
}
