//! Checkpoints of a long solve: the layers solved so far and, with the on-disk method, the
//! state of the layer being swept, written atomically so that a solve that is stopped,
//! killed or loses its machine goes on from there when it is run again.
//!
//! The file (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | `SENETCKP` |
//! | 4 | format version, 2 (version 1, without the proven bound, is refused) |
//! | 4 + n | the solve's description: layout, ruleset, rules revision, pieces, positions, method, tolerance, target bound, policy steps |
//! | 15 · 8 | the [`SolveStats`] of the layers solved, their proven bound and the work of bracketing included |
//! | 8 | layers solved |
//! | 8 + 8 · n | the values of their positions, in index order |
//! | 1 | 1 if a layer is being swept (on disk), else 0 |
//! | … | then: its sweeps (4), the extrapolation's sweeps since its last step (4) and each sweep's largest change (8 + 8 · n), the layer's values in sweep order (8 + 8 · n) and last changes (8 + 4 · n) |
//! | 8 | FNV-1a 64-bit hash of every byte before it |

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::clock::Instant;

use super::super::table::Fnv1a;
use super::super::{EndgameError, EndgameSpace};
use super::on_disk::Extrapolation;
use super::options::{SolveOptions, SolveStats};
use senet_core::Ruleset;

const MAGIC: &[u8; 8] = b"SENETCKP";
const VERSION: u32 = 2;
/// The longest description read back.
const MOST_DESCRIPTION: usize = 1 << 12;

/// Where a solve keeps its progress, and when it stops (see [`solve_resumable`](super::solve_resumable)).
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The checkpoint file. A solve that finds it goes on from it; it is replaced (written
    /// to a temporary file beside it, then renamed) after every layer and, inside a layer
    /// swept on disk, at most every [`every`](Self::every).
    pub path: PathBuf,
    /// The least time between two saves inside a layer.
    pub every: Duration,
    /// Once the solve has run this long it saves its progress and stops with
    /// [`EndgameError::Stopped`] (`None`: it runs to the end).
    pub stop_after: Option<Duration>,
}

impl Checkpoint {
    /// A checkpoint at `path`, saved every 10 minutes inside a layer, without a time limit.
    pub fn new(path: impl Into<PathBuf>) -> Checkpoint {
        Checkpoint {
            path: path.into(),
            every: Duration::from_secs(600),
            stop_after: None,
        }
    }
}

/// The progress inside a layer swept on disk.
pub(crate) struct InLayer {
    pub(crate) sweeps: u32,
    pub(crate) extrapolation: Extrapolation,
    /// The layer's values in sweep order.
    pub(crate) local: Vec<f64>,
    /// Their last changes.
    pub(crate) changes: Vec<f32>,
}

/// The progress inside a layer as a checkpoint file holds it, the layer's values still in
/// the file: they are read by [`Keeper::layer_progress`] once the layer's programs are
/// compiled, so that the two never take memory at once.
pub(crate) struct PendingLayer {
    sweeps: u32,
    extrapolation: Extrapolation,
    /// Where the layer's values start in the file.
    offset: u64,
    states: usize,
}

/// What a checkpoint file held.
pub(crate) struct Saved {
    pub(crate) stats: SolveStats,
    pub(crate) layers: usize,
    /// The values of the layers solved, in index order.
    pub(crate) values: Vec<f64>,
    pub(crate) in_layer: Option<PendingLayer>,
}

/// A solve's checkpointing: what it saves where, and when.
pub(crate) struct Keeper<'a> {
    checkpoint: &'a Checkpoint,
    description: String,
    started: Instant,
    last_saved: Instant,
}

impl<'a> Keeper<'a> {
    pub(crate) fn new<S: EndgameSpace>(
        checkpoint: &'a Checkpoint,
        space: &S,
        options: &SolveOptions,
    ) -> Keeper<'a> {
        let rules = space.rules();
        let description = format!(
            "layout {}, {}, revision {}, {} pieces, {} positions, {:?}, tolerance {:e}, \
             target bound {:e}, policy steps {:?}",
            space.layout(),
            rules.spec(),
            <S::Rules as Ruleset>::RULES_REVISION,
            space.max_pieces(),
            space.state_count(),
            options.method,
            options.tolerance,
            options.target_bound,
            options.policy_steps,
        );
        let now = Instant::now();
        Keeper {
            checkpoint,
            description,
            started: now,
            last_saved: now,
        }
    }

    /// Whether the time the solve was given is up.
    pub(crate) fn time_is_up(&self) -> bool {
        self.checkpoint
            .stop_after
            .is_some_and(|limit| self.started.elapsed() >= limit)
    }

    /// Whether a save inside a layer is due (the time is up, or `every` has passed).
    pub(crate) fn due(&self) -> bool {
        self.time_is_up() || self.last_saved.elapsed() >= self.checkpoint.every
    }

    /// The error a solve stopped for its time limit returns, once it has saved.
    pub(crate) fn stopped(&self, layers: usize) -> EndgameError {
        EndgameError::Stopped {
            path: self.checkpoint.path.display().to_string(),
            layers,
        }
    }

    fn error(&self, reason: impl Into<String>) -> EndgameError {
        EndgameError::Checkpoint {
            path: self.checkpoint.path.display().to_string(),
            reason: reason.into(),
        }
    }

    /// The progress saved by an earlier run of the same solve, if the file exists.
    pub(crate) fn load(&self, layer_starts: &[usize]) -> Result<Option<Saved>, EndgameError> {
        let file = match File::open(&self.checkpoint.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.error(e.to_string())),
        };
        let mut input = Input::new(file, 0);
        self.read(&mut input, layer_starts)
            .map(Some)
            .map_err(|e| self.error(e))
    }

    /// The values of the layer in progress that [`load`](Self::load) found, read from the
    /// file it checked whole.
    pub(crate) fn layer_progress(&self, pending: PendingLayer) -> Result<InLayer, EndgameError> {
        let read = || -> Result<InLayer, String> {
            let mut file = File::open(&self.checkpoint.path).map_err(|e| e.to_string())?;
            file.seek(SeekFrom::Start(pending.offset))
                .map_err(|e| e.to_string())?;
            let mut input = Input::new(file, pending.offset);
            Ok(InLayer {
                sweeps: pending.sweeps,
                extrapolation: pending.extrapolation,
                local: input.values(pending.states, false, f64::from_le_bytes)?,
                changes: input.values(pending.states, false, f32::from_le_bytes)?,
            })
        };
        read().map_err(|e| self.error(e))
    }

    fn read(&self, input: &mut Input<impl Read>, layer_starts: &[usize]) -> Result<Saved, String> {
        if &input.bytes::<8>()? != MAGIC {
            return Err("not a solve checkpoint".into());
        }
        let version = u32::from_le_bytes(input.bytes()?);
        if version != VERSION {
            return Err(format!(
                "format version {version}, this build reads {VERSION}"
            ));
        }
        let length = u32::from_le_bytes(input.bytes()?) as usize;
        if length > MOST_DESCRIPTION {
            return Err("damaged (description too long)".into());
        }
        let mut description = vec![0; length];
        input.fill(&mut description)?;
        if description != self.description.as_bytes() {
            return Err(format!(
                "it is of another solve ({}), this one is {}",
                String::from_utf8_lossy(&description),
                self.description
            ));
        }
        let stats = read_stats(input)?;
        let layers = input.size(layer_starts.len() - 1)?;
        let values = input.values(layer_starts[layers], false, f64::from_le_bytes)?;
        let in_layer = match input.bytes::<1>()? {
            [0] => None,
            [1] if layers + 1 < layer_starts.len() => {
                let states = layer_starts[layers + 1] - layer_starts[layers];
                let sweeps = u32::from_le_bytes(input.bytes()?);
                let since = u32::from_le_bytes(input.bytes()?);
                let history = input.values(sweeps as usize, true, f64::from_le_bytes)?;
                let offset = input.position;
                // Checked here, read when the layer's sweeps start.
                input.skip_values(states, 8)?;
                input.skip_values(states, 4)?;
                Some(PendingLayer {
                    sweeps,
                    extrapolation: Extrapolation::resumed(history, since),
                    offset,
                    states,
                })
            }
            _ => return Err("damaged (layer in progress)".into()),
        };
        let expected = input.hash.finish();
        if u64::from_le_bytes(input.bytes()?) != expected {
            return Err("damaged (checksum)".into());
        }
        Ok(Saved {
            stats,
            layers,
            values,
            in_layer,
        })
    }

    /// Replaces the checkpoint with the layers solved (`values`: theirs, in index order)
    /// and the progress inside the next one.
    pub(crate) fn save(
        &mut self,
        stats: &SolveStats,
        layers: usize,
        values: &[f64],
        in_layer: Option<&InLayer>,
    ) -> Result<(), EndgameError> {
        let path = &self.checkpoint.path;
        let mut temporary = path.clone().into_os_string();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        self.write(&temporary, stats, layers, values, in_layer)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| self.error(e.to_string()))?;
        self.last_saved = Instant::now();
        Ok(())
    }

    fn write(
        &self,
        path: &Path,
        stats: &SolveStats,
        layers: usize,
        values: &[f64],
        in_layer: Option<&InLayer>,
    ) -> std::io::Result<()> {
        let file = File::create(path)?;
        let mut out = Output {
            writer: BufWriter::with_capacity(1 << 20, file),
            hash: Fnv1a::new(),
        };
        out.put(MAGIC)?;
        out.put(&VERSION.to_le_bytes())?;
        out.put(&(self.description.len() as u32).to_le_bytes())?;
        out.put(self.description.as_bytes())?;
        for number in stats_numbers(stats) {
            out.put(&number.to_le_bytes())?;
        }
        out.put(&(layers as u64).to_le_bytes())?;
        out.values(values.iter().map(|v| v.to_le_bytes()))?;
        match in_layer {
            None => out.put(&[0])?,
            Some(in_layer) => {
                out.put(&[1])?;
                out.put(&in_layer.sweeps.to_le_bytes())?;
                let (history, since) = in_layer.extrapolation.saved();
                out.put(&since.to_le_bytes())?;
                out.values(history.iter().map(|v| v.to_le_bytes()))?;
                out.values(in_layer.local.iter().map(|v| v.to_le_bytes()))?;
                out.values(in_layer.changes.iter().map(|v| v.to_le_bytes()))?;
            }
        }
        let sum = out.hash.finish();
        out.writer.write_all(&sum.to_le_bytes())?;
        let file = out.writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()
    }
}

/// The figures of [`SolveStats`] as 64-bit words, in declaration order.
fn stats_numbers(stats: &SolveStats) -> [u64; 15] {
    [
        stats.states as u64,
        stats.layers as u64,
        u64::from(stats.sweeps),
        u64::from(stats.max_component_sweeps),
        stats.components as u64,
        stats.largest_component as u64,
        stats.program_words as u64,
        stats.tolerance.to_bits(),
        stats.residual.to_bits(),
        stats.error_bound.to_bits(),
        u64::from(stats.bracket_sweeps),
        stats.hot_states as u64,
        u64::from(stats.hot_sweeps),
        u64::from(stats.policy_steps),
        stats.largest_policy_component as u64,
    ]
}

fn read_stats(input: &mut Input<impl Read>) -> Result<SolveStats, String> {
    let mut n = [0u64; 15];
    for number in &mut n {
        *number = u64::from_le_bytes(input.bytes()?);
    }
    let size = |v: u64| usize::try_from(v).map_err(|_| "damaged (figures)".to_string());
    let count = |v: u64| u32::try_from(v).map_err(|_| "damaged (figures)".to_string());
    Ok(SolveStats {
        states: size(n[0])?,
        layers: size(n[1])?,
        sweeps: count(n[2])?,
        max_component_sweeps: count(n[3])?,
        components: size(n[4])?,
        largest_component: size(n[5])?,
        program_words: size(n[6])?,
        tolerance: f64::from_bits(n[7]),
        residual: f64::from_bits(n[8]),
        error_bound: f64::from_bits(n[9]),
        bracket_sweeps: count(n[10])?,
        hot_states: size(n[11])?,
        hot_sweeps: count(n[12])?,
        policy_steps: count(n[13])?,
        largest_policy_component: size(n[14])?,
        // Only the generic solver keeps checkpoints, and it leaves no turn out.
        truncation: 0.0,
    })
}

struct Output<W: Write> {
    writer: W,
    hash: Fnv1a,
}

impl<W: Write> Output<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.writer.write_all(bytes)
    }

    /// Values after their count.
    fn values<const N: usize>(
        &mut self,
        items: impl ExactSizeIterator<Item = [u8; N]>,
    ) -> std::io::Result<()> {
        self.put(&(items.len() as u64).to_le_bytes())?;
        for item in items {
            self.put(&item)?;
        }
        Ok(())
    }
}

struct Input<R: Read> {
    reader: R,
    hash: Fnv1a,
    /// Bytes from the start of the file.
    position: u64,
}

impl Input<BufReader<File>> {
    fn new(file: File, position: u64) -> Self {
        Input {
            reader: BufReader::with_capacity(1 << 20, file),
            hash: Fnv1a::new(),
            position,
        }
    }
}

impl<R: Read> Input<R> {
    fn fill(&mut self, buffer: &mut [u8]) -> Result<(), String> {
        self.reader
            .read_exact(buffer)
            .map_err(|_| "damaged (cut short)".to_string())?;
        self.hash.update(buffer);
        self.position += buffer.len() as u64;
        Ok(())
    }

    /// Reads past `expected` values of `width` bytes after their count, hashing them.
    fn skip_values(&mut self, expected: usize, width: usize) -> Result<(), String> {
        let count = self.size(expected)?;
        if count != expected {
            return Err(format!("damaged ({count} values where {expected} belong)"));
        }
        let mut buffer = vec![0; 1 << 16];
        let mut left = count * width;
        while left > 0 {
            let part = left.min(buffer.len());
            self.fill(&mut buffer[..part])?;
            left -= part;
        }
        Ok(())
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut buffer = [0; N];
        self.fill(&mut buffer)?;
        Ok(buffer)
    }

    /// A length or count, which must be at most `most`.
    fn size(&mut self, most: usize) -> Result<usize, String> {
        let value = u64::from_le_bytes(self.bytes()?);
        usize::try_from(value)
            .ok()
            .filter(|&v| v <= most)
            .ok_or_else(|| format!("damaged (a count of {value}, at most {most} expected)"))
    }

    /// Values after their count, which must be `expected`, or at most that with `at_most`.
    fn values<const N: usize, T>(
        &mut self,
        expected: usize,
        at_most: bool,
        decode: fn([u8; N]) -> T,
    ) -> Result<Vec<T>, String> {
        let count = self.size(expected)?;
        if !at_most && count != expected {
            return Err(format!("damaged ({count} values where {expected} belong)"));
        }
        (0..count).map(|_| Ok(decode(self.bytes()?))).collect()
    }
}
