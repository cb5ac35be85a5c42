//! Solved endgame tables, in memory and on disk.
//!
//! # File format, version 3
//!
//! A table file is one header, the values, and a checksum. Integers are little-endian.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SENETEGT` |
//! | 8 | 2 | format version: 3 |
//! | 10 | 1 | bytes per value `e`: 2, 4 or 8 (see [`ValueEncoding`]) |
//! | 11 | 1 | the most pieces per side on the board, `k` |
//! | 12 | 8 | number of positions `n` |
//! | 20 | 8 | tolerance of the solve (`f64`) |
//! | 28 | 8 | Bellman residual measured by the solver (`f64`) |
//! | 36 | 8 | proven error bound of the values as stored (`f64`): the solver's ([`SolveStats::error_bound`]) plus the encoding's rounding |
//! | 44 | 4 | the solver's work in layers' worth of sweeps ([`SolveStats::sweeps`], `u32`) |
//! | 48 | 4 | the ruleset's rules revision ([`Ruleset::RULES_REVISION`], `u32`) |
//! | 52 | 2 | length `a` of the ruleset specification |
//! | 54 | `a` | the canonical ruleset specification, UTF-8, e.g. `regency(house_of_water=true)` |
//! | 54 + `a` | 2 | length `b` of the layout name |
//! | 56 + `a` | `b` | the layout name ([`EndgameSpace::layout`]), UTF-8 |
//! | 56 + `a` + `b` | `n·e` | the values in index order: with 2 or 4 bytes as fixed point, `round(v · (2^(8e) − 1))`; with 8 as they are (`f64`) |
//! | end − 8 | 8 | FNV-1a 64-bit hash of every byte before it |
//!
//! The specification records the ruleset *and its options*, the revision the version of its
//! rules: reading a table with a ruleset configured differently is an error
//! ([`TableError::RulesetMismatch`]), and so is a table solved under another revision of the
//! rules ([`TableError::RevisionMismatch`]: its values may no longer hold), written with
//! another indexing scheme, for another `k`, in an older version of the format (versions 1
//! and 2 carry no proven bound: [`TableError::Outdated`] says to solve them again), or a
//! damaged file. With 2 bytes per value a value is off by at most 1/131070 (about 7.6e-6)
//! more than the solve left it, with 4 bytes by 1.2e-10 more: only 8 bytes keep a table
//! exact in the sense of [`EXACT_BOUND`](crate::EXACT_BOUND).

use std::io::{Read, Write};

use senet_core::Ruleset;
use thiserror::Error;

use super::SpaceState;
use super::{EndgameError, EndgameSpace, PositionOracle, SolveStats, bellman_value};

const MAGIC: &[u8; 8] = b"SENETEGT";

/// The largest `|a[i] − b[i]|` over the positions both slices have.
pub(crate) fn largest_difference(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}
/// The version of the file format written by this crate.
pub const FORMAT_VERSION: u16 = 3;

/// How values are stored in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ValueEncoding {
    /// 2 bytes per value (rounding ≤ 7.6e-6): plenty to choose moves.
    #[default]
    U16,
    /// 4 bytes per value (rounding ≤ 1.2e-10).
    U32,
    /// 8 bytes per value: the solved values as they are (`f64`), without rounding.
    F64,
}

impl ValueEncoding {
    /// Bytes per value.
    pub const fn bytes(self) -> usize {
        match self {
            ValueEncoding::U16 => 2,
            ValueEncoding::U32 => 4,
            ValueEncoding::F64 => 8,
        }
    }

    /// How far a value read back may be from the value written: half a step of the fixed
    /// point, and two units in the last place of 1 for the multiplication and division
    /// that round it; nothing for [`F64`](ValueEncoding::F64).
    pub fn rounding(self) -> f64 {
        match self {
            ValueEncoding::F64 => 0.0,
            fixed => 0.5 / fixed.scale() + f64::EPSILON,
        }
    }

    fn scale(self) -> f64 {
        match self {
            ValueEncoding::U16 => f64::from(u16::MAX),
            ValueEncoding::U32 => f64::from(u32::MAX),
            ValueEncoding::F64 => 1.0,
        }
    }

    fn from_bytes(bytes: u8) -> Result<ValueEncoding, TableError> {
        match bytes {
            2 => Ok(ValueEncoding::U16),
            4 => Ok(ValueEncoding::U32),
            8 => Ok(ValueEncoding::F64),
            other => Err(TableError::Encoding(other)),
        }
    }
}

/// A proven bound as people read it: two significant digits, rounded up, so that the
/// figure shown is never below the bound (`3.2e-11`).
pub fn bound_text(bound: f64) -> String {
    if !(bound > 0.0 && bound.is_finite()) {
        return format!("{bound:.1e}");
    }
    let exponent = bound.log10().floor() as i32;
    // The mantissa in tenths, rounded up; 10 and more goes to the next exponent.
    let tenths = (bound / 10f64.powi(exponent - 1)).ceil();
    let (tenths, exponent) = if tenths >= 100.0 {
        (10.0, exponent + 1)
    } else {
        (tenths, exponent)
    };
    format!("{:.1}e{exponent}", tenths / 10.0)
}

/// Why a table file could not be read or written.
#[derive(Debug, Error)]
pub enum TableError {
    /// Reading or writing failed.
    #[error("table file: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with `SENETEGT`.
    #[error("not an endgame table (the file does not start with SENETEGT)")]
    BadMagic,
    /// The file was written in a format version this crate does not read.
    #[error(
        "table format version {0} is not supported (this build reads version {FORMAT_VERSION})"
    )]
    Version(u16),
    /// The file was written in an older format version, which carries no proven bound on
    /// its values' error.
    #[error(
        "table format version {0} carries no proven error bound (this build reads version \
         {FORMAT_VERSION}): solve the tables again with `senet solve`"
    )]
    Outdated(u16),
    /// The bytes per value are neither 2, 4 nor 8.
    #[error("{0} bytes per value is not a known encoding (2, 4 or 8)")]
    Encoding(u8),
    /// A number of the file is out of its range: a value outside 0..=1 or not a number, or
    /// an error bound that is negative or not a number.
    #[error("the table file holds an invalid {0}")]
    Invalid(&'static str),
    /// The file ends early (or has bytes left over).
    #[error("the table file has {found} bytes where its header promises {expected}")]
    Length {
        /// The size the header implies.
        expected: usize,
        /// The actual size.
        found: usize,
    },
    /// The header promises a file larger than the caller reads.
    #[error("the table file's header promises {expected} bytes, more than the {limit} read")]
    TooLarge {
        /// The size the header implies.
        expected: usize,
        /// The most bytes read.
        limit: u64,
    },
    /// The checksum does not match: the file is damaged.
    #[error("the table file is damaged (checksum mismatch)")]
    Checksum,
    /// A text field is not UTF-8 or too long.
    #[error("the table header's {0} is not valid text")]
    Text(&'static str),
    /// The table was solved for another ruleset or other options.
    #[error("the table was solved for `{}`, not for `{expected}`", senet_core::shorten(.table))]
    RulesetMismatch {
        /// The specification recorded in the file.
        table: String,
        /// The specification of the ruleset it was read for.
        expected: String,
    },
    /// The table was solved under another revision of the ruleset's rules.
    #[error(
        "the table was solved under revision {table} of the rules of `{}`, this build plays revision {expected}; solve it again", senet_core::shorten(.spec)
    )]
    RevisionMismatch {
        /// The ruleset specification.
        spec: String,
        /// The revision recorded in the file.
        table: u32,
        /// The ruleset's current revision.
        expected: u32,
    },
    /// The table uses another indexing scheme.
    #[error("the table uses layout `{}`, this build reads `{expected}`", senet_core::shorten(.table))]
    LayoutMismatch {
        /// The layout recorded in the file.
        table: String,
        /// The layout of the space it was read for.
        expected: String,
    },
    /// The table covers another number of pieces per side.
    #[error("the table covers up to {table} pieces a side, not {expected}")]
    PiecesMismatch {
        /// Pieces per side recorded in the file.
        table: u8,
        /// Pieces per side of the space it was read for.
        expected: u8,
    },
    /// The number of positions does not match the space.
    #[error("the table has {table} positions, the space has {expected}")]
    CountMismatch {
        /// Positions recorded in the file.
        table: u64,
        /// Positions of the space.
        expected: usize,
    },
}

/// The header of a table file.
#[derive(Clone, Debug, PartialEq)]
pub struct TableHeader {
    /// The format version.
    pub version: u16,
    /// How values are stored.
    pub encoding: ValueEncoding,
    /// The most pieces per side on the board.
    pub max_pieces: u8,
    /// Number of positions.
    pub states: u64,
    /// Tolerance of the solve.
    pub tolerance: f64,
    /// Bellman residual measured by the solver.
    pub residual: f64,
    /// Proven bound on the error of the values as stored (see [`SolveStats::error_bound`]).
    pub error_bound: f64,
    /// The solver's work in whole layers' worth of sweeps ([`SolveStats::sweeps`]).
    pub sweeps: u32,
    /// The rules revision of the ruleset when the table was solved.
    pub rules_revision: u32,
    /// The canonical ruleset specification.
    pub spec: String,
    /// The indexing scheme.
    pub layout: String,
}

impl TableHeader {
    /// Reads the header of a whole table file, checking magic, version, encoding, length and
    /// checksum. Returns the header and the offset of the first value.
    pub fn parse(bytes: &[u8]) -> Result<(TableHeader, usize), TableError> {
        let (header, values_at, expected) = TableHeader::parse_fields(bytes)?;
        if bytes.len() != expected {
            return Err(TableError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body).to_le_bytes() != sum {
            return Err(TableError::Checksum);
        }
        Ok((header, values_at))
    }

    /// Reads the header from the start of a table file (`bytes` may stop anywhere after the
    /// header). Returns the header, the offset of the first value and the length of the whole
    /// file the header describes.
    fn parse_fields(bytes: &[u8]) -> Result<(TableHeader, usize, usize), TableError> {
        let mut reader = ByteReader { bytes, at: 0 };
        if reader.take(8)? != MAGIC {
            return Err(TableError::BadMagic);
        }
        let version = reader.u16()?;
        if version < FORMAT_VERSION {
            return Err(TableError::Outdated(version));
        }
        if version != FORMAT_VERSION {
            return Err(TableError::Version(version));
        }
        let encoding = ValueEncoding::from_bytes(reader.u8()?)?;
        let max_pieces = reader.u8()?;
        let states = reader.u64()?;
        let tolerance = f64::from_bits(reader.u64()?);
        let residual = f64::from_bits(reader.u64()?);
        let error_bound = f64::from_bits(reader.u64()?);
        // Not a number is refused too.
        if error_bound.is_nan() || error_bound < 0.0 {
            return Err(TableError::Invalid("error bound"));
        }
        let sweeps = reader.u32()?;
        let rules_revision = reader.u32()?;
        let spec = reader.text("ruleset specification")?;
        let layout = reader.text("layout name")?;
        let values_at = reader.at;
        let expected = usize::try_from(states)
            .ok()
            .and_then(|n| n.checked_mul(encoding.bytes()))
            .and_then(|n| n.checked_add(values_at + 8))
            .unwrap_or(usize::MAX);
        Ok((
            TableHeader {
                version,
                encoding,
                max_pieces,
                states,
                tolerance,
                residual,
                error_bound,
                sweeps,
                rules_revision,
                spec,
                layout,
            },
            values_at,
            expected,
        ))
    }
}

/// The longest header a table file can have: the fixed fields and two texts of at most
/// `u16::MAX` bytes each.
const MAX_HEADER: usize = 52 + 2 * (2 + u16::MAX as usize);

/// Reads a whole table file from `reader`, refusing one whose header promises more than
/// `limit` bytes before reading it: a stream that never ends (`/dev/zero`) or a header with a
/// huge count fails at once instead of filling the memory. The result still goes through
/// [`TableHeader::parse`] (length and checksum) when it is loaded.
pub fn read_table_bytes<Rd: Read>(reader: Rd, limit: u64) -> Result<Vec<u8>, TableError> {
    let mut bytes = Vec::new();
    let mut reader = reader;
    (&mut reader)
        .take(MAX_HEADER as u64)
        .read_to_end(&mut bytes)?;
    let (_, _, expected) = TableHeader::parse_fields(&bytes)?;
    if expected as u64 > limit {
        return Err(TableError::TooLarge { expected, limit });
    }
    if bytes.len() < expected {
        // One byte more than promised, so that a longer file is told apart from an exact one.
        (&mut reader)
            .take((expected - bytes.len()) as u64 + 1)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteReader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], TableError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(TableError::Length {
                expected: self.at.saturating_add(n),
                found: self.bytes.len(),
            });
        };
        let part = &self.bytes[self.at..end];
        self.at = end;
        Ok(part)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], TableError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, TableError> {
        Ok(self.array::<1>()?[0])
    }

    fn u16(&mut self) -> Result<u16, TableError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    fn u32(&mut self) -> Result<u32, TableError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, TableError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn text(&mut self, what: &'static str) -> Result<String, TableError> {
        let len = usize::from(self.u16()?);
        let raw = self.take(len)?;
        String::from_utf8(raw.to_vec()).map_err(|_| TableError::Text(what))
    }
}

/// The 64-bit FNV-1a hash.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::new();
    hash.update(bytes);
    hash.finish()
}

/// The 64-bit FNV-1a hash of bytes given a piece at a time.
pub(crate) struct Fnv1a(u64);

impl Fnv1a {
    pub(crate) fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

/// The solved values of every position of an [`EndgameSpace`]: the probability that the
/// side to act wins under perfect play.
#[derive(Clone, Debug)]
pub struct EndgameTable<S: EndgameSpace> {
    space: S,
    values: Vec<f64>,
    stats: SolveStats,
}

impl<S: EndgameSpace> EndgameTable<S> {
    pub(crate) fn from_parts(space: S, values: Vec<f64>, stats: SolveStats) -> Self {
        EndgameTable {
            space,
            values,
            stats,
        }
    }

    /// The space the table covers.
    pub fn space(&self) -> &S {
        &self.space
    }

    /// How the table was solved (for a table read from a file: the solver's tolerance,
    /// residual and sweeps as recorded, the number of positions, and the proven error bound
    /// of the values as stored, the encoding's rounding included).
    pub fn stats(&self) -> &SolveStats {
        &self.stats
    }

    /// The chance that the side to act wins `state` (a state waiting for a throw), if the
    /// table covers it: stored, or computed from its throws for a state the space passes
    /// through ([`EndgameSpace::passes_through`]).
    #[inline]
    pub fn value(&self, state: &SpaceState<S>) -> Option<f64> {
        match self.space.index(state) {
            Some(i) => Some(self.values[i]),
            None if self.space.passes_through(state) => {
                let stored = |s: &SpaceState<S>| self.space.index(s).map(|i| self.values[i]);
                bellman_value(self.space.rules(), state, &stored)
            }
            None => None,
        }
    }

    /// The value stored at `index`.
    pub fn value_at(&self, index: usize) -> Option<f64> {
        self.values.get(index).copied()
    }

    /// Every value, in index order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The largest difference between a value of this table and the same position's value in
    /// `other`: how far two solves (other tolerances, methods or encodings) disagree. Tables
    /// of different sizes differ by infinity.
    pub fn largest_difference(&self, other: &EndgameTable<S>) -> f64 {
        if self.values.len() != other.values.len() {
            return f64::INFINITY;
        }
        largest_difference(&self.values, &other.values)
    }

    /// Checks the Bellman equation at every position, straight from the turn machine (not
    /// from the solver's compiled programs): the largest `|V(s) − right-hand side(s)|`. A
    /// space with a solver of its own checks its own equation
    /// ([`EndgameSpace::own_residual`]).
    pub fn bellman_residual(&self) -> Result<f64, EndgameError> {
        if let Some(own) = self.space.own_residual(&self.values) {
            return own;
        }
        let rules = self.space.rules();
        let lookup = |s: &SpaceState<S>| self.value(s);
        let mut largest: f64 = 0.0;
        for (index, &value) in self.values.iter().enumerate() {
            let state = self
                .space
                .state(index)
                .ok_or_else(|| EndgameError::Inconsistent {
                    index,
                    reason: "no state for this index".to_string(),
                })?;
            let rhs =
                bellman_value(rules, &state, &lookup).ok_or_else(|| EndgameError::NotClosed {
                    position: rules.position_string(&state),
                })?;
            largest = largest.max((rhs - value).abs());
        }
        Ok(largest)
    }

    /// The table as a file (see the [module documentation](self)).
    pub fn to_bytes(&self, encoding: ValueEncoding) -> Vec<u8> {
        let spec = self.space.rules().spec().to_string();
        let mut out = Vec::with_capacity(64 + spec.len() + self.values.len() * encoding.bytes());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(encoding.bytes() as u8);
        out.push(self.space.max_pieces());
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.stats.tolerance.to_bits().to_le_bytes());
        out.extend_from_slice(&self.stats.residual.to_bits().to_le_bytes());
        let bound = self.stats.error_bound + encoding.rounding();
        out.extend_from_slice(&bound.to_bits().to_le_bytes());
        out.extend_from_slice(&self.stats.sweeps.to_le_bytes());
        out.extend_from_slice(&<S::Rules as Ruleset>::RULES_REVISION.to_le_bytes());
        for text in [spec.as_str(), self.space.layout()] {
            // Specifications and layout names are short; cut rather than fail on absurd ones.
            let bytes = &text.as_bytes()[..text.len().min(usize::from(u16::MAX))];
            out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        let scale = encoding.scale();
        for &v in &self.values {
            let q = (v.clamp(0.0, 1.0) * scale).round();
            match encoding {
                ValueEncoding::U16 => out.extend_from_slice(&(q as u16).to_le_bytes()),
                ValueEncoding::U32 => out.extend_from_slice(&(q as u32).to_le_bytes()),
                ValueEncoding::F64 => out.extend_from_slice(&v.to_le_bytes()),
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the table file.
    pub fn write_to<W: Write>(
        &self,
        writer: &mut W,
        encoding: ValueEncoding,
    ) -> Result<(), TableError> {
        writer.write_all(&self.to_bytes(encoding))?;
        Ok(())
    }

    /// Reads a table file for `space`, checking that it was solved for the same ruleset with
    /// the same options and rules revision, the same layout and the same number of pieces.
    pub fn from_bytes(space: S, bytes: &[u8]) -> Result<Self, TableError> {
        let (header, values_at) = TableHeader::parse(bytes)?;
        let expected = space.rules().spec().to_string();
        if header.spec != expected {
            return Err(TableError::RulesetMismatch {
                table: header.spec,
                expected,
            });
        }
        let revision = <S::Rules as Ruleset>::RULES_REVISION;
        if header.rules_revision != revision {
            return Err(TableError::RevisionMismatch {
                spec: header.spec,
                table: header.rules_revision,
                expected: revision,
            });
        }
        if header.layout != space.layout() {
            return Err(TableError::LayoutMismatch {
                table: header.layout,
                expected: space.layout().to_string(),
            });
        }
        if header.max_pieces != space.max_pieces() {
            return Err(TableError::PiecesMismatch {
                table: header.max_pieces,
                expected: space.max_pieces(),
            });
        }
        if header.states != space.state_count() as u64 {
            return Err(TableError::CountMismatch {
                table: header.states,
                expected: space.state_count(),
            });
        }
        let width = header.encoding.bytes();
        let scale = header.encoding.scale();
        let raw = &bytes[values_at..bytes.len() - 8];
        let values: Vec<f64> = raw
            .chunks_exact(width)
            .map(|c| match header.encoding {
                ValueEncoding::U16 => f64::from(u16::from_le_bytes([c[0], c[1]])) / scale,
                ValueEncoding::U32 => {
                    f64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])) / scale
                }
                ValueEncoding::F64 => {
                    let mut bits = [0; 8];
                    bits.copy_from_slice(c);
                    f64::from_le_bytes(bits)
                }
            })
            .collect();
        if !values.iter().all(|v| (0.0..=1.0).contains(v)) {
            return Err(TableError::Invalid("value"));
        }
        let stats = SolveStats {
            states: space.state_count(),
            layers: space.layers().len(),
            sweeps: header.sweeps,
            tolerance: header.tolerance,
            residual: header.residual,
            error_bound: header.error_bound,
            ..SolveStats::default()
        };
        Ok(EndgameTable::from_parts(space, values, stats))
    }

    /// Reads a table file for `space` from `reader` (see [`from_bytes`](Self::from_bytes)).
    /// Reads no more than a file of this space's size can have.
    pub fn read_from<Rd: Read>(space: S, reader: &mut Rd) -> Result<Self, TableError> {
        let most = MAX_HEADER as u64 + 8 + 8 * space.state_count() as u64;
        let bytes = read_table_bytes(reader, most)?;
        EndgameTable::from_bytes(space, &bytes)
    }
}

impl<S: EndgameSpace> PositionOracle<S::Rules> for EndgameTable<S> {
    #[inline]
    fn throw_value(&self, state: &SpaceState<S>) -> Option<f64> {
        self.value(state)
    }

    fn spec(&self) -> senet_core::RulesetSpec {
        self.space.rules().spec()
    }

    fn max_pieces(&self) -> u8 {
        self.space.max_pieces()
    }

    fn describe(&self) -> String {
        format!(
            "{} endgames, up to {} pieces a side, {} positions, every value within {} of \
             the exact one (proven)",
            self.space.rules().spec(),
            self.space.max_pieces(),
            self.values.len(),
            bound_text(self.stats.error_bound),
        )
    }

    fn error_bound(&self) -> f64 {
        self.stats.error_bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn bounds_are_shown_rounded_up() {
        assert_eq!(bound_text(3.21e-11), "3.3e-11");
        assert_eq!(bound_text(9.96e-11), "1.0e-10");
        assert_eq!(bound_text(7.629e-6), "7.7e-6");
        assert_eq!(bound_text(0.0), "0.0e0");
    }

    #[test]
    fn encodings_round_by_at_most_their_stated_bound() {
        assert!(ValueEncoding::U16.rounding() < 7.7e-6);
        assert!(ValueEncoding::U32.rounding() < 1.2e-10);
        assert_eq!(ValueEncoding::F64.rounding(), 0.0);
        for encoding in [ValueEncoding::U16, ValueEncoding::U32] {
            let scale = encoding.scale();
            for i in 0..1000 {
                let v = f64::from(i) / 999.0 + 1e-7 * f64::from(i % 7);
                let v = v.min(1.0);
                let back = (v * scale).round() / scale;
                assert!((back - v).abs() <= encoding.rounding(), "{encoding:?} {v}");
            }
        }
    }

    #[test]
    fn unknown_encodings_are_refused() {
        assert!(matches!(
            ValueEncoding::from_bytes(3),
            Err(TableError::Encoding(3))
        ));
        assert_eq!(ValueEncoding::from_bytes(4).unwrap(), ValueEncoding::U32);
    }
}
