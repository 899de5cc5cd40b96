//! VP1 scalar unit semantics. (Being written: issue 7.)
