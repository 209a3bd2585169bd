//! The typed memory of an agent: the entry table, `Memory` with one typed
//! field per declared entry (grouped by namespace), a `enum` per categorical
//! entry, and `View`, the typed reader that straight-line code reads
//! through without dynamic dispatch.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;
use utter::{EntryType, Visibility};

use super::idents::{rust_ident as ident, yaml_variant};
use super::lit_str;
use crate::bundled;
use crate::load::memory::MemoryDecl;
use crate::names::{TypedNames, doc_text, typed_names};

/// The text a placeholder of `decl` shows while it is unset, if any.
fn unset_text(decl: &MemoryDecl) -> Option<&'static str> {
    bundled::UNSET_TEXTS
        .iter()
        .find(|(ns, name, _)| *ns == decl.namespace && *name == decl.name)
        .map(|(_, _, text)| *text)
}

fn entry_type(ty: EntryType) -> TokenStream {
    match ty {
        EntryType::Any => quote!(Any),
        EntryType::Text => quote!(Text),
        EntryType::Int => quote!(Int),
        EntryType::Float => quote!(Float),
        EntryType::Bool => quote!(Bool),
        EntryType::List => quote!(List),
        EntryType::Json => quote!(Json),
        EntryType::Categorical => quote!(Categorical),
    }
}

/// The `ENTRIES` table, an item of the compiled module.
pub fn entry_table(decls: &[MemoryDecl]) -> TokenStream {
    let entries = decls.iter().enumerate().map(|(index, d)| {
        let id = Literal::usize_unsuffixed(index);
        let constant = super::idents::entry_const(index);
        let ns = lit_str(&d.namespace);
        let name = lit_str(&d.name);
        let vis = match d.visibility {
            Visibility::Project => quote!(Project),
            Visibility::Public => quote!(Public),
            Visibility::Private => quote!(Private),
        };
        let unset = match unset_text(d) {
            Some(t) => {
                let t = lit_str(t);
                quote!(Some(#t))
            }
            None => quote!(None),
        };
        let ty = entry_type(d.ty);
        let values = d.values.iter().map(|v| lit_str(v));
        let pii = d.pii;
        quote!(const #constant: Entry = Entry { id: #id, namespace: #ns, name: #name, visibility: #vis, unset_text: #unset, ty: EntryType::#ty, values: &[#(#values),*], pii: #pii };)
    });
    let names = (0..decls.len()).map(super::idents::entry_const);
    let count = Literal::usize_unsuffixed(decls.len());
    // Each entry is also a `const`: compiled code reads `&E3`, whose `id`
    // the optimiser sees (a load from a static of another crate it cannot
    // fold), so a typed view's read folds to one field access.
    quote! {
        #(#entries)*

        /// The declared memory entries, sorted by namespace then name; an
        /// entry's `id` is its index.
        pub static ENTRIES: [Entry; #count] = [#(#names),*];
    }
}

/// The Rust type of an entry's field (inside `Option`).
fn field_type(decl: &MemoryDecl, enum_name: Option<&str>) -> TokenStream {
    match (decl.ty, enum_name) {
        (EntryType::Categorical, Some(name)) => {
            let name = ident(name);
            quote!(#name)
        }
        (EntryType::Text | EntryType::Categorical, _) => quote!(::std::string::String),
        (EntryType::Int, _) => quote!(i64),
        (EntryType::Float, _) => quote!(f64),
        (EntryType::Bool, _) => quote!(bool),
        (EntryType::Any | EntryType::Json | EntryType::List, _) => quote!(::utter::Value),
    }
}

/// The doc lines of an entry's field.
fn field_doc(decl: &MemoryDecl) -> Vec<String> {
    let visibility = match decl.visibility {
        Visibility::Project => "project (readable everywhere)",
        Visibility::Public => "public (readable by every skill)",
        Visibility::Private => "private (readable while its skill is active)",
    };
    let mut doc = vec![format!(
        " `session.{}.{}`: `{}`, {visibility}.",
        doc_text(&decl.namespace, 80),
        doc_text(&decl.name, 80),
        decl.ty
    )];
    if !decl.values.is_empty() {
        let values: Vec<String> = decl.values.iter().map(|v| doc_text(v, 40)).collect();
        doc.push(format!(" Values: `{}`.", values.join("`, `")));
    }
    if let Some(description) = decl.description.as_ref().or(decl.comment.as_ref()) {
        doc.push(String::new());
        doc.push(format!(" {}", doc_text(description, 300)));
    }
    if decl.pii {
        doc.push(String::new());
        doc.push(" Personal data (`pii: true`).".to_owned());
    }
    doc.push(String::new());
    doc.push(format!(" Declared in `{}`.", doc_text(&decl.file, 200)));
    doc
}

/// `namespace_field.entry_field` of entry `id` within `Memory`.
fn field_path(decl: &MemoryDecl, names: &TypedNames, id: usize) -> TokenStream {
    let (_, ns_field, _) = names
        .namespaces
        .iter()
        .find(|(n, _, _)| *n == decl.namespace)
        .expect("every namespace is named");
    let ns_field = ident(ns_field);
    let field = ident(&names.entries[id].field);
    quote!(#ns_field.#field)
}

/// The field read as a `ValueRef` (for `Memory::slot`).
fn field_read(decl: &MemoryDecl, names: &TypedNames, id: usize) -> TokenStream {
    let path = field_path(decl, names, id);
    let access = quote!(self.#path);
    match (decl.ty, &names.entries[id].enum_name) {
        (EntryType::Categorical, Some(name)) => {
            let name = ident(name);
            quote!(::utter::__private::categorical(#access.map(#name::as_str)))
        }
        (EntryType::Text | EntryType::Categorical, _) => quote!(::utter::__private::text(&#access)),
        (EntryType::Int, _) => quote!(::utter::__private::int(&#access)),
        (EntryType::Float, _) => quote!(::utter::__private::float(&#access)),
        (EntryType::Bool, _) => quote!(::utter::__private::boolean(&#access)),
        _ => quote!(::utter::__private::dynamic(&#access)),
    }
}

/// The field written from a value its entry accepted (for `Memory::set`).
fn field_write(
    decl: &MemoryDecl,
    names: &TypedNames,
    id: usize,
    value: TokenStream,
) -> TokenStream {
    let path = field_path(decl, names, id);
    let converted = match (decl.ty, &names.entries[id].enum_name) {
        (EntryType::Categorical, Some(_)) => {
            quote!(::utter::__private::into_text(#value).and_then(|text| text.parse().ok()))
        }
        (EntryType::Text | EntryType::Categorical, _) => {
            quote!(::utter::__private::into_text(#value))
        }
        (EntryType::Int, _) => quote!(::utter::__private::into_int(#value)),
        (EntryType::Float, _) => quote!(::utter::__private::into_float(#value)),
        (EntryType::Bool, _) => quote!(::utter::__private::into_bool(#value)),
        _ => quote!(::utter::__private::into_dynamic(#value)),
    };
    quote!(self.#path = #converted)
}

/// One categorical entry's enum.
fn categorical_enum(decl: &MemoryDecl, name: &str, variants: &[String]) -> TokenStream {
    let name = ident(name);
    let idents: Vec<Ident> = variants.iter().map(|v| ident(v)).collect();
    let values: Vec<Literal> = decl.values.iter().map(|v| lit_str(v)).collect();
    let docs = decl
        .values
        .iter()
        .map(|v| format!(" `{}`", doc_text(v, 80)));
    let indices = (0..idents.len()).map(Literal::usize_unsuffixed);
    let doc = format!(
        " The values of categorical entry `session.{}.{}`.",
        doc_text(&decl.namespace, 80),
        doc_text(&decl.name, 80)
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(dead_code, clippy::enum_variant_names)]
        pub enum #name {
            #( #[doc = #docs] #idents = #indices, )*
        }

        #[allow(dead_code)]
        impl #name {
            /// The value as written in `enum_values`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { #( #name::#idents => #values, )* }
            }

            /// Every value, in declared order.
            pub const ALL: &'static [#name] = &[#(#name::#idents),*];

            /// Every value, in declared order ([`Self::ALL`]).
            #[must_use]
            pub const fn all() -> &'static [#name] {
                Self::ALL
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for #name {
            type Err = ::utter::UnknownValue;

            fn from_str(text: &str) -> ::core::result::Result<Self, Self::Err> {
                match text {
                    #( #values => ::core::result::Result::Ok(#name::#idents), )*
                    _ => ::core::result::Result::Err(::utter::UnknownValue::new(text, &[#(#values),*])),
                }
            }
        }
    }
}

/// `Memory`, its namespace structs, the categorical enums and `View`.
/// `decls` are sorted by namespace, then name (their index is the entry id).
/// A code template: most of its lines are the generated items, read best
/// whole (tests/architecture.rs, `functions_stay_short`).
pub fn typed_memory(decls: &[MemoryDecl]) -> TokenStream {
    let names = typed_names(decls);
    if !names.collisions.is_empty() {
        // Reported as findings; an expansion with errors keeps going.
        return typed_memory(&[]);
    }
    let (enums, structs) = namespace_types(decls, &names);
    let ReaderBodies {
        value_body,
        holds_body,
        holds_text_body,
    } = reader_bodies(decls, &names);
    let ns_fields = names.namespaces.iter().map(|(ns, field, struct_name)| {
        let field = ident(field);
        let ty = ident(struct_name);
        let doc = format!(" `session.{}.*`", doc_text(ns, 80));
        quote!(#[doc = #doc] pub #field: #ty)
    });
    let reads = decls.iter().enumerate().map(|(id, d)| {
        let read = field_read(d, &names, id);
        let id = Literal::usize_unsuffixed(id);
        quote!(#id => #read)
    });
    let writes = decls.iter().enumerate().map(|(id, d)| {
        let write = field_write(d, &names, id, quote!(value));
        let id = Literal::usize_unsuffixed(id);
        quote!(#id => #write)
    });
    let clears = decls.iter().enumerate().map(|(id, d)| {
        let path = field_path(d, &names, id);
        let id = Literal::usize_unsuffixed(id);
        quote!(#id => self.#path = ::core::option::Option::None)
    });
    quote! {
        #(#enums)*
        #(#structs)*

        /// The agent's memory: one typed field per entry declared in its
        /// `memory.yml` files, grouped by namespace. Write fields directly
        /// (`memory.card_replace.replacement_reason = Some(...)`), or by name
        /// with [`Memory::set`] when values arrive as data.
        #[derive(Clone, Debug, Default, PartialEq)]
        #[allow(non_snake_case)]
        pub struct Memory {
            #(#ns_fields,)*
        }

        // An agent without entries has matches of one wildcard arm here.
        #[allow(dead_code, clippy::match_single_binding)]
        impl Memory {
            /// Empty memory: every entry unset.
            #[must_use]
            pub fn new() -> Self {
                <Self as ::core::default::Default>::default()
            }

            /// Sets `namespace.name` from a dynamic value (JSON from an
            /// orchestrator, say), checked against the declared type: an
            /// undeclared entry or a value of another type is an error and
            /// nothing is stored. `None` unsets the entry; an int written to
            /// a `float` entry is stored as that float.
            ///
            /// # Errors
            ///
            /// [`::utter::SetError`] when no memory.yml declares the entry,
            /// or the value does not fit its declared type.
            pub fn set(
                &mut self,
                namespace: &str,
                name: &str,
                value: impl ::core::convert::Into<::utter::Value>,
            ) -> ::core::result::Result<(), ::utter::SetError> {
                let entry = ::utter::find_entry(&ENTRIES, namespace, name)?;
                let value = entry.accept(value.into())?;
                match entry.id {
                    #(#writes,)*
                    _ => {}
                }
                ::core::result::Result::Ok(())
            }

            /// Unsets `namespace.name`.
            ///
            /// # Errors
            ///
            /// [`::utter::SetError`] when no memory.yml declares the entry.
            pub fn unset(&mut self, namespace: &str, name: &str) -> ::core::result::Result<(), ::utter::SetError> {
                match ::utter::find_entry(&ENTRIES, namespace, name)?.id {
                    #(#clears,)*
                    _ => {}
                }
                ::core::result::Result::Ok(())
            }

            /// The view of this memory while `skill` is active (`None`: the
            /// project-root view). Deliver typed responses through it.
            #[must_use]
            pub fn view(&self, skill: impl ::core::convert::Into<::core::option::Option<Skill>>) -> View<'_> {
                View { memory: self, skill: skill.into() }
            }

            /// The value of entry `id`, whatever the view.
            // Measured: a typed read must fold to one field access.
            #[allow(clippy::inline_always)]
            #[inline(always)]
            fn slot(&self, id: usize) -> ::utter::ValueRef<'_> {
                match id {
                    #(#reads,)*
                    _ => ::utter::ValueRef::None,
                }
            }
        }

        impl ::utter::SetMemory for Memory {
            fn set_value(&mut self, namespace: &str, name: &str, value: ::utter::Value) -> ::core::result::Result<(), ::utter::SetError> {
                self.set(namespace, name, value)
            }
        }

        impl ::utter::Memory for Memory {
            #[inline]
            fn get(&self, entry: ::utter::EntryKey<'_>) -> ::utter::ValueRef<'_> {
                self.slot(entry.id)
            }
        }

        /// Typed memory as one skill sees it: what straight-line delivery
        /// reads, with no dynamic dispatch.
        #[derive(Clone, Copy, Debug)]
        pub struct View<'m> {
            memory: &'m Memory,
            skill: ::core::option::Option<Skill>,
        }

        #[allow(dead_code)]
        impl<'m> View<'m> {
            /// The active skill.
            #[must_use]
            pub fn skill(&self) -> ::core::option::Option<Skill> {
                self.skill
            }

            /// The same view as a [`::utter::Context`] (for `when:` triggers and
            /// code written against any memory).
            #[must_use]
            pub fn context(&self) -> ::utter::Context<'m> {
                match self.skill {
                    ::core::option::Option::Some(skill) => ::utter::Context::for_skill(self.memory, skill),
                    ::core::option::Option::None => ::utter::Context::new(self.memory),
                }
            }

            /// Delivers `response` (one allocation when the text is interpolated).
            #[allow(clippy::inline_always)]
            #[inline(always)]
            #[must_use]
            pub fn deliver(&self, response: Response) -> ::utter::Delivery<'static> {
                if let ::core::option::Option::Some(delivery) = __utter_compiled::RELOAD.deliver(response.index(), self) {
                    return delivery;
                }
                __utter_compiled::deliver_view(response.index(), self)
            }

            /// Delivers the response called `name` in this view (a name from
            /// a dialogue manager); an unknown name delivers the name itself
            /// (fail closed, never rephrased). The view is read only for a
            /// name the agent has.
            #[inline]
            #[must_use]
            pub fn deliver_name<'n>(&self, name: &'n str) -> ::utter::Delivery<'n> {
                match Response::from_name(name) {
                    ::core::option::Option::Some(response) => self.deliver(response),
                    ::core::option::Option::None => ::utter::Delivery::fallback(name),
                }
            }

            /// Why `response` delivers what it does in this view: each
            /// condition's outcome and the rule that decided (`explain`).
            #[must_use]
            pub fn explain(&self, response: Response) -> ::utter::Explanation<'static> {
                __utter_compiled::explain(response.index(), self)
            }

            /// Selects `response` without rendering it: `Display` (or
            /// `write_to`) writes the text into your buffer, allocation-free.
            #[allow(clippy::inline_always)]
            #[inline(always)]
            #[must_use]
            pub fn render(&self, response: Response) -> ::utter::Rendered<'_, Self> {
                if let ::core::option::Option::Some(rendered) = __utter_compiled::RELOAD.rendered(response.index(), self) {
                    return rendered;
                }
                __utter_compiled::rendered_view(response.index(), self)
            }
        }

        impl ::utter::Reader for View<'_> {
            #[inline]
            fn skill_id(&self) -> ::core::option::Option<&str> {
                self.skill.map(Skill::id)
            }

            // Always inlined: the entry is a constant where compiled code
            // reads it, so the match folds to the one field read (measured).
            // Arms alike per visibility, as the entries are.
            #[allow(clippy::inline_always, clippy::match_same_arms)]
            #[inline(always)]
            fn value<S: ::core::convert::AsRef<str>, V>(&self, entry: &::utter::Entry<S, V>) -> ::utter::ValueRef<'_> {
                #value_body
            }

            // Measured: a typed read must fold to one field access.
            #[allow(clippy::inline_always)]
            #[inline(always)]
            fn holds_value(&self, entry: &::utter::Entry, index: usize) -> bool {
                #holds_body
            }

            // The compact form's `holds_value`: the same arms.
            #[allow(clippy::inline_always)]
            #[inline(always)]
            fn holds_text<S: ::core::convert::AsRef<str>, V>(&self, entry: &::utter::Entry<S, V>, index: usize, text: &str) -> bool {
                #holds_text_body
            }
        }
    }
}

/// One struct per namespace (its typed fields) and one enum per categorical
/// entry.
fn namespace_types(
    decls: &[MemoryDecl],
    names: &TypedNames,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut structs = Vec::new();
    let mut enums = Vec::new();
    for (ns, _, struct_name) in &names.namespaces {
        let struct_ident = ident(struct_name);
        let members: Vec<(usize, &MemoryDecl)> = decls
            .iter()
            .enumerate()
            .filter(|(_, d)| d.namespace == *ns)
            .collect();
        let fields = members.iter().map(|(id, d)| {
            let field = ident(&names.entries[*id].field);
            let ty = field_type(d, names.entries[*id].enum_name.as_deref());
            let doc = field_doc(d);
            quote!(#(#[doc = #doc])* pub #field: ::core::option::Option<#ty>)
        });
        let file = members.first().map_or("", |(_, d)| d.file.as_str());
        let doc = if ns == "project" {
            " The `project` namespace: the root `memory.yml`.".to_owned()
        } else {
            format!(
                " The memory of skill `{}` (`{}`).",
                doc_text(ns, 80),
                doc_text(file, 200)
            )
        };
        let personal = members.iter().any(|(_, d)| d.pii);
        let derives = if personal {
            quote!(#[derive(Clone, Default, PartialEq)])
        } else {
            quote!(#[derive(Clone, Debug, Default, PartialEq)])
        };
        structs.push(quote! {
            #[doc = #doc]
            #derives
            #[allow(non_snake_case)]
            pub struct #struct_ident {
                #(#fields,)*
            }
        });
        if personal {
            structs.push(personal_debug(&struct_ident, struct_name, &members, names));
        }
        for (id, d) in &members {
            if let Some(name) = &names.entries[*id].enum_name {
                enums.push(categorical_enum(d, name, &names.entries[*id].variants));
            }
        }
    }
    (enums, structs)
}

/// `Debug` for a namespace holding personal entries: each `pii: true`
/// field written as `Some(<personal, hidden>)`, never its value.
fn personal_debug(
    struct_ident: &Ident,
    struct_name: &str,
    members: &[(usize, &MemoryDecl)],
    names: &TypedNames,
) -> TokenStream {
    let fields = members.iter().map(|(id, d)| {
        let name = &names.entries[*id].field;
        let field = ident(name);
        if d.pii {
            quote!(.field(#name, &::utter::__private::Personal(&self.#field)))
        } else {
            quote!(.field(#name, &self.#field))
        }
    });
    quote! {
        impl ::core::fmt::Debug for #struct_ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#struct_name)
                    #(#fields)*
                    .finish()
            }
        }
    }
}

/// The bodies of the typed view's `Reader` methods: each entry read as one
/// field, a private entry guarded by its skill, a categorical entry compared
/// by value number.
struct ReaderBodies {
    value_body: TokenStream,
    holds_body: TokenStream,
    holds_text_body: TokenStream,
}

fn reader_bodies(decls: &[MemoryDecl], names: &TypedNames) -> ReaderBodies {
    // A private entry reads as None unless its own skill is active.
    let guards = decls
        .iter()
        .enumerate()
        .filter(|(_, d)| d.visibility.depends_on_active_skill())
        .map(|(id, d)| {
            let skill = yaml_variant(&d.namespace);
            let id = Literal::usize_unsuffixed(id);
            quote!(#id if self.skill != ::core::option::Option::Some(Skill::#skill) => ::utter::ValueRef::None)
        });
    let guards: Vec<TokenStream> = guards.collect();
    let value_body = if guards.is_empty() {
        quote!(self.memory.slot(entry.id))
    } else {
        quote! {
            match entry.id {
                #(#guards,)*
                id => self.memory.slot(id),
            }
        }
    };
    let categorical = decls.iter().enumerate().filter_map(|(id, d)| {
        names.entries[id].enum_name.as_ref()?;
        let path = field_path(d, names, id);
        let readable = if d.visibility.depends_on_active_skill() {
            let skill = yaml_variant(&d.namespace);
            quote!(self.skill == ::core::option::Option::Some(Skill::#skill) &&)
        } else {
            quote!()
        };
        let id = Literal::usize_unsuffixed(id);
        Some(quote! {
            #id => #readable matches!(self.memory.#path, ::core::option::Option::Some(value) if value as usize == index)
        })
    });
    let categorical: Vec<TokenStream> = categorical.collect();
    let fallback = quote!(::utter::__private::eq_str(
        self.value(entry),
        entry.values[index]
    ));
    let holds_body = if categorical.is_empty() {
        fallback
    } else {
        quote! {
            match entry.id {
                #(#categorical,)*
                _ => #fallback,
            }
        }
    };
    let text_fallback = quote!(::utter::__private::eq_str(self.value(entry), text));
    let holds_text_body = if categorical.is_empty() {
        // No value numbers to compare: the text answers.
        quote! {
            let _ = index;
            #text_fallback
        }
    } else {
        quote! {
            match entry.id {
                #(#categorical,)*
                _ => #text_fallback,
            }
        }
    };
    ReaderBodies {
        value_body,
        holds_body,
        holds_text_body,
    }
}
