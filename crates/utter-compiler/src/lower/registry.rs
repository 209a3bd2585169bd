//! The registry IR that lowering builds and the back ends read: the
//! responses with their variants (pieces, conditions over entry ids,
//! wording ids), the declared entries and what each skill.md references.
//! The pass that builds it is the parent module.

use utter::program::{ProgramData, VariantSource};
use utter::{Entry, EntryType, Piece, StepKind};

use crate::bundled;
use crate::condition::Expr;
use crate::load::memory::MemoryDecl;

/// A validated, merged registry.
#[derive(Clone, Debug)]
pub struct Registry {
    /// Declared entries, sorted by namespace then name; `id` = index.
    pub entries: Vec<Entry<String, Vec<String>>>,
    /// Their declarations (file, description, ...), in the same order.
    pub declarations: Vec<MemoryDecl>,
    /// Every skill id (bundled and project), sorted.
    pub skills: Vec<String>,
    /// Sorted by name.
    pub responses: Vec<Response>,
    /// What each project skill's skill.md references, by skill id (sorted).
    pub skill_refs: Vec<SkillRefs>,
}

/// A response of the registry by its index in [`Registry::responses`]: a
/// number of another kind than the entry ids conditions hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResponseIndex(pub usize);

/// The responses one skill's skill.md references, as indices into
/// [`Registry::responses`].
#[derive(Clone, Debug, Default)]
pub struct SkillRefs {
    /// The skill id.
    pub skill: String,
    /// Responses delivered when the skill activates (`utter:` with `on: activate`).
    pub on_activate: Vec<ResponseIndex>,
    /// `when:` triggers: the response and the condition that delivers it
    /// (whose numbers are entry ids).
    pub when: Vec<(ResponseIndex, Expr<usize>)>,
    /// Tool constraints naming responses.
    pub tools: Vec<ToolRefs>,
    /// Ordered-block steps naming responses.
    pub steps: Vec<StepRef>,
}

/// The responses one tool constraint of a skill.md names (indices into
/// [`Registry::responses`]).
#[derive(Clone, Debug, Default)]
pub struct ToolRefs {
    /// The tool's name.
    pub tool: String,
    /// `on_success:`.
    pub on_success: Option<ResponseIndex>,
    /// `on_failure:`.
    pub on_failure: Option<ResponseIndex>,
    /// `utter_for_confirmation:`.
    pub utter_for_confirmation: Option<ResponseIndex>,
    /// `utter_on_user_denial:`.
    pub utter_on_user_denial: Option<ResponseIndex>,
}

/// A step of an ordered block that names a response.
#[derive(Clone, Debug)]
pub struct StepRef {
    /// The block's `id`.
    pub block: String,
    /// The step's `id`.
    pub step: String,
    /// `action:` or `utter:`.
    pub kind: StepKind,
    /// The response.
    pub response: ResponseIndex,
}

/// A response of the registry, lowered: what delivery needs.
#[derive(Clone, Debug)]
pub struct Response {
    /// Its name.
    pub name: String,
    /// The file that defines it (after merging), and the line of its name.
    pub file: String,
    /// The line of its name in `file`.
    pub line: usize,
    /// The skill whose file defines it; `None` for the project root.
    pub skill: Option<String>,
    /// In YAML order; the conditioned ones are tried in this order.
    /// Shared: a check reusing the lowering of an unchanged response
    /// copies no variant.
    pub variants: std::sync::Arc<[Variant]>,
    /// The variant delivered when no condition holds (or the first of all
    /// when none is conditioned).
    pub default: Option<usize>,
}

/// A variant of a lowered response.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The text as written.
    pub text: String,
    /// The text split into literal pieces and placeholders (entry ids).
    pub pieces: Vec<Piece<String, Vec<usize>>>,
    /// Its condition, references resolved to entry ids.
    pub condition: Option<Expr<usize>>,
    /// The condition as written, for docs.
    pub condition_text: Option<String>,
    /// `metadata.rephrase`.
    pub rephrase: bool,
    /// The id of its reviewed wording ([`crate::wording`]).
    pub wording: utter::WordingId,
}

impl Variant {
    /// What a reviewer saw of this variant, position `position` of
    /// `response`: what its wording id is computed from.
    pub fn wording_at<'a>(
        &'a self,
        response: &'a str,
        position: usize,
    ) -> crate::wording::VariantWording<'a> {
        crate::wording::VariantWording {
            response,
            position,
            condition: self.condition_text.as_deref(),
            rephrase: self.rephrase,
            text: &self.text,
        }
    }
}

impl Response {
    /// Appends this response to `data`, as its next response number.
    pub fn encode_into(&self, data: &mut ProgramData) {
        let variants: Vec<VariantSource<'_, Expr<usize>>> = self
            .variants
            .iter()
            .map(|v| VariantSource {
                condition: v.condition.as_ref(),
                rephrase: v.rephrase,
                wording: v.wording,
                pieces: &v.pieces,
            })
            .collect();
        data.response(&self.name, self.default, &variants);
    }
}

impl Registry {
    /// The fingerprint of the agent's own wording ([`crate::wording`]):
    /// every variant of the responses its files define, in name order.
    pub fn wording_fingerprint(&self) -> String {
        crate::wording::fingerprint(
            self.responses
                .iter()
                .filter(|r| !bundled::is_bundled(&r.file))
                .flat_map(|r| {
                    r.variants
                        .iter()
                        .enumerate()
                        .map(|(position, v)| v.wording_at(&r.name, position))
                }),
        )
    }

    /// The response called `name` (binary search: responses are sorted).
    pub fn response(&self, name: &str) -> Option<&Response> {
        self.responses
            .binary_search_by(|r| r.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.responses[i])
    }

    /// Why a memory document's `namespace.entry` is ignored: no
    /// `memory.yml` declares it, with the closest declared entry as a
    /// did-you-mean.
    pub fn undeclared_entry(&self, namespace: &str, entry: &str) -> String {
        let undeclared = utter::SetError::Undeclared {
            namespace: namespace.to_owned(),
            name: entry.to_owned(),
        };
        let key = format!("{namespace}.{entry}");
        let keys: Vec<String> = self
            .entries
            .iter()
            .map(|e| format!("{}.{}", e.namespace, e.name))
            .collect();
        let hint = crate::diagnostics::did_you_mean_hint(&key, keys.iter().map(String::as_str));
        format!("{undeclared}{hint}; it is not readable and is ignored")
    }

    /// `responses` encoded for the runtime's evaluator (in order: response
    /// number = index): what the interpreter runs and compact generated
    /// code embeds. Encoded on each call, so it always says what
    /// `responses` say.
    pub fn encode(&self) -> ProgramData {
        let mut data = ProgramData::default();
        // Categorical comparisons by the value's number, as straight-line
        // code makes them (`Reader::holds_text`).
        for (id, entry) in self.entries.iter().enumerate() {
            if entry.ty == EntryType::Categorical {
                data.declare_values(id, &entry.values);
            }
        }
        for response in &self.responses {
            response.encode_into(&mut data);
        }
        data
    }

    /// What skill `skill`'s skill.md references.
    pub fn skill_refs(&self, skill: &str) -> Option<&SkillRefs> {
        self.skill_refs.iter().find(|s| s.skill == skill)
    }
}
