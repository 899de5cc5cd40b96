//! Operand meaning: register files, widths and inline constants of `Src` fields.
