//! The `Skill` enum and what each skill's skill.md references, as typed
//! responses (`Skill::responses()`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::conditions::Conditions;
use super::lit_str;
use crate::lower::{Registry, ResponseIndex};
use crate::names::doc_text;
use utter::StepKind;

/// The `Skill` enum and what each skill's skill.md references. The
/// `when:` conditions are pushed to `items`, items of the compiled module.
pub fn skill_items(
    registry: &Registry,
    conditions: &mut Conditions<'_>,
    items: &mut Vec<TokenStream>,
) -> TokenStream {
    let tables: Vec<TokenStream> = registry
        .skills
        .iter()
        .enumerate()
        .map(|(si, skill)| skill_table(registry, si, skill, conditions, items))
        .collect();
    skill_enum(&registry.skills, &tables)
}

/// The `Skill` enum of a project with errors: every table is empty.
pub fn skeleton_skill_items(skills: &[String]) -> TokenStream {
    let tables: Vec<TokenStream> = skills.iter().map(|skill| empty_table(skill)).collect();
    skill_enum(skills, &tables)
}

/// The `Skill` enum over `skills`, with the table of each.
fn skill_enum(skills: &[String], tables: &[TokenStream]) -> TokenStream {
    let variants: Vec<proc_macro2::Ident> = skills
        .iter()
        .map(|s| super::idents::yaml_variant(s))
        .collect();
    let ids: Vec<Literal> = skills.iter().map(|s| lit_str(s)).collect();
    let docs: Vec<String> = skills
        .iter()
        .map(|s| format!(" `{}`", doc_text(s, 80)))
        .collect();
    let count = Literal::usize_unsuffixed(skills.len());

    let indices = (0..skills.len()).map(Literal::usize_unsuffixed);
    let id_arms = variants
        .iter()
        .zip(&ids)
        .map(|(v, id)| quote!(Skill::#v => #id));
    let responses_arms = variants
        .iter()
        .zip(indices)
        .map(|(v, i)| quote!(Skill::#v => &TABLE[#i]));
    quote! {
        /// The agent's skills: the bundled default skills and one per folder
        /// under `skills/`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(dead_code)]
        pub enum Skill {
            #( #[doc = #docs] #variants, )*
        }

        #[allow(dead_code)]
        impl Skill {
            /// Every skill, sorted by id.
            pub const ALL: &'static [Skill] = &[#(Skill::#variants),*];

            /// The skill id: its folder name, and its memory namespace.
            #[must_use]
            pub const fn id(self) -> &'static str {
                match self { #(#id_arms,)* }
            }

            /// The skill id ([`Self::id`]).
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                self.id()
            }

            /// The skill with folder name `id`.
            #[must_use]
            pub fn from_id(id: &str) -> ::core::option::Option<Skill> {
                match id {
                    #( #ids => ::core::option::Option::Some(Skill::#variants), )*
                    _ => ::core::option::Option::None,
                }
            }

            /// The responses this skill's skill.md references: `utter:`
            /// triggers, tool constraints and ordered-block steps.
            #[must_use]
            #[allow(clippy::too_many_lines)]
            pub fn responses(self) -> &'static ::utter::SkillResponses<Response> {
                // Local to this fn: no name of the user's module can meet it.
                static TABLE: [::utter::SkillResponses<Response>; #count] = [#(#tables),*];
                match self { #(#responses_arms,)* }
            }
        }

        impl ::utter::SkillId for Skill {
            #[inline]
            fn id(self) -> &'static str {
                Skill::id(self)
            }
        }

        impl ::core::fmt::Display for Skill {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.id())
            }
        }

        impl ::core::str::FromStr for Skill {
            type Err = ::utter::UnknownSkill;

            /// The skill with folder name `id` (an unknown id is an error with a did-you-mean).
            fn from_str(id: &str) -> ::core::result::Result<Self, Self::Err> {
                Skill::from_id(id).ok_or_else(|| ::utter::UnknownSkill::new(id, SKILLS.iter().copied()))
            }
        }


    }
}

/// The `SkillResponses` of a skill whose skill.md references nothing.
fn empty_table(skill: &str) -> TokenStream {
    let id = lit_str(skill);
    quote!(::utter::SkillResponses { skill: #id, on_activate: &[], when: &[], tools: &[], steps: &[] })
}

/// The `SkillResponses` of `skill`, number `si`: what its skill.md
/// references, each `when:` condition compiled into `items`.
fn skill_table(
    registry: &Registry,
    si: usize,
    skill: &str,
    conditions: &mut Conditions<'_>,
    items: &mut Vec<TokenStream>,
) -> TokenStream {
    let id = lit_str(skill);
    let Some(refs) = registry.skill_refs(skill) else {
        return empty_table(skill);
    };
    let response = |ResponseIndex(i): ResponseIndex| {
        let v = super::idents::yaml_variant(&registry.responses[i].name);
        quote!(Response::#v)
    };
    let option = |r: Option<ResponseIndex>| match r {
        Some(i) => {
            let v = response(i);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let on_activate = refs.on_activate.iter().map(|&i| response(i));
    let when: Vec<TokenStream> = refs
        .when
        .iter()
        .enumerate()
        .map(|(wi, (i, expr))| {
            let ident = super::idents::when_fn(si, wi);
            let body = conditions.result(expr);
            items.push(quote! {
                pub fn #ident(r: &Context<'_>) -> Holds {
                    #body
                }
            });
            let r = response(*i);
            quote!(::utter::WhenTrigger { response: #r, condition: __utter_compiled::#ident })
        })
        .collect();
    let tools = refs.tools.iter().map(|t| {
        let tool = lit_str(&t.tool);
        let (a, b, c, d) = (option(t.on_success), option(t.on_failure), option(t.utter_for_confirmation), option(t.utter_on_user_denial));
        quote!(::utter::ToolResponses { tool: #tool, on_success: #a, on_failure: #b, utter_for_confirmation: #c, utter_on_user_denial: #d })
    });
    let steps = refs.steps.iter().map(|st| {
        let block = lit_str(&st.block);
        let step = lit_str(&st.step);
        let kind = match st.kind {
            StepKind::Action => quote!(::utter::StepKind::Action),
            StepKind::Utterance => quote!(::utter::StepKind::Utterance),
        };
        let r = response(st.response);
        quote!(::utter::StepResponse { block: #block, step: #step, kind: #kind, response: #r })
    });
    quote! {
        ::utter::SkillResponses {
            skill: #id,
            on_activate: &[#(#on_activate),*],
            when: &[#(#when),*],
            tools: &[#(#tools),*],
            steps: &[#(#steps),*],
        }
    }
}
