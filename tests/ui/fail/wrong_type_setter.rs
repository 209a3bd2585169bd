mod responses {
    utter::include_responses!("ui-fixtures/typed");
}

fn main() {
    let mut memory = responses::Memory::new();
    // `count` is declared `int`; `size` is categorical.
    memory.order.count = Some("three");
    memory.order.size = Some("large");
}
