//! Ruleset specifications: `regency`, `kendall(pieces=5,trap=true)`.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::error::SpecError;

/// One option of a ruleset, as documented in its specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The option's name in specifications, e.g. `house_of_water`.
    pub name: &'static str,
    /// The values it accepts; the first is the default.
    pub values: &'static [&'static str],
    /// The rule ids it changes, e.g. `R-12`.
    pub rules: &'static str,
    /// What it does, in one sentence.
    pub doc: &'static str,
}

impl OptionInfo {
    /// The default value.
    pub fn default_value(&self) -> &'static str {
        self.values.first().copied().unwrap_or("")
    }
}

/// The values of a boolean option, default off.
pub const BOOL_OFF: &[&str] = &["false", "true"];
/// The values of a boolean option, default on.
pub const BOOL_ON: &[&str] = &["true", "false"];

/// A ruleset named with its options, as written in records and on the command line:
/// `regency`, `regency(house_of_water=true)`, `kendall(pieces=5,trap=true)`.
///
/// Parsing checks only the syntax; a ruleset checks the options it is given
/// ([`OptionValues`]).
///
/// ```
/// use senet_core::RulesetSpec;
/// let spec: RulesetSpec = "kendall(pieces=5, trap=true)".parse().unwrap();
/// assert_eq!(spec.id(), "kendall");
/// assert_eq!(spec.option("pieces"), Some("5"));
/// assert_eq!(spec.to_string(), "kendall(pieces=5,trap=true)");
/// assert!("kendall(pieces)".parse::<RulesetSpec>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesetSpec {
    id: String,
    options: Vec<(String, String)>,
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

impl RulesetSpec {
    /// A specification with no options.
    pub fn new(id: &str) -> RulesetSpec {
        RulesetSpec {
            id: id.to_string(),
            options: Vec::new(),
        }
    }

    /// Builds the canonical specification of a configured ruleset: options equal to their
    /// defaults are left out, the rest follow the order of `infos`.
    pub fn canonical(id: &str, infos: &[OptionInfo], values: &[(&str, String)]) -> RulesetSpec {
        let mut options = Vec::new();
        for info in infos {
            if let Some((_, value)) = values.iter().find(|(name, _)| *name == info.name)
                && value != info.default_value()
            {
                options.push((info.name.to_string(), value.clone()));
            }
        }
        RulesetSpec {
            id: id.to_string(),
            options,
        }
    }

    /// The ruleset id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The options as given, in order.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// The value given for `name`, if any.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Checks the specification against a ruleset's id and options, for reading values.
    pub fn values<'a>(
        &'a self,
        id: &'static str,
        infos: &'static [OptionInfo],
    ) -> Result<OptionValues<'a>, SpecError> {
        if self.id != id {
            return Err(SpecError::UnknownRuleset {
                id: self.id.clone(),
                known: id.to_string(),
            });
        }
        for (name, value) in &self.options {
            let info =
                infos
                    .iter()
                    .find(|i| i.name == name)
                    .ok_or_else(|| SpecError::UnknownOption {
                        ruleset: id,
                        option: name.clone(),
                        known: known_names(infos),
                    })?;
            if !info.values.contains(&value.as_str()) {
                return Err(SpecError::BadValue {
                    option: name.clone(),
                    value: value.clone(),
                    allowed: info.values.join(", "),
                });
            }
        }
        Ok(OptionValues {
            spec: self,
            id,
            infos,
        })
    }
}

impl fmt::Display for RulesetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        if !self.options.is_empty() {
            f.write_str("(")?;
            for (i, (name, value)) in self.options.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{name}={value}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl FromStr for RulesetSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        let syntax = |reason| SpecError::Syntax {
            text: text.chars().take(80).collect(),
            reason,
        };
        if text.len() > 512 {
            return Err(syntax("the specification is too long"));
        }
        let (id, rest) = match text.find('(') {
            Some(open) => (&text[..open], Some(&text[open + 1..])),
            None => (text, None),
        };
        let id = id.trim();
        if !is_name(id) {
            return Err(syntax("the id must be lowercase letters, digits or _"));
        }
        let mut options: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            let inner = rest
                .strip_suffix(')')
                .ok_or(syntax("missing the closing parenthesis"))?;
            if inner.contains('(') || inner.contains(')') {
                return Err(syntax("unbalanced parentheses"));
            }
            for item in inner.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (name, value) = item
                    .split_once('=')
                    .ok_or(syntax("each option is name=value"))?;
                let (name, value) = (name.trim(), value.trim());
                if !is_name(name) || !is_name(value) {
                    return Err(syntax(
                        "option names and values are lowercase letters, digits or _",
                    ));
                }
                if options.iter().any(|(n, _)| n == name) {
                    return Err(SpecError::DuplicateOption(name.to_string()));
                }
                options.push((name.to_string(), value.to_string()));
            }
        }
        Ok(RulesetSpec {
            id: id.to_string(),
            options,
        })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for RulesetSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for RulesetSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The options of a specification, checked against a ruleset's [`OptionInfo`]s; options
/// not given read as their defaults. Reading a name the ruleset does not declare is an
/// error, never a default.
#[derive(Clone, Copy, Debug)]
pub struct OptionValues<'a> {
    spec: &'a RulesetSpec,
    id: &'static str,
    infos: &'static [OptionInfo],
}

impl OptionValues<'_> {
    /// The value of `name`: as given, or its default.
    ///
    /// # Errors
    ///
    /// [`SpecError::UnknownOption`] when the ruleset declares no option `name`.
    pub fn get(&self, name: &str) -> Result<&str, SpecError> {
        let info =
            self.infos
                .iter()
                .find(|i| i.name == name)
                .ok_or_else(|| SpecError::UnknownOption {
                    ruleset: self.id,
                    option: name.to_string(),
                    known: known_names(self.infos),
                })?;
        Ok(self.spec.option(name).unwrap_or(info.default_value()))
    }

    /// The value of `name` as a `T`.
    ///
    /// # Errors
    ///
    /// [`SpecError::UnknownOption`] when the ruleset declares no option `name`,
    /// [`SpecError::BadValue`] when its value is not a spelling of `T`.
    pub fn value<T: OptionValue>(&self, name: &str) -> Result<T, SpecError> {
        let text = self.get(name)?;
        T::parse(text).ok_or_else(|| SpecError::BadValue {
            option: name.to_string(),
            value: text.to_string(),
            allowed: T::SPELLINGS.join(", "),
        })
    }
}

/// The names of `infos` for an error message, or "none".
fn known_names(infos: &[OptionInfo]) -> String {
    if infos.is_empty() {
        "none".to_string()
    } else {
        infos.iter().map(|i| i.name).collect::<Vec<_>>().join(", ")
    }
}

/// A type an option's value can have: a closed list of values, each with its spelling in
/// specifications. `bool` spells `false` and `true`; an enum implements it with
/// [`option_value!`](crate::option_value).
pub trait OptionValue: Copy + PartialEq + 'static {
    /// Every value, in the order of [`SPELLINGS`](OptionValue::SPELLINGS).
    const VALUES: &'static [Self];
    /// How each value is written in a specification (lowercase letters, digits or `_`).
    const SPELLINGS: &'static [&'static str];

    /// The value spelt `text`, if any.
    fn parse(text: &str) -> Option<Self> {
        let i = Self::SPELLINGS.iter().position(|s| *s == text)?;
        Self::VALUES.get(i).copied()
    }

    /// How this value is written in a specification.
    fn spelling(self) -> &'static str {
        Self::VALUES
            .iter()
            .position(|v| *v == self)
            .and_then(|i| Self::SPELLINGS.get(i))
            .copied()
            .unwrap_or("")
    }
}

impl OptionValue for bool {
    const VALUES: &'static [bool] = &[false, true];
    const SPELLINGS: &'static [&'static str] = &["false", "true"];
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFOS: &[OptionInfo] = &[
        OptionInfo {
            name: "pieces",
            values: &["7", "5"],
            rules: "K-1",
            doc: "pieces a side",
        },
        OptionInfo {
            name: "trap",
            values: BOOL_OFF,
            rules: "K-9",
            doc: "trap",
        },
    ];

    #[test]
    fn parses_and_prints() {
        let spec: RulesetSpec = " regency ".parse().unwrap();
        assert_eq!(spec.to_string(), "regency");
        let spec: RulesetSpec = "x(a=1, b=true)".parse().unwrap();
        assert_eq!(spec.to_string(), "x(a=1,b=true)");
        let spec: RulesetSpec = "x()".parse().unwrap();
        assert_eq!(spec.to_string(), "x");
    }

    #[test]
    fn syntax_errors() {
        for text in [
            "", "X", "x(", "x(a)", "x(a=)", "x(=1)", "x(a=1))", "x(a=(1))", "x y", "x(a=B)",
        ] {
            assert!(
                matches!(text.parse::<RulesetSpec>(), Err(SpecError::Syntax { .. })),
                "{text:?}"
            );
        }
        assert!(matches!(
            "x(a=1,a=2)".parse::<RulesetSpec>(),
            Err(SpecError::DuplicateOption(_))
        ));
        assert!("x".repeat(600).parse::<RulesetSpec>().is_err());
    }

    #[test]
    fn values_check_names_and_ranges() {
        let spec: RulesetSpec = "kendall(pieces=5)".parse().unwrap();
        let values = spec.values("kendall", INFOS).unwrap();
        assert_eq!(values.get("pieces"), Ok("5"));
        assert_eq!(values.value::<bool>("trap"), Ok(false));
        assert!(matches!(
            values.value::<bool>("traps"),
            Err(SpecError::UnknownOption { .. })
        ));
        assert!(matches!(
            values.value::<bool>("pieces"),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            "kendall(pieces=6)"
                .parse::<RulesetSpec>()
                .unwrap()
                .values("kendall", INFOS),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            "kendall(water=true)"
                .parse::<RulesetSpec>()
                .unwrap()
                .values("kendall", INFOS),
            Err(SpecError::UnknownOption { .. })
        ));
        assert!(matches!(
            "bell"
                .parse::<RulesetSpec>()
                .unwrap()
                .values("kendall", INFOS),
            Err(SpecError::UnknownRuleset { .. })
        ));
    }

    #[test]
    fn canonical_drops_defaults() {
        let spec = RulesetSpec::canonical(
            "kendall",
            INFOS,
            &[("pieces", "7".to_string()), ("trap", "true".to_string())],
        );
        assert_eq!(spec.to_string(), "kendall(trap=true)");
    }
}
