//! The delivery context of `render` and `deliver-batch`: the channel and
//! the conversation's language, against the language the agent is written
//! in (agent.yml's `agent.language`, else English).

use utter::{Channel, Language, RephraseContext};
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::load::agent_yml::{DEFAULT_LANGUAGE, is_language_tag};

/// The context for `channel` in `language` (default: the agent's), or
/// `None` for text in the agent's own language (the text as reviewed);
/// an error naming a tag that is not a BCP 47 language tag.
pub fn delivery_context(
    declared: Option<String>,
    channel: Channel,
    language: Option<&str>,
) -> Result<Option<RephraseContext>, String> {
    let reviewed = Language::new(declared.unwrap_or_else(|| DEFAULT_LANGUAGE.to_owned()));
    let language = match language {
        Some(tag) if is_language_tag(tag) => Language::new(tag.to_owned()),
        Some(tag) => {
            return Err(format!(
                "`{}` is not a BCP 47 language tag such as `en` or `de-CH`",
                escape(tag)
            ));
        }
        None => reviewed.clone(),
    };
    if channel == Channel::Text && language.primary() == reviewed.primary() {
        return Ok(None);
    }
    let mut context = RephraseContext::text(language).reviewed_in(reviewed);
    context.channel = channel;
    Ok(Some(context))
}

/// `delivery`'s text in the context's form: its facts written as utter
/// writes them back into a rephrase (never the fallback name's).
pub fn in_context(delivery: &mut utter::Delivery<'_>, context: Option<&RephraseContext>) {
    if let Some(context) = context
        && !delivery.fallback
    {
        let written = delivery.rephrase_request(context).written_text();
        delivery.text = written.into();
    }
}
