//! What generated code calls; not a stable API. Each item lives in the
//! module of its concern; this one only gathers them.

pub use crate::compiled::{Selected, deliver, pick, rendered};
pub use crate::delivery::Delivery;
pub use crate::fast::{
    eq_bool, eq_float, eq_int, eq_str, holds, int_key, ord_float, ord_int, ord_str,
};
pub use crate::fields::{
    boolean, categorical, dynamic, float, int, into_bool, into_dynamic, into_float, into_int,
    into_text, text,
};
pub use crate::guard::Personal;
pub use crate::lookup::{lookup, name_hash};
pub use crate::memory::{Context, Entry, Reader};
pub use crate::piece::{Piece, Variant};
pub use crate::program::{Choice, Program};
pub use crate::template::{Rendered, render};
pub use crate::value::{CmpOp, EvalError, Value, ValueRef, compare};
pub use crate::writer::{Out, WriteFn, Writer, put, written};
