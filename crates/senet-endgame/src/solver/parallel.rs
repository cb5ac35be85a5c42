//! Work spread over threads with results that do not depend on their number.

use super::super::EndgameError;

/// Runs `work` on every item of `items` on up to `threads` threads and returns the results in
/// the order of `items` (the first error, in that order, if any fails). Thread `t` takes the
/// items `t`, `t + threads`, …: the items are the fixed split of the work, and each result
/// depends on its item only, so the results are the same for any number of threads.
pub(crate) fn in_chunks<T, W>(
    items: &[usize],
    threads: usize,
    work: W,
) -> Result<Vec<T>, EndgameError>
where
    T: Send,
    W: Fn(usize) -> Result<T, EndgameError> + Sync,
{
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(|&item| work(item)).collect();
    }
    let mut results: Vec<(usize, Result<T, EndgameError>)> = std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..items.len())
                        .step_by(threads)
                        .map(|i| (i, work(items[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            // A panic in the work is a bug; pass it on rather than hide it.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    results.sort_unstable_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, result)| result).collect()
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_split_over_threads_comes_back_in_order() {
        let items: Vec<usize> = (0..37).collect();
        for threads in [1, 2, 3, 8, 100] {
            let out = in_chunks(&items, threads, |i| Ok(i * i)).unwrap();
            assert_eq!(out, items.iter().map(|i| i * i).collect::<Vec<_>>());
        }
        // The first failure in item order is the one reported, whatever the threads.
        for threads in [1, 2, 5] {
            let failed = in_chunks(&items, threads, |i| {
                if i % 10 == 7 {
                    Err(EndgameError::Inconsistent {
                        index: i,
                        reason: String::new(),
                    })
                } else {
                    Ok(i)
                }
            });
            assert!(matches!(
                failed,
                Err(EndgameError::Inconsistent { index: 7, .. })
            ));
        }
        assert!(in_chunks(&[], 4, Ok).unwrap().is_empty());
    }
}
