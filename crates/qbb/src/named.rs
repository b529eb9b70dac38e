//! Names on the command line and in UCI: one way to print and parse a closed set of values.

/// `Display` as the value's name, and `FromStr` by name (ASCII case ignored) over the type's
/// `ALL`, failing with the given error built from the text. For the values a user types: backends,
/// routines, attack sources.
///
/// `display_and_parse_by_name!(Type, name, Error = Error::Variant)` needs `Type::ALL` (an array
/// or slice of every value) and `fn name(self) -> &'static str`.
#[macro_export]
macro_rules! display_and_parse_by_name {
    ($type:ty, $name:ident, $error:ty = $make_error:path) => {
        impl ::core::fmt::Display for $type {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.$name())
            }
        }

        impl ::core::str::FromStr for $type {
            type Err = $error;

            fn from_str(text: &str) -> ::core::result::Result<Self, $error> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|value| value.$name().eq_ignore_ascii_case(text))
                    .ok_or_else(|| $make_error(text.to_string()))
            }
        }
    };
}
