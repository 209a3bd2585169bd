//! What ends a command before its work is done, and how: exit code 2 with
//! a message, or, when standard output's reader went away, quietly.

/// A failure to run: unreadable input, a wrong folder. Exit code 2.
pub struct Fatal(pub String);

/// What a [`Fatal`] holds when standard output was closed by its reader.
pub const STDOUT_CLOSED: &str = "\u{0}stdout closed";

impl<E: std::fmt::Display + 'static> From<E> for Fatal {
    fn from(e: E) -> Self {
        let closed = (&e as &dyn std::any::Any)
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe);
        Fatal(if closed {
            STDOUT_CLOSED.to_owned()
        } else {
            e.to_string()
        })
    }
}
