//! Shared by the fuzz targets: every registered configuration (each ruleset with its
//! defaults and with each non-default option value alone), as in the facade's tests.

use senet::registry::{AnyRuleset, RULESETS};

pub fn configurations() -> Vec<AnyRuleset> {
    let mut out = Vec::new();
    for info in RULESETS {
        out.extend(AnyRuleset::parse(info.id).ok());
        for option in info.options {
            for value in option.values.iter().skip(1) {
                out.extend(
                    AnyRuleset::parse(&format!("{}({}={value})", info.id, option.name)).ok(),
                );
            }
        }
    }
    out
}
