#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// Calls `$callback!` with `$` and the registered rulesets, one line each: the feature that
/// turns the ruleset on, the module this crate re-exports its crate as, and its crate and type
/// (the type's name is also its [`AnyRuleset`](registry::AnyRuleset) variant). The registry
/// (`src/registry.rs`) and the modules below are generated from this one list.
macro_rules! with_registered_rulesets {
    ($d:tt $callback:ident) => {
        $callback! { $d
            "regency" => regency = senet_regency::Regency,
            "botermans" => botermans = senet_botermans::Botermans,
            "cemea" => cemea = senet_cemea::Cemea,
            "kendall" => kendall = senet_kendall::Kendall,
            "bell" => bell = senet_bell::Bell,
            "jequier" => jequier = senet_jequier::Jequier,
            "piccione" => piccione = senet_piccione::Piccione,
        }
    };
}

/// `Sum` for summaries that merge exactly: the summaries of disjoint sets of games add up to
/// the summary of all of them, in any order (so a parallel `sum` gives the same result on any
/// number of threads).
macro_rules! sum_by_merging {
    ($($summary:ty),*) => {$(
        impl core::iter::Sum for $summary {
            fn sum<I: Iterator<Item = $summary>>(parts: I) -> $summary {
                parts.fold(<$summary>::default(), |mut all, part| {
                    all.merge(&part);
                    all
                })
            }
        }
    )*};
}

/// The modules that match on the registered rulesets, and the rulesets' re-exports.
macro_rules! facade_modules {
    ($d:tt $( $feature:literal => $module:ident = $krate:ident :: $ty:ident ),* $(,)?) => {
        // In a build without any ruleset feature the registry is empty: every match on a
        // ruleset or a game has no arm, and what follows it is unreachable.
        macro_rules! matching_on_rulesets {
            ($d($d module:item)*) => {$d(
                #[cfg_attr(
                    not(any($(feature = $feature),*)),
                    allow(dead_code, unreachable_code, unused_imports, unused_variables)
                )]
                $d module
            )*};
        }

        matching_on_rulesets! {
            mod any_game;
            #[cfg(feature = "ai")]
            mod any_player;
            pub mod registry;
            #[cfg(feature = "ai")]
            pub mod simulation;
        }

        $(
            #[cfg(feature = $feature)]
            #[doc(inline)]
            pub use $krate as $module;
            #[cfg(feature = $feature)]
            pub use $krate::$ty;
        )*
    };
}

with_registered_rulesets!($ facade_modules);

pub mod metrics;
pub mod rating;
pub mod rng;
pub mod stats;

pub use any_game::AnyGame;
#[cfg(feature = "ai")]
pub use any_player::{AnyPlayer, AnyTables};
pub use senet_core::*;

/// Computer players and the exact endgame solver (feature `ai`): the `senet-ai` crate.
#[cfg(feature = "ai")]
pub mod ai {
    pub use senet_ai::*;
}
