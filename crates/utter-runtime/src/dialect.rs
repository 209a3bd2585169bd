//! Which flavour of the format an agent is written in: a property of the
//! agent (its `utter.yml`), shared by the compiler and the code it generates.

/// Which flavour of the format an agent is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Rasa Mantle (rasa-pro 3.21.0): conditional variants, and 3.21.0's
    /// bundled layer.
    #[default]
    Mantle,
    /// Rasa Maestro: the first entry of a response's list is delivered (no
    /// conditional variants), and the older bundled layer (rasa-pro 3.20.5's),
    /// whose `default_session_start` greets with `utter_greet` and whose
    /// `default_completed` also asks `utter_ask_how_to_help`.
    Maestro,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 2] = [Dialect::Mantle, Dialect::Maestro];

    /// `mantle` or `maestro`: as `utter.yml`, the CLI and the macro spell it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Mantle => "mantle",
            Dialect::Maestro => "maestro",
        }
    }

    /// The dialect spelt `name`, if one is.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The variant's name, as generated code spells it (`Dialect::Maestro`).
    pub fn variant_name(self) -> &'static str {
        match self {
            Dialect::Mantle => "Mantle",
            Dialect::Maestro => "Maestro",
        }
    }
}
