// `deny_warnings` turns the project's warnings into compile errors; the
// skeleton keeps user code free of follow-on errors.
mod responses {
    utter::include_responses!("ui-fixtures/warning_placeholder", deny_warnings);
}

fn main() {
    let memory = responses::memory();
    let ctx = utter::Context::new(&memory);
    let _ = responses::deliver(responses::Response::UtterGreet, &ctx);
}
