mod responses {
    utter::include_responses!("ui-fixtures/default_required");
}

fn main() {
    // The skeleton keeps the public items: no follow-on errors here.
    let memory = responses::memory();
    let ctx = utter::Context::new(&memory);
    let _ = responses::deliver(responses::Response::UtterX, &ctx);
    let _ = responses::deliver_name("utter_x", &ctx);
}
