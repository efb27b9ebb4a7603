//! Best-of-N timing of the -O2 pipeline on the standard 10^6-instruction
//! module, on one and on two threads taking turns within each round, with
//! the time per pass.
//! `pass-speed [ROUNDS]`.

use postc_benches::million_instruction_module;
use postc_passes::{default_pipeline, parse_pipeline, PassOptions, RunOptions};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let m = million_instruction_module();
    let insts = m.num_insts() as f64;
    let pm = match parse_pipeline(default_pipeline(2)) {
        Ok(pm) => pm,
        Err(e) => {
            eprintln!("the -O2 pipeline does not parse: {e:?}");
            std::process::exit(1);
        }
    };
    let options = PassOptions::for_level(2);
    // The two thread counts take turns within each round, so that a slow
    // stretch of a shared machine falls on both; each keeps its best.
    let mut best = [f64::INFINITY; 2];
    let mut report = None;
    for _ in 0..rounds {
        for (k, threads) in [1usize, 2].into_iter().enumerate() {
            let run = RunOptions { threads: Some(threads), time_passes: threads == 1, ..RunOptions::default() };
            let mut module = m.clone();
            let t = Instant::now();
            let r = pm.run(&mut module, &options, &run).expect("the pipeline runs");
            let s = t.elapsed().as_secs_f64();
            if s < best[k] {
                best[k] = s;
                if threads == 1 {
                    report = Some(r);
                }
            }
        }
    }
    for (k, threads) in [1usize, 2].into_iter().enumerate() {
        println!("-O2 on {threads} thread(s): {:.3} s, {:.2} M instructions/s", best[k], insts / best[k] / 1e6);
        if let (1, Some(r)) = (threads, report.as_ref()) {
            print!("{}", postc_passes::manager::format_timings(r));
        }
    }
    println!("speed-up on two threads: {:.2}x", best[0] / best[1]);
}
