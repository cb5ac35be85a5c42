//! Components on disk: a layer's strongly connected components found from its scratch file,
//! and its programs written again in the order the components are solved.
//!
//! The graph is held in memory only while its components are found: an edge from each place
//! to each other place of the layer its program names, each once. The programs are then
//! written to a second file, component by component, in as few passes over the first as
//! the memory allowed to them takes.

use core::ops::Range;

use super::super::EndgameError;
use super::components::{Graph, components};
use super::on_disk::{ChunkWriter, Scratch, Section, read_programs};
use super::program::{CHUNK, PAYLOAD, TAG_SHIFT, skip};

/// On disk, the fewest words of programs one pass gathers when they are written again in
/// component order (16 MB); otherwise two words a position of the layer.
const PASS_WORDS_LEAST: usize = 1 << 22;

/// A layer split into its components, its programs written again in their order.
pub(super) struct SplitLayer {
    /// The programs, component by component.
    pub(super) sorted: Scratch,
    pub(super) runs: Vec<Run>,
    /// The places component by component, each component's ascending.
    pub(super) members: Vec<u32>,
    /// Where each component starts in `members`, and the end.
    pub(super) bounds: Vec<usize>,
}

/// Splits the layer whose programs (of `throws` expressions each) are in `scratch` into its
/// strongly connected components, in an order where every component comes after those it
/// leads to, and writes the programs again in that order into a scratch file in the same
/// folder; a component of more than `most_in_memory` places gets chunks of its own. The
/// first file is removed.
pub(super) fn split(
    scratch: Scratch,
    throws: usize,
    most_in_memory: usize,
    name: &str,
) -> Result<SplitLayer, EndgameError> {
    let (graph, lengths) = successor_graph(&scratch, throws)?;
    let (members, bounds) = sorted_components(&graph);
    drop(graph);
    let order = ComponentOrder {
        members: &members,
        bounds: &bounds,
        lengths: &lengths,
        on_disk: &|size| size > most_in_memory,
    };
    let pass_words = (2 * scratch.states).max(PASS_WORDS_LEAST);
    let (sorted, runs) = rewrite(&scratch, &order, pass_words, name)?;
    Ok(SplitLayer {
        sorted,
        runs,
        members,
        bounds,
    })
}

/// The components of `graph` (see [`components`]), each one's places ascending: most
/// progress first, as the layer's order has it.
fn sorted_components(graph: &Successors) -> (Vec<u32>, Vec<usize>) {
    let (mut members, bounds) = components(graph);
    for bound in bounds.windows(2) {
        members[bound[0]..bound[1]].sort_unstable();
    }
    (members, bounds)
}

/// The successors in the layer of each place, itself left out, each once.
pub(super) struct Successors {
    start: Vec<u64>,
    target: Vec<u32>,
}

impl Graph for Successors {
    fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    fn slots(&self, node: usize) -> Range<usize> {
        self.start[node] as usize..self.start[node + 1] as usize
    }

    #[inline]
    fn target(&self, _: usize, slot: usize) -> Option<usize> {
        Some(self.target[slot] as usize)
    }
}

/// The layer's graph read from `scratch` (programs of `throws` expressions each, in place
/// order), and the length of each program in words.
pub(super) fn successor_graph(
    scratch: &Scratch,
    throws: usize,
) -> Result<(Successors, Vec<u32>), EndgameError> {
    let states = scratch.states;
    let mut graph = Successors {
        start: Vec::with_capacity(states + 1),
        target: Vec::new(),
    };
    graph.start.push(0);
    let mut lengths = Vec::with_capacity(states);
    let mut row = Vec::new();
    read_programs(scratch, scratch.whole(), |place, words, at| {
        let start = *at;
        for _ in 0..throws {
            skip(words, at);
        }
        row.clear();
        for &word in &words[start..*at] {
            if word >> TAG_SHIFT <= 1 {
                let successor = word & PAYLOAD;
                if successor as usize >= states {
                    return Err(scratch.damaged("a successor past the end of the layer"));
                }
                if successor as usize != place {
                    row.push(successor);
                }
            }
        }
        row.sort_unstable();
        row.dedup();
        graph.target.extend_from_slice(&row);
        graph.start.push(graph.target.len() as u64);
        lengths.push((*at - start) as u32);
        Ok(())
    })?;
    graph.target.shrink_to_fit();
    Ok((graph, lengths))
}

/// A run of the rewritten file: components `components` of the layer, their places
/// `members[places]`, their programs starting at `offset`.
pub(super) struct Run {
    pub(super) offset: u64,
    pub(super) places: Range<usize>,
    pub(super) components: Range<usize>,
    /// A single component too large to hold in memory, swept from the file.
    pub(super) on_disk: bool,
}

impl Run {
    /// Its section of the rewritten file.
    pub(super) fn section<'a>(&self, members: &'a [u32]) -> Section<'a> {
        Section {
            offset: self.offset,
            states: self.places.len(),
            places: Some(&members[self.places.clone()]),
        }
    }
}

/// What [`rewrite`] is given: the layer's places component by component and where each
/// component starts (and the end), the length of each place's program, and which
/// components are swept from the file.
pub(super) struct ComponentOrder<'a> {
    pub(super) members: &'a [u32],
    pub(super) bounds: &'a [usize],
    pub(super) lengths: &'a [u32],
    pub(super) on_disk: &'a dyn Fn(usize) -> bool,
}

/// Writes the programs of `scratch` again into a file in the same folder, in the order of
/// `order.members`, each component that `order.on_disk` names in chunks of its own. Each
/// pass over `scratch` gathers the programs of the next places in that order, at most
/// `pass_words` words of them (or one program). Returns the file and its runs.
pub(super) fn rewrite(
    scratch: &Scratch,
    order: &ComponentOrder<'_>,
    pass_words: usize,
    name: &str,
) -> Result<(Scratch, Vec<Run>), EndgameError> {
    let ComponentOrder {
        members,
        bounds,
        lengths,
        on_disk,
    } = *order;
    let mut rank = vec![0u32; members.len()];
    for (nth, &place) in members.iter().enumerate() {
        rank[place as usize] = nth as u32;
    }
    let (mut sorted, mut out) = Scratch::create(scratch.folder(), name, members.len())?;
    let mut chunk = Chunk::default();
    let mut runs: Vec<Run> = Vec::new();
    let mut component = 0;
    let mut first = 0;
    let mut buffer = Vec::new();
    let mut starts = Vec::new();
    while first < members.len() {
        // The places `first..last` in the new order, `pass_words` words at most.
        let mut last = first;
        let mut words = 0;
        starts.clear();
        while last < members.len()
            && (last == first || words + lengths[members[last] as usize] as usize <= pass_words)
        {
            starts.push(words);
            words += lengths[members[last] as usize] as usize;
            last += 1;
        }
        starts.push(words);
        buffer.clear();
        buffer.resize(words, 0);
        read_programs(scratch, scratch.whole(), |place, program, at| {
            let start = *at;
            *at += lengths[place] as usize;
            let nth = rank[place] as usize;
            if (first..last).contains(&nth) {
                let program = program
                    .get(start..*at)
                    .ok_or_else(|| scratch.damaged("a program runs past its chunk"))?;
                buffer[starts[nth - first]..starts[nth - first + 1]].copy_from_slice(program);
            }
            Ok(())
        })?;
        for nth in first..last {
            if nth == bounds[component] {
                // A component swept from the file has chunks of its own.
                let alone = on_disk(bounds[component + 1] - bounds[component]);
                let after_alone = runs.last().is_some_and(|run| run.on_disk);
                if alone || after_alone || runs.is_empty() {
                    chunk.flush(&mut out, &mut sorted)?;
                    runs.push(Run {
                        offset: out.offset(),
                        places: nth..nth,
                        components: component..component,
                        on_disk: alone,
                    });
                }
                component += 1;
            }
            let run = runs.last_mut().expect("a run starts at the first place");
            run.places.end = nth + 1;
            run.components.end = component;
            chunk.push(&buffer[starts[nth - first]..starts[nth - first + 1]]);
            if chunk.programs == CHUNK {
                chunk.flush(&mut out, &mut sorted)?;
            }
        }
        first = last;
    }
    chunk.flush(&mut out, &mut sorted)?;
    out.finish()?;
    Ok((sorted, runs))
}

/// The programs of the chunk being gathered.
#[derive(Default)]
struct Chunk {
    programs: usize,
    words: Vec<u32>,
}

impl Chunk {
    fn push(&mut self, program: &[u32]) {
        self.programs += 1;
        self.words.extend_from_slice(program);
    }

    fn flush(&mut self, out: &mut ChunkWriter, scratch: &mut Scratch) -> Result<(), EndgameError> {
        if self.programs > 0 {
            out.write_chunk(self.programs, &self.words)?;
            scratch.words += self.words.len();
        }
        self.programs = 0;
        self.words.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::solver::program::reads_itself;
    use crate::solver::program::{FINAL_SAME, LOCAL_FLIP, LOCAL_SAME, MAXIMUM, TERMINAL};

    /// Five programs of one throw each: 0 ⇄ 1 (0 also reads a solved state), 2 reads
    /// itself, 3 reads 1 twice, 4 is a win; written in chunks of 3 and 2 programs.
    fn scratch(folder: &Path) -> (Scratch, Vec<Vec<u32>>) {
        let programs = vec![
            vec![MAXIMUM | 2, LOCAL_SAME | 1, FINAL_SAME],
            vec![LOCAL_FLIP],
            vec![LOCAL_SAME | 2],
            vec![MAXIMUM | 2, LOCAL_SAME | 1, LOCAL_FLIP | 1],
            vec![TERMINAL | 2],
        ];
        let (mut scratch, mut out) = Scratch::create(folder, "test", programs.len()).unwrap();
        for chunk in [&programs[..3], &programs[3..]] {
            let words = chunk.concat();
            scratch.words += words.len();
            out.write_chunk(chunk.len(), &words).unwrap();
        }
        out.finish().unwrap();
        (scratch, programs)
    }

    /// The programs of `section` as read back, with their places.
    fn read(scratch: &Scratch, section: Section<'_>) -> Vec<(usize, Vec<u32>)> {
        let mut read = Vec::new();
        read_programs(scratch, section, |place, words, at| {
            let start = *at;
            skip(words, at);
            read.push((place, words[start..*at].to_vec()));
            Ok(())
        })
        .unwrap();
        read
    }

    #[test]
    fn programs_are_written_again_component_by_component() {
        let folder = std::env::temp_dir();
        let (scratch, programs) = scratch(&folder);
        let (graph, lengths) = successor_graph(&scratch, 1).unwrap();
        assert_eq!(lengths, [3, 1, 1, 3, 1]);
        let edges: Vec<Vec<usize>> = (0..5)
            .map(|n| graph.slots(n).filter_map(|s| graph.target(n, s)).collect())
            .collect();
        assert_eq!(edges, [vec![1], vec![0], vec![], vec![1], vec![]]);
        assert_eq!(
            (0..5)
                .map(|p| reads_itself(&programs[p], p))
                .collect::<Vec<_>>(),
            [false, false, true, false, false]
        );
        let (members, bounds) = sorted_components(&graph);
        let order = ComponentOrder {
            members: &members,
            bounds: &bounds,
            lengths: &lengths,
            on_disk: &|size| size >= 2,
        };
        // One word a pass: a pass for each program.
        let (sorted, runs) = rewrite(&scratch, &order, 1, "test-sorted").unwrap();
        assert_eq!(sorted.words, scratch.words);
        // The runs tile the places and the components; the pair 0 ⇄ 1 is a run of its own.
        let mut next = (0, 0);
        for run in &runs {
            assert_eq!((run.places.start, run.components.start), next);
            next = (run.places.end, run.components.end);
            let places = &members[run.places.clone()];
            assert_eq!(run.on_disk, places == [0, 1], "{places:?}");
            let expected: Vec<(usize, Vec<u32>)> = places
                .iter()
                .map(|&p| (p as usize, programs[p as usize].clone()))
                .collect();
            assert_eq!(read(&sorted, run.section(&members)), expected);
        }
        assert_eq!(next, (5, bounds.len() - 1));
        assert!(runs.len() >= 2);
    }

    #[test]
    fn a_damaged_file_is_an_error() {
        let folder = std::env::temp_dir();
        let (scratch, _) = scratch(&folder);
        // More programs than the file holds.
        let section = Section {
            offset: 0,
            states: 6,
            places: None,
        };
        let result = read_programs(&scratch, section, |_, words, at| {
            skip(words, at);
            Ok(())
        });
        assert!(matches!(result, Err(EndgameError::Scratch { .. })));
        // A program longer than its chunk.
        let (_, mut lengths) = successor_graph(&scratch, 1).unwrap();
        lengths[4] = 2;
        let order = ComponentOrder {
            members: &[4, 3, 2, 1, 0],
            bounds: &[0, 1, 2, 3, 5],
            lengths: &lengths,
            on_disk: &|_| false,
        };
        let result = rewrite(&scratch, &order, 100, "test-damaged");
        assert!(matches!(result, Err(EndgameError::Scratch { .. })));
        // A successor past the end of the layer.
        let (past, mut out) = Scratch::create(&folder, "test-past", 1).unwrap();
        out.write_chunk(1, &[LOCAL_SAME | 1]).unwrap();
        out.finish().unwrap();
        assert!(matches!(
            successor_graph(&past, 1),
            Err(EndgameError::Scratch { .. })
        ));
    }
}
