mod responses {
    utter::include_responses!("ui-fixtures/missing_on_success");
}

fn main() {
    let skill = responses::Skill::Orders.responses();
    let _ = skill.tool("place_order");
}
