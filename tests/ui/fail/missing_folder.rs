mod responses {
    utter::include_responses!("ui-fixtures/no-such-agent");
}

fn main() {}
