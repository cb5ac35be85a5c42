//! Properties over positions reached by random play, under random option combinations: the
//! generic suite of `senet_testkit::properties` (piece counts are conserved, no square holds
//! two pieces, every generated move applies cleanly, a pass is offered only when nothing else
//! is legal, an illegal move leaves the state unchanged, and every game ends).

use proptest::prelude::*;
use senet_regency::{ExitRule, Regency};

fn rules_strategy() -> impl Strategy<Value = Regency> {
    (any::<bool>(), any::<bool>(), 0..3u8, any::<bool>()).prop_map(
        |(happiness, water, exit, keep)| {
            Regency::default()
                .with_house_of_happiness(happiness)
                .with_house_of_water(water)
                .with_exit(match exit {
                    0 => ExitRule::LandOnThirty,
                    1 => ExitRule::From28To30,
                    _ => ExitRule::BeyondThirty,
                })
                .with_lost_throw_keeps_extra_throw(keep)
        },
    )
}

senet_testkit::ruleset_properties!(rules_strategy());
