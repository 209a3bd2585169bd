mod responses {
    utter::include_responses!(agent);
}

fn main() {}
