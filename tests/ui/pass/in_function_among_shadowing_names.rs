//! The expansion depends on nothing in the caller's scope: it compiles in a
//! function body, next to items named like the ones it uses internally.
#![deny(warnings)]

#[allow(dead_code)]
struct Some;
#[allow(dead_code)]
struct Entry;
#[allow(dead_code)]
fn compare() {}
#[allow(dead_code)]
mod __utter_runtime {}

fn main() {
    utter::include_responses!("ui-fixtures/valid");

    let mut memory = memory();
    memory.set("project", "name", "Ada").unwrap();
    memory.set("project", "visits", 3).unwrap();
    let delivery = deliver(Response::UtterGreet, &utter::Context::new(&memory));
    assert_eq!(delivery.text, "Welcome back, Ada!");
    assert!(ENTRIES.iter().any(|e| e.namespace == "project" && e.name == "visits"));
    memory.set("project", "visits", 101).unwrap();
    let delivery = deliver_name("utter_greet", &utter::Context::new(&memory));
    assert_eq!(delivery.text, "Welcome!");
}
