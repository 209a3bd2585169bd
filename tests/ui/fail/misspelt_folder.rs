// A misspelt agent folder gets a did-you-mean; a folder that holds no
// agent files is refused, not compiled into an agent of bundled responses.
mod responses {
    utter::include_responses!("ui-fixtures/vaild");
}

mod not_an_agent {
    utter::include_responses!("ui-fixtures");
}

fn main() {}
