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

use senet_core::batch::BatchRules;
use senet_core::{
    FieldInfo, OptionInfo, Ruleset, RulesetSpec, SeatRule, SpecError, ThrowOutcome, ThrowingDevice,
};

/// Generic code to run with whichever ruleset was picked at run time.
pub trait RulesetVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the concrete ruleset.
    fn visit<R: Registered>(self, rules: &R) -> Self::Output;
}

/// What a ruleset of the registry offers generic code beyond [`Ruleset`]: its batch engine.
/// Every registered ruleset implements it; a [`RulesetVisitor`] is called with one.
pub trait Registered: BatchRules {}

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

/// Generates, from the list of `with_registered_rulesets!` (`src/lib.rs`): [`AnyRuleset`], [`RULESETS`], the typed game and
/// player of each ruleset behind [`AnyGame`](crate::AnyGame) and `AnyPlayer`, and the macros
/// that run the same code on whichever variant is there (`$d` is a `$`, for those macros).
macro_rules! registry {
    ($d:tt $( $feature:literal => $module:ident = $krate:ident :: $variant:ident ),* $(,)?) => {
        /// Any registered ruleset, configured.
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum AnyRuleset {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("The `", $feature, "` ruleset.")]
                $variant($krate::$variant),
            )*
        }

        $(
            #[cfg(feature = $feature)]
            impl Registered for $krate::$variant {}
        )*

        /// Every ruleset compiled into this build (each is behind a default-on feature).
        pub const RULESETS: &[RulesetInfo] = &[
            $(
                #[cfg(feature = $feature)]
                RulesetInfo {
                    id: <$krate::$variant as Ruleset>::ID,
                    name: <$krate::$variant as Ruleset>::NAME,
                    rules_revision: <$krate::$variant as Ruleset>::RULES_REVISION,
                    options: <$krate::$variant as Ruleset>::OPTIONS,
                    field_info: <$krate::$variant as Ruleset>::FIELD_INFO,
                },
            )*
        ];

        impl AnyRuleset {
            /// Configures the ruleset a specification names.
            pub fn from_spec(spec: &RulesetSpec) -> Result<AnyRuleset, SpecError> {
                $(
                    #[cfg(feature = $feature)]
                    if spec.id() == <$krate::$variant as Ruleset>::ID {
                        return <$krate::$variant as Ruleset>::from_spec(spec).map(AnyRuleset::$variant);
                    }
                )*
                Err(SpecError::UnknownRuleset {
                    id: spec.id().to_string(),
                    known: known_ids(),
                })
            }

            /// Runs `visitor` with the concrete ruleset.
            // `visitor` is unused only in a build with no ruleset feature at all.
            #[allow(unused_variables)]
            pub fn visit<V: RulesetVisitor>(&self, visitor: V) -> V::Output {
                match *self {
                    $(
                        #[cfg(feature = $feature)]
                        AnyRuleset::$variant(ref rules) => visitor.visit(rules),
                    )*
                }
            }
        }

        /// The typed game of each registered ruleset, behind [`AnyGame`](crate::AnyGame).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub(crate) enum GameOf {
            $(
                #[cfg(feature = $feature)]
                $variant(senet_core::Game<$krate::$variant>),
            )*
        }

        $(
            #[cfg(feature = $feature)]
            impl From<senet_core::Game<$krate::$variant>> for crate::AnyGame {
                fn from(game: senet_core::Game<$krate::$variant>) -> crate::AnyGame {
                    crate::AnyGame(GameOf::$variant(game))
                }
            }
        )*

        /// The player of each registered ruleset, behind `AnyPlayer`.
        #[cfg(feature = "ai")]
        pub(crate) enum PlayerOf {
            $(
                #[cfg(feature = $feature)]
                $variant(Box<dyn senet_ai::Player<$krate::$variant>>),
            )*
        }

        /// `with_rules!(rules, r => body)`: `body` with the pattern `r` (`ref r`, `r`)
        /// bound to the concrete ruleset of the place `rules`; every variant's body has the
        /// same type. A place, not a reference, so that a build without rulesets compiles.
        macro_rules! with_rules {
            ($d rules:expr, $d r:pat => $d body:expr) => {
                match $d rules {
                    $(
                        #[cfg(feature = $feature)]
                        crate::registry::AnyRuleset::$variant($d r) => $d body,
                    )*
                }
            };
        }

        /// `with_game!(game_of, g => body)`: `body` with the pattern `g` (`ref g`,
        /// `ref mut g`) bound to the typed game of the place `game_of`.
        macro_rules! with_game {
            ($d game:expr, $d g:pat => $d body:expr) => {
                match $d game {
                    $(
                        #[cfg(feature = $feature)]
                        crate::registry::GameOf::$variant($d g) => $d body,
                    )*
                }
            };
        }

        /// `from_rules!(GameOf, rules, r => result)`: the variant of `GameOf` (or `PlayerOf`)
        /// of the same ruleset as `rules`, from `result`, a `Result` of what is built from
        /// `r`.
        macro_rules! from_rules {
            ($d target:ident, $d rules:expr, $d r:pat => $d body:expr) => {
                match $d rules {
                    $(
                        #[cfg(feature = $feature)]
                        crate::registry::AnyRuleset::$variant($d r) => {
                            $d body.map(crate::registry::$d target::$variant)
                        }
                    )*
                }
            };
        }

        /// `rules_of_game!(game_of)`: the ruleset of a `GameOf`, as an `AnyRuleset`.
        macro_rules! rules_of_game {
            ($d game:expr) => {
                match $d game {
                    $(
                        #[cfg(feature = $feature)]
                        crate::registry::GameOf::$variant(ref g) => {
                            crate::registry::AnyRuleset::$variant(g.rules().clone())
                        }
                    )*
                }
            };
        }

        /// `with_player!(player_of, p => body)`: like `with_game!` for a `PlayerOf`.
        #[cfg(feature = "ai")]
        macro_rules! with_player {
            ($d player:expr, $d p:pat => $d body:expr) => {
                match $d player {
                    $(
                        #[cfg(feature = $feature)]
                        crate::registry::PlayerOf::$variant($d p) => $d body,
                    )*
                }
            };
        }

        /// `with_player_and_game!(player_of, game_of, p, g => body, otherwise)`: `body` when
        /// both are of the same ruleset, else `otherwise`.
        #[cfg(feature = "ai")]
        macro_rules! with_player_and_game {
            (
                $d player:expr, $d game:expr, $d p:ident, $d g:ident => $d body:expr,
                $d otherwise:expr
            ) => {
                #[allow(unreachable_patterns)]
                match ($d player, $d game) {
                    $(
                        #[cfg(feature = $feature)]
                        (
                            crate::registry::PlayerOf::$variant($d p),
                            crate::registry::GameOf::$variant($d g),
                        ) => $d body,
                    )*
                    _ => $d otherwise,
                }
            };
        }
    };
}

with_registered_rulesets!($ registry);

pub(crate) use {from_rules, rules_of_game, with_game};
#[cfg(feature = "ai")]
pub(crate) use {with_player, with_player_and_game, with_rules};

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

    /// The canonical specification (options at their defaults left out).
    pub fn spec(&self) -> RulesetSpec {
        with_rules!(*self, ref rules => rules.spec())
    }

    /// The ruleset's id.
    pub fn id(&self) -> &'static str {
        fn id_of<R: Ruleset>(_: &R) -> &'static str {
            R::ID
        }
        with_rules!(*self, ref rules => id_of(rules))
    }

    /// Pieces per side.
    pub fn pieces_per_side(&self) -> u8 {
        with_rules!(*self, ref rules => rules.pieces_per_side())
    }

    /// The throwing device's exact outcome table: each value with its integer weight.
    pub fn throw_outcomes(&self) -> &'static [ThrowOutcome] {
        with_rules!(*self, ref rules => rules.device().outcomes())
    }

    /// The rules in prose ([`Ruleset::RULES_TEXT`]): Markdown, each rule under its id.
    ///
    /// ```
    /// use senet::registry::AnyRuleset;
    /// let text = AnyRuleset::parse("regency").unwrap().rules_text();
    /// assert!(text.contains("**R-12**"));
    /// ```
    pub fn rules_text(&self) -> &'static str {
        fn rules_text_of<R: Ruleset>(_: &R) -> &'static str {
            R::RULES_TEXT
        }
        with_rules!(*self, ref rules => rules_text_of(rules))
    }

    /// How the players decide who plays Black ([`Ruleset::SEAT_RULE`]).
    ///
    /// ```
    /// use senet::SeatRule;
    /// use senet::registry::AnyRuleset;
    /// let rules = AnyRuleset::parse("regency").unwrap();
    /// assert_eq!(rules.seat_rule(), SeatRule::OnlyOneThrowsOne);
    /// ```
    pub fn seat_rule(&self) -> SeatRule {
        fn seat_rule_of<R: Ruleset>(_: &R) -> SeatRule {
            R::SEAT_RULE
        }
        with_rules!(*self, ref rules => seat_rule_of(rules))
    }

    /// The registry entry of this ruleset.
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
