//! The typed API generated from memory.yml: typed fields, categorical enums,
//! checked dynamic writes, typed skills, and the typed view agreeing with
//! the dynamic path and the interpreter.

use utter::{Context, SetError, Value};

mod agent {
    utter::include_responses!("fixtures/typed-agent");
}

use agent::{Memory, Response, Size, Skill};

fn interpreter() -> utter_compiler::Registry {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/typed-agent");
    utter_compiler::Registry::load_strict(&dir).expect("the fixture is valid")
}

#[test]
fn fields_have_the_declared_types() {
    let mut memory = Memory::new();
    memory.project.customer_name = Some(String::from("Ada"));
    memory.project.vip = Some(true);
    memory.order.size = Some(Size::ExtraLarge);
    memory.order.count = Some(3_i64);
    memory.order.price = Some(9.5_f64);
    memory.order.toppings = Some(Value::from(vec!["ham"]));
    memory.order.extra = Some(Value::Int(1));
    memory.order.anything = Some(Value::None);
    memory.order.confirmed = Some(false);
    memory.order.r#type = Some("thin".into());
    assert_eq!(memory.clone(), memory);
}

#[test]
fn categorical_entries_are_enums() {
    assert_eq!(Size::all(), [Size::Small, Size::Large, Size::ExtraLarge]);
    assert_eq!(Size::ExtraLarge.as_str(), "extra-large");
    assert_eq!(Size::Large.to_string(), "large");
    assert_eq!("small".parse::<Size>(), Ok(Size::Small));
    let err = "huge".parse::<Size>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "`huge` is not one of: small, large, extra-large"
    );
}

#[test]
fn dynamic_writes_are_checked_against_the_declared_types() {
    let mut memory = Memory::new();
    memory.set("order", "size", "large").unwrap();
    assert_eq!(memory.order.size, Some(Size::Large));
    memory.set("order", "count", 4).unwrap();
    assert_eq!(memory.order.count, Some(4));
    // An int written to a float entry is stored as that float.
    memory.set("order", "price", 7).unwrap();
    assert_eq!(memory.order.price, Some(7.0));
    memory
        .set("order", "toppings", vec!["ham", "olives"])
        .unwrap();
    memory.set("order", "extra", 1.5).unwrap();
    memory.set("order", "type", "thin").unwrap();
    assert_eq!(memory.order.r#type.as_deref(), Some("thin"));

    for (entry, value, declared) in [
        ("size", Value::from("huge"), "categorical"),
        ("count", Value::from("4"), "int"),
        ("count", Value::Float(4.0), "int"),
        ("price", Value::from("cheap"), "float"),
        ("confirmed", Value::Int(1), "bool"),
        ("toppings", Value::from("ham"), "list"),
    ] {
        let before = memory.clone();
        let err = memory.set("order", entry, value).unwrap_err();
        assert!(
            matches!(&err, SetError::WrongType { name, .. } if name == entry),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains(&format!("is declared `{declared}`")),
            "{err}"
        );
        assert_eq!(memory, before, "nothing is stored");
    }
    let err = memory.set("order", "sise", "large").unwrap_err();
    assert_eq!(
        err.to_string(),
        "memory entry `order.sise` is not declared in any memory.yml"
    );
    // None unsets, as does `unset`.
    memory.set("order", "size", Value::None).unwrap();
    assert_eq!(memory.order.size, None);
    memory.unset("order", "count").unwrap();
    assert_eq!(memory.order.count, None);
    assert!(memory.unset("nope", "count").is_err());
}

#[test]
fn skills_are_typed_and_ids_from_data_are_checked() {
    assert!(Skill::ALL.contains(&Skill::Order));
    assert!(
        Skill::ALL.contains(&Skill::DefaultCompleted),
        "bundled skills are typed too"
    );
    assert_eq!(Skill::ALL.len(), agent::SKILLS.len());
    assert_eq!("order".parse::<Skill>(), Ok(Skill::Order));
    let err = "ordr".parse::<Skill>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "the agent has no skill `ordr` (did you mean `order`?)"
    );
    let memory = Memory::new();
    assert!(Context::for_skill_id(&memory, "ordr", agent::SKILLS).is_err());
    let ctx = Context::for_skill_id(&memory, "order", agent::SKILLS).unwrap();
    assert_eq!(ctx.skill(), Some("order"));
    assert_eq!(
        Context::for_skill(&memory, Skill::Order).skill(),
        Some("order")
    );
}

#[test]
fn the_typed_view_reads_private_entries_only_in_their_skill() {
    let mut memory = Memory::new();
    memory.order.confirmed = Some(true);
    memory.order.r#type = Some("thin".into());
    let own = memory.view(Skill::Order);
    assert_eq!(own.render(Response::UtterSize).to_string(), "Private thin.");
    let other = memory.view(Skill::DefaultCompleted);
    assert_eq!(other.render(Response::UtterSize).to_string(), "What size?");
    assert_eq!(
        memory.view(None).deliver(Response::UtterSize).variant,
        Some(4)
    );
    // A name the agent does not have is delivered as itself, fail closed.
    let unknown = own.deliver_name("utter_not_there");
    assert_eq!(
        (unknown.text.as_ref(), unknown.fallback, unknown.rephrase),
        ("utter_not_there", true, false)
    );
    assert_eq!(own.deliver_name("utter_size").text, "Private thin.");
}

/// Every way of delivering agrees: the typed view (rendered and as a
/// `Delivery`), the generated code over `Context`, and the interpreter.
#[test]
fn typed_dynamic_and_interpreted_deliveries_agree() {
    let registry = interpreter();
    let interpreting = registry.interpreter();
    let sizes = [None, Some("small"), Some("large"), Some("extra-large")];
    let counts = [None, Some(0), Some(1), Some(3)];
    let prices = [
        None,
        Some(Value::Float(10.0)),
        Some(Value::Int(11)),
        Some(Value::Float(f64::NAN)),
    ];
    let mut cases = 0;
    let mut explained = 0;
    let mut buffer = String::new();
    for size in sizes {
        for count in counts {
            for price in &prices {
                for flags in 0..4 {
                    let mut memory = Memory::new();
                    let mut slots = utter::SlotMemory::new(&registry.entries);
                    let mut set = |ns: &str, entry: &str, value: Value| {
                        memory.set(ns, entry, value.clone()).unwrap();
                        slots.set(ns, entry, value).unwrap();
                    };
                    if let Some(size) = size {
                        set("order", "size", size.into());
                    }
                    if let Some(count) = count {
                        set("order", "count", count.into());
                    }
                    if let Some(price) = price {
                        set("order", "price", price.clone());
                    }
                    set("order", "confirmed", (flags & 1 == 1).into());
                    set("project", "vip", (flags & 2 == 2).into());
                    set("project", "customer_name", "Ada".into());
                    set("order", "type", "thin".into());
                    for skill in [None, Some(Skill::Order), Some(Skill::DefaultCompleted)] {
                        let view = memory.view(skill);
                        let ctx = match skill {
                            Some(s) => {
                                Context::for_skill_id(&slots, s.id(), &registry.skills).unwrap()
                            }
                            None => Context::new(&slots),
                        };
                        for &response in Response::ALL {
                            let want = interpreting.deliver(response.name(), &ctx);
                            let typed = view.deliver(response);
                            let dynamic = agent::deliver(response, &view.context());
                            let rendered = view.render(response);
                            buffer.clear();
                            rendered.write_to(&mut buffer).unwrap();
                            let what = format!(
                                "{response:?} {size:?} {count:?} {price:?} {flags} {skill:?}"
                            );
                            assert_eq!(typed, want, "{what}");
                            assert_eq!(dynamic, want, "{what}");
                            // By name, as a dialogue manager asks: the same.
                            assert_eq!(view.deliver_name(response.name()), want, "{what}");
                            // Why this variant: the compiled agent's answer is the CLI's.
                            let why = view.explain(response);
                            let cli = interpreting.registry().explain(response.name(), &ctx);
                            assert_eq!(why, cli, "{what}");
                            assert_eq!(why.to_string(), cli.to_string(), "{what}");
                            assert_eq!(agent::explain(response, &view.context()), why, "{what}");
                            assert_eq!(why.delivered, want.variant, "{what}");
                            explained += usize::from(why.condition_won());
                            assert_eq!(buffer, want.text, "{what}");
                            assert_eq!(
                                (
                                    rendered.variant,
                                    rendered.rephrase,
                                    rendered.fallback(),
                                    rendered.wording
                                ),
                                (want.variant, want.rephrase, want.fallback, want.wording),
                                "{what}"
                            );
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cases, 4 * 4 * 4 * 4 * 3 * Response::COUNT);
    assert!(
        explained * 20 > cases,
        "a condition won in {explained} of {cases}"
    );
}

#[test]
fn the_three_float_forms_render_as_python() {
    let mut memory = Memory::new();
    memory.order.count = Some(3);
    memory.order.size = Some(Size::ExtraLarge);
    for (price, text) in [(2.0, "2.0"), (1e16, "1e+16"), (0.1, "0.1")] {
        memory.order.price = Some(price);
        assert_eq!(
            memory
                .view(Skill::Order)
                .render(Response::UtterSize)
                .to_string(),
            format!("3 of size extra-large at {text}.")
        );
    }
}

#[test]
fn bundled_responses_are_told_apart() {
    assert!(Response::UtterHangupGoodbye.is_bundled());
    assert!(!Response::UtterSize.is_bundled());
    let project: Vec<&str> = Response::ALL
        .iter()
        .filter(|r| !r.is_bundled())
        .map(|r| r.name())
        .collect();
    assert!(project.contains(&"utter_size") && !project.contains(&"utter_hangup_goodbye"));
}

/// A context and the typed memory cross threads (a tokio agent shares them).
#[test]
fn contexts_are_send_and_sync() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    let memory = Memory::new();
    send_sync(&memory);
    let view = memory.view(Skill::Order);
    send_sync(&view);
    let dynamic = utter::MapMemory::new();
    let ctx = Context::new(&dynamic);
    send_sync(&ctx);
    std::thread::scope(|s| {
        s.spawn(|| assert!(!agent::deliver(Response::UtterSize, &ctx).text.is_empty()));
    });
}

#[test]
fn typed_memory_reads_a_memory_document() {
    use utter::json::FromJson;
    let memory = Memory::from_json(
        r#"{"order": {"size": "large", "count": 2, "price": 3}, "project": {"vip": true}}"#,
    )
    .expect("a valid document");
    assert_eq!(memory.order.size, Some(Size::Large));
    assert_eq!(memory.order.count, Some(2));
    assert_eq!(
        memory.order.price,
        Some(3.0),
        "an int stored in a float entry"
    );
    assert_eq!(memory.project.vip, Some(true));
    // The CLI's strictness, with the line and column of the entry's key.
    let wrong = Memory::from_json("{\"order\": {\n  \"count\": \"three\"}}").unwrap_err();
    assert_eq!((wrong.line, wrong.column), (2, 3), "{wrong}");
    assert!(wrong.message.contains("declared `int`"), "{wrong}");
    let undeclared = Memory::from_json(r#"{"order": {"cuont": 1}}"#).unwrap_err();
    assert!(undeclared.message.contains("cuont"), "{undeclared}");
    let duplicate = Memory::from_json(r#"{"order": {"count": 1, "count": 2}}"#).unwrap_err();
    assert!(duplicate.message.contains("duplicate"), "{duplicate}");
    assert!(Memory::from_json("{").is_err());
}

/// `Response`, `Skill` and every categorical enum have one surface: `ALL`,
/// `as_str`, `Display` and `FromStr` (with a did-you-mean).
#[test]
fn generated_enums_share_one_surface() {
    fn surface<T>(all: &[T], as_str: fn(&T) -> &'static str)
    where
        T: std::fmt::Display + std::str::FromStr + PartialEq + std::fmt::Debug,
        T::Err: std::fmt::Display,
    {
        assert!(!all.is_empty());
        for value in all {
            assert_eq!(value.to_string(), as_str(value));
            assert_eq!(as_str(value).parse::<T>().ok().as_ref(), Some(value));
        }
    }
    surface(Response::ALL, |r| r.as_str());
    surface(Skill::ALL, |s| s.as_str());
    surface(Size::ALL, |s| s.as_str());
    let err = "utter_sizee".parse::<Response>().unwrap_err();
    assert!(
        err.to_string().contains("no response `utter_sizee`"),
        "{err}"
    );
    let err = "ordr".parse::<Skill>().unwrap_err();
    assert_eq!(err.did_you_mean.as_deref(), Some("order"));
}

/// Responses whose conditions differ only in the entries they read and in
/// their literals share one selection `fn`; each still reads its own
/// entries and compares with its own literals.
#[test]
fn responses_of_one_shape_keep_their_own_entries_and_literals() {
    let mut memory = Memory::new();
    memory.set("order", "type", "thin").unwrap();
    memory.set("order", "count", 1).unwrap();
    let view = memory.view(Some(Skill::Order));
    // `count > 1` does not hold for 1 (the other response's `> 0` would).
    assert_eq!(
        view.deliver(Response::UtterThinAndSeveral).text,
        "Not thin, or few."
    );
    assert_eq!(
        view.deliver(Response::UtterThickAndAny).text,
        "Not thick, or none."
    );
    memory.set("order", "count", 2).unwrap();
    memory.set("order", "anything", "thick").unwrap();
    let view = memory.view(Some(Skill::Order));
    assert_eq!(
        view.deliver(Response::UtterThinAndSeveral).text,
        "Thin, several."
    );
    // The same shape over `anything` instead of `type`.
    assert_eq!(
        view.deliver(Response::UtterAnythingThinAndSeveral).text,
        "Anything else."
    );
    memory.set("order", "anything", "thin").unwrap();
    let view = memory.view(Some(Skill::Order));
    assert_eq!(
        view.deliver(Response::UtterAnythingThinAndSeveral).text,
        "Anything thin, several."
    );
    assert_eq!(
        agent::deliver(Response::UtterAnythingThinAndSeveral, &view.context()).text,
        "Anything thin, several."
    );
    memory.set("order", "type", "thick").unwrap();
    let view = memory.view(Some(Skill::Order));
    assert_eq!(
        view.deliver(Response::UtterThinAndSeveral).text,
        "Not thin, or few."
    );
    assert_eq!(view.deliver(Response::UtterThickAndAny).text, "Thick, any.");
    assert_eq!(
        agent::deliver(Response::UtterThickAndAny, &view.context()).text,
        "Thick, any."
    );
}

/// `Debug` of the generated memory never shows a `pii: true` value (what
/// gets logged with `{:?}` when an agent fails), and shows the others.
#[test]
fn debug_of_the_memory_hides_personal_values() {
    let mut memory = agent::Memory::new();
    memory.project.customer_name = Some(String::from("Ada"));
    memory.project.customer_email = Some(String::from("ada@example.com"));
    let shown = format!("{memory:?}");
    assert!(!shown.contains("ada@example.com"), "{shown}");
    assert!(
        shown.contains("customer_email: Some(<personal, hidden>)"),
        "{shown}"
    );
    assert!(shown.contains("customer_name: Some(\"Ada\")"), "{shown}");
    memory.project.customer_email = None;
    assert!(format!("{memory:?}").contains("customer_email: None"));
}
