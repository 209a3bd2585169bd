//! A variant as data (feature `serde`): the one shape of a variant in
//! `utter explain --format json`, `utter diff --format json` and the
//! playground's analysis, each adding its own fields (`explain` the
//! witness as a memory document). Its keys are documented with the JSON
//! schemas in docs/schemas.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::VariantView;

impl Serialize for VariantView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let selection = self.selection();
        let mut v = s.serialize_struct("Variant", 14)?;
        v.serialize_field("index", &self.index)?;
        v.serialize_field("wording_id", &self.wording.to_string())?;
        v.serialize_field("selection", selection.word())?;
        v.serialize_field("condition", &selection.condition())?;
        v.serialize_field("condition_words", &self.condition_words())?;
        v.serialize_field("default", &self.default)?;
        v.serialize_field("rephrase", &self.rephrase)?;
        v.serialize_field("template", &self.source_text)?;
        v.serialize_field("verdict", self.kind.as_str())?;
        v.serialize_field("verdict_in_words", &self.verdict())?;
        v.serialize_field("reason", &self.reason)?;
        v.serialize_field("witness_in_words", &self.witness_shown)?;
        v.serialize_field("example", &self.text)?;
        v.serialize_field("guarded_facts", &self.guarded)?;
        v.end()
    }
}
