//! Development hot reload: edits to the agent folder reach a running
//! process without a rebuild, while the typed API stays the compiled one.
//!
//! Generated code holds one [`Reload`] per agent and asks it first on every
//! delivery. Without the `hot-reload` feature that question is an inlined
//! `None`: no watcher, no branch, nothing in a release build.

use utter_runtime::{Delivery, Entry, Reader, Rendered};

#[cfg(feature = "hot-reload")]
mod events;
#[cfg(feature = "hot-reload")]
mod live;
#[cfg(feature = "hot-reload")]
pub use events::{ReloadError, ReloadEvent};

/// What a compiled agent is, as a reload checks an edited one against it.
#[doc(hidden)]
pub struct CompiledAgent {
    /// The agent folder it was compiled from, when known.
    pub folder: Option<&'static str>,
    /// The dialect it was checked in.
    pub dialect: utter_runtime::Dialect,
    pub without_bundled_defaults: bool,
    /// Response names, in `Response::ALL` order.
    pub responses: &'static [&'static str],
    /// Skill ids, sorted.
    pub skills: &'static [&'static str],
    pub entries: &'static [Entry],
    /// The fingerprint of everything the typed API names.
    pub schema: u64,
    /// Per response, the fingerprint of its compiled wording.
    pub wording: &'static [u64],
}

/// A compiled agent's reloadable state (one `static` in generated code).
#[doc(hidden)]
pub struct Reload {
    #[cfg(feature = "hot-reload")]
    live: Option<live::Live>,
}

impl Reload {
    /// The state of `agent`: nothing reloaded yet.
    #[cfg_attr(not(feature = "hot-reload"), allow(unused_variables))]
    pub const fn new(agent: &'static CompiledAgent) -> Self {
        Reload {
            #[cfg(feature = "hot-reload")]
            live: Some(live::Live::new(agent)),
        }
    }

    /// The state of a project with errors (its crate does not compile).
    pub const fn unavailable() -> Self {
        Reload {
            #[cfg(feature = "hot-reload")]
            live: None,
        }
    }

    /// The delivery of response number `response` from the reloaded
    /// program, if one was loaded; else `None` (the compiled code delivers).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    #[cfg_attr(not(feature = "hot-reload"), allow(unused_variables))]
    pub fn deliver<R: Reader>(
        &'static self,
        response: usize,
        reader: &R,
    ) -> Option<Delivery<'static>> {
        #[cfg(feature = "hot-reload")]
        {
            self.live.as_ref()?.deliver(response, reader)
        }
        #[cfg(not(feature = "hot-reload"))]
        {
            None
        }
    }

    /// [`Reload::deliver`] as a [`Rendered`].
    #[allow(clippy::inline_always)]
    #[inline(always)]
    #[cfg_attr(not(feature = "hot-reload"), allow(unused_variables))]
    pub fn rendered<'r, R: Reader>(
        &'static self,
        response: usize,
        reader: &'r R,
    ) -> Option<Rendered<'r, R>> {
        #[cfg(feature = "hot-reload")]
        {
            let live = self.live.as_ref()?;
            let delivery = live.deliver(response, reader)?;
            Some(Rendered::owned(delivery, live.agent().entries, reader))
        }
        #[cfg(not(feature = "hot-reload"))]
        {
            None
        }
    }
}

/// The development hot reload of one compiled agent: `responses::hot_reload()`.
///
/// With utter's `hot-reload` feature (a development tool: enable it for
/// `cargo run` only, see docs/typed-api.md), the first delivery starts watching
/// the folder the agent was compiled from. Each edit is checked in full; a
/// valid edit that changes only wording (texts, conditions, rephrase flags)
/// takes effect atomically for the next deliveries, through the typed view
/// and [`Context`](crate::Context) alike. An invalid edit, or one that
/// changes what the typed API names (a response, skill or memory entry
/// added, removed or retyped; skill.md references), never takes effect:
/// the last good wording stays and a `ReloadEvent` says why.
///
/// Without the feature this handle has no methods and delivery is exactly
/// the compiled code.
#[derive(Clone, Copy)]
pub struct HotReload {
    #[cfg_attr(not(feature = "hot-reload"), allow(dead_code))]
    reload: &'static Reload,
}

impl HotReload {
    /// The handle of a compiled agent's state (generated code calls this).
    #[doc(hidden)]
    #[must_use]
    pub const fn of(reload: &'static Reload) -> Self {
        HotReload { reload }
    }
}

impl std::fmt::Debug for HotReload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HotReload").finish_non_exhaustive()
    }
}
