//! Picking a ruleset by name at run time: `regency`, `regency(house_of_water=true)`.
//!
//! Rulesets are distinct types (each with its own `State`). Code that plays or loads a game
//! of whichever ruleset was named uses [`AnyGame`](crate::AnyGame) (and, with the `ai`
//! feature, `AnyPlayer`): one type, no generics. Code that runs millions of decisions
//! (simulations, playouts, metrics) is written once, generic over [`Ruleset`], and reached
//! through a [`RulesetVisitor`]: [`AnyRuleset::visit`] calls it with the concrete ruleset,
//! and from then on every call is static.
//!
//! ```
//! use senet::registry::{AnyRuleset, Registered, RulesetVisitor};
//! use senet::{MoveList, Ruleset, random_playout};
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//!
//! /// Decisions in `games` random games, on the allocation-free playout loop.
//! struct Decisions {
//!     games: u64,
//! }
//! impl RulesetVisitor for Decisions {
//!     type Output = u64;
//!     fn visit<R: Registered>(self, rules: &R) -> u64 {
//!         let mut moves = MoveList::new();
//!         (0..self.games)
//!             .map(|seed| {
//!                 let mut state = rules.initial_state();
//!                 let mut rng = ChaCha8Rng::seed_from_u64(seed);
//!                 let playout = random_playout(rules, &mut state, &mut rng, &mut moves, 1000);
//!                 u64::from(playout.decisions)
//!             })
//!             .sum()
//!     }
//! }
//!
//! let rules = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
//! assert_eq!(rules.id(), "regency");
//! assert_eq!(rules.pieces_per_side(), 5);
//! assert!(rules.visit(Decisions { games: 10 }) > 0);
//! assert!(AnyRuleset::parse("regency(water=true)").is_err());
//! assert!(AnyRuleset::parse("chess").is_err());
//! ```

use core::fmt;
use core::str::FromStr;

#[cfg(feature = "ai")]
use std::sync::Arc;

#[cfg(feature = "ai")]
use senet_ai::endgame::PositionOracle;
use senet_core::batch::BatchRules;
use senet_core::{FieldInfo, OptionInfo, Ruleset, RulesetSpec, SpecError};

#[cfg(feature = "ai")]
pub use crate::AnyOracle;
pub use crate::AnyRuleset;

/// Generic code to run with whichever ruleset was picked at run time.
pub trait RulesetVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the concrete ruleset.
    fn visit<R: Registered>(self, rules: &R) -> Self::Output;
}

/// What a ruleset of the registry offers generic code beyond [`Ruleset`]: its batch engine
/// and, with the `ai` feature, its endgame solver when it has one. Every registered ruleset
/// implements it; a [`RulesetVisitor`] is called with one.
pub trait Registered: BatchRules {
    /// The ruleset's endgame operations, `None` when the solver has no space for it.
    ///
    /// ```
    /// use senet::registry::Registered;
    /// assert!(senet::Regency::default().endgames().is_some());
    /// assert!(senet::Bell::default().endgames().is_none());
    /// ```
    #[cfg(feature = "ai")]
    fn endgames(&self) -> Option<&dyn senet_ai::endgame::Endgames<Self>>;

    /// The tables `oracle` holds when they are of this ruleset.
    #[cfg(feature = "ai")]
    fn tables_in(oracle: &AnyOracle) -> Option<Arc<dyn PositionOracle<Self>>>;

    /// Tables of this ruleset, as any registered ruleset's.
    #[cfg(feature = "ai")]
    fn any_oracle(oracle: Arc<dyn PositionOracle<Self>>) -> AnyOracle;
}

/// A registered ruleset: its id, name and options.
#[derive(Clone, Copy, Debug)]
pub struct RulesetInfo {
    /// The id used in specifications.
    pub id: &'static str,
    /// A human-readable name.
    pub name: &'static str,
    /// The revision of the ruleset's behaviour ([`Ruleset::RULES_REVISION`]).
    pub rules_revision: u32,
    /// The options, each with its default first.
    pub options: &'static [OptionInfo],
    /// The position fields beyond board and side, with their values, defaults and meaning.
    pub field_info: &'static [FieldInfo],
}

impl RulesetInfo {
    /// The entry of the ruleset type `R`.
    pub const fn of<R: Ruleset>() -> RulesetInfo {
        RulesetInfo {
            id: R::ID,
            name: R::NAME,
            rules_revision: R::RULES_REVISION,
            options: R::OPTIONS,
            field_info: R::FIELD_INFO,
        }
    }
}

/// The registry of rulesets, generated from the list in `src/lib.rs` (one line a ruleset: the
/// feature that turns it on, the module this crate re-exports its crate as, its crate and its
/// type, which is also its [`AnyRuleset`] variant, then `[endgames]` when the endgame solver
/// has a space for it): the re-exports, [`AnyRuleset`] with its [`visit`](AnyRuleset::visit)
/// and its view as a [`DynRuleset`], [`RULESETS`], `AnyOracle`, and [`Registered`] for each
/// type.
macro_rules! rulesets {
    (@endgames $rules:ident endgames) => { Some($rules) };
    (@endgames $rules:ident) => { None };
    ($( $feature:literal => $module:ident = $krate:ident :: $variant:ident $([$endgames:ident])? ),* $(,)?) => {
        // Players, tables and matches are of some ruleset: with none, `AnyRuleset` would be
        // empty and all of that code unreachable.
        #[cfg(all(feature = "ai", not(any($(feature = $feature),*))))]
        compile_error!("the `ai` feature needs at least one ruleset feature (e.g. `regency`)");

        $(
            #[cfg(feature = $feature)]
            #[doc(inline)]
            pub use $krate as $module;
            #[cfg(feature = $feature)]
            pub use $krate::$variant;
            // A ruleset's feature is its id: scripts and CI read the features off the
            // registry (`senet rules --ids`).
            #[cfg(feature = $feature)]
            const _: () = assert!(
                senet_core::options::same_text(<$krate::$variant as senet_core::Ruleset>::ID, $feature),
                concat!("the feature `", $feature, "` must be its ruleset's id"),
            );
            #[cfg(feature = $feature)]
            impl $crate::registry::Registered for $krate::$variant {
                #[cfg(feature = "ai")]
                fn endgames(&self) -> Option<&dyn senet_ai::endgame::Endgames<Self>> {
                    $crate::registry::rulesets!(@endgames self $($endgames)?)
                }

                #[cfg(feature = "ai")]
                fn tables_in(
                    oracle: &AnyOracle,
                ) -> Option<std::sync::Arc<dyn senet_ai::endgame::PositionOracle<Self>>> {
                    match oracle {
                        AnyOracle::$variant(oracle) => Some(std::sync::Arc::clone(oracle)),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }

                #[cfg(feature = "ai")]
                fn any_oracle(
                    oracle: std::sync::Arc<dyn senet_ai::endgame::PositionOracle<Self>>,
                ) -> AnyOracle {
                    AnyOracle::$variant(oracle)
                }
            }
            #[cfg(feature = $feature)]
            impl From<$krate::$variant> for AnyRuleset {
                fn from(rules: $krate::$variant) -> AnyRuleset {
                    AnyRuleset::$variant(rules)
                }
            }
        )*

        /// Any registered ruleset, configured. It reads as a [`DynRuleset`](senet_core::DynRuleset)
        /// (its id, options, device, games of it…); [`visit`](AnyRuleset::visit) runs generic
        /// code with the concrete ruleset.
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum AnyRuleset {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("The `", $feature, "` ruleset.")]
                $variant($krate::$variant),
            )*
        }

        /// Solved endgame tables of one registered ruleset, typed: what
        /// [`AnyTables`](crate::AnyTables) holds, and
        /// [`Registered::tables_in`](crate::registry::Registered::tables_in) gives back to
        /// code of that ruleset.
        #[cfg(feature = "ai")]
        #[derive(Clone)]
        #[non_exhaustive]
        pub enum AnyOracle {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("Tables of the `", $feature, "` ruleset.")]
                $variant(std::sync::Arc<dyn senet_ai::endgame::PositionOracle<$krate::$variant>>),
            )*
        }

        impl AnyRuleset {
            /// Every ruleset compiled into this build.
            const INFO: &'static [$crate::registry::RulesetInfo] = &[
                $(
                    #[cfg(feature = $feature)]
                    $crate::registry::RulesetInfo::of::<$krate::$variant>(),
                )*
            ];

            /// Configures the ruleset a specification names.
            pub fn from_spec(
                spec: &senet_core::RulesetSpec,
            ) -> Result<AnyRuleset, senet_core::SpecError> {
                $(
                    #[cfg(feature = $feature)]
                    if spec.id() == <$krate::$variant as senet_core::Ruleset>::ID {
                        return <$krate::$variant as senet_core::Ruleset>::from_spec(spec)
                            .map(AnyRuleset::$variant);
                    }
                )*
                Err($crate::registry::unknown_ruleset(spec))
            }

            /// Runs `visitor` with the concrete ruleset.
            // `visitor` is unused only in a build with no ruleset feature at all.
            #[allow(unused_variables)]
            pub fn visit<V: $crate::registry::RulesetVisitor>(&self, visitor: V) -> V::Output {
                match *self {
                    $(
                        #[cfg(feature = $feature)]
                        AnyRuleset::$variant(ref rules) => visitor.visit(rules),
                    )*
                }
            }
        }

        impl core::ops::Deref for AnyRuleset {
            type Target = dyn senet_core::DynRuleset;

            fn deref(&self) -> &(dyn senet_core::DynRuleset + 'static) {
                match *self {
                    $(
                        #[cfg(feature = $feature)]
                        AnyRuleset::$variant(ref rules) => rules,
                    )*
                }
            }
        }
    };
}

pub(crate) use rulesets;

/// The error for a specification that names no registered ruleset.
pub(crate) fn unknown_ruleset(spec: &RulesetSpec) -> SpecError {
    SpecError::UnknownRuleset {
        id: spec.id().to_string(),
        known: known_ids(),
    }
}

/// Every ruleset compiled into this build (each is behind a default-on feature).
pub const RULESETS: &[RulesetInfo] = AnyRuleset::INFO;

fn known_ids() -> String {
    RULESETS.iter().map(|r| r.id).collect::<Vec<_>>().join(", ")
}

/// The ruleset used when none is named: Regency.
pub const DEFAULT_RULESET: &str = "regency";

impl AnyRuleset {
    /// Parses and configures `id` or `id(option=value,…)`.
    pub fn parse(text: &str) -> Result<AnyRuleset, SpecError> {
        AnyRuleset::from_spec(&text.parse()?)
    }

    /// The registry entry of this ruleset.
    ///
    /// A ruleset reads as a [`DynRuleset`](senet_core::DynRuleset), so its id, prose rules, seat rule, device and
    /// games need no match on the ruleset:
    ///
    /// ```
    /// use senet::SeatRule;
    /// use senet::registry::AnyRuleset;
    /// let rules = AnyRuleset::parse("regency").unwrap();
    /// assert_eq!(rules.info().unwrap().name, rules.name());
    /// assert!(rules.rules_text().contains("**R-12**"));
    /// assert_eq!(rules.seat_rule(), SeatRule::OnlyOneThrowsOne);
    /// assert_eq!(rules.new_game().pieces_per_side(), 5);
    /// ```
    pub fn info(&self) -> Option<&'static RulesetInfo> {
        let id = self.id();
        RULESETS.iter().find(|r| r.id == id)
    }
}

/// The registry entry for `id`.
pub fn info(id: &str) -> Option<&'static RulesetInfo> {
    RULESETS.iter().find(|r| r.id == id)
}

impl FromStr for AnyRuleset {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AnyRuleset::parse(s)
    }
}

impl fmt::Display for AnyRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.spec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_ruleset_parses_with_defaults_and_every_option_value() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            assert_eq!(rules.id(), info.id);
            assert_eq!(rules.spec().to_string(), info.id);
            for option in info.options {
                for value in option.values {
                    let text = format!("{}({}={})", info.id, option.name, value);
                    let rules = AnyRuleset::parse(&text).unwrap();
                    assert_eq!(
                        AnyRuleset::from_spec(&rules.spec()).unwrap(),
                        rules,
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_registered_ruleset_documents_each_position_field() {
        for info in RULESETS {
            let names: Vec<&str> = info.field_info.iter().map(|f| f.name).collect();
            let mut unique = names.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "{}: a field twice", info.id);
            for field in info.field_info {
                assert!(
                    !field.values.is_empty() && !field.default.is_empty() && !field.doc.is_empty(),
                    "{}: field {} needs values, a default and a doc",
                    info.id,
                    field.name
                );
            }
        }
    }

    /// A position field a ruleset does not document is refused, and the error names the
    /// documented ones (they come from `FIELD_INFO` alone).
    #[test]
    fn an_undocumented_position_field_is_refused_with_the_known_ones() {
        struct ReadsBogusField;
        impl RulesetVisitor for ReadsBogusField {
            type Output = ();
            fn visit<R: Registered>(self, rules: &R) {
                let mut setup = rules.to_setup(&rules.initial_state());
                setup.push_field("bogus", 1);
                let known = R::FIELD_INFO
                    .iter()
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
                    .join(", ");
                assert_eq!(
                    rules.read_setup(&setup),
                    Err(senet_core::PositionError::UnknownField {
                        name: "bogus".to_string(),
                        known,
                    }),
                    "{}",
                    R::ID
                );
            }
        }
        for info in RULESETS {
            AnyRuleset::parse(info.id).unwrap().visit(ReadsBogusField);
        }
    }

    #[test]
    fn unknown_names_are_typed_errors() {
        assert!(matches!(
            AnyRuleset::parse("chess"),
            Err(SpecError::UnknownRuleset { .. })
        ));
        assert!(matches!(
            AnyRuleset::parse("regency(foo=true)"),
            Err(SpecError::UnknownOption { .. })
        ));
        assert!(matches!(
            AnyRuleset::parse("regency(house_of_water=maybe)"),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            AnyRuleset::parse("regency(house_of_water"),
            Err(SpecError::Syntax { .. })
        ));
    }
}
