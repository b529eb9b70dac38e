//! Constant tables: index vectors, masks and keys computed at compile time.

/// `[value(0), value(1), .., value(N - 1)]` as a constant expression, `N` taken from the type the
/// result is given: `const MIRROR: [u8; 32] = const_table!(|i| ((i & 8) + 7 - (i & 7)) as u8);`.
/// A `const fn` cannot take a closure, so the loop is written here once. Elements start as `0`,
/// or as the given value: `const_table!([0; 4], |i| ..)` for a table of arrays.
macro_rules! const_table {
    (|$i:ident| $value:expr) => {
        const_table!(0, |$i| $value)
    };
    ($zero:expr, |$i:ident| $value:expr) => {{
        let mut table = [$zero; _];
        let mut $i = 0;
        while $i < table.len() {
            table[$i] = $value;
            $i += 1;
        }
        table
    }};
}
