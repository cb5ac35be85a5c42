//! Weights files: a [`ValueNet`] in the safetensors format, with the ruleset it was trained
//! for in the file's metadata.

use std::collections::HashMap;

use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use senet_core::Ruleset;
use thiserror::Error;

use super::encoding::input_count;
use super::endgame::{EndgameNet, MAX_ENDGAME_PIECES, check_pieces};
use super::network::{ShapeError, ValueNet};

/// The safetensors metadata entry holding a weights file's description.
const METADATA_KEY: &str = "senet";
/// The value of `format` in every weights file's description.
const FORMAT: &str = "senet-value-net";
/// The layout of the inputs ([`super::Input::encode`]); it goes up when the encoding changes.
pub const ENCODING_VERSION: u32 = 1;

/// The largest weights file read: a network at its caps is about 130 KB.
pub const MAX_WEIGHTS_FILE_BYTES: usize = 1 << 20;

/// What a weights file says about its network beyond the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsInfo {
    /// The ruleset configuration the network was trained for, e.g.
    /// `kendall(throw_timing=immediate)`.
    pub ruleset: String,
    /// That ruleset's [`RULES_REVISION`](Ruleset::RULES_REVISION) at training time.
    pub rules_revision: u32,
    /// The names of the ruleset's [`STATE_FEATURES`](Ruleset::STATE_FEATURES) at training
    /// time, comma-separated.
    pub state_features: String,
    /// Self-play games the network was trained on.
    pub games: u64,
    /// How it was trained, in words (method, step sizes, seed, threads, exact labels).
    pub training: String,
}

impl WeightsInfo {
    /// The description of `rules` a network for it must carry, with the training fields
    /// given.
    pub fn for_rules<R: Ruleset>(rules: &R, games: u64, training: String) -> WeightsInfo {
        WeightsInfo {
            ruleset: rules.spec().to_string(),
            rules_revision: R::RULES_REVISION,
            state_features: R::STATE_FEATURES.join(","),
            games,
            training,
        }
    }
}

/// A network and what it was trained for, with a second network for the endgame if one
/// was fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The network.
    pub net: ValueNet,
    /// What it was trained for.
    pub info: WeightsInfo,
    /// The network valuing the positions with few pieces a side, when there is one.
    pub endgame: Option<EndgameNet>,
}

/// Why weights cannot be read or used.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// The bytes are not a safetensors file, or lack a tensor or a metadata entry.
    #[error("not a senet weights file: {0}")]
    Format(String),
    /// The file is larger than [`MAX_WEIGHTS_FILE_BYTES`].
    #[error(
        "a weights file of {0} bytes is larger than the {MAX_WEIGHTS_FILE_BYTES} bytes allowed"
    )]
    TooLarge(usize),
    /// The tensors do not make a network.
    #[error("the weights do not make a network: {0}")]
    Shape(#[from] ShapeError),
    /// The network was trained for another ruleset, configuration, revision or encoding.
    #[error(
        "these weights were trained for `{trained}` and cannot play `{wanted}`; train a network for it with `senet train --rules '{wanted_spec}' --out FILE`"
    )]
    Mismatch {
        /// The configuration (and revision) in the file.
        trained: String,
        /// The configuration (and revision) asked for.
        wanted: String,
        /// The specification to train, for the message.
        wanted_spec: String,
    },
    /// No weights come with the crate for this configuration.
    #[error(
        "no weights come with senet for `{0}`; train them with `senet train --rules '{0}' --out FILE`"
    )]
    NotCommitted(String),
    /// The file could not be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

fn format_error(error: impl std::fmt::Display) -> WeightsError {
    WeightsError::Format(error.to_string())
}

/// The prefix of the endgame network's tensor names.
const ENDGAME_PREFIX: &str = "endgame.";

/// A network's four tensors, their names prefixed: name, bytes, shape.
fn net_tensors(prefix: &str, net: &ValueNet) -> Vec<(String, Vec<u8>, Vec<usize>)> {
    let (w1, b1, w2, b2) = net.weights();
    let (inputs, hidden) = (net.inputs(), net.hidden());
    vec![
        (format!("{prefix}w1"), le_bytes(w1), vec![inputs, hidden]),
        (format!("{prefix}b1"), le_bytes(b1), vec![hidden]),
        (format!("{prefix}w2"), le_bytes(w2), vec![hidden]),
        (format!("{prefix}b2"), le_bytes(&[b2]), vec![1]),
    ]
}

/// Little-endian f32 bytes of `values`.
fn le_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl Weights {
    /// The weights file's bytes (safetensors: tensors `w1` `[inputs, hidden]`, `b1`
    /// `[hidden]`, `w2` `[hidden]`, `b2` `[1]`, all f32, and the [`WeightsInfo`] as `key=value`
    /// lines in the metadata entry `senet`; an endgame network adds the same four tensors
    /// named `endgame.w1` and so on, and the lines `endgame_pieces`, `endgame_games` and
    /// `endgame_training`). The same weights always give the same bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut tensors = net_tensors("", &self.net);
        if let Some(endgame) = &self.endgame {
            tensors.extend(net_tensors(ENDGAME_PREFIX, &endgame.net));
        }
        let views = tensors.iter().map(|(name, bytes, shape)| {
            let view = TensorView::new(Dtype::F32, shape.clone(), bytes)
                .expect("the lengths follow from the shape");
            (name.as_str(), view)
        });
        let info = &self.info;
        // One metadata entry of `key=value` lines: the safetensors crate writes a map's
        // entries in hashing order, and the same weights must always give the same bytes.
        let mut lines = vec![
            ("format", FORMAT.to_string()),
            ("encoding", ENCODING_VERSION.to_string()),
            ("ruleset", info.ruleset.clone()),
            ("rules_revision", info.rules_revision.to_string()),
            ("state_features", info.state_features.clone()),
            ("games", info.games.to_string()),
            ("training", info.training.clone()),
        ];
        if let Some(endgame) = &self.endgame {
            lines.extend([
                ("endgame_pieces", endgame.max_pieces.to_string()),
                ("endgame_games", endgame.games.to_string()),
                ("endgame_training", endgame.training.clone()),
            ]);
        }
        let lines = lines
            .iter()
            .map(|(key, value)| format!("{key}={}", value.replace(['\n', '\r'], " ")))
            .collect::<Vec<_>>()
            .join("\n");
        let metadata = HashMap::from([(METADATA_KEY.to_string(), lines)]);
        safetensors::serialize(views, Some(metadata)).expect("small tensors serialise")
    }

    /// Reads a weights file's bytes. Every malformed file gives an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() > MAX_WEIGHTS_FILE_BYTES {
            return Err(WeightsError::TooLarge(bytes.len()));
        }
        let (_, metadata) = SafeTensors::read_metadata(bytes).map_err(format_error)?;
        let tensors = SafeTensors::deserialize(bytes).map_err(format_error)?;
        let lines = metadata
            .metadata()
            .as_ref()
            .and_then(|m| m.get(METADATA_KEY))
            .ok_or_else(|| WeightsError::Format(format!("no metadata `{METADATA_KEY}`")))?;
        let entry = |key: &str| {
            lines
                .lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
                .map(str::to_string)
                .ok_or_else(|| WeightsError::Format(format!("metadata `{key}` is missing")))
        };
        let number = |key: &str| {
            entry(key)?
                .parse::<u64>()
                .map_err(|_| WeightsError::Format(format!("metadata `{key}` is not a number")))
        };
        if entry("format")? != FORMAT {
            return Err(WeightsError::Format(format!(
                "metadata `format` is not `{FORMAT}`"
            )));
        }
        let encoding = number("encoding")?;
        if encoding != u64::from(ENCODING_VERSION) {
            return Err(WeightsError::Format(format!(
                "input encoding {encoding}; this version of senet reads encoding {ENCODING_VERSION} (train the network again)"
            )));
        }
        let tensor = |name: &str| -> Result<(Vec<usize>, Vec<f32>), WeightsError> {
            let view = tensors.tensor(name).map_err(format_error)?;
            if view.dtype() != Dtype::F32 {
                return Err(WeightsError::Format(format!("tensor `{name}` is not f32")));
            }
            let values = view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            Ok((view.shape().to_vec(), values))
        };
        let read_net = |prefix: &str| -> Result<ValueNet, WeightsError> {
            let (shape, w1) = tensor(&format!("{prefix}w1"))?;
            let [inputs, hidden] = shape[..] else {
                return Err(WeightsError::Format(format!(
                    "tensor `{prefix}w1` is not two-dimensional"
                )));
            };
            let (_, b1) = tensor(&format!("{prefix}b1"))?;
            let (_, w2) = tensor(&format!("{prefix}w2"))?;
            let (_, b2) = tensor(&format!("{prefix}b2"))?;
            let &[b2] = &b2[..] else {
                return Err(WeightsError::Format(format!(
                    "tensor `{prefix}b2` does not hold one value"
                )));
            };
            Ok(ValueNet::from_weights(inputs, hidden, w1, b1, w2, b2)?)
        };
        let net = read_net("")?;
        let rules_revision = u32::try_from(number("rules_revision")?)
            .map_err(|_| WeightsError::Format("metadata `rules_revision` is too large".into()))?;
        let info = WeightsInfo {
            ruleset: entry("ruleset")?,
            rules_revision,
            state_features: entry("state_features")?,
            games: number("games")?,
            training: entry("training")?,
        };
        let endgame = match entry("endgame_pieces") {
            Err(_) => None,
            Ok(pieces) => {
                let max_pieces = pieces
                    .parse::<u8>()
                    .ok()
                    .filter(|&k| check_pieces(k))
                    .ok_or_else(|| {
                        WeightsError::Format(format!(
                            "metadata `endgame_pieces` is not a number from 1 to {MAX_ENDGAME_PIECES}"
                        ))
                    })?;
                let endgame_net = read_net(ENDGAME_PREFIX)?;
                if endgame_net.inputs() != net.inputs() {
                    return Err(WeightsError::Format(
                        "the endgame network has other inputs than the main one".into(),
                    ));
                }
                Some(EndgameNet {
                    max_pieces,
                    games: number("endgame_games")?,
                    training: entry("endgame_training")?,
                    net: endgame_net,
                })
            }
        };
        Ok(Weights { net, info, endgame })
    }

    /// Reads a weights file.
    pub fn read(path: &std::path::Path) -> Result<Weights, WeightsError> {
        let length = std::fs::metadata(path)?.len();
        if length > MAX_WEIGHTS_FILE_BYTES as u64 {
            return Err(WeightsError::TooLarge(
                usize::try_from(length).unwrap_or(usize::MAX),
            ));
        }
        Weights::from_bytes(&std::fs::read(path)?)
    }

    /// Fails unless the network was trained for exactly this configuration of `rules`, at
    /// this rules revision, with the ruleset's current state features.
    pub fn check_rules<R: Ruleset>(&self, rules: &R) -> Result<(), WeightsError> {
        let wanted = WeightsInfo::for_rules(rules, 0, String::new());
        let info = &self.info;
        let same = info.ruleset == wanted.ruleset
            && info.rules_revision == wanted.rules_revision
            && info.state_features == wanted.state_features
            && self.net.inputs() == input_count::<R>();
        if same {
            return Ok(());
        }
        Err(WeightsError::Mismatch {
            trained: format!("{} (rules revision {})", info.ruleset, info.rules_revision),
            wanted: format!(
                "{} (rules revision {})",
                wanted.ruleset, wanted.rules_revision
            ),
            wanted_spec: wanted.ruleset,
        })
    }
}
