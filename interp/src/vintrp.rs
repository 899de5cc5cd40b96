//! (Being written: issue 3.)
