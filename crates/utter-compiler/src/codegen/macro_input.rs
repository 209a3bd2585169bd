//! The front end of `include_responses!`: the macro's input (the agent
//! folder, then options), the folder read relative to the invoking crate,
//! and the expansion (askama keeps its macro input apart the same way).

use std::path::Path;

use proc_macro2::TokenStream;
use quote::quote_spanned;

use super::{ExpandOptions, Origin, OriginFolder, Strategy, expand_at, lit_str};

/// The `include_responses!("path")` macro: the path is relative to the
/// invoking crate's `CARGO_MANIFEST_DIR`; a missing folder is named as written.
pub fn include_responses(input: TokenStream) -> TokenStream {
    let MacroInput {
        literal,
        mut options,
        without_bundled_defaults,
        dialect,
    } = match syn::parse2(input) {
        Ok(input) => input,
        // A bad option says what is wrong with it.
        Err(e)
            if e.to_string().starts_with("unknown option")
                || e.to_string().contains("exclude each other") =>
        {
            return e.to_compile_error();
        }
        Err(e) => {
            return quote_spanned!(e.span()=> ::core::compile_error!(
                "include_responses! takes the agent folder as a string literal, relative to Cargo.toml, then optionally `deny_warnings`, `without_bundled_defaults`, `compact` or `straight_line`, and `maestro` or `mantle`: include_responses!(\"agent\") or include_responses!(\"agent\", deny_warnings)"
            ););
        }
    };
    let span = literal.span();
    let Ok(manifest_dir) = std::env::var("CARGO_MANIFEST_DIR") else {
        return quote_spanned!(span=> ::core::compile_error!("include_responses!: CARGO_MANIFEST_DIR is not set; build with cargo"););
    };
    let dir = Path::new(&manifest_dir).join(literal.value());
    // The macro's options; without `maestro`/`mantle`, the agent's utter.yml.
    let opened = crate::Agent::open(
        &dir,
        crate::OpenOptions {
            dialect,
            without_bundled_defaults,
        },
    );
    let agent = match opened {
        Ok(agent) => agent,
        Err(e) => {
            // A missing folder is named as written, relative to the crate:
            // that is where the user looks, and the message does not
            // depend on where the crate is built.
            let message = match e {
                crate::load::project::ReadError::NotADirectory(path) => {
                    let near =
                        crate::load::project::near_folder(&path).map_or_else(String::new, |near| {
                            let fixed = Path::new(&literal.value()).with_file_name(near);
                            format!("; did you mean `{}`?", fixed.display())
                        });
                    format!(
                        "include_responses!: agent folder `{}` does not exist or is not a folder (the path is relative to the folder of the crate's Cargo.toml){near}",
                        literal.value()
                    )
                }
                // The words of every other way in, with the path as written.
                crate::load::project::ReadError::NotAnAgent(_, below) => format!(
                    "include_responses!: {} (the path is relative to the folder of the crate's Cargo.toml)",
                    crate::load::project::ReadError::NotAnAgent(
                        std::path::PathBuf::from(literal.value()),
                        below
                    )
                ),
                other => format!("include_responses!: {other}"),
            };
            let message = lit_str(&message);
            return quote_spanned!(span=> ::core::compile_error!(#message););
        }
    };
    options.origin = Origin {
        folder: OriginFolder::ManifestRelative(literal.value()),
        dialect: agent.dialect(),
        without_bundled_defaults,
    };
    // Every file read: editing any of them rebuilds the crate.
    let read: Vec<std::path::PathBuf> = agent
        .files()
        .files
        .keys()
        .map(|label| dir.join(label))
        .collect();
    let absolute: Vec<&Path> = read.iter().map(std::path::PathBuf::as_path).collect();
    // Paths as rustc prints its own: relative to where it runs (the workspace
    // root under cargo), so an editor or terminal opens them.
    let shown = std::env::current_dir()
        .ok()
        .and_then(|cwd| dir.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(
            || literal.value(),
            |p| p.to_string_lossy().replace('\\', "/"),
        );
    expand_at(&agent, span, &absolute, &shown, &options)
}

/// `"agent"`, then options: `deny_warnings`, `without_bundled_defaults`,
/// `compact` or `straight_line`, `maestro` or `mantle`.
struct MacroInput {
    literal: syn::LitStr,
    options: ExpandOptions,
    without_bundled_defaults: bool,
    /// `maestro` or `mantle` when given.
    dialect: Option<crate::bundled::Dialect>,
}

impl syn::parse::Parse for MacroInput {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let literal = input.parse()?;
        let mut options = ExpandOptions::default();
        let mut without_bundled_defaults = false;
        let mut dialect = None;
        while input.parse::<Option<syn::Token![,]>>()?.is_some() && !input.is_empty() {
            let option: syn::Ident = input.parse()?;
            let strategy = if option == "deny_warnings" {
                options.deny_warnings = true;
                None
            } else if option == "without_bundled_defaults" {
                without_bundled_defaults = true;
                None
            } else if let Some(named) = crate::bundled::Dialect::from_name(&option.to_string()) {
                dialect = Some(named);
                None
            } else if option == "compact" {
                Some(Strategy::Compact)
            } else if option == "straight_line" {
                Some(Strategy::StraightLine)
            } else {
                let options = [
                    "deny_warnings",
                    "without_bundled_defaults",
                    "compact",
                    "straight_line",
                ];
                let near = crate::diagnostics::did_you_mean(&option.to_string(), options)
                    .map_or_else(String::new, |near| format!("; did you mean `{near}`?"));
                return Err(syn::Error::new(
                    option.span(),
                    format!(
                        "unknown option `{option}` (expected one of `deny_warnings`, `without_bundled_defaults`, `compact`, `straight_line`, `maestro`, `mantle`){near}"
                    ),
                ));
            };
            if let Some(strategy) = strategy {
                if options.strategy != Strategy::Auto {
                    return Err(syn::Error::new(
                        option.span(),
                        "`compact` and `straight_line` exclude each other; give one",
                    ));
                }
                options.strategy = strategy;
            }
        }
        if !input.is_empty() {
            return Err(input.error("unexpected tokens"));
        }
        Ok(MacroInput {
            literal,
            options,
            without_bundled_defaults,
            dialect,
        })
    }
}
