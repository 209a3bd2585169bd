//! The anchor: the Rust an expert writes by hand for the `typed` bench
//! agent, with the same semantics (conditions in order, an ordering that
//! is a `TypeError` skips its variant, unset entries left as written,
//! Python's `str()` of a float). A typed struct, a `fn` per response with
//! `if`/`match`, `push_str` into the caller's buffer.

use std::borrow::Cow;

use utter::{Value, ValueRef};

/// The categorical `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Lost,
    Stolen,
    Damaged,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Lost => "lost",
            Reason::Stolen => "stolen",
            Reason::Damaged => "damaged",
        }
    }
}

/// The bench skill's memory, typed.
#[derive(Clone, Debug, Default)]
pub struct HandMemory {
    pub reason: Option<Reason>,
    pub card: Option<String>,
    pub count: Option<i64>,
    pub note: Option<Value>,
    pub fee: Option<f64>,
}

impl HandMemory {
    /// What the other paths deliver from.
    pub fn bench() -> Self {
        HandMemory {
            reason: Some(Reason::Lost),
            card: Some("Visa ending 4242".into()),
            count: Some(3),
            note: Some(Value::Str("x".into())),
            fee: Some(2.5),
        }
    }
}

/// The responses of the bench agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandResponse {
    Literal,
    FirstTrue,
    LastTrue,
    DefaultAfter10,
    ErrorSkipped,
    ThreePlaceholders,
}

impl HandResponse {
    /// The response called `name`, by hand: a `match` on its names.
    #[inline]
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "utter_literal" => HandResponse::Literal,
            "utter_first_true" => HandResponse::FirstTrue,
            "utter_last_true" => HandResponse::LastTrue,
            "utter_default_after_10" => HandResponse::DefaultAfter10,
            "utter_error_skipped" => HandResponse::ErrorSkipped,
            "utter_three_placeholders" => HandResponse::ThreePlaceholders,
            _ => return None,
        })
    }

    /// The response of a bench case (`None`: the missing name).
    pub fn of_case(case: &str) -> Option<Self> {
        Some(match case {
            "literal" => HandResponse::Literal,
            "first_true" => HandResponse::FirstTrue,
            "last_true" => HandResponse::LastTrue,
            "default_after_10" => HandResponse::DefaultAfter10,
            "error_skipped" => HandResponse::ErrorSkipped,
            "three_placeholders" => HandResponse::ThreePlaceholders,
            _ => return None,
        })
    }
}

/// A delivery: the text (borrowed when literal), the variant, the flag.
pub struct HandDelivery {
    pub text: Cow<'static, str>,
    pub variant: usize,
    pub rephrase: bool,
}

/// `note < 5` with Python's semantics: an error (the variant is skipped)
/// unless `note` holds a number.
fn note_below_5(note: &Option<Value>) -> bool {
    match note {
        Some(Value::Int(i)) => *i < 5,
        Some(Value::Float(f)) => *f < 5.0,
        Some(Value::Bool(b)) => i64::from(*b) < 5,
        _ => false,
    }
}

/// The selected text and variant of a response without placeholders
/// (`None`: the one with placeholders).
#[inline]
fn selected(m: &HandMemory, response: HandResponse) -> Option<(&'static str, usize)> {
    Some(match response {
        HandResponse::Literal => ("Thanks for calling. Goodbye!", 0),
        HandResponse::FirstTrue => match (m.reason, m.count) {
            (Some(Reason::Lost), _) => ("First condition holds.", 0),
            (Some(Reason::Stolen), _) => ("Second.", 1),
            (_, Some(c)) if c > 100 => ("Third.", 2),
            _ => ("Default.", 3),
        },
        HandResponse::LastTrue => match (m.reason, m.count) {
            (Some(Reason::Stolen), _) => ("One.", 0),
            (Some(Reason::Damaged), _) => ("Two.", 1),
            (_, Some(c)) if c > 100 => ("Three.", 2),
            (Some(Reason::Lost), Some(3)) => ("Last condition holds.", 3),
            _ => ("Default.", 4),
        },
        HandResponse::DefaultAfter10 => match m.count {
            Some(c @ 10..=19) => (
                ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"][(c - 10) as usize],
                (c - 10) as usize,
            ),
            _ => ("Default after ten false conditions.", 10),
        },
        HandResponse::ErrorSkipped => {
            if note_below_5(&m.note) {
                ("Skipped, the comparison is an error.", 0)
            } else if m.reason == Some(Reason::Lost) {
                ("The next condition holds.", 1)
            } else {
                ("Default.", 2)
            }
        }
        HandResponse::ThreePlaceholders => return None,
    })
}

/// Selects and delivers `response`.
#[inline]
pub fn deliver(m: &HandMemory, response: HandResponse) -> HandDelivery {
    match selected(m, response) {
        Some((text, variant)) => HandDelivery {
            text: Cow::Borrowed(text),
            variant,
            rephrase: false,
        },
        None => {
            let mut text = String::with_capacity(64);
            write_three_placeholders(m, &mut text);
            HandDelivery {
                text: Cow::Owned(text),
                variant: 0,
                rephrase: false,
            }
        }
    }
}

/// Delivers the response called `name` (the name itself when the agent has
/// none such), by hand: one `match` on all 22 names of the agent, the
/// bundled ones too (the bench memory sets none of their entries), as the
/// generated lookup has them.
pub fn deliver_name(m: &HandMemory, name: &'static str) -> HandDelivery {
    let literal = |text: &'static str| HandDelivery {
        text: Cow::Borrowed(text),
        variant: 0,
        rephrase: false,
    };
    match name {
        "utter_literal" => deliver(m, HandResponse::Literal),
        "utter_first_true" => deliver(m, HandResponse::FirstTrue),
        "utter_last_true" => deliver(m, HandResponse::LastTrue),
        "utter_default_after_10" => deliver(m, HandResponse::DefaultAfter10),
        "utter_error_skipped" => deliver(m, HandResponse::ErrorSkipped),
        "utter_three_placeholders" => deliver(m, HandResponse::ThreePlaceholders),
        "utter_ask_csat_score" => {
            literal("How satisfied are you with the help you got today,\non a scale from 1 to 5?\n")
        }
        "utter_ask_wants_to_continue" => literal("Can I help you with anything else?"),
        "utter_ask_wants_to_resume" => literal(
            "We were in the middle of your previous request.\nShall we pick up where we left off, or leave it for now?\n",
        ),
        "utter_decline_in_domain_out_of_scope" => {
            literal("Sorry, that is not something I can do for you here.")
        }
        "utter_decline_out_of_domain_out_of_scope" => {
            literal("Sorry, I can only help with requests about this service.")
        }
        "utter_hangup_goodbye" => literal("Thank you for calling. Goodbye."),
        "utter_incoming_message_rejected" => {
            literal("Sorry, I can't handle that message. Please try again.")
        }
        "utter_inform_hangup" => {
            literal("I have not heard from you for a while, so I will end the call now. Goodbye.")
        }
        "utter_model_call_error"
        | "utter_model_request_hook_error"
        | "utter_tool_call_hook_error" => literal("Sorry, something went wrong. Please try again."),
        "utter_outgoing_text_rejected" => {
            literal("Sorry, I can't give you that answer. Please try again.")
        }
        "utter_precondition_unmet" => literal("Sorry, I couldn't continue with that request."),
        "utter_set_memory_button_skipped" => literal(
            "That option is no longer available. Please pick one of the current options or type your message.",
        ),
        "utter_silence_timeout_check_in" => {
            literal("Are you still there? Take your time, I am here when you are ready.")
        }
        "utter_thank_you_for_feedback" => literal("Thanks for the feedback, and have a good day."),
        _ => literal(name),
    }
}

/// "Card {card}, reason {reason}, fee {fee}." into `out`.
pub fn write_three_placeholders(m: &HandMemory, out: &mut String) {
    out.push_str("Card ");
    out.push_str(m.card.as_deref().unwrap_or("{session.bench.card}"));
    out.push_str(", reason ");
    out.push_str(m.reason.map_or("{session.bench.reason}", Reason::as_str));
    out.push_str(", fee ");
    match m.fee {
        // Python's `str()` of a float: the one formatter utter has too.
        Some(fee) => {
            let _ = utter::write_py_str(out, ValueRef::Float(fee));
        }
        None => out.push_str("{fee}"),
    }
    out.push('.');
}

/// [`render`] into any `fmt::Write`, piece by piece.
#[inline]
pub fn write<W: std::fmt::Write>(
    m: &HandMemory,
    response: HandResponse,
    out: &mut W,
) -> std::fmt::Result {
    match selected(m, response) {
        Some((text, _)) => out.write_str(text),
        None => {
            out.write_str("Card ")?;
            out.write_str(m.card.as_deref().unwrap_or("{session.bench.card}"))?;
            out.write_str(", reason ")?;
            out.write_str(m.reason.map_or("{session.bench.reason}", Reason::as_str))?;
            out.write_str(", fee ")?;
            match m.fee {
                Some(fee) => utter::write_py_str(out, ValueRef::Float(fee)),
                None => out.write_str("{fee}"),
            }?;
            out.write_str(".")
        }
    }
}

/// [`deliver`] into the caller's buffer (what `render` is to `deliver`).
#[inline]
pub fn render(m: &HandMemory, response: HandResponse, out: &mut String) {
    match selected(m, response) {
        Some((text, _)) => out.push_str(text),
        None => write_three_placeholders(m, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CASES, typed_memory, typed_response};

    /// The anchor delivers exactly what the generated code does, case by case.
    #[test]
    fn the_hand_written_anchor_delivers_what_utter_delivers() {
        let memory = typed_memory();
        let view = memory.view(crate::generated::typed::Skill::Bench);
        let hand = HandMemory::bench();
        for (case, _) in CASES {
            let (Some(response), Some(ours)) = (HandResponse::of_case(case), typed_response(case))
            else {
                continue;
            };
            let theirs = view.deliver(ours);
            let mine = deliver(&hand, response);
            assert_eq!(mine.text, theirs.text, "{case}");
            assert_eq!(Some(mine.variant), theirs.variant, "{case}");
            assert_eq!(mine.rephrase, theirs.rephrase, "{case}");
            let mut rendered = String::new();
            render(&hand, response, &mut rendered);
            assert_eq!(rendered, theirs.text, "{case}");
            let mut written = String::new();
            write(&hand, response, &mut written).unwrap();
            assert_eq!(written, theirs.text, "{case}");
            assert_eq!(
                HandResponse::from_name(ours.name()),
                Some(response),
                "{case}"
            );
        }
        // Every name the agent has, bundled ones too, delivers the same.
        for ours in crate::generated::typed::Response::ALL {
            assert_eq!(
                deliver_name(&hand, ours.name()).text,
                view.deliver(*ours).text,
                "{}",
                ours.name()
            );
        }
        assert_eq!(deliver_name(&hand, "utter_missing").text, "utter_missing");
    }
}
