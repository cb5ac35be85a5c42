//! Shared by the fuzz targets: every registered configuration (each ruleset with its
//! defaults and with each non-default option value alone), as in the facade's tests.

use senet::registry::{AnyRuleset, RULESETS};
use senet::{Coverage, option_specs};

pub fn configurations() -> Vec<AnyRuleset> {
    RULESETS
        .iter()
        .flat_map(|info| option_specs(info.id, info.options, Coverage::EachAlone))
        .filter_map(|spec| AnyRuleset::from_spec(&spec).ok())
        .collect()
}
