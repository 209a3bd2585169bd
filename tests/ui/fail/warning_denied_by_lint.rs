// A warning of the project is a rustc warning at the macro: `deny(warnings)`
// makes it an error like any other.
#![deny(warnings)]

mod responses {
    utter::include_responses!("ui-fixtures/warning_placeholder");
}

fn main() {
    let memory = responses::memory();
    let ctx = utter::Context::new(&memory);
    let _ = responses::deliver(responses::Response::UtterGreet, &ctx);
}
