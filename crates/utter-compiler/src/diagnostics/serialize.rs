//! A finding as data (feature `serde`): the one shape of `utter check
//! --format json`'s findings and the playground's, each adding its own
//! field (the CLI the path as the user gives it, the playground the
//! rendered text).

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::Finding;

impl Serialize for Finding {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut f = s.serialize_struct("Finding", 13)?;
        f.serialize_field("code", self.code)?;
        f.serialize_field("severity", self.severity.as_str())?;
        f.serialize_field("file", &self.file)?;
        f.serialize_field("response", &self.response)?;
        f.serialize_field("variant", &self.variant)?;
        f.serialize_field("line", &self.line)?;
        f.serialize_field("column", &self.column)?;
        f.serialize_field("end_line", &self.end_line)?;
        f.serialize_field("end_column", &self.end_column)?;
        f.serialize_field("message", &self.message)?;
        f.serialize_field("note", &self.note)?;
        f.serialize_field("help", &self.help)?;
        f.serialize_field("suggestion", &self.suggestion)?;
        f.end()
    }
}
