//! The playground's requests, natively: what the page is told is what the
//! CLI says of the same files.

use serde_json::{Value as Json, json};
use utter_playground::respond;

fn ask(request: Json) -> Json {
    serde_json::from_str(&respond(&request.to_string())).expect("every answer is JSON")
}

fn agent() -> Json {
    json!({
        "memory.yml": "customer_name:\n  type: text\n",
        "responses.yml": "responses:\n  utter_greet:\n    - text: Hello {customer_name}!\n      condition: session.project.customer_name != None\n    - text: Hello!\n",
        "skills/pay/skill.md": "---\ndescription: Pay a bill\n---\n\nTake the payment.\n",
        "skills/pay/memory.yml": "schema:\n  private:\n    amount:\n      type: float\n",
        "skills/pay/responses.yml": "responses:\n  utter_amount:\n    - text: You owe {amount}.\n      condition: session.pay.amount > 0\n      metadata:\n        rephrase: true\n    - text: Nothing to pay.\n",
    })
}

#[test]
fn a_clean_agent_has_no_findings_and_lists_its_responses_and_skills() {
    let answer = ask(json!({"op": "check", "files": agent()}));
    assert_eq!(answer["findings"], json!([]), "{answer}");
    // The agent's skill, and the bundled default skills beside it.
    let skills = answer["skills"].as_array().unwrap();
    assert!(skills.contains(&json!("pay")) && skills.contains(&json!("default_completed")));
    assert_eq!(answer["dialect"], "mantle");
    assert_eq!(answer["usable_only"], false);
    let own: Vec<&str> = answer["responses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["bundled"] == false)
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(own, ["utter_amount", "utter_greet"]);
}

#[test]
fn a_finding_is_where_the_cli_puts_it() {
    let mut files = agent();
    files["skills/pay/responses.yml"] = json!(
        "responses:\n  utter_amount:\n    - text: You owe {amount}.\n      condition: session.pay.amont > 0\n    - text: Nothing.\n"
    );
    let answer = ask(json!({"op": "check", "files": files}));
    let findings = answer["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{answer}");
    let f = &findings[0];
    assert_eq!(f["file"], "skills/pay/responses.yml");
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(4), Some(18))
    );
    assert_eq!(f["severity"], "error");
    assert_eq!(f["response"], "utter_amount");
    assert!(
        f["help"].as_str().unwrap().contains("session.pay.amount"),
        "{f}"
    );
    assert!(
        f["rendered"]
            .as_str()
            .unwrap()
            .contains("--> skills/pay/responses.yml:4:18"),
        "{f}"
    );
    assert_eq!(answer["usable_only"], true);
    // The response with the error is not offered for rendering.
    assert!(
        answer["responses"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["name"] != "utter_amount")
    );
}

#[test]
fn render_delivers_explains_and_analyses() {
    let answer = ask(json!({
        "op": "render", "files": agent(), "response": "utter_amount", "skill": "pay",
        "memory": "{\"pay\": {\"amount\": 7.5}}",
    }));
    assert_eq!(answer["delivery"]["text"], "You owe 7.5.", "{answer}");
    assert_eq!(answer["delivery"]["variant"], 0);
    assert_eq!(answer["delivery"]["rephrase"], true);
    assert!(
        answer["why"].as_str().unwrap().contains("variant 0"),
        "{answer}"
    );
    let variants = answer["analysis"]["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    assert_eq!(variants[0]["verdict"], "reachable");
    assert!(
        variants[0]["verdict_in_words"]
            .as_str()
            .unwrap()
            .starts_with("delivered when:")
    );
    // The one shape of a variant, as `utter explain --format json` has it.
    assert_eq!(variants[0]["selection"], "if");
    assert_eq!(variants[1]["selection"], "default");
    assert!(
        variants[0]["example"]
            .as_str()
            .unwrap()
            .starts_with("You owe ")
    );
    assert_eq!(variants[0]["wording_id"], answer["delivery"]["wording_id"]);
    // Without the skill active its private entry is unreadable.
    let outside = ask(json!({
        "op": "render", "files": agent(), "response": "utter_amount",
        "memory": "{\"pay\": {\"amount\": 7.5}}",
    }));
    assert_eq!(outside["delivery"]["text"], "Nothing to pay.");
}

#[test]
fn memory_errors_and_undeclared_entries_have_a_place() {
    let wrong = ask(json!({
        "op": "render", "files": agent(), "response": "utter_greet",
        "memory": "{\"project\": {\"customer_name\": 3}}",
    }));
    assert_eq!(wrong["memory_error"]["line"], 1, "{wrong}");
    assert_eq!(wrong["memory_error"]["column"], 14);
    assert!(wrong.get("delivery").is_none());
    let broken = ask(json!({
        "op": "render", "files": agent(), "response": "utter_greet", "memory": "{\"project\": ",
    }));
    assert!(broken["memory_error"]["message"].is_string(), "{broken}");
    let undeclared = ask(json!({
        "op": "render", "files": agent(), "response": "utter_greet",
        "memory": "{\"project\": {\"customer_nme\": \"Ada\"}}",
    }));
    let warning = &undeclared["memory_warnings"][0];
    assert_eq!(
        (warning["line"].as_u64(), warning["column"].as_u64()),
        (Some(1), Some(14))
    );
    assert!(
        warning["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `project.customer_name`"),
        "{warning}"
    );
    assert_eq!(undeclared["delivery"]["text"], "Hello!");
}

#[test]
fn the_report_is_the_cli_s_page_and_escapes_the_agent() {
    let mut files = agent();
    files["responses.yml"] =
        json!("responses:\n  utter_greet:\n    - text: \"<script>alert(1)</script>\"\n");
    let answer = ask(json!({"op": "report", "files": files}));
    let html = answer["html"].as_str().unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"),
        "{html}"
    );
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn files_that_are_not_agent_files_are_named_and_not_read() {
    let mut files = agent();
    files["domain.yml"] = json!("responses: [");
    files["skills/_draft/responses.yml"] = json!("responses: [");
    let answer = ask(json!({"op": "check", "files": files}));
    assert_eq!(answer["findings"], json!([]));
    assert_eq!(
        answer["ignored_files"],
        json!(["domain.yml", "skills/_draft/responses.yml"])
    );
}

#[test]
fn the_dialect_is_the_request_s_else_the_agent_s() {
    let mut files = agent();
    files["utter.yml"] = json!("dialect: maestro\n");
    assert_eq!(
        ask(json!({"op": "check", "files": files}))["dialect"],
        "maestro"
    );
    let told = ask(json!({"op": "check", "files": files, "dialect": "mantle"}));
    assert_eq!(told["dialect"], "mantle");
    let unknown = ask(json!({"op": "check", "files": files, "dialect": "klingon"}));
    assert!(
        unknown["error"]
            .as_str()
            .unwrap()
            .contains("mantle or maestro")
    );
}

#[test]
fn a_bad_request_is_an_error_never_a_panic() {
    for request in [
        "",
        "[]",
        "{\"op\": \"check\"}",
        "{\"op\": \"check\", \"files\": {\"responses.yml\": 3}}",
        "{\"op\": \"fly\", \"files\": {}}",
        "{\"op\": \"render\", \"files\": {}}",
        "{\"op\": \"render\", \"files\": {}, \"response\": \"utter_x\", \"skill\": \"nope\"}",
    ] {
        let answer: Json = serde_json::from_str(&respond(request)).unwrap();
        assert!(answer["error"].is_string(), "{request}: {answer}");
    }
    // A response the agent does not define is delivered as its name, as
    // the engine does.
    let unknown = ask(json!({"op": "render", "files": agent(), "response": "utter_nope"}));
    assert_eq!(unknown["delivery"]["text"], "utter_nope");
    assert_eq!(unknown["delivery"]["fallback"], true);
}
