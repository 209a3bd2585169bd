//! Code generation: a registry into Rust items. Both `include_responses!` and
//! `utter-build` call [`expand`]; nothing here is specific to either.
//!
//! The output is static data and `fn` items only: a `Response` enum, the entry
//! table, each text as a static array of pieces, each condition as a `fn`
//! over memory reads, and a table of compiled responses that the runtime's
//! one selection loop walks; lookup by name is a `match` (or a hashed table
//! for large agents). Paths are absolute (`::utter::...`), iteration orders
//! sorted, no `unsafe` is emitted, and neither are redundant parentheses.

use std::path::Path;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::condition::{Expr, Literal as Lit};
use crate::diagnostics::{Finding, render_finding};
use crate::lower::{Registry, Response, lower};
use crate::validate::Checked;
use utter::{CmpOp, Piece, StepKind, Visibility};

/// The `Response` enum variant for a response name: CamelCase of its ASCII
/// alphanumeric words; any other character is spelled as `U` + its hex code,
/// and a leading digit gets an `R` prefix. Distinct names can meet here
/// (`utter_a` and `utterA`); validation reports that as a finding.
pub fn variant_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper_next = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if upper_next {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper_next = false;
        } else if c == '_' || c == '-' || c == ' ' || c == '.' {
            upper_next = true;
        } else {
            out.push_str(&format!("U{:X}", c as u32));
            upper_next = true;
        }
    }
    if out.is_empty() {
        out.push_str("Empty");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'R');
    }
    if out == "Self" {
        out.push('_');
    }
    out
}

fn lit_str(s: &str) -> Literal {
    Literal::string(s)
}

/// A comparison operator, as imported into the compiled module.
fn cmp_op(op: CmpOp) -> TokenStream {
    match op {
        CmpOp::Eq => quote!(Eq),
        CmpOp::Ne => quote!(Ne),
        CmpOp::Lt => quote!(Lt),
        CmpOp::Le => quote!(Le),
        CmpOp::Gt => quote!(Gt),
        CmpOp::Ge => quote!(Ge),
    }
}

fn float(f: f64) -> TokenStream {
    if f.is_nan() {
        quote!(::core::f64::NAN)
    } else if f == f64::INFINITY {
        quote!(::core::f64::INFINITY)
    } else if f == f64::NEG_INFINITY {
        quote!(::core::f64::NEG_INFINITY)
    } else {
        let lit = Literal::f64_suffixed(f);
        quote!(#lit)
    }
}

/// A condition node as a `ValueRef` expression.
fn value_expr(expr: &Expr<usize>, labels: &mut usize) -> TokenStream {
    match expr {
        Expr::Ref(id) => {
            let id = Literal::usize_unsuffixed(*id);
            quote!(ctx.read(&ENTRIES[#id]))
        }
        Expr::Lit(Lit::None) => quote!(V::None),
        Expr::Lit(Lit::Bool(b)) => quote!(V::Bool(#b)),
        Expr::Lit(Lit::Int(i)) => {
            let i = Literal::i64_suffixed(*i);
            quote!(V::Int(#i))
        }
        Expr::Lit(Lit::Float(f)) => {
            let f = float(*f);
            quote!(V::Float(#f))
        }
        Expr::Lit(Lit::Str(s)) => {
            let s = lit_str(s);
            quote!(V::Str(#s))
        }
        other => {
            let b = bool_expr(other, labels, Precedence::Or);
            quote!(V::Bool(#b))
        }
    }
}

/// How tightly a generated `bool` expression binds, loosest first.
///
/// Parentheses are emitted only where precedence needs them: rustc's
/// `unused_parens` lint, even when allowed, copies the source text before
/// every redundant pair, which made large agents build in quadratic time.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Precedence {
    Or,
    And,
    Unary,
}

/// A condition node as a `bool` expression (`?` propagates evaluation
/// errors) that can stand where an operand binding at least as tightly as
/// `context` is expected.
fn bool_expr(expr: &Expr<usize>, labels: &mut usize, context: Precedence) -> TokenStream {
    let (tokens, own) = match expr {
        Expr::Or(items) => {
            let items = items.iter().map(|e| bool_expr(e, labels, Precedence::Or));
            let items: Vec<TokenStream> = items.collect();
            (quote!(#(#items)||*), Precedence::Or)
        }
        Expr::And(items) => {
            let items = items.iter().map(|e| bool_expr(e, labels, Precedence::And));
            let items: Vec<TokenStream> = items.collect();
            (quote!(#(#items)&&*), Precedence::And)
        }
        Expr::Not(inner) => {
            let inner = bool_expr(inner, labels, Precedence::Unary);
            (quote!(!#inner), Precedence::Unary)
        }
        Expr::Compare { first, rest } => (compare_expr(first, rest, labels), Precedence::Unary),
        other => {
            let v = value_expr(other, labels);
            (quote!(#v.truthy()), Precedence::Unary)
        }
    };
    if own < context {
        quote!((#tokens))
    } else {
        tokens
    }
}

/// A comparison, possibly chained, as a `bool` expression that binds as
/// tightly as a unary operand (a call with `?`, or a labeled block).
fn compare_expr(
    first: &Expr<usize>,
    rest: &[(CmpOp, Expr<usize>)],
    labels: &mut usize,
) -> TokenStream {
    // Python chaining, flat: each operand evaluated once, left to right,
    // stopping at the first false comparison.
    if let [(op, operand)] = rest {
        let op = cmp_op(*op);
        let left = value_expr(first, labels);
        let right = value_expr(operand, labels);
        return quote!(compare(#op, #left, #right)?);
    }
    // Each chain gets its own label: chains nest inside operands.
    let label: TokenStream = [
        proc_macro2::TokenTree::Punct(proc_macro2::Punct::new('\'', proc_macro2::Spacing::Joint)),
        proc_macro2::TokenTree::Ident(format_ident!("chain{}", labels)),
    ]
    .into_iter()
    .collect();
    *labels += 1;
    let first = value_expr(first, labels);
    let last = rest.len() - 1;
    let mut steps = Vec::with_capacity(rest.len());
    for (i, (op, operand)) in rest.iter().enumerate() {
        let op = cmp_op(*op);
        let operand = value_expr(operand, labels);
        let advance = (i < last).then(|| quote!(left = right;));
        steps.push(quote! {
            let right = #operand;
            if !compare(#op, left, right)? {
                break #label false;
            }
            #advance
        });
    }
    let binding = if rest.len() > 1 {
        quote!(let mut left)
    } else {
        quote!(let left)
    };
    quote! {
        #label: {
            #binding = #first;
            #(#steps)*
            true
        }
    }
}

fn piece(p: &Piece<String, Vec<usize>>) -> TokenStream {
    match p {
        Piece::Text(t) => {
            let t = lit_str(t);
            quote!(Text(#t))
        }
        Piece::Session { entry, raw } => {
            let entry = Literal::usize_unsuffixed(*entry);
            let raw = lit_str(raw);
            quote!(Session { entry: #entry, raw: #raw })
        }
        Piece::Bare { candidates, raw } => {
            let candidates = candidates.iter().map(|c| Literal::usize_unsuffixed(*c));
            let raw = lit_str(raw);
            quote!(Bare { candidates: &[#(#candidates),*], raw: #raw })
        }
    }
}

/// A condition as a `fn` over the view: straight-line comparisons of memory
/// reads and literals, errors propagated with `?`.
fn condition_fn(ident: &proc_macro2::Ident, condition: &Expr<usize>) -> TokenStream {
    let body = match condition {
        // One comparison is already the Result the selector wants.
        Expr::Compare { first, rest } if rest.len() == 1 => {
            let op = cmp_op(rest[0].0);
            let left = value_expr(first, &mut 0);
            let right = value_expr(&rest[0].1, &mut 0);
            quote!(compare(#op, #left, #right))
        }
        other => {
            let body = bool_expr(other, &mut 0, Precedence::Or);
            quote!(Ok(#body))
        }
    };
    quote! {
        pub fn #ident(ctx: &Context<'_>) -> Holds {
            #body
        }
    }
}

/// The text, variant and rephrase flag of a response whose delivery never
/// depends on memory: no variant is conditioned, and the default's text has
/// no placeholder (what `render` would borrow as it is).
fn constant_delivery(response: &Response) -> Option<(&str, usize, bool)> {
    if response.variants.iter().any(|v| v.condition.is_some()) {
        return None;
    }
    let index = response.default?;
    let variant = &response.variants[index];
    let text = utter::literal_text(&variant.pieces)?;
    Some((text, index, variant.rephrase))
}

/// The texts and conditions of one response (items of the compiled module),
/// and its entry in the table of compiled responses. Selection itself is the
/// runtime's one loop (`utter::select`) over these compiled conditions: per
/// response only data and condition `fn`s are emitted, which keeps large
/// agents quick to build.
fn response_items(index: usize, response: &Response) -> (TokenStream, TokenStream) {
    let name = lit_str(&response.name);
    let mut items = Vec::new();
    let mut variants = Vec::new();
    for (v, variant) in response.variants.iter().enumerate() {
        let text = format_ident!("T{}_{}", index, v);
        let pieces: Vec<TokenStream> = variant.pieces.iter().map(piece).collect();
        let len = Literal::usize_unsuffixed(pieces.len());
        items.push(quote!(static #text: [Piece; #len] = [#(#pieces),*];));
        let condition = match &variant.condition {
            Some(condition) => {
                let ident = format_ident!("c{}_{}", index, v);
                items.push(condition_fn(&ident, condition));
                quote!(Some(#ident))
            }
            None => quote!(None),
        };
        let rephrase = variant.rephrase;
        variants
            .push(quote!(Variant { pieces: &#text, condition: #condition, rephrase: #rephrase }));
    }
    let default = match response.default {
        Some(v) => {
            let v = Literal::usize_unsuffixed(v);
            quote!(Some(#v))
        }
        None => quote!(None),
    };
    let constant = match constant_delivery(response) {
        Some((text, variant, rephrase)) => {
            let text = lit_str(text);
            let variant = Literal::usize_unsuffixed(variant);
            quote!(Some(Constant { text: #text, variant: #variant, rephrase: #rephrase }))
        }
        None => quote!(None),
    };
    let entry = quote!(Response { name: #name, variants: &[#(#variants),*], default: #default, constant: #constant });
    (quote!(#(#items)*), entry)
}

/// An entry's visibility, as imported into the compiled module.
fn visibility(v: Visibility) -> TokenStream {
    match v {
        Visibility::Project => quote!(Project),
        Visibility::Public => quote!(Public),
        Visibility::Private => quote!(Private),
    }
}

/// Up to this many responses, `from_name` is a `match` (fastest for small
/// sets); beyond, an open-addressing table so lookup stays flat in N.
pub const MATCH_LOOKUP_MAX: usize = 256;

/// The body of `from_name`, and the static name table it needs, if any.
fn name_lookup(
    names: &[String],
    variants: &[proc_macro2::Ident],
    name_lits: &[Literal],
) -> (TokenStream, TokenStream) {
    if names.len() <= MATCH_LOOKUP_MAX {
        let body = quote! {
            match name {
                #( #name_lits => ::core::option::Option::Some(Response::#variants), )*
                _ => ::core::option::Option::None,
            }
        };
        return (body, TokenStream::new());
    }
    // At most half full, so probes stay short and an empty slot always ends a search.
    let size = (names.len() * 2).next_power_of_two();
    let mut slots = vec![0u32; size];
    for (index, name) in names.iter().enumerate() {
        let mut at = (utter::__private::name_hash(name) % size as u64) as usize;
        while slots[at] != 0 {
            at = (at + 1) % size;
        }
        slots[at] = u32::try_from(index + 1).expect("fewer than 4 billion responses");
    }
    let size_lit = Literal::usize_unsuffixed(size);
    let slots = slots.iter().map(|s| Literal::u32_unsuffixed(*s));
    let body = quote! {
        ::utter::__private::lookup(name, &__UTTER_NAMES, &__UTTER_NAME_SLOTS).map(|index| Response::ALL[index])
    };
    let table = quote! {
        #[doc(hidden)]
        static __UTTER_NAME_SLOTS: [u32; #size_lit] = [#(#slots),*];
    };
    (body, table)
}

/// The items every expansion has, complete or skeleton: the `Response` enum
/// with its names, lookup by name, the entry table and the skills.
fn common_items(names: &[String], entries: TokenStream, skills: &[String]) -> TokenStream {
    let variants: Vec<proc_macro2::Ident> = names
        .iter()
        .map(|n| format_ident!("{}", variant_name(n)))
        .collect();
    let name_lits: Vec<Literal> = names.iter().map(|n| lit_str(n)).collect();
    let docs: Vec<String> = names.iter().map(|n| format!(" `{n}`")).collect();
    let count = Literal::usize_unsuffixed(names.len());
    let (from_name_body, name_index) = name_lookup(names, &variants, &name_lits);
    // An enum without variants cannot be cast to an index.
    let name_body = if names.is_empty() {
        quote!(match self {})
    } else {
        quote!(__UTTER_NAMES[self as usize])
    };
    let skills = skills.iter().map(|s| lit_str(s));
    quote! {
        /// The responses of the agent, one variant per response name.
        // `Debug` is written by hand: a derived one is a match with an arm per
        // response, which dominated build time for agents of thousands of responses.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(dead_code, clippy::enum_variant_names)]
        pub enum Response {
            #( #[doc = #docs] #variants, )*
        }

        impl ::core::fmt::Debug for Response {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        #[allow(dead_code)]
        impl Response {
            /// Every response, sorted by name.
            pub const ALL: &'static [Response] = &[#(Response::#variants),*];
            /// How many responses the agent has.
            pub const COUNT: usize = #count;

            /// The response name as written in `responses.yml`.
            pub const fn name(self) -> &'static str {
                #name_body
            }

            /// The response called `name`, if the agent defines it.
            #[inline]
            pub fn from_name(name: &str) -> ::core::option::Option<Response> {
                #from_name_body
            }
        }

        #[doc(hidden)]
        static __UTTER_NAMES: [&str; #count] = [#(#name_lits),*];

        #name_index

        #entries

        /// Every skill id (bundled default skills included), sorted.
        #[allow(dead_code)]
        pub const SKILLS: &[&str] = &[#(#skills),*];

        /// An empty array-backed memory for this agent's entries.
        #[allow(dead_code)]
        pub fn memory() -> ::utter::SlotMemory<'static> {
            ::utter::SlotMemory::new(&ENTRIES)
        }

        /// Delivers the response called `name`; an unknown name delivers the
        /// name itself (fail closed, never rephrased).
        #[allow(dead_code)]
        #[inline]
        pub fn deliver_name<'n>(name: &'n str, ctx: &::utter::Context<'_>) -> ::utter::Delivery<'n> {
            match Response::from_name(name) {
                ::core::option::Option::Some(response) => deliver(response, ctx),
                ::core::option::Option::None => ::utter::Delivery::fallback(name),
            }
        }
    }
}

/// The `Skill` enum and what each skill's skill.md references; without a
/// registry (a skeleton), every table is empty. The `when:` conditions are
/// pushed to `conditions`, items of the compiled module.
fn skill_items(
    skills: &[String],
    registry: Option<&Registry>,
    conditions: &mut Vec<TokenStream>,
) -> TokenStream {
    let variants: Vec<proc_macro2::Ident> = skills
        .iter()
        .map(|s| format_ident!("{}", variant_name(s)))
        .collect();
    let ids: Vec<Literal> = skills.iter().map(|s| lit_str(s)).collect();
    let docs: Vec<String> = skills.iter().map(|s| format!(" `skills/{s}`")).collect();
    let count = Literal::usize_unsuffixed(skills.len());
    let response = |i: usize| {
        let name = registry.map_or_else(String::new, |r| r.responses[i].name.clone());
        let v = format_ident!("{}", variant_name(&name));
        quote!(Response::#v)
    };
    let option = |r: Option<usize>| match r {
        Some(i) => {
            let v = response(i);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let tables = skills.iter().enumerate().map(|(si, skill)| {
        let id = lit_str(skill);
        let refs = registry.and_then(|r| r.skill_refs(skill));
        let Some(refs) = refs else {
            return quote!(::utter::SkillResponses { skill: #id, on_activate: &[], when: &[], tools: &[], steps: &[] });
        };
        let on_activate = refs.on_activate.iter().map(|&i| response(i));
        let when: Vec<TokenStream> = refs
            .when
            .iter()
            .enumerate()
            .map(|(wi, (i, expr))| {
                let ident = format_ident!("w{}_{}", si, wi);
                conditions.push(condition_fn(&ident, expr));
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
    });
    let tables: Vec<TokenStream> = tables.collect();
    let indices = (0..skills.len()).map(Literal::usize_unsuffixed);
    let id_arms = variants
        .iter()
        .zip(&ids)
        .map(|(v, id)| quote!(Skill::#v => #id));
    let responses_arms = variants
        .iter()
        .zip(indices)
        .map(|(v, i)| quote!(Skill::#v => &__UTTER_SKILLS[#i]));
    quote! {
        /// The project's skills, one variant per folder under `skills/`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(dead_code)]
        pub enum Skill {
            #( #[doc = #docs] #variants, )*
        }

        #[allow(dead_code)]
        impl Skill {
            /// Every project skill, sorted by id.
            pub const ALL: &'static [Skill] = &[#(Skill::#variants),*];

            /// The skill id: its folder name, and its memory namespace.
            pub const fn id(self) -> &'static str {
                match self { #(#id_arms,)* }
            }

            /// The skill with folder name `id`.
            pub fn from_id(id: &str) -> ::core::option::Option<Skill> {
                match id {
                    #( #ids => ::core::option::Option::Some(Skill::#variants), )*
                    _ => ::core::option::Option::None,
                }
            }

            /// The responses this skill's skill.md references: `utter:`
            /// triggers, tool constraints and ordered-block steps.
            pub fn responses(self) -> &'static ::utter::SkillResponses<Response> {
                match self { #(#responses_arms,)* }
            }
        }

        #[doc(hidden)]
        static __UTTER_SKILLS: [::utter::SkillResponses<Response>; #count] = [#(#tables),*];

    }
}

/// The doc comment of `ENTRIES`, one attribute a line; `memory` is the
/// path of the `memory` function from where `ENTRIES` is defined.
fn entries_doc(memory: &str) -> TokenStream {
    let lines = [
        " The declared memory entries, sorted by namespace then name; an".to_owned(),
        format!(" entry's `id` is its index. Build a memory for them with [`memory`]({memory})."),
    ];
    quote!(#(#[doc = #lines])*)
}

/// The complete code for a registry.
///
/// Texts, conditions and tables live in one private module whose imports
/// are all absolute (`::utter::...`, `::core::...`), so the compiled items
/// can use short names without depending on anything in the user's scope.
pub fn generate(registry: &Registry) -> TokenStream {
    let names: Vec<String> = registry.responses.iter().map(|r| r.name.clone()).collect();
    let entries = registry.entries.iter().map(|e| {
        let id = Literal::usize_unsuffixed(e.id);
        let ns = lit_str(&e.namespace);
        let name = lit_str(&e.name);
        let vis = visibility(e.visibility);
        let unset = match &e.unset_text {
            Some(t) => {
                let t = lit_str(t);
                quote!(Some(#t))
            }
            None => quote!(None),
        };
        quote!(Entry { id: #id, namespace: #ns, name: #name, visibility: #vis, unset_text: #unset })
    });
    let entry_count = Literal::usize_unsuffixed(registry.entries.len());
    let entries_doc = entries_doc("super::memory");
    let common = common_items(
        &names,
        quote!(
            pub use __utter_compiled::ENTRIES;
        ),
        &registry.skills,
    );
    let (items, table): (Vec<TokenStream>, Vec<TokenStream>) = registry
        .responses
        .iter()
        .enumerate()
        .map(|(i, r)| response_items(i, r))
        .unzip();
    let count = Literal::usize_unsuffixed(registry.responses.len());
    let deliver_body = if registry.responses.is_empty() {
        quote!(match response {})
    } else {
        quote!(::utter::__private::deliver(
            &__utter_compiled::RESPONSES[response as usize],
            &ENTRIES,
            ctx
        ))
    };
    let mut when_conditions = Vec::new();
    let skills = skill_items(
        &registry
            .skill_refs
            .iter()
            .map(|r| r.skill.clone())
            .collect::<Vec<_>>(),
        Some(registry),
        &mut when_conditions,
    );
    quote! {
        #common
        #skills

        /// Delivers `response`: the first conditioned variant that holds, else
        /// the default, interpolated from `ctx`.
        #[allow(dead_code)]
        #[inline]
        pub fn deliver(response: Response, ctx: &::utter::Context<'_>) -> ::utter::Delivery<'static> {
            #deliver_body
        }

        #[doc(hidden)]
        #[allow(dead_code, unused_imports, unused_variables, clippy::nonminimal_bool)]
        mod __utter_compiled {
            use ::core::option::Option::{None, Some};
            use ::core::result::Result::Ok;
            use ::utter::__private::{Constant, Context, Entry, Piece, Response, Variant, compare};
            use ::utter::CmpOp::{Eq, Ge, Gt, Le, Lt, Ne};
            use ::utter::Piece::{Bare, Session, Text};
            use ::utter::ValueRef as V;
            use ::utter::Visibility::{Private, Project, Public};

            /// What a compiled condition returns: whether it holds, or why
            /// it could not be evaluated.
            type Holds = ::core::result::Result<bool, ::utter::EvalError>;

            #entries_doc
            pub static ENTRIES: [Entry; #entry_count] = [#(#entries),*];

            pub static RESPONSES: [Response; #count] = [#(#table),*];

            #(#items)*
            #(#when_conditions)*
        }
    }
}

/// The items of a project with errors: the same public items (responses
/// named as far as they could be read), so user code shows no follow-on errors.
pub fn skeleton(checked: &Checked) -> TokenStream {
    let names: Vec<String> = checked.responses.keys().cloned().collect();
    let mut seen = std::collections::HashSet::new();
    let names: Vec<String> = names
        .into_iter()
        .filter(|n| seen.insert(variant_name(n)))
        .collect();
    let doc = entries_doc("memory");
    let entries = quote! {
        #doc
        #[allow(dead_code)]
        pub static ENTRIES: [::utter::Entry; 0] = [];
    };
    let common = common_items(&names, entries, &checked.skills);
    let skills = skill_items(&checked.project_skills, None, &mut Vec::new());
    quote! {
        #common
        #skills

        /// Delivers `response` (this project has errors: nothing is compiled).
        #[allow(dead_code)]
        pub fn deliver(response: Response, _ctx: &::utter::Context<'_>) -> ::utter::Delivery<'static> {
            ::utter::Delivery::fallback(response.name())
        }
    }
}

/// The message of a compile error: the self-contained first line, then the
/// snippet (`--> file:line:col` and the source line).
pub fn error_message(finding: &Finding, checked: &Checked, prefix: &str) -> String {
    let source = checked.source(&finding.file);
    let mut shown = finding.clone();
    if !prefix.is_empty() && !finding.file.starts_with('<') {
        shown.file = format!("{}/{}", prefix.trim_end_matches('/'), finding.file);
    }
    let rendered = render_finding(&shown, source);
    let snippet = rendered.split_once('\n').map_or("", |(_, rest)| rest);
    format!("{}\n{}", shown.one_line(), snippet.trim_end())
}

/// What `include_responses!` expands to: the code, or every error as a
/// `compile_error!` at `span` plus the skeleton. `tracked` files are
/// included as bytes so that editing one rebuilds the crate.
pub fn expand(checked: &Checked, span: Span, tracked: &[&Path]) -> TokenStream {
    expand_at(checked, span, tracked, "")
}

/// [`expand`], with file names in errors shown under `prefix` (the agent
/// folder as the macro was given it), so they read from the crate root.
pub fn expand_at(checked: &Checked, span: Span, tracked: &[&Path], prefix: &str) -> TokenStream {
    let mut tracked: Vec<String> = tracked.iter().map(|p| p.display().to_string()).collect();
    tracked.sort();
    let tracking = tracked.iter().map(|p| {
        let p = lit_str(p);
        quote!(
            const _: &[u8] = ::core::include_bytes!(#p);
        )
    });
    let body = match lower(checked) {
        Ok(registry) => generate(&registry),
        Err(errors) => {
            let errors = errors.iter().map(|f| {
                let message = lit_str(&error_message(f, checked, prefix));
                quote_spanned!(span=> ::core::compile_error!(#message);)
            });
            let skeleton = skeleton(checked);
            quote!(#(#errors)* #skeleton)
        }
    };
    quote! {
        #(#tracking)*
        #body
    }
}

/// The first lines of every generated source file.
pub const HEADER: &str = "// @generated by utter from the agent's responses.yml and memory.yml files.\n// Do not edit: change the YAML files and rebuild.\n\n";

/// The `include_responses!("path")` macro: the path is relative to the
/// invoking crate's `CARGO_MANIFEST_DIR`; I/O errors name the resolved path.
pub fn include_responses(input: TokenStream) -> TokenStream {
    let literal: syn::LitStr = match syn::parse2(input) {
        Ok(lit) => lit,
        Err(_) => {
            return quote!(::core::compile_error!(
                "include_responses! takes one string literal: the agent folder, relative to Cargo.toml, e.g. include_responses!(\"agent\")"
            ););
        }
    };
    let span = literal.span();
    let Ok(manifest_dir) = std::env::var("CARGO_MANIFEST_DIR") else {
        return quote_spanned!(span=> ::core::compile_error!("include_responses!: CARGO_MANIFEST_DIR is not set; build with cargo"););
    };
    let dir = Path::new(&manifest_dir).join(literal.value());
    let files = match crate::load::project::ProjectFiles::read(&dir) {
        Ok(files) => files,
        Err(e) => {
            let message = lit_str(&format!("include_responses!: {e}"));
            return quote_spanned!(span=> ::core::compile_error!(#message););
        }
    };
    let checked = crate::validate::check(&files);
    // Every file read: editing any of them rebuilds the crate.
    let read: Vec<std::path::PathBuf> = files.files.keys().map(|label| dir.join(label)).collect();
    let absolute: Vec<&Path> = read.iter().map(std::path::PathBuf::as_path).collect();
    expand_at(&checked, span, &absolute, &literal.value())
}

/// Formats generated items as a Rust source file (prettyplease).
#[cfg(feature = "pretty")]
pub fn pretty(tokens: TokenStream, header: &str) -> Result<String, String> {
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    Ok(format!("{header}{}", prettyplease::unparse(&file)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_valid_identifiers() {
        assert_eq!(variant_name("utter_ask_shipping"), "UtterAskShipping");
        assert_eq!(variant_name("utter-x.y z"), "UtterXYZ");
        assert_eq!(variant_name("123go"), "R123go");
        assert_eq!(variant_name(""), "Empty");
        assert_eq!(variant_name("self"), "Self_");
        assert_eq!(variant_name("é\"#"), "UE9U22U23");
        assert_eq!(variant_name("r#type"), "RU23Type");
    }

    /// The generated `bool` expression of a condition over entries a, b, c.
    fn condition_code(src: &str) -> String {
        let parsed = crate::condition::parse(src).expect("a valid condition");
        let ids = ["a", "b", "c"];
        let expr =
            parsed.map_refs(&mut |r| ids.iter().position(|i| *i == r.entry).expect("a, b or c"));
        let code = bool_expr(&expr, &mut 0, Precedence::Or).to_string();
        code.replace("ctx . read (& ENTRIES [0]) . truthy ()", "A")
            .replace("ctx . read (& ENTRIES [1]) . truthy ()", "B")
            .replace("ctx . read (& ENTRIES [2]) . truthy ()", "C")
    }

    #[test]
    fn conditions_have_only_the_parentheses_precedence_needs() {
        // Redundant pairs trip rustc's `unused_parens` (slow even when allowed).
        assert_eq!(
            condition_code("session.s.a and session.s.b or session.s.c"),
            "A && B || C"
        );
        assert_eq!(
            condition_code("session.s.a and (session.s.b or session.s.c)"),
            "A && (B || C)"
        );
        assert_eq!(
            condition_code("not (session.s.a and session.s.b)"),
            "! (A && B)"
        );
        assert_eq!(
            condition_code("not session.s.a or not session.s.b"),
            "! A || ! B"
        );
        assert_eq!(
            condition_code("(session.s.a or session.s.b) or session.s.c"),
            "A || B || C"
        );
        assert_eq!(condition_code("not not session.s.a"), "! ! A");
    }
}
