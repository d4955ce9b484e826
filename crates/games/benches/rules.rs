//! Speed of the rules, one thread: perft with bulk counting at the leaves (leaves per second),
//! for every ruleset of the list, from its start to the deepest depth with at most
//! [`MAX_LEAVES`] leaves. Where the perft data (`tests/perft/*.txt`) has that depth, the count
//! is asserted against it. Random playouts are benchmarked in the engine
//! (`benches/playouts.rs`).
//!
//! Targets from issue 4 (twenty times Ludii): English perft 25 million leaves/s, International
//! 10 million.
//!
//! `cargo bench -p denkmeter-games`, or a filter: `cargo bench -p denkmeter-games -- english`.

use std::path::Path;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use denkmeter_core::perft::perft;
use denkmeter_core::{Game, RulesetVisitor};

/// The most leaves one measured perft counts: enough to time, few enough to finish soon.
const MAX_LEAVES: u64 = 20_000_000;
/// No ruleset is measured deeper than this.
const MAX_DEPTH: u32 = 12;

/// `(ruleset, depth, count)` of every perft vector from a start position.
fn start_vectors() -> Vec<(String, u32, u64)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut vectors = Vec::new();
    for entry in std::fs::read_dir(dir).expect("tests/perft exists") {
        let path = entry.expect("a readable directory entry").path();
        let text = std::fs::read_to_string(&path).expect("a readable perft file");
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            let parts: Vec<&str> = line.split(';').map(str::trim).collect();
            if let [ruleset, "start", counts] = parts[..] {
                for (depth, count) in counts.split_whitespace().enumerate() {
                    let count = count.parse().expect("perft counts are numbers");
                    vectors.push((ruleset.to_string(), depth as u32 + 1, count));
                }
            }
        }
    }
    vectors
}

struct PerftBench<'a> {
    criterion: &'a mut Criterion,
    vectors: Vec<(String, u32, u64)>,
}

impl RulesetVisitor for PerftBench<'_> {
    fn visit<G: Game>(&mut self, game: G) {
        let start = game.start();
        let (mut depth, mut leaves) = (1, perft(&game, &start, 1));
        while depth < MAX_DEPTH {
            let next = perft(&game, &start, depth + 1);
            if next > MAX_LEAVES {
                break;
            }
            (depth, leaves) = (depth + 1, next);
        }
        if let Some((_, _, known)) = self
            .vectors
            .iter()
            .find(|(name, d, _)| name == game.name() && *d == depth)
        {
            assert_eq!(leaves, *known, "{} perft {depth}", game.name());
        }
        let mut group = self.criterion.benchmark_group("perft");
        group.throughput(Throughput::Elements(leaves));
        group.sample_size(10);
        group.bench_function(format!("{} depth {depth}", game.name()), |b| {
            b.iter(|| perft(&game, black_box(&start), depth))
        });
        group.finish();
    }
}

fn rules(criterion: &mut Criterion) {
    denkmeter_games::visit_rulesets(&mut PerftBench {
        criterion,
        vectors: start_vectors(),
    });
}

criterion_group!(benches, rules);
criterion_main!(benches);
