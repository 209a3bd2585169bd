//! The guard against adversarial rephrasers: dropping a value, changing a
//! digit, swapping two numbers and adding a number are refused; reordering
//! words around the facts and changing only case and punctuation pass.

use super::*;
use proptest::prelude::*;

#[test]
fn numbers_are_compared_in_a_normal_form() {
    assert_eq!(
        numbers("A fee of $1,000.50 or 7.5$, card 0042."),
        ["1000.5", "7.5", "42"]
    );
    assert_eq!(numbers("2026-12-05"), ["2026", "12", "5"]);
    assert_eq!(numbers("7,5 and 1,5000"), ["7.5", "1.5"]);
    assert_eq!(numbers("no digits"), Vec::<String>::new());
}

#[test]
fn the_issue_examples() {
    let reviewed = "A fee of $7.5 applies for lost-card replacement";
    assert_eq!(
        check(
            reviewed,
            &[],
            "There is a $7.50 fee for replacing a lost card."
        ),
        Ok(())
    );
    assert_eq!(
        check(reviewed, &[], "No fee applies"),
        Err(FactRefusal::Lost("7.5".into()))
    );
    let reviewed = "Your card ending 4242 ships via rush delivery";
    let filled = ["4242".to_owned(), "rush".to_owned()];
    assert_eq!(
        check(
            reviewed,
            &filled,
            "Rush delivery: your card ending 4242 ships!"
        ),
        Ok(())
    );
    assert_eq!(
        check(reviewed, &filled, "Your card ending 4224 ships via rush"),
        Err(FactRefusal::Lost("4242".into()))
    );
    assert_eq!(
        check(reviewed, &filled, "Your card ending 4242 ships soon"),
        Err(FactRefusal::Lost("rush".into()))
    );
    assert_eq!(
        check("Pay 5 now and 7 later", &[], "Pay 7 now and 5 later"),
        Err(FactRefusal::Reordered("5".into(), "7".into()))
    );
    assert_eq!(
        check("Pay 5 now", &[], "Pay 5 now, or 6 tomorrow"),
        Err(FactRefusal::Added("6".into()))
    );
}

/// A reviewed text: words, numbers and filled values (from vocabularies
/// that do not meet), the values listed.
fn reviewed() -> impl Strategy<Value = (Vec<String>, Vec<String>)> {
    let word = prop::sample::select(vec![
        "the", "fee", "card", "ships", "in", "days", "your", "is",
    ]);
    let value = prop::sample::select(vec!["Visa", "rush delivery", "Ada", "lost", "gold card"]);
    let number = prop_oneof![
        (0u32..10_000).prop_map(|n| n.to_string()),
        (0u32..1000, 1u32..100).prop_map(|(a, b)| format!("{a}.{b}")),
        (1u32..100, 0u32..1000).prop_map(|(a, b)| format!("{a},{b:03}")),
        (1u32..1000).prop_map(|n| format!("${n}")),
    ];
    let token = prop_oneof![
        3 => word.prop_map(|w| (w.to_owned(), None)),
        1 => value.prop_map(|v| (v.to_owned(), Some(v.to_owned()))),
        1 => number.clone().prop_map(|n| (n.clone(), Some(n))),
        1 => number.prop_map(|n| (n, None)),
    ];
    prop::collection::vec(token, 1..12).prop_map(|tokens| {
        let words: Vec<String> = tokens.iter().map(|(t, _)| t.clone()).collect();
        let filled: Vec<String> = tokens.into_iter().filter_map(|(_, f)| f).collect();
        (words, filled)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn adversaries_are_refused_and_harmless_edits_pass(
        (words, filled) in reviewed(),
        pick in any::<prop::sample::Index>(),
    ) {
        let text = words.join(" ");
        prop_assert_eq!(check(&text, &filled, &text), Ok(()));

        // Drop a value.
        let values: Vec<&String> = filled.iter().filter(|f| !f.is_empty()).collect();
        if !values.is_empty() {
            let dropped = values[pick.index(values.len())];
            let kept: Vec<&str> = words.iter().filter(|w| *w != dropped).map(String::as_str).collect();
            prop_assert!(check(&text, &filled, &kept.join(" ")).is_err(), "dropped {dropped}");
        }

        let found = numbers(&text);
        // Change a digit.
        let digits: Vec<usize> = text.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
        if !digits.is_empty() {
            let at = digits[pick.index(digits.len())];
            let mut changed = text.clone().into_bytes();
            changed[at] = b'0' + (changed[at] - b'0' + 1) % 10;
            let changed = String::from_utf8(changed).unwrap();
            if numbers(&changed) != found {
                prop_assert!(check(&text, &filled, &changed).is_err(), "{changed}");
            }
        }

        // Swap two different numbers.
        let positions: Vec<usize> = (0..words.len()).filter(|&i| !numbers(&words[i]).is_empty()).collect();
        if let Some((&a, &b)) = positions.iter().zip(positions.iter().skip(1)).find(|(a, b)| numbers(&words[**a]) != numbers(&words[**b])) {
            let mut swapped = words.clone();
            swapped.swap(a, b);
            prop_assert!(check(&text, &filled, &swapped.join(" ")).is_err(), "swapped");
        }

        // Add a number.
        prop_assert_eq!(
            check(&text, &filled, &format!("{text}, or 987654")),
            Err(FactRefusal::Added("987654".into()))
        );

        // Reorder words, the facts keeping their order: a plain word moves
        // to the end.
        if let Some(plain) = words.iter().position(|w| !filled.contains(w) && numbers(w).is_empty()) {
            let mut moved = words.clone();
            let word = moved.remove(plain);
            moved.push(word);
            prop_assert_eq!(check(&text, &filled, &moved.join(" ")), Ok(()));
        }

        // Case and punctuation only.
        let shouted = format!("{}!", words.join(", ").to_uppercase());
        prop_assert_eq!(check(&text, &filled, &shouted), Ok(()));
    }
}
