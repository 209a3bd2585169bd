//! Loading: project files from disk, YAML into spanned nodes.
pub mod yaml;
