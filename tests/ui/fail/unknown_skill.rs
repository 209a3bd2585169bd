mod responses {
    utter::include_responses!("ui-fixtures/typed");
}

fn main() {
    let memory = responses::Memory::new();
    // A view is built from a skill that exists, never from a string.
    let _ = utter::Context::for_skill(&memory, "order");
    let _ = memory.view(responses::Skill::Ordr);
}
