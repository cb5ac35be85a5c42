//! Strongly connected components (Tarjan's algorithm) of a layer or of a policy step's equations.

use core::ops::Range;

use super::linear::Rows;
use super::program::{CHUNK, LayerProgram, PAYLOAD, TAG_SHIFT};

/// A directed graph on the nodes `0..nodes()`, its edges read in place.
pub(super) trait Graph {
    fn nodes(&self) -> usize;
    /// The slots that may hold the edges out of `node`.
    fn slots(&self, node: usize) -> Range<usize>;
    /// The node the edge in `slot` leads to, if the slot holds an edge.
    fn target(&self, node: usize, slot: usize) -> Option<usize>;
}

/// An edge `i → j` for each term of row `i`.
impl Graph for Rows {
    fn nodes(&self) -> usize {
        self.constant.len()
    }

    fn slots(&self, node: usize) -> Range<usize> {
        self.start[node]..self.start[node + 1]
    }

    #[inline]
    fn target(&self, _: usize, slot: usize) -> Option<usize> {
        Some(self.column[slot] as usize)
    }
}

/// An edge from each place to each place of the layer its right-hand side reads, whatever
/// the decisions: the words of the place's program that name a successor in the layer.
impl Graph for LayerProgram {
    fn nodes(&self) -> usize {
        self.order.len()
    }

    fn slots(&self, node: usize) -> Range<usize> {
        self.offsets[node] as usize..self.program_end(node)
    }

    #[inline]
    fn target(&self, node: usize, slot: usize) -> Option<usize> {
        let word = self.chunks[node / CHUNK][slot];
        (word >> TAG_SHIFT <= 1).then_some((word & PAYLOAD) as usize)
    }
}

/// The strongly connected components of `graph` (Tarjan's algorithm, without recursion).
/// Returns the nodes component by component and where each component starts (and the
/// end); every component comes after all those its nodes have edges to.
pub(super) fn components<G: Graph>(graph: &G) -> (Vec<u32>, Vec<usize>) {
    const NONE: u32 = u32::MAX;
    let n = graph.nodes();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut members = Vec::with_capacity(n);
    let mut bounds = vec![0];
    // (node, its next slot, the end of its slots)
    let mut calls: Vec<(u32, usize, usize)> = Vec::new();
    let mut counter = 0u32;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // The node to visit next, if any: the root first, then each new node reached.
        let mut entering = Some(root);
        loop {
            if let Some(w) = entering.take() {
                index[w] = counter;
                low[w] = counter;
                counter += 1;
                stack.push(w as u32);
                on_stack[w] = true;
                let slots = graph.slots(w);
                calls.push((w as u32, slots.start, slots.end));
            }
            let Some(&(v, next, end)) = calls.last() else {
                break;
            };
            let v = v as usize;
            if next < end {
                calls.last_mut().expect("not empty").1 = next + 1;
                let Some(w) = graph.target(v, next) else {
                    continue;
                };
                if index[w] == NONE {
                    entering = Some(w);
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                calls.pop();
                if let Some(&(u, _, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        members.push(w);
                        if w as usize == v {
                            break;
                        }
                    }
                    bounds.push(members.len());
                }
            }
        }
    }
    (members, bounds)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::program::{CHANCE, FINAL_SAME, LOCAL_FLIP, LOCAL_SAME, MAXIMUM};

    /// The components of `graph`, in the order found, each as a sorted set.
    fn component_sets<G: Graph>(graph: &G) -> Vec<Vec<u32>> {
        let (members, bounds) = components(graph);
        bounds
            .windows(2)
            .map(|b| {
                let mut c = members[b[0]..b[1]].to_vec();
                c.sort_unstable();
                c
            })
            .collect()
    }

    #[test]
    fn components_come_after_those_they_lead_to() {
        // 0 ⇄ 1 → 2, and 3 on its own with a loop.
        let rows = Rows {
            start: vec![0, 1, 3, 3, 4],
            column: vec![1, 0, 2, 3],
            coefficient: vec![0.5; 4],
            constant: vec![0.0; 4],
        };
        assert_eq!(component_sets(&rows), [vec![2], vec![0, 1], vec![3]]);
    }

    #[test]
    fn a_layer_splits_into_the_components_of_its_moves() {
        // 0 → 1 (and a solved state), 1 → 0 inside a chance node, 2 → 1, 3 → itself.
        let program = LayerProgram::new(
            vec![10, 11, 12, 13],
            vec![vec![
                MAXIMUM | 2,
                LOCAL_SAME | 1,
                FINAL_SAME | 3,
                CHANCE | 1,
                LOCAL_FLIP,
                LOCAL_SAME | 1,
                LOCAL_FLIP | 3,
            ]],
            1,
        );
        assert_eq!(program.offsets, [0, 3, 5, 6]);
        assert_eq!(component_sets(&program), [vec![0, 1], vec![2], vec![3]]);
        let loops: Vec<bool> = (0..4).map(|p| program.leads_to_itself(p)).collect();
        assert_eq!(loops, [false, false, false, true]);
    }
}
