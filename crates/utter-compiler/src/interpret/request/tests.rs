use super::*;
use crate::lower::Registry;

/// `utter_r`: "many {x}" when `x > 1`, else "few {t}"; a skill `billing`.
fn registry() -> Registry {
    let files = crate::ProjectFiles::from_files([
        (
            "memory.yml".to_owned(),
            b"x:\n  type: int\nt:\n  type: text\n".to_vec(),
        ),
        (
            "responses.yml".to_owned(),
            br#"responses:
  utter_r:
    - text: "many {session.project.x}"
      condition: "session.project.x > 1"
    - text: "few {session.project.t}"
"#
            .to_vec(),
        ),
        (
            "skills/billing/responses.yml".to_owned(),
            b"responses:\n  utter_billing:\n    - text: paid\n".to_vec(),
        ),
        (
            "skills/billing/skill.md".to_owned(),
            b"---\ndescription: Billing\n---\nPays.\n".to_vec(),
        ),
    ]);
    crate::lower(&crate::check(&files)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn request(memory: &str, refused_values: RefusedValues) -> Request<'_> {
    Request {
        response: "utter_r",
        skill: None,
        memory,
        refused_values,
        explain: false,
    }
}

const DOCUMENT: &str = r#"{"project": {"x": "three", "t": "tea", "nope": 1}}"#;

#[test]
fn a_refused_value_stops_the_request_at_its_key_or_is_listed() {
    let registry = registry();
    let interpreter = registry.interpreter();
    let Err(RequestError::Memory(at)) = interpreter.answer(&request(DOCUMENT, RefusedValues::Stop))
    else {
        panic!("a value `x` does not take stops the request");
    };
    assert_eq!((at.line, at.column), (1, 14), "{at}");

    // Collected: the value is left out, the rest is read and delivered.
    let answer = interpreter
        .answer(&request(DOCUMENT, RefusedValues::Collect))
        .expect("answered");
    assert_eq!(answer.delivery.text, "few tea");
    assert_eq!(answer.not_stored.refused.len(), 1);
    assert_eq!(answer.not_stored.refused[0].column, 14);
    let undeclared: Vec<_> = answer
        .not_stored
        .undeclared
        .iter()
        .map(|a| a.entry.as_str())
        .collect();
    assert_eq!(undeclared, ["nope"]);
}

#[test]
fn the_memory_is_read_the_skill_s_view_made_and_the_delivery_explained() {
    let registry = registry();
    let interpreter = registry.interpreter();
    let answer = interpreter
        .answer(&Request {
            explain: true,
            ..request(r#"{"project": {"x": 3}}"#, RefusedValues::Stop)
        })
        .expect("answered");
    assert_eq!(
        (answer.delivery.text.as_ref(), answer.delivery.variant),
        ("many 3", Some(0))
    );
    let explanation = answer.explanation.expect("asked").to_string();
    assert!(
        explanation.contains("session.project.x > 1"),
        "{explanation}"
    );

    // Blank: nothing is set; not asked: no explanation.
    let answer = interpreter
        .answer(&request(" \n", RefusedValues::Stop))
        .expect("answered");
    assert_eq!(answer.delivery.text, "few {session.project.t}");
    assert!(answer.explanation.is_none());

    let in_billing = Request {
        response: "utter_billing",
        skill: Some("billing"),
        ..request("", RefusedValues::Stop)
    };
    assert_eq!(
        interpreter
            .answer(&in_billing)
            .expect("answered")
            .delivery
            .text,
        "paid"
    );
    let unknown = Request {
        skill: Some("biling"),
        ..in_billing
    };
    let Err(RequestError::Skill(error)) = interpreter.answer(&unknown) else {
        panic!("an unknown skill is an error");
    };
    assert_eq!(error.did_you_mean.as_deref(), Some("billing"));
}
