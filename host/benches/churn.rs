//! The history read for hot spots' churn on a real repository
//! (`CHURN_BENCH_REPO=/path/to/a/clone cargo bench -p smart-context --bench churn`): the
//! file-level walk alone (the baseline) and with each commit's lines followed to HEAD
//! (function-level churn), alternating, medians of [`RUNS`], the product's window and deadline.
//!
//! Also how much of the window was followed line by line: the share of counted (file, commit)
//! changes to code files HEAD still has, and of those files whose every commit was followed.

use smart_context::analysis::churn;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

fn main() {
    let Some(repo) = std::env::var_os("CHURN_BENCH_REPO").map(PathBuf::from) else {
        println!("set CHURN_BENCH_REPO to a git clone (with a .git directory) to run this bench");
        return;
    };
    let repo = repo.canonicalize().expect("the repository");
    let mut plain = Vec::new();
    let mut lines = Vec::new();
    let mut last = None;
    for _ in 0..RUNS {
        for (follow, times) in [(false, &mut plain), (true, &mut lines)] {
            let t = Instant::now();
            let h = churn::read_with(&repo, churn::MAX_COMMITS, churn::DEADLINE, follow)
                .expect("reading the history");
            times.push(t.elapsed());
            if follow {
                last = Some(h);
            }
        }
    }
    let h = last.unwrap();
    let code = |p: &str| {
        p.rsplit_once('.')
            .is_some_and(|(_, e)| smart_context::index::code::Language::from_extension(e).is_some())
    };
    let (mut changes, mut followed, mut files, mut whole) = (0u32, 0u32, 0u32, 0u32);
    // Files HEAD still has: a file renamed or deleted since has no functions to charge.
    for (path, &n) in h
        .changes
        .iter()
        .filter(|(p, _)| code(p) && repo.join(p).is_file())
    {
        let f = h.lines.get(path).map_or(0, |l| l.len() as u32);
        changes += n;
        followed += f;
        files += 1;
        whole += u32::from(f == n);
    }
    println!(
        "history of {}: {} commits read (window {}, deadline {:?}), complete: {}",
        repo.display(),
        h.commits,
        churn::MAX_COMMITS,
        churn::DEADLINE,
        h.complete
    );
    println!("files only:      median {:>7.1} ms", ms(median(&mut plain)));
    println!(
        "lines followed:  median {:>7.1} ms ({:.2}x)",
        ms(median(&mut lines)),
        ms(median(&mut lines)) / ms(median(&mut plain))
    );
    println!(
        "code changes followed line by line: {followed} of {changes} ({:.0}%); code files with every commit followed: {whole} of {files} ({:.0}%)",
        100.0 * followed as f64 / changes.max(1) as f64,
        100.0 * whole as f64 / files.max(1) as f64
    );
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
