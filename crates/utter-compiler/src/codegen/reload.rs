//! What a development hot reload (utter's `hot-reload` feature) needs from
//! the compiled code: where the agent was compiled from, and fingerprints of
//! what the typed API names (the *schema*) and of each response's wording.
//! The same fingerprint functions run on an edited agent at run time, so a
//! compiled agent and an edited one compare exactly.
//!
//! Without the feature the emitted items are data nothing reads: the
//! delivery hook is an inlined `None`, and the linker drops them.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::lit_str;
use crate::bundled::Dialect;
use crate::lower::{Registry, Response};

/// Where an agent was compiled from, as generated code records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// The agent folder.
    pub folder: OriginFolder,
    /// The dialect it was checked as.
    pub dialect: Dialect,
    /// Whether it was compiled without the bundled defaults.
    pub without_bundled_defaults: bool,
}

/// The agent folder of an [`Origin`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum OriginFolder {
    /// Not known (`utter expand`: its output is committed, so it holds no
    /// machine's path); a reload then needs `hot_reload().watch(folder)`.
    #[default]
    Unknown,
    /// Relative to the compiling crate's `CARGO_MANIFEST_DIR`
    /// (`include_responses!`): resolved by `env!` where the code compiles.
    ManifestRelative(String),
    /// An absolute path (`utter-build`: the output lives in `OUT_DIR`).
    Absolute(String),
}

/// A stable 64-bit FNV-1a hash: the same on every machine and build, so a
/// fingerprint computed by the macro equals one computed at run time.
#[derive(Clone, Copy)]
struct Fingerprint(u64);

impl Fingerprint {
    fn new() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn number(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }

    /// A string with its length first, so `("ab", "c")` and `("a", "bc")` differ.
    fn text(&mut self, text: &str) {
        self.number(text.len() as u64);
        self.bytes(text.as_bytes());
    }
}

/// The fingerprint of what the typed API and the compiled tables name:
/// responses (and which are bundled), skills, memory entries with their
/// types, values and visibility, and what each skill.md references
/// (`Skill::responses`, `when:` triggers). An edit that changes it needs a
/// rebuild; any other edit (texts, conditions, rephrase flags) reloads.
pub fn schema_fingerprint(registry: &Registry) -> u64 {
    let mut hash = Fingerprint::new();
    hash.number(registry.responses.len() as u64);
    for response in &registry.responses {
        hash.text(&response.name);
        hash.number(u64::from(crate::bundled::is_bundled(&response.file)));
    }
    hash.number(registry.skills.len() as u64);
    for skill in &registry.skills {
        hash.text(skill);
    }
    hash.number(registry.entries.len() as u64);
    for entry in &registry.entries {
        hash.text(&entry.namespace);
        hash.text(&entry.name);
        hash.text(entry.ty.name());
        hash.text(&format!("{:?}", entry.visibility));
        hash.text(entry.unset_text.as_deref().unwrap_or("\u{0}"));
        hash.number(entry.values.len() as u64);
        for value in &entry.values {
            hash.text(value);
        }
    }
    // skill.md references as compiled: the structure's `Debug` form is
    // deterministic for one compiler version, and both sides run the same one.
    hash.text(&format!("{:?}", registry.skill_refs));
    hash.0
}

/// The fingerprint of one response's wording: each variant's text,
/// condition and rephrase flag, in YAML order, and which is the default.
pub fn wording_fingerprint(response: &Response) -> u64 {
    let mut hash = Fingerprint::new();
    hash.number(response.default.map_or(u64::MAX, |d| d as u64));
    hash.number(response.variants.len() as u64);
    for variant in response.variants.iter() {
        hash.text(&variant.text);
        match &variant.condition_text {
            Some(condition) => {
                hash.number(1);
                hash.text(condition);
            }
            None => hash.number(0),
        }
        hash.number(u64::from(variant.rephrase));
    }
    hash.0
}

/// The compiled module's `AGENT` (what was compiled, for a reload to check
/// an edited agent against) and `RELOAD` (the reloadable state the public
/// delivery functions consult first). `registry` is `None` for the skeleton
/// of a project with errors.
pub fn reload_items(registry: Option<&Registry>, origin: &Origin) -> TokenStream {
    let Some(registry) = registry else {
        return quote! {
            pub static RELOAD: ::utter::__reload::Reload = ::utter::__reload::Reload::unavailable();
        };
    };
    let folder = match &origin.folder {
        OriginFolder::Unknown => quote!(None),
        OriginFolder::ManifestRelative(path) => {
            let path = lit_str(path);
            quote!(Some(
                ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #path)
            ))
        }
        OriginFolder::Absolute(path) => {
            let path = lit_str(path);
            quote!(Some(#path))
        }
    };
    let dialect = proc_macro2::Ident::new(
        origin.dialect.variant_name(),
        proc_macro2::Span::call_site(),
    );
    let without_bundled_defaults = origin.without_bundled_defaults;
    let schema = Literal::u64_suffixed(schema_fingerprint(registry));
    let wording = registry
        .responses
        .iter()
        .map(|r| Literal::u64_unsuffixed(wording_fingerprint(r)));
    let count = Literal::usize_unsuffixed(registry.responses.len());
    quote! {
        /// What was compiled: what a development hot reload checks an
        /// edited agent against.
        pub static AGENT: ::utter::__reload::CompiledAgent = ::utter::__reload::CompiledAgent {
            folder: #folder,
            dialect: ::utter::Dialect::#dialect,
            without_bundled_defaults: #without_bundled_defaults,
            responses: &NAMES,
            skills: SKILL_IDS,
            entries: &ENTRIES,
            schema: #schema,
            wording: &WORDING,
        };
        /// Per response, the fingerprint of its compiled wording.
        pub static WORDING: [u64; #count] = [#(#wording),*];
        /// The reloadable state (inert without utter's `hot-reload` feature).
        pub static RELOAD: ::utter::__reload::Reload = ::utter::__reload::Reload::new(&AGENT);
    }
}

/// The public `hot_reload()` of every expansion.
pub fn hot_reload_fn() -> TokenStream {
    quote! {
        /// The development hot reload of these responses: with utter's
        /// `hot-reload` feature, edits to the agent folder reach the running
        /// process (see [`::utter::HotReload`]); without it, nothing.
        #[allow(dead_code)]
        #[must_use]
        pub fn hot_reload() -> ::utter::HotReload {
            ::utter::HotReload::of(&__utter_compiled::RELOAD)
        }
    }
}
