//! The on-disk method's layers: the programs written to a scratch file, then swept whole or
//! solved component by component from it.

use crate::clock::Instant;
use core::ops::Range;

use super::super::{EndgameError, EndgameSpace};
use super::bracket::{Places, as_pairs, into_midpoints, into_pairs, lone_bounds};
use super::checkpoint::{InLayer, Keeper, PendingLayer};
use super::disk_components;
use super::driver::{LayerJob, LayerMethod, Run, Tally};
use super::on_disk::{
    self, CopiedPrograms, DiskEquations, Extrapolation, NotingHot, Scratch, Section, extrapolate,
    hot_threshold, read_programs, write_back,
};
use super::options::{SolveEvent, SolveStats};
use super::program::{bracket_right_hand_side, reads_itself, right_hand_side, skip};
use super::sweep;

/// On disk, the most states whose programs are copied to memory for the sweeps of slow
/// states and the policy steps: a sixteenth of the layer.
const COPIED_SHARE: usize = 16;

/// [`SolveMethod::OnDisk`](super::SolveMethod::OnDisk).
pub(super) struct OnDisk;

impl LayerMethod for OnDisk {
    const GROWS: bool = true;

    /// Solves a layer from programs on disk: component by component where the space has
    /// slow cycles, otherwise swept whole, in place, until a sweep changes no value by more
    /// than the tolerance, from the progress a checkpoint held if any.
    fn solve_layer<S: EndgameSpace, F: Fn(SolveEvent)>(
        &self,
        LayerJob {
            number,
            layer,
            values,
            stats,
            keeper,
            resume,
        }: LayerJob<'_, '_>,
        run: &Run<'_, S, F>,
    ) -> Result<(), EndgameError> {
        let compiling = Instant::now();
        let states = layer.len();
        let scratch = on_disk::write_programs(
            run.space,
            layer.clone(),
            run.threads,
            &std::env::temp_dir(),
            &format!("layer-{number}"),
        )?;
        run.prepared(number, states, scratch.words, compiling, stats);
        if run.steps_wanted {
            return solve_by_components(run, number, layer, scratch, values, stats);
        }
        // Progress saved inside the layer was saved with the layer counted.
        if resume.is_none() {
            run.whole(states, stats);
        }
        let started = Instant::now();
        let (sweeps, local) = sweep_whole(run, &scratch, number, keeper, resume, values, stats)?;
        // The layer's values bracketed as one component, in the sweep order.
        let inherited = stats.error_bound;
        let whole = DiskEquations::new(&scratch, scratch.whole(), 0);
        let mut bracketing = run.bracketing(&whole, values, (inherited, number));
        let mut flat = into_pairs(local);
        let bracketed = bracketing.component(Places::All(states), as_pairs(&mut flat), None);
        if let Some(error) = whole.take_failure() {
            return Err(error);
        }
        // The middles, however wide a bracket (the values found are gone): a layer swept
        // whole is Regency's, whose brackets close.
        let (mut local, bound) = into_midpoints(flat);
        let seconds = started.elapsed().as_secs_f64();
        let residual = on_disk::sweep(
            &scratch,
            scratch.whole(),
            run.known(values),
            &mut local,
            None,
            None,
        )?;
        drop(scratch);
        write_back(run.space, layer, run.threads, &local, values)?;
        let mut tally = Tally::whole(states, sweeps);
        tally.bracketed(states, bracketed);
        let done = tally.done((number, states), residual, bound.max(inherited), seconds);
        run.finish_layer(done, stats);
        Ok(())
    }
}

/// Whole sweeps of a layer on disk, extrapolated where they converge steadily, from
/// `resume`, saved now and then by `keeper`. Returns the sweeps and the layer's values
/// in sweep order.
///
/// Now and then (as the compiled method does in a component) a whole sweep notes the
/// states still moving and copies their programs to memory; when they are at most a
/// sixteenth of the layer they are swept on their own until they settle. A layer holds
/// several components, and the slowest of them, a small share of the layer, would
/// otherwise set the pace of every whole sweep.
fn sweep_whole<S: EndgameSpace, F: Fn(SolveEvent)>(
    run: &Run<'_, S, F>,
    scratch: &Scratch,
    layer_number: usize,
    mut keeper: Option<&mut Keeper<'_>>,
    resume: Option<PendingLayer>,
    values: &[f64],
    stats: &mut SolveStats,
) -> Result<(u32, Vec<f64>), EndgameError> {
    let (known, report) = (run.known(values), run.report);
    let states = scratch.states;
    // The layer's values in sweep order, as its programs name them; the earlier layers'
    // in `values`, which is written only once the layer is solved. Saved ones are read
    // now that the programs are on disk.
    let mut progress = match (resume, keeper.as_deref()) {
        (Some(pending), Some(keeper)) => keeper.layer_progress(pending)?,
        _ => InLayer {
            sweeps: 0,
            extrapolation: Extrapolation::default(),
            local: vec![0.5; states],
            changes: vec![0.0; states],
        },
    };
    let mut equations = DiskEquations::new(scratch, scratch.whole(), states / COPIED_SHARE);
    let mut hot = Vec::new();
    let started = Instant::now();
    loop {
        let look = sweep::looks_for_hot(progress.sweeps);
        let last_change = progress.extrapolation.last_change();
        let copied = equations
            .copied
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let noting = look.then(|| NotingHot {
            threshold: hot_threshold(
                &progress.changes,
                last_change * sweep::HOT_SHARE,
                equations.most_copied,
            ),
            most: equations.most_copied,
            places: &mut hot,
            copied,
        });
        let change = on_disk::sweep(
            scratch,
            scratch.whole(),
            known,
            &mut progress.local,
            Some(&mut progress.changes),
            noting,
        )?;
        progress.sweeps += 1;
        let sweeps = progress.sweeps;
        if change > run.options.tolerance
            && let Some(stretch) = progress.extrapolation.after_sweep(change)
        {
            extrapolate(&mut progress.local, &progress.changes, stretch);
        }
        let settle = look
            && change > run.options.tolerance
            && !hot.is_empty()
            && hot.len() <= equations.most_copied;
        let settled = if settle {
            let settled = sweep::settle_layer_hot(
                &equations,
                known,
                &mut progress.local,
                &hot,
                (change, run.options.tolerance),
            );
            stats.hot_states = stats.hot_states.max(hot.len());
            stats.hot_sweeps += settled;
            settled
        } else {
            0
        };
        if states >= sweep::REPORTED_STATES {
            report(SolveEvent::Sweep {
                layer: layer_number,
                states,
                sweep: sweeps,
                change,
                hot: if look { hot.len() } else { 0 },
                hot_sweeps: settled,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
        if change <= run.options.tolerance {
            break;
        }
        if sweeps >= run.options.max_sweeps {
            return Err(EndgameError::NotConverged { sweeps, change });
        }
        if let Some(keeper) = keeper.as_deref_mut().filter(|keeper| keeper.due()) {
            keeper.save(stats, layer_number, values, Some(&progress))?;
            if keeper.time_is_up() {
                return Err(keeper.stopped(layer_number));
            }
        }
    }
    Ok((progress.sweeps, progress.local))
}

/// Solves a layer on disk component by component, as the compiled method does: the
/// components found from the programs in `scratch`, which are then written again in
/// the order the components are solved. A component larger than the programs that may
/// be copied to memory (a sixteenth of the layer) is swept from the file, its slow
/// states swept on their own and given policy steps from copies of their programs; the
/// others are copied to memory as the file is read, and solved there.
fn solve_by_components<S: EndgameSpace, F: Fn(SolveEvent)>(
    run: &Run<'_, S, F>,
    layer_number: usize,
    layer: Range<usize>,
    scratch: Scratch,
    values: &mut Vec<f64>,
    stats: &mut SolveStats,
) -> Result<(), EndgameError> {
    let probabilities = run.probabilities;
    let states = scratch.states;
    let splitting = Instant::now();
    let throws = probabilities.len();
    let most_copied = (states / COPIED_SHARE).max(1);
    let name = format!("layer-{layer_number}-components");
    let split = disk_components::split(scratch, throws, most_copied, &name)?;
    let disk_components::SplitLayer {
        sorted,
        runs,
        members,
        bounds,
    } = &split;
    run.split(layer_number, bounds, splitting, stats);
    let started = Instant::now();
    let mut local = vec![0.5; states];
    let solved = values.as_slice();
    let known = run.known(solved);
    let mut slot = Vec::new();
    let mut tally = Tally::default();
    let layer_components = LayerComponents {
        sorted,
        runs,
        members,
        bounds,
        throws,
        most_copied,
    };
    layer_components.each(|component| {
        match component {
            Component::Lone(place, program) => {
                // Its successors in the layer are all solved: one evaluation is exact.
                let mut from = 0;
                local[place] = right_hand_side(program, &mut from, known, &local);
                tally.swept(1, 1);
            }
            Component::Copied(copied, places) => {
                let solve = (copied, places, layer_number, &mut slot);
                let sweeps = run.solve_component(solve, &mut local, solved, stats)?;
                tally.swept(places.len(), sweeps);
            }
            Component::OnDisk(equations, places) => {
                let solve = (equations, places, layer_number, &mut slot);
                let sweeps = run.solve_component(solve, &mut local, solved, stats);
                if let Some(error) = equations.take_failure() {
                    return Err(error);
                }
                tally.swept(places.len(), sweeps?);
            }
        }
        Ok(())
    })?;
    // The components again, in the same order, their values bracketed.
    let inherited = stats.error_bound;
    let reading = run.reading(inherited);
    let mut pairs: Vec<[f64; 2]> = local.iter().map(|&v| [v, v]).collect();
    let mut slot = Vec::new();
    layer_components.each(|component| {
        match component {
            Component::Lone(place, program) => {
                let computed = bracket_right_hand_side(program, &mut 0, known, inherited, &pairs);
                pairs[place] = lone_bounds(computed, reading);
                tally.bracketed(1, 1);
            }
            Component::Copied(copied, places) => {
                let mut bracketing = run.bracketing(copied, solved, (inherited, layer_number));
                bracketing.slot = core::mem::take(&mut slot);
                let sweeps =
                    bracketing.component(Places::Listed(places), &mut pairs, Some(&mut local));
                slot = bracketing.slot;
                tally.bracketed(places.len(), sweeps);
            }
            Component::OnDisk(equations, places) => {
                // Bracketed from its programs copied to memory: a shaped bracket needs them
                // all, and they take less than the layer's graph did while its components
                // were found.
                let mut programs = CopiedPrograms::default();
                read_programs(equations.scratch, equations.section, |place, words, at| {
                    let first = *at;
                    for _ in 0..throws {
                        skip(words, at);
                    }
                    programs.push(place, &words[first..*at]);
                    Ok(())
                })?;
                let mut bracketing = run.bracketing(&programs, solved, (inherited, layer_number));
                bracketing.slot = core::mem::take(&mut slot);
                let sweeps =
                    bracketing.component(Places::Listed(places), &mut pairs, Some(&mut local));
                slot = bracketing.slot;
                tally.bracketed(places.len(), sweeps);
            }
        }
        Ok(())
    })?;
    let bound = run.settle_layer((inherited, layer_number), &mut local, &pairs);
    drop(pairs);
    let seconds = started.elapsed().as_secs_f64();
    let whole = Section {
        offset: 0,
        states,
        places: Some(members),
    };
    let residual = on_disk::sweep(sorted, whole, known, &mut local, None, None)?;
    drop(split);
    write_back(run.space, layer, run.threads, &local, values)?;
    let done = tally.done(
        (layer_number, states),
        residual,
        bound.max(inherited),
        seconds,
    );
    run.finish_layer(done, stats);
    Ok(())
}

/// A layer on disk split into its components, its programs written again in their order.
struct LayerComponents<'a> {
    sorted: &'a Scratch,
    runs: &'a [disk_components::Run],
    members: &'a [u32],
    bounds: &'a [usize],
    throws: usize,
    most_copied: usize,
}

/// A component of a layer on disk, its equations as they are at hand.
enum Component<'a> {
    /// A state alone in its component that does not read its own value, and its program.
    Lone(usize, &'a [u32]),
    /// A component whose programs are copied to memory, and its places.
    Copied(&'a CopiedPrograms, &'a [u32]),
    /// A component swept from the file, and its places.
    OnDisk(&'a DiskEquations<'a>, &'a [u32]),
}

impl LayerComponents<'_> {
    /// `visit`s each component in turn, in the order of the file: a component swept from
    /// the file as it is, the others as their programs are read.
    fn each(
        &self,
        mut visit: impl FnMut(Component<'_>) -> Result<(), EndgameError>,
    ) -> Result<(), EndgameError> {
        let (bounds, members, throws) = (self.bounds, self.members, self.throws);
        let mut copied = CopiedPrograms::default();
        for part in self.runs {
            let section = part.section(members);
            if part.on_disk {
                let equations = DiskEquations::new(self.sorted, section, self.most_copied);
                let places = &members[part.places.clone()];
                visit(Component::OnDisk(&equations, places))?;
                continue;
            }
            // Small components, each visited once its programs are read.
            let mut component = part.components.start;
            read_programs(self.sorted, section, |place, words, at| {
                let (start, end) = (bounds[component], bounds[component + 1]);
                let first = *at;
                for _ in 0..throws {
                    skip(words, at);
                }
                let program = &words[first..*at];
                if end - start == 1 && !reads_itself(program, place) {
                    component += 1;
                    return visit(Component::Lone(place, program));
                }
                copied.push(place, program);
                if place != members[end - 1] as usize {
                    return Ok(());
                }
                visit(Component::Copied(&copied, &members[start..end]))?;
                copied.clear();
                component += 1;
                Ok(())
            })?;
        }
        Ok(())
    }
}
