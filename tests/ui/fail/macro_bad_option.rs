mod responses {
    utter::include_responses!("ui-fixtures/warning_placeholder", deny_warning);
}

fn main() {}
