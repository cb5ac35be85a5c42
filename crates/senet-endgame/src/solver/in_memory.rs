//! The compiled method: each layer's programs held in memory, the layer solved component by
//! component.

use crate::clock::Instant;

use super::super::{EndgameError, EndgameSpace};
use super::bracket::Places;
use super::compile::compile_layer;
use super::components::components;
use super::driver::{LayerJob, LayerMethod, Run, Tally};
use super::equations::Equations;
use super::options::SolveEvent;

/// [`SolveMethod::Compiled`](super::SolveMethod::Compiled).
pub(super) struct Compiled;

impl LayerMethod for Compiled {
    fn solve_layer<S: EndgameSpace, F: Fn(SolveEvent)>(
        &self,
        job: LayerJob<'_, '_>,
        run: &Run<'_, S, F>,
    ) -> Result<(), EndgameError> {
        let (layer_number, values, stats) = (job.number, job.values, job.stats);
        let compiling = Instant::now();
        let states = job.layer.len();
        let program = compile_layer(run.space, job.layer, run.threads)?;
        run.prepared(layer_number, states, program.words(), compiling, stats);
        let splitting = Instant::now();
        let (mut members, bounds) = components(&program);
        run.split(layer_number, &bounds, splitting, stats);
        let mut local = vec![0.5; states];
        let mut solver = run.component_solver(&program, values, layer_number, stats);
        let mut tally = Tally::default();
        for bound in bounds.windows(2) {
            let places = &mut members[bound[0]..bound[1]];
            if let [place] = *places
                && !program.leads_to_itself(place as usize)
            {
                // Its successors in the layer are all solved: one evaluation is exact.
                let place = place as usize;
                local[place] = program.right_hand_side(place, run.known(values), &local);
                tally.evaluated_once();
                continue;
            }
            // Most progress first, as the layer's order has it.
            places.sort_unstable();
            let sweeps = solver.solve(places, &mut local)?;
            tally.swept(places.len(), sweeps);
        }
        let started = solver.started;
        // The components again, in the same order, their values bracketed.
        let inherited = stats.error_bound;
        let mut bracketing = run.bracketing(&program, values, (inherited, layer_number));
        let mut pairs: Vec<[f64; 2]> = local.iter().map(|&v| [v, v]).collect();
        for bound in bounds.windows(2) {
            let places = &members[bound[0]..bound[1]];
            if let [place] = *places
                && !program.leads_to_itself(place as usize)
            {
                bracketing.lone(place as usize, &mut pairs);
                tally.bracketed(1, 1);
                continue;
            }
            let sweeps = bracketing.component(Places::Listed(places), &mut pairs, Some(&mut local));
            tally.bracketed(places.len(), sweeps);
        }
        let bound = run.settle_layer((inherited, layer_number), &mut local, &pairs);
        drop(pairs);
        let seconds = started.elapsed().as_secs_f64();
        let residual = program.residual(run.known(values), &local);
        let done = tally.done(
            (layer_number, states),
            residual,
            bound.max(inherited),
            seconds,
        );
        run.finish_layer(done, stats);
        for (&index, &value) in program.order.iter().zip(&local) {
            values[index as usize] = value;
        }
        Ok(())
    }
}
