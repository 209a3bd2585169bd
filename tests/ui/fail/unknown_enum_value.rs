mod responses {
    utter::include_responses!("ui-fixtures/unknown_enum_value");
}

fn main() {
    // The skeleton keeps the typed items: no follow-on errors here.
    let mut memory = responses::Memory::new();
    memory.order.size = Some(responses::Size::Large);
    let _ = memory.view(responses::Skill::Order).deliver(responses::Response::UtterSize);
}
