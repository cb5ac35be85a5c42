//! Declared options: a ruleset names each option once ([`ruleset_options!`](crate::ruleset_options))
//! and gets its table, parsing, canonical specification, builders and getters; every
//! combination of the declared values comes from [`option_combinations`].

use crate::error::SpecError;
use crate::prelude::*;
use crate::ruleset::Ruleset;
use crate::spec::{OptionInfo, RulesetSpec};

/// `String` for the code [`ruleset_options!`](crate::ruleset_options) generates in a crate
/// that may be `no_std`.
#[doc(hidden)]
pub use alloc::string::String as __String;

/// Implements [`OptionValue`](crate::OptionValue) for a fieldless enum by listing each variant with its spelling;
/// or declares such an enum (deriving `Clone, Copy, Debug, Default, PartialEq, Eq, Hash`, so
/// one variant must be `#[default]`) with each variant's spelling after it; or declares an
/// integer option type: a newtype over an integer that accepts exactly the listed numbers,
/// spelt as written.
///
/// ```
/// use senet_core::{OptionValue, option_value};
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// enum Timing { Stored, Immediate }
/// option_value!(Timing { Stored = "stored", Immediate = "immediate" });
/// assert_eq!(Timing::parse("immediate"), Some(Timing::Immediate));
/// assert_eq!(Timing::Stored.spelling(), "stored");
///
/// option_value!(
///     /// Where pieces start.
///     pub enum Start {
///         /// The default.
///         #[default]
///         Row = "row",
///         Column = "column",
///     }
/// );
/// assert_eq!(Start::default().spelling(), "row");
/// assert_eq!(Start::parse("column"), Some(Start::Column));
///
/// option_value!(
///     /// Pieces a side.
///     pub struct PieceCount(u8) { 5, 6, 7 }
/// );
/// assert_eq!(PieceCount::parse("6").map(PieceCount::get), Some(6));
/// assert_eq!(PieceCount::parse("8"), None);
/// assert_eq!(PieceCount::new(7).map(|n| n.spelling()), Some("7"));
/// assert_eq!(PieceCount::new(4), None);
/// ```
#[macro_export]
macro_rules! option_value {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident {
            $($(#[$vmeta:meta])* $variant:ident = $spelling:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis enum $ty {
            $($(#[$vmeta])* $variant,)+
        }

        $crate::option_value!($ty { $($variant = $spelling),+ });
    };
    ($ty:ident { $($variant:ident = $spelling:literal),+ $(,)? }) => {
        impl $crate::OptionValue for $ty {
            const VALUES: &'static [$ty] = &[$($ty::$variant),+];
            const SPELLINGS: &'static [&'static str] = &[$($spelling),+];
        }
    };
    ($(#[$meta:meta])* $vis:vis struct $ty:ident($int:ty) { $($n:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis struct $ty($int);

        impl $ty {
            /// The value `n`, if it is one of the declared numbers.
            pub fn new(n: $int) -> Option<Self> {
                <Self as $crate::OptionValue>::VALUES.iter().copied().find(|v| v.0 == n)
            }

            /// The number.
            pub const fn get(self) -> $int {
                self.0
            }
        }

        impl $crate::OptionValue for $ty {
            const VALUES: &'static [$ty] = &[$($ty($n)),+];
            const SPELLINGS: &'static [&'static str] = &[$(stringify!($n)),+];
        }
    };
}

/// The position of `text` in `spellings`; stops compilation when it is missing, so that a
/// declared default that is not one of the option's values never builds.
#[doc(hidden)]
pub const fn index_of(spellings: &[&str], text: &str) -> usize {
    let mut i = 0;
    while i < spellings.len() {
        if same_text(spellings[i], text) {
            return i;
        }
        i += 1;
    }
    panic!("a declared default is not one of its option's values")
}

/// Whether two strings are equal, in a constant (`==` on `str` is not `const`).
///
/// ```
/// use senet_core::options::same_text;
/// const SAME: bool = same_text("kendall", "kendall");
/// assert!(SAME);
/// assert!(!same_text("kendall", "kendal"));
/// ```
pub const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `spellings` with the default moved to the front, as [`OptionInfo::values`] lists them.
#[doc(hidden)]
pub const fn default_first<const N: usize>(
    spellings: &[&'static str],
    default: &str,
) -> [&'static str; N] {
    assert!(spellings.len() == N, "N is the number of spellings");
    let d = index_of(spellings, default);
    let mut out = [""; N];
    out[0] = spellings[d];
    let (mut i, mut j) = (0, 1);
    while i < N {
        if i != d {
            out[j] = spellings[i];
            j += 1;
        }
        i += 1;
    }
    out
}

/// Declares a ruleset's options once and generates everything that follows from them.
///
/// Each option is one entry: a one-line doc comment (the table's; further doc lines go to
/// the builder and getter only), an optional visibility for its accessors, its name (which
/// is also the field and the getter), its [`OptionValue`](crate::OptionValue) type (`bool`, an enum, or an
/// integer type declared with [`option_value!`](crate::option_value)), its default as written
/// in a specification, the rule ids it changes, and the name of its builder. A trailing `check path;` names a function run on every parsed configuration,
/// for combinations the ruleset refuses ([`SpecError::Conflict`]).
///
/// The macro generates:
///
/// - the struct, one private field per option, and its `Default` (the declared defaults);
/// - for each option a builder `with_…(self, value) -> Self` and a getter `name(&self)`, both
///   `const fn`, documented from the entry;
/// - three private items for the [`Ruleset`](crate::Ruleset) impl to forward to:
///   `OPTION_TABLE` (the [`OptionInfo`]s, in declared order, default first), `read_options`
///   (parses a specification; an unknown option or value is an error) and `option_spec` (the
///   canonical specification: declared order, defaults left out).
///
/// A default that is not one of the type's spellings does not compile.
///
/// ```
/// use senet_core::{Ruleset, RulesetSpec, SpecError, Throw, option_value, ruleset_options};
/// # use senet_core::{BitBoard, FieldInfo, Move, MoveList, Outcome, Phase, PositionError};
/// # use senet_core::{SeatRule, Setup, Side, Sticks};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// pub enum Pieces { Seven, Five }
/// option_value!(Pieces { Seven = "7", Five = "5" });
/// option_value!(
///     /// Rounds to play.
///     pub struct Rounds(u8) { 1, 2, 3 }
/// );
///
/// ruleset_options! {
///     /// A toy ruleset.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
///     pub struct Toy {
///         /// pieces a side
///         pub pieces: Pieces = 7, rules "T-1", with_pieces;
///         /// a piece landing on 27 goes back to 15
///         ///
///         /// Further lines document the builder and the getter only.
///         pub water: bool = true, rules "T-2", with_water;
///         /// rounds to play
///         pub rounds: Rounds = 3, rules "T-3", with_rounds;
///     }
///     check Toy::check;
/// }
///
/// impl Toy {
///     fn check(&self) -> Result<(), SpecError> {
///         if self.pieces == Pieces::Five && !self.water {
///             return Err(SpecError::Conflict {
///                 first: "pieces",
///                 second: "water",
///                 reason: "five pieces need the water",
///             });
///         }
///         Ok(())
///     }
/// }
///
/// impl Ruleset for Toy {
///     const OPTIONS: &'static [senet_core::OptionInfo] = Self::OPTION_TABLE;
///     fn from_spec(spec: &RulesetSpec) -> Result<Self, SpecError> {
///         Self::read_options(spec)
///     }
///     fn spec(&self) -> RulesetSpec {
///         self.option_spec()
///     }
///     // …the rest of the turn machine.
/// #   type State = BitBoard;
/// #   type Device = Sticks;
/// #   const ID: &'static str = "toy";
/// #   const NAME: &'static str = "Toy";
/// #   const RULES_REVISION: u32 = 1;
/// #   const SEAT_RULE: SeatRule = SeatRule::FirstToThrowOne;
/// #   fn device(&self) -> Sticks { Sticks::ZERO_IS_SIX }
/// #   fn pieces_per_side(&self) -> u8 { 5 }
/// #   fn initial_state(&self) -> BitBoard { BitBoard::EMPTY }
/// #   fn phase(&self, _: &BitBoard) -> Phase { Phase::Throw(Side::Black) }
/// #   fn throw_unchecked(&self, _: &mut BitBoard, _: Throw) {}
/// #   fn generate_moves(&self, _: &BitBoard, moves: &mut MoveList) { moves.push(Move::PASS) }
/// #   fn play_unchecked(&self, _: &mut BitBoard, _: Move) {}
/// #   fn board<'s>(&self, state: &'s BitBoard) -> &'s BitBoard { state }
/// #   fn validate(&self, _: &BitBoard) -> Result<(), PositionError> { Ok(()) }
/// #   fn to_setup(&self, state: &BitBoard) -> Setup { Setup::new(*state, Side::Black) }
/// #   fn read_setup(&self, setup: &Setup) -> Result<BitBoard, PositionError> { Ok(setup.board) }
/// }
///
/// let toy = Toy::default().with_pieces(Pieces::Five).with_rounds(Rounds::new(1).unwrap());
/// assert_eq!(toy.pieces(), Pieces::Five);
/// assert!(toy.water());
/// assert_eq!(toy.rounds().get(), 1);
/// assert_eq!(toy.spec().to_string(), "toy(pieces=5,rounds=1)");
/// assert_eq!(Toy::OPTIONS[1].values, ["true", "false"]);
/// assert_eq!(Toy::OPTIONS[2].values, ["3", "1", "2"]);
/// assert_eq!(Toy::from_spec(&"toy(water=false)".parse().unwrap()).unwrap().water(), false);
/// assert!(matches!(
///     Toy::from_spec(&"toy(pieces=5,water=false)".parse().unwrap()),
///     Err(SpecError::Conflict { .. })
/// ));
/// assert!(matches!(
///     Toy::from_spec(&"toy(waters=true)".parse().unwrap()),
///     Err(SpecError::UnknownOption { .. })
/// ));
/// assert!(matches!(
///     Toy::from_spec(&"toy(rounds=4)".parse().unwrap()),
///     Err(SpecError::BadValue { .. })
/// ));
/// // Every combination the check accepts: 7/true, 7/false, 5/true, each with 3 rounds.
/// assert_eq!(senet_core::option_combinations::<Toy>().unwrap().len(), 9);
/// ```
#[macro_export]
macro_rules! ruleset_options {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                #[doc = $doc:literal]
                $(#[doc = $more:literal])*
                $ovis:vis $option:ident : $ty:ty = $default:tt, rules $rules:literal, $setter:ident;
            )*
        }
        $(check $check:path;)?
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($option: $ty,)*
        }

        impl ::core::default::Default for $name {
            fn default() -> Self {
                $name {
                    $($option: const {
                        <$ty as $crate::OptionValue>::VALUES[$crate::options::index_of(
                            <$ty as $crate::OptionValue>::SPELLINGS,
                            stringify!($default),
                        )]
                    },)*
                }
            }
        }

        impl $name {
            $(
                #[doc = concat!("Sets option `", stringify!($option), "` (", $rules, "):", $doc, ".")]
                $(#[doc = $more])*
                #[must_use]
                $ovis const fn $setter(mut self, value: $ty) -> Self {
                    self.$option = value;
                    self
                }

                #[doc = concat!("Option `", stringify!($option), "` (", $rules, "):", $doc, ".")]
                $(#[doc = $more])*
                $ovis const fn $option(&self) -> $ty {
                    self.$option
                }
            )*

            /// The declared options, in order, each with its default first.
            const OPTION_TABLE: &'static [$crate::OptionInfo] = &[$(
                $crate::OptionInfo {
                    name: stringify!($option),
                    values: &$crate::options::default_first::<
                        { <$ty as $crate::OptionValue>::SPELLINGS.len() },
                    >(<$ty as $crate::OptionValue>::SPELLINGS, stringify!($default)),
                    rules: $rules,
                    doc: $doc.trim_ascii(),
                },
            )*];

            /// Reads a specification: an unknown option or value is an error.
            fn read_options(spec: &$crate::RulesetSpec) -> Result<Self, $crate::SpecError> {
                let values = spec.values(<Self as $crate::Ruleset>::ID, Self::OPTION_TABLE)?;
                #[allow(clippy::let_and_return)]
                let rules = $name {
                    $($option: values.value::<$ty>(stringify!($option))?,)*
                };
                $($check(&rules)?;)?
                Ok(rules)
            }

            /// The canonical specification: declared order, defaults left out.
            fn option_spec(&self) -> $crate::RulesetSpec {
                $crate::RulesetSpec::canonical(
                    <Self as $crate::Ruleset>::ID,
                    Self::OPTION_TABLE,
                    &[$((
                        stringify!($option),
                        $crate::options::__String::from(
                            $crate::OptionValue::spelling(self.$option),
                        ),
                    ),)*],
                )
            }
        }
    };
}

/// Implements [`Ruleset::OPTIONS`](crate::Ruleset::OPTIONS),
/// [`from_spec`](crate::Ruleset::from_spec) and [`spec`](crate::Ruleset::spec) from the
/// items [`ruleset_options!`] generated for the ruleset. Call it inside `impl Ruleset`.
#[macro_export]
macro_rules! forward_ruleset_options {
    () => {
        const OPTIONS: &'static [$crate::OptionInfo] = Self::OPTION_TABLE;

        fn from_spec(spec: &$crate::RulesetSpec) -> Result<Self, $crate::SpecError> {
            Self::read_options(spec)
        }

        fn spec(&self) -> $crate::RulesetSpec {
            self.option_spec()
        }
    };
}

/// The descriptive items of `impl Ruleset` for a ruleset crate laid out as every one in the
/// workspace is: [`ID`](crate::Ruleset::ID), [`NAME`](crate::Ruleset::NAME) and
/// [`SEAT_RULE`](crate::Ruleset::SEAT_RULE) as given,
/// [`RULES_REVISION`](crate::Ruleset::RULES_REVISION) from the crate's `RULES_REVISION`
/// constant, [`RULES_TEXT`](crate::Ruleset::RULES_TEXT) from the `RULES.md` beside its
/// `src/`, [`FIELD_INFO`](crate::Ruleset::FIELD_INFO) from its `FIELD_INFO` constant, and
/// the option items of [`forward_ruleset_options!`]. Call it inside `impl Ruleset`.
#[macro_export]
macro_rules! ruleset_crate_items {
    (id: $id:literal, name: $name:literal, seat_rule: $seat_rule:expr $(,)?) => {
        const ID: &'static str = $id;
        const NAME: &'static str = $name;
        const RULES_REVISION: u32 = RULES_REVISION;
        // Resolved from the file that calls the macro: the crate's own rules.
        const RULES_TEXT: &'static str = include_str!("../RULES.md");
        const FIELD_INFO: &'static [$crate::FieldInfo] = FIELD_INFO;
        const SEAT_RULE: $crate::SeatRule = $seat_rule;

        $crate::forward_ruleset_options!();
    };
}

/// Which configurations [`option_specs`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every combination of the options' values, the defaults first and the last option
    /// changing fastest.
    Every,
    /// The defaults, then each non-default value of each option on its own, in table order:
    /// every value is met once, for tests that cannot afford every combination.
    EachAlone,
}

/// The canonical specification (defaults left out) of each configuration of `options` that
/// `coverage` asks for. A ruleset may still refuse some of them ([`SpecError::Conflict`]).
///
/// ```
/// use senet_core::{BOOL_OFF, Coverage, OptionInfo, option_specs};
/// const OPTIONS: &[OptionInfo] = &[
///     OptionInfo { name: "pieces", values: &["7", "5"], rules: "", doc: "" },
///     OptionInfo { name: "trap", values: BOOL_OFF, rules: "", doc: "" },
/// ];
/// let every: Vec<String> =
///     option_specs("k", OPTIONS, Coverage::Every).iter().map(|s| s.to_string()).collect();
/// assert_eq!(every, ["k", "k(trap=true)", "k(pieces=5)", "k(pieces=5,trap=true)"]);
/// let alone: Vec<String> =
///     option_specs("k", OPTIONS, Coverage::EachAlone).iter().map(|s| s.to_string()).collect();
/// assert_eq!(alone, ["k", "k(pieces=5)", "k(trap=true)"]);
/// ```
pub fn option_specs(id: &str, options: &[OptionInfo], coverage: Coverage) -> Vec<RulesetSpec> {
    // One digit per option: the index of its value in `values` (0 is the default).
    let spec_of = |digits: &[usize]| {
        let chosen: Vec<(&str, String)> = options
            .iter()
            .zip(digits)
            .map(|(o, &d)| (o.name, o.values.get(d).copied().unwrap_or("").to_string()))
            .collect();
        RulesetSpec::canonical(id, options, &chosen)
    };
    let mut digits = vec![0usize; options.len()];
    let mut specs = vec![spec_of(&digits)];
    match coverage {
        Coverage::Every => {
            // Counting in mixed radix, the last option fastest.
            while let Some(position) = (0..options.len())
                .rev()
                .find(|&i| digits[i] + 1 < options[i].values.len())
            {
                digits[position] += 1;
                digits[position + 1..].fill(0);
                specs.push(spec_of(&digits));
            }
        }
        Coverage::EachAlone => {
            for (i, option) in options.iter().enumerate() {
                for value in 1..option.values.len() {
                    digits[i] = value;
                    specs.push(spec_of(&digits));
                }
                digits[i] = 0;
            }
        }
    }
    specs
}

/// Every configuration of `R` its declared options allow, in the order of
/// [`option_specs`] with [`Coverage::Every`]; combinations `R` refuses as a [`SpecError::Conflict`] are left out.
///
/// # Errors
///
/// Any other error of [`Ruleset::from_spec`]: `R::OPTIONS` lists a value its parser refuses.
pub fn option_combinations<R: Ruleset>() -> Result<Vec<R>, SpecError> {
    let mut all = Vec::new();
    for spec in option_specs(R::ID, R::OPTIONS, Coverage::Every) {
        match R::from_spec(&spec) {
            Ok(rules) => all.push(rules),
            Err(SpecError::Conflict { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::OptionValue;

    #[test]
    fn default_first_moves_only_the_default() {
        let all = ["a", "b", "c"];
        assert_eq!(default_first::<3>(&all, "a"), ["a", "b", "c"]);
        assert_eq!(default_first::<3>(&all, "c"), ["c", "a", "b"]);
        assert_eq!(index_of(&all, "b"), 1);
    }

    #[test]
    fn bool_spells_false_and_true() {
        assert_eq!(bool::parse("true"), Some(true));
        assert_eq!(bool::parse("on"), None);
        assert_eq!(false.spelling(), "false");
    }

    #[test]
    fn no_options_give_one_spec() {
        for coverage in [Coverage::Every, Coverage::EachAlone] {
            let specs = option_specs("p", &[], coverage);
            assert_eq!(specs.len(), 1);
            assert_eq!(specs[0].to_string(), "p");
        }
    }
}
