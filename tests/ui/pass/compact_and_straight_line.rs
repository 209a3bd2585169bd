//! `compact` and `straight_line` force either form of generated code; both
//! deliver the same, through `Context`, the typed view and `render`.
#![deny(warnings)]

mod compact {
    utter::include_responses!("ui-fixtures/valid", compact);
}

mod straight {
    utter::include_responses!("ui-fixtures/valid", straight_line);
}

fn main() {
    for visits in [0, 2, 101] {
        let mut a = compact::memory();
        a.set("project", "name", "Ada").unwrap();
        a.set("project", "visits", visits).unwrap();
        let mut b = straight::memory();
        b.set("project", "name", "Ada").unwrap();
        b.set("project", "visits", visits).unwrap();
        let from_compact = compact::deliver(compact::Response::UtterGreet, &utter::Context::new(&a));
        let from_straight =
            straight::deliver(straight::Response::UtterGreet, &utter::Context::new(&b));
        assert_eq!(from_compact, from_straight);
        let view = a.view(None);
        assert_eq!(view.deliver(compact::Response::UtterGreet), from_straight);
        assert_eq!(
            view.render(compact::Response::UtterGreet).to_string(),
            from_straight.text
        );
    }
}
