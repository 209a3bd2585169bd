mod responses {
    utter::include_responses!("ui-fixtures/typed");
}

fn main() {
    let mut memory = responses::Memory::new();
    // `count` is declared `int`; `size` is categorical. Written through
    // typed bindings, so rustc's output points at this file only (never
    // into the standard library, whose source a toolchain may or may not have).
    let three: Option<&str> = None;
    memory.order.count = three;
    let large: Option<&str> = None;
    memory.order.size = large;
}
