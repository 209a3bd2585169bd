// One mistake, one error: a bad indentation in a skill's responses.yml gives
// the YAML error only; skill.md's references to that file's responses and
// user code naming them see no follow-on errors.
mod responses {
    utter::include_responses!("ui-fixtures/broken_indent");
}

fn main() {
    let memory = responses::memory();
    let ctx = utter::Context::new(&memory);
    let _ = responses::deliver(responses::Response::UtterGreet, &ctx);
    let _ = responses::deliver(responses::Response::UtterBye, &ctx);
}
