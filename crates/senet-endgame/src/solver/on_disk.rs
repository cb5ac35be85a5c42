//! The method on disk: each layer's compiled right-hand sides written to a scratch file in
//! sweep order and read back once a sweep, the values swept in place.

use core::ops::Range;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;

use super::super::{EndgameError, EndgameSpace};
use super::compile::compile_in_order;
use super::equations::{
    Computed, Equations, Known, Reading, Record, Step, bracket_update, sweep_places, update,
    update_pair,
};
use super::exact::{Expansion, exact_bound};
use super::options::PolicyStepReport;
use super::order::{level_starts, progress_keys};
use super::packed;
use super::policy::Programs;
use super::program::{CHUNK, bracket_right_hand_side, right_hand_side};

/// Chunks compiled at a time (per thread) before they are written: what bounds the memory
/// the compiled words take on their way to the file.
const CHUNKS_IN_FLIGHT: usize = 4;
/// Chunks read ahead of the sweep.
const READ_AHEAD: usize = 4;
/// More words than a chunk of [`CHUNK`] states ever takes (Kendall's longest programs are a
/// few hundred words): a larger count in a chunk's header means a damaged file.
const CHUNK_WORDS_MOST: usize = CHUNK * 4096;

/// A scratch file, removed when dropped.
pub(super) struct Scratch {
    path: PathBuf,
    /// The layer's positions, a program each.
    pub(super) states: usize,
    /// Words written, over all chunks.
    pub(super) words: usize,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Nothing to do about a file that cannot be removed.
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Scratch {
    /// A new file in `folder`, named for the process, the solve and `name`.
    pub(super) fn create(
        folder: &Path,
        name: &str,
        states: usize,
    ) -> Result<(Scratch, ChunkWriter), EndgameError> {
        // Several solves may run at once.
        static SOLVES: AtomicU64 = AtomicU64::new(0);
        let solve = SOLVES.fetch_add(1, Ordering::Relaxed);
        let path = folder.join(format!(
            "senet-solve-{}-{solve}-{name}.scratch",
            std::process::id()
        ));
        let file = File::create(&path).map_err(|e| scratch_error(&path, e))?;
        let writer = ChunkWriter {
            out: BufWriter::new(file),
            path: path.clone(),
            offset: 0,
            bytes: Vec::new(),
        };
        let scratch = Scratch {
            path,
            states,
            words: 0,
        };
        Ok((scratch, writer))
    }

    /// The folder the file is in.
    pub(super) fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// An error for a file that does not hold what was written to it.
    pub(super) fn damaged(&self, reason: &str) -> EndgameError {
        let error = std::io::Error::new(std::io::ErrorKind::InvalidData, reason.to_owned());
        scratch_error(&self.path, error)
    }

    /// The whole file, its programs those of places `0, 1, …` in turn.
    pub(super) fn whole(&self) -> Section<'static> {
        Section {
            offset: 0,
            states: self.states,
            places: None,
        }
    }
}

/// A run of whole chunks of a scratch file, and whose programs they hold.
#[derive(Clone, Copy)]
pub(super) struct Section<'a> {
    /// Where its first chunk starts in the file, in bytes.
    pub(super) offset: u64,
    /// How many programs it holds.
    pub(super) states: usize,
    /// The place of each program in turn; `None` for places `0..states` in order.
    pub(super) places: Option<&'a [u32]>,
}

impl Section<'_> {
    fn place(&self, nth: usize) -> usize {
        self.places.map_or(nth, |places| places[nth] as usize)
    }
}

/// Writes chunks to a scratch file: each its program count, word count and byte count
/// (`u64`, little-endian) and its words packed (see [`packed`]).
pub(super) struct ChunkWriter {
    out: BufWriter<File>,
    path: PathBuf,
    /// Bytes written so far.
    offset: u64,
    bytes: Vec<u8>,
}

impl ChunkWriter {
    /// Where the next chunk starts.
    pub(super) fn offset(&self) -> u64 {
        self.offset
    }

    /// Appends a chunk of `programs` programs, `words` in all.
    pub(super) fn write_chunk(
        &mut self,
        programs: usize,
        words: &[u32],
    ) -> Result<(), EndgameError> {
        self.bytes.clear();
        packed::pack(words, &mut self.bytes);
        let header = [programs, words.len(), self.bytes.len()].map(|n| (n as u64).to_le_bytes());
        header
            .iter()
            .try_for_each(|bytes| self.out.write_all(bytes))
            .and_then(|()| self.out.write_all(&self.bytes))
            .map_err(|e| scratch_error(&self.path, e))?;
        self.offset += (header.len() * 8 + self.bytes.len()) as u64;
        Ok(())
    }

    /// Writes what is buffered through to the file.
    pub(super) fn finish(mut self) -> Result<(), EndgameError> {
        self.out.flush().map_err(|e| scratch_error(&self.path, e))
    }
}

fn scratch_error(path: &Path, source: std::io::Error) -> EndgameError {
    EndgameError::Scratch {
        path: path.display().to_string(),
        source,
    }
}

/// Compiles `layer` in its sweep order (most progress first) chunk by chunk into a file in
/// `folder` (see [`ChunkWriter`]), the successors in the layer named by their place in the
/// sweep order.
pub(super) fn write_programs<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
    folder: &Path,
    name: &str,
) -> Result<Scratch, EndgameError> {
    let (mut scratch, mut out) = Scratch::create(folder, name, layer.len())?;
    let batch = threads * CHUNKS_IN_FLIGHT;
    compile_in_order(space, layer, threads, batch, |first, (words, _)| {
        scratch.words += words.len();
        out.write_chunk(CHUNK.min(scratch.states - first), &words)
    })?;
    out.finish()?;
    Ok(scratch)
}

/// Writes the layer's values, `local` in sweep order, into `values` (which ends where the
/// layer starts) in index order.
pub(super) fn write_back<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
    local: &[f64],
    values: &mut Vec<f64>,
) -> Result<(), EndgameError> {
    let keys = progress_keys(space, layer.clone(), threads)?;
    let mut next = level_starts(&keys);
    values.reserve_exact(layer.len());
    for &key in keys.iter().flatten() {
        let slot = &mut next[usize::from(key)];
        values.push(local[*slot]);
        *slot += 1;
    }
    Ok(())
}

/// Reads the programs of `section` in turn (on a thread of its own, a few chunks ahead):
/// `visit(place, words, at)` for each, with the program starting at `words[*at]`, which
/// `visit` moves past it (evaluating it with [`right_hand_side`], or skipping it).
pub(super) fn read_programs(
    scratch: &Scratch,
    section: Section<'_>,
    mut visit: impl FnMut(usize, &[u32], &mut usize) -> Result<(), EndgameError>,
) -> Result<(), EndgameError> {
    let path = scratch.path.as_path();
    let mut file = File::open(path).map_err(|e| scratch_error(path, e))?;
    file.seek(SeekFrom::Start(section.offset))
        .map_err(|e| scratch_error(path, e))?;
    std::thread::scope(|scope| {
        let (send, receive) = sync_channel::<std::io::Result<(usize, Vec<u32>)>>(READ_AHEAD);
        let states = section.states;
        scope.spawn(move || {
            let mut reader = BufReader::with_capacity(1 << 20, file);
            let mut read = 0;
            while read < states {
                let chunk = read_chunk(&mut reader, states - read);
                let failed = chunk.is_err();
                read += chunk.as_ref().map_or(0, |(programs, _)| *programs);
                if send.send(chunk).is_err() || failed {
                    break;
                }
            }
        });
        let mut nth = 0;
        while nth < states {
            let (programs, words) = receive
                .recv()
                .map_err(|_| {
                    std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the reader stopped")
                })
                .and_then(|chunk| chunk)
                .map_err(|e| scratch_error(path, e))?;
            let mut at = 0;
            for _ in 0..programs {
                visit(section.place(nth), &words, &mut at)?;
                nth += 1;
            }
            if at != words.len() {
                return Err(scratch.damaged("a chunk's programs and words do not match"));
            }
        }
        Ok(())
    })
}

/// One pass over `section` in file order: `visit(place, right-hand side, program, values)`
/// for each place in turn, which may write the place's value (a Gauss–Seidel sweep).
pub(super) fn pass(
    scratch: &Scratch,
    section: Section<'_>,
    known: Known<'_>,
    local: &mut [f64],
    mut visit: impl FnMut(usize, f64, &[u32], &mut [f64]),
) -> Result<(), EndgameError> {
    read_programs(scratch, section, |place, words, at| {
        let start = *at;
        let total = right_hand_side(words, at, known, local);
        visit(place, total, &words[start..*at], local);
        Ok(())
    })
}

/// One Gauss–Seidel sweep of the bounds `pairs` over `section` in file order (see
/// [`Equations::bracket_sweep`]): returns whether it was monotone.
pub(super) fn bracket_pass(
    scratch: &Scratch,
    section: Section<'_>,
    known: Known<'_>,
    reading: Reading,
    pairs: &mut [[f64; 2]],
) -> Result<bool, EndgameError> {
    let mut monotone = true;
    read_programs(scratch, section, |place, words, at| {
        let start = *at;
        let computed = bracket_right_hand_side(words, at, known, reading.inherited, pairs);
        let new = bracket_update(pairs[place], computed, reading, |upper| {
            let mut from = start;
            exact_bound(words, &mut from, known, (reading.inherited, upper), pairs)
        });
        monotone &= update_pair(pairs, place, new);
        Ok(())
    })?;
    Ok(monotone)
}

/// A pass that returns the largest `|right-hand side − value|` over `section`; with
/// `changes`, a Gauss–Seidel sweep that writes each value and its change as it goes, and
/// with `hot` as well, one that notes the places whose value moved by more than its
/// threshold and copies their programs aside (see [`NotingHot`]).
pub(super) fn sweep(
    scratch: &Scratch,
    section: Section<'_>,
    known: Known<'_>,
    local: &mut [f64],
    mut changes: Option<&mut [f32]>,
    mut hot: Option<NotingHot<'_>>,
) -> Result<f64, EndgameError> {
    if let Some(noting) = hot.as_mut() {
        noting.places.clear();
        noting.copied.clear();
    }
    let mut largest: f64 = 0.0;
    pass(
        scratch,
        section,
        known,
        local,
        |place, total, program, local| {
            let change = total - local[place];
            largest = largest.max(change.abs());
            if let Some(changes) = changes.as_deref_mut() {
                local[place] = total;
                changes[place] = change as f32;
                if let Some(noting) = hot.as_mut()
                    && change.abs() > noting.threshold
                    && noting.places.len() <= noting.most
                {
                    noting.places.push(place as u32);
                    noting.copied.push(place, program);
                }
            }
        },
    )?;
    Ok(largest)
}

/// The threshold for noting hot places in the next whole sweep: `floor`, or higher where
/// more than `most / 2` places moved by more than `floor` in the last sweep (`changes`),
/// the lowest power of two above which at most that many did.
///
/// A layer holds many components, and the values of the states that lead into a slow one
/// follow it, a little less each step away: far more states move by 1% of the largest change
/// than the slow component holds. Those that move most are the slow component's own; settled
/// on their own, they take the states that follow them along in the next whole sweeps.
pub(super) fn hot_threshold(changes: &[f32], floor: f64, most: usize) -> f64 {
    // By binary exponent: the biased exponent of an f32 is its bits 23 to 30.
    let mut counts = [0usize; 256];
    for change in changes {
        counts[((change.to_bits() >> 23) & 0xff) as usize] += 1;
    }
    let mut above = 0;
    let mut threshold = f64::INFINITY;
    for exponent in (1..255).rev() {
        above += counts[exponent];
        if above > most / 2 {
            break;
        }
        threshold = 2f64.powi(exponent as i32 - 127);
    }
    threshold.max(floor)
}

/// What a whole sweep notes of the places that still move: those whose value moved by more
/// than `threshold`, in `places` with their programs in `copied`, until one more than
/// `most` are noted (then there are too many to sweep on their own).
pub(super) struct NotingHot<'a> {
    pub(super) threshold: f64,
    pub(super) most: usize,
    pub(super) places: &'a mut Vec<u32>,
    pub(super) copied: &'a mut CopiedPrograms,
}

/// The programs of some places of the layer, copied aside during a sweep.
#[derive(Default)]
pub(super) struct CopiedPrograms {
    /// The places, ascending.
    places: Vec<u32>,
    /// Where each place's program starts in `words`.
    starts: Vec<usize>,
    words: Vec<u32>,
}

impl CopiedPrograms {
    pub(super) fn clear(&mut self) {
        self.places.clear();
        self.starts.clear();
        self.words.clear();
    }

    pub(super) fn push(&mut self, place: usize, program: &[u32]) {
        self.places.push(place as u32);
        self.starts.push(self.words.len());
        self.words.extend_from_slice(program);
    }
}

impl Programs for CopiedPrograms {
    fn program(&self, place: usize) -> (&[u32], usize) {
        let row = self
            .places
            .binary_search(&(place as u32))
            .expect("only the places copied are evaluated from memory");
        (&self.words, self.starts[row])
    }
}

/// The equations of a section of a scratch file (a layer, or a component of one) as
/// [`ComponentSolver`](super::sweep::ComponentSolver) sees them: a sweep of all its places
/// reads the file, and copies aside the programs of the places it records as converging
/// slowly, which the sweeps of those places alone and the policy steps then evaluate from
/// memory.
pub(super) struct DiskEquations<'a> {
    pub(super) scratch: &'a Scratch,
    pub(super) section: Section<'a>,
    /// The places copied aside: at most this many (more are left to the whole sweeps).
    pub(super) most_copied: usize,
    pub(super) copied: Mutex<CopiedPrograms>,
    /// The first error of a sweep, which cannot return one.
    pub(super) failure: Mutex<Option<EndgameError>>,
}

impl<'a> DiskEquations<'a> {
    /// The equations of `section`, nothing copied yet.
    pub(super) fn new(scratch: &'a Scratch, section: Section<'a>, most_copied: usize) -> Self {
        DiskEquations {
            scratch,
            section,
            most_copied,
            copied: Mutex::default(),
            failure: Mutex::new(None),
        }
    }

    pub(super) fn take_failure(&self) -> Option<EndgameError> {
        lock(&self.failure).take()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Equations for DiskEquations<'_> {
    fn right_hand_side(&self, place: usize, known: Known<'_>, local: &[f64]) -> f64 {
        lock(&self.copied).right_hand_side(place, known, local)
    }

    fn policy_step(&self, known: Known<'_>, local: &mut [f64], step: Step<'_>) -> PolicyStepReport {
        lock(&self.copied).policy_step(known, local, step)
    }

    fn failed(&self) -> bool {
        lock(&self.failure).is_some()
    }

    fn bracket_right_hand_side(
        &self,
        place: usize,
        known: Known<'_>,
        inherited: f64,
        pairs: &[[f64; 2]],
    ) -> Computed {
        lock(&self.copied).bracket_right_hand_side(place, known, inherited, pairs)
    }

    fn exact_bound(
        &self,
        place: usize,
        known: Known<'_>,
        inherited_and_upper: (f64, bool),
        pairs: &[[f64; 2]],
    ) -> Option<Expansion> {
        lock(&self.copied).exact_bound(place, known, inherited_and_upper, pairs)
    }

    fn bracket_sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        reading: Reading,
        pairs: &mut [[f64; 2]],
    ) -> bool {
        if places.len() < self.section.states {
            return lock(&self.copied).bracket_sweep(places, known, reading, pairs);
        }
        self.bracket_sweep_all(places.len(), known, reading, pairs)
    }

    /// A sweep of the bounds of the whole section, from the file.
    fn bracket_sweep_all(
        &self,
        _: usize,
        known: Known<'_>,
        reading: Reading,
        pairs: &mut [[f64; 2]],
    ) -> bool {
        bracket_pass(self.scratch, self.section, known, reading, pairs).unwrap_or_else(|e| {
            lock(&self.failure).get_or_insert(e);
            false
        })
    }

    fn sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        local: &mut [f64],
        mut record: Record<'_>,
    ) -> f64 {
        if places.len() < self.section.states {
            let copied = lock(&self.copied);
            return sweep_places(places, local, record, |place, local| {
                copied.right_hand_side(place, known, local)
            });
        }
        // A sweep of the whole section: what it records is what the next steps work on.
        let mut copied = lock(&self.copied);
        copied.clear();
        if let Some((_, most, _)) = &mut record {
            *most = (*most).min(self.most_copied);
        }
        let mut largest: f64 = 0.0;
        let swept = pass(
            self.scratch,
            self.section,
            known,
            local,
            |place, total, program, local| {
                let before = record.as_ref().map_or(0, |(_, _, hot)| hot.len());
                largest = largest.max(update(local, place, total, &mut record));
                if record
                    .as_ref()
                    .is_some_and(|(_, _, hot)| hot.len() > before)
                {
                    copied.push(place, program);
                }
            },
        );
        if let Err(e) = swept {
            lock(&self.failure).get_or_insert(e);
            // Nothing converges without the programs: the solve stops on the error.
            return f64::INFINITY;
        }
        largest
    }
}

/// Reads a chunk written by [`ChunkWriter`], of at most `most` programs: their count and
/// their words.
fn read_chunk(reader: &mut impl Read, most: usize) -> std::io::Result<(usize, Vec<u32>)> {
    let mut read_count = |limit: usize| {
        let mut bytes = [0u8; 8];
        reader.read_exact(&mut bytes)?;
        usize::try_from(u64::from_le_bytes(bytes))
            .ok()
            .filter(|&n| n <= limit)
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "chunk too large"))
    };
    let programs = read_count(most.min(CHUNK))?;
    let count = read_count(CHUNK_WORDS_MOST)?;
    // A packed word takes at most 6 bytes.
    let length = read_count(count * 6)?;
    let mut bytes = vec![0u8; length];
    reader.read_exact(&mut bytes)?;
    Ok((programs, packed::unpack(&bytes, count)?))
}

/// Sweeps before the first extrapolation, and between two: the ratio of two sweeps' changes
/// says something only once the fast modes have died out.
const EXTRAPOLATE_EVERY: u32 = 8;
/// The ratio of successive changes must be this steady (as a share of `1 − ratio`) over
/// the last sweeps before it is trusted.
const STEADY: f64 = 0.1;
/// The most a step is stretched: a ratio of successive changes up to 0.999. A long stretch
/// also stretches whatever part of the last changes is not the slow mode, and the largest
/// change jumps while that part dies out; the steadiness required above is what keeps the
/// steps for a single slow mode. On Regency's last layer of 4 pieces a side (217.6 million
/// positions) the ratio held at 0.9958 for three sweeps after 120 of them: one step stretched
/// 237 times took the largest change from 5.0e-5 to 5.9e-3, then down to 2.3e-5 thirteen
/// sweeps later, where plain sweeps would have given 4.8e-5 (a second step, stretched about
/// 20 times, took it to 9.7e-6 four sweeps later). The cap used to be 10, because steps
/// stretched 20 to 50 times lost ground on the layer of 7 pieces (ratio about 0.98), with
/// no settling of hot states then; under that cap the last layer was never extrapolated.
const MOST_STRETCH: f64 = 1000.0;

/// Extrapolates slow, steady convergence: when every sweep shrinks the largest change by
/// the same ratio `r`, the error left is dominated by one slowly decaying mode, and the
/// values' limit is about `x + d · r / (1 − r)`, with `d` the last sweep's change of each
/// value. Regency's layers of 7 and 8 pieces converge by only about 2% a sweep; one such
/// step does the work of tens of sweeps. The sweeps that follow still decide when to stop,
/// so the stopping rule (and what it guarantees) is the plain one.
#[derive(Default)]
pub(crate) struct Extrapolation {
    changes: Vec<f64>,
    since: u32,
}

impl Extrapolation {
    /// The state saved by [`saved`](Self::saved).
    pub(crate) fn resumed(changes: Vec<f64>, since: u32) -> Extrapolation {
        Extrapolation { changes, since }
    }

    /// Every sweep's largest change so far, and the sweeps since the last step.
    pub(super) fn saved(&self) -> (&[f64], u32) {
        (&self.changes, self.since)
    }

    /// The largest change of the last sweep recorded (infinite before the first).
    pub(super) fn last_change(&self) -> f64 {
        self.changes.last().copied().unwrap_or(f64::INFINITY)
    }

    /// Records a sweep's largest change; returns the factor to stretch the last changes
    /// by, when convergence has been steady enough for it.
    pub(super) fn after_sweep(&mut self, change: f64) -> Option<f64> {
        self.changes.push(change);
        self.since += 1;
        let n = self.changes.len();
        if self.since < EXTRAPOLATE_EVERY || n < 4 {
            return None;
        }
        let ratio = |i: usize| self.changes[i] / self.changes[i - 1];
        let (r1, r2, r3) = (ratio(n - 1), ratio(n - 2), ratio(n - 3));
        let stretch = r1 / (1.0 - r1);
        let steady = (r1 - r2).abs().max((r2 - r3).abs()) <= STEADY * (1.0 - r1);
        if !(0.5..1.0).contains(&r1) || !steady || stretch > MOST_STRETCH {
            return None;
        }
        self.since = 0;
        Some(stretch)
    }
}

/// Moves every value by `stretch` times its last change, within the values' range.
pub(super) fn extrapolate(local: &mut [f64], changes: &[f32], stretch: f64) {
    for (value, &change) in local.iter_mut().zip(changes) {
        *value = (*value + stretch * f64::from(change)).clamp(0.0, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_geometric_convergence_is_stretched_to_its_limit() {
        let mut extrapolation = Extrapolation::default();
        let mut stretches = Vec::new();
        for sweep in 0..20 {
            stretches.push(extrapolation.after_sweep(0.9f64.powi(sweep)));
        }
        // Not before the eighth sweep, then every eighth: r / (1 − r) = 9 for r = 0.9.
        let taken: Vec<usize> = (0..20).filter(|&i| stretches[i].is_some()).collect();
        assert_eq!(taken, [7, 15]);
        assert!((stretches[7].unwrap() - 9.0).abs() < 1e-9);
        // A limit 9 · d past the values: x_n = 1 − 0.9^n has d = 0.9^(n−1) · 0.1.
        let mut x = [1.0 - 0.9f64.powi(8)];
        extrapolate(&mut x, &[(0.9f64.powi(7) * 0.1) as f32], 9.0);
        assert!((x[0] - 1.0).abs() < 1e-6, "{x:?}");
    }

    #[test]
    fn unsteady_or_diverging_changes_are_left_alone() {
        let mut wobbling = Extrapolation::default();
        let mut growing = Extrapolation::default();
        for sweep in 0..40 {
            let wobble: f64 = if sweep % 2 == 0 { 0.5 } else { 0.9 };
            assert_eq!(wobbling.after_sweep(wobble.powi(sweep)), None);
            assert_eq!(growing.after_sweep(1.01f64.powi(sweep)), None);
        }
        // A stretch past the limit is not trusted; one of 237 (Regency's last layer) is.
        let mut slowest = Extrapolation::default();
        let mut slow = Extrapolation::default();
        let mut stretched = None;
        for sweep in 0..40 {
            assert_eq!(slowest.after_sweep(0.9995f64.powi(sweep)), None);
            stretched = stretched.or(slow.after_sweep(0.9958f64.powi(sweep)));
        }
        let stretch = stretched.expect("a steady ratio of 0.9958 is stretched");
        assert!((stretch - 0.9958 / 0.0042).abs() < 1e-6, "{stretch}");
    }
}
