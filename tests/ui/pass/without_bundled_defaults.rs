// `without_bundled_defaults`: only the project's own responses and skills.
mod responses {
    utter::include_responses!("ui-fixtures/typed", without_bundled_defaults);
}

fn main() {
    assert!(responses::Response::from_name("utter_hangup_goodbye").is_none());
    assert!(responses::Response::ALL.iter().all(|r| !r.is_bundled()));
    assert!(!responses::Response::ALL.is_empty());
    assert!(!responses::SKILLS.contains(&"default_completed"));
}
