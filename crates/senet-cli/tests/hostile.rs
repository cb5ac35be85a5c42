//! Hostile invocations of every command: budgets above their caps, zero and huge counts,
//! arguments of tens of kilobytes, streams that never end, damaged files, solves that cannot
//! fit. Each is generated from a seed and run as its own process under an address-space
//! limit (`ulimit -v` in `sh -c`) and a timeout; each must be refused in one short line on
//! stderr with exit status 2, quickly, without a signal (an abort is 134, a kill 137), and
//! without changing or adding any file.
//!
//! The quick run (CI) tries `SENET_HOSTILE_CASES` cases (default 1,500); the long run is
//! `cargo test -p senet-cli --test hostile -- --ignored` (default 30,000, also read from
//! `SENET_HOSTILE_CASES`). `SENET_HOSTILE_SEED` picks another seed.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The address space a case may take, in KiB: enough for the command's threads and their
/// arenas, far below what an unbounded read or search would reach.
const ADDRESS_SPACE_KIB: u64 = 2 << 20;
/// The time a case may take in a debug build on a loaded two-core machine; a refusal takes
/// milliseconds.
const TIMEOUT: Duration = Duration::from_secs(30);
/// The longest stderr line accepted: messages name their argument and quote at most a short
/// prefix of it.
const LONGEST_MESSAGE: usize = 600;

/// SplitMix64: a seeded stream with no dependency.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len() as u64) as usize]
    }

    /// A number in `low..=high` spread over its orders of magnitude.
    fn magnitude(&mut self, low: u64, high: u64) -> u64 {
        let digits = 1 + self.below(u64::from(high.ilog10() + 1));
        let n = self.next() % 10u64.saturating_pow(digits as u32);
        n.clamp(low, high)
    }

    /// A long text of `len` characters, some of them quotes, backslashes, commas, parentheses
    /// and letters from outside ASCII.
    fn text(&mut self, len: usize) -> String {
        const CHARS: &[char] = &[
            'a', 'x', '3', '9', ',', '(', ')', '=', ':', '"', '\\', ' ', '-', 'é', '𓂀', '\t',
        ];
        (0..len)
            .map(|_| CHARS[self.below(CHARS.len() as u64) as usize])
            .collect()
    }
}

/// Where a case's standard input comes from.
#[derive(Clone, Debug)]
enum Input {
    Empty,
    Zeros,
    File(PathBuf),
}

#[derive(Debug)]
struct Case {
    args: Vec<String>,
    input: Input,
}

/// The files every case may name; none may change.
struct Fixture {
    dir: tempfile::TempDir,
    /// A table file of Regency with 1 piece a side.
    tables: PathBuf,
    /// Damaged files of each kind.
    junk: PathBuf,
    /// A record longer than the 16 MiB the commands read.
    huge_record: PathBuf,
    /// A file a refused command must leave alone.
    precious: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let tables = dir.path().join("regency-1.tbl");
        let status = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(["solve", "--pieces", "1", "--out"])
            .arg(&tables)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let junk = dir.path().join("junk");
        fs::write(&junk, b"SENETEGT\x01\x00\x02\x05not a table{\"rules\":").unwrap();
        let huge_record = dir.path().join("huge.txt");
        let mut record = b"rules regency\n".to_vec();
        record.resize(17 << 20, b'#');
        fs::write(&huge_record, record).unwrap();
        let precious = dir.path().join("precious");
        fs::write(&precious, b"keep me").unwrap();
        Fixture {
            dir,
            tables,
            junk,
            huge_record,
            precious,
        }
    }

    /// Every file with its size, time of change and, for the small ones, contents (the
    /// large record is told by its size and time alone, to keep the cases quick).
    fn snapshot(&self) -> BTreeMap<PathBuf, (u64, Option<SystemTime>, Vec<u8>)> {
        let mut files = BTreeMap::new();
        for entry in fs::read_dir(self.dir.path()).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::metadata(&path).unwrap();
            let bytes = if meta.len() < 1 << 20 {
                fs::read(&path).unwrap_or_default()
            } else {
                Vec::new()
            };
            files.insert(path, (meta.len(), meta.modified().ok(), bytes));
        }
        files
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
}

/// A budget above its cap, zero, or not a number.
fn bad_player(s: &mut Stream) -> String {
    match s.below(8) {
        0 => format!("expectiminimax:{}", s.magnitude(65, u64::MAX)),
        1 => format!("expectiminimax:nodes={}", s.magnitude(50_000_001, u64::MAX)),
        2 => format!("mcts:{}", s.magnitude(1_000_001, u64::MAX)),
        3 => format!("mcts:{}9999999999999999999999", s.below(10)),
        4 => format!("perfect:{}", s.magnitude(256, u64::MAX)),
        5 => s
            .pick(&[
                "mcts:0",
                "expectiminimax:0",
                "expectiminimax:nodes=0",
                "perfect:0",
            ])
            .to_string(),
        6 => format!("mcts:{}", s.text(5)),
        _ => {
            let len = 1 + s.below(30_000) as usize;
            s.text(len)
        }
    }
}

fn long_text(s: &mut Stream) -> String {
    // At most 4 bytes a character: under the 128 KiB the system allows one argument.
    let len = 10_000 + s.below(20_000) as usize;
    s.text(len)
}

fn case(s: &mut Stream, f: &Fixture) -> Case {
    let precious = f.precious.display().to_string();
    let tables = f.tables.display().to_string();
    let junk = f.junk.display().to_string();
    let mut input = Input::Empty;
    let args: Vec<String> = match s.below(16) {
        // Budgets above their caps, through every command that builds players.
        0 => {
            let player = bad_player(s);
            let pair = if s.below(2) == 0 {
                format!("{player},random")
            } else {
                format!("greedy,{player}")
            };
            match s.below(4) {
                0 => vec![
                    "simulate".into(),
                    "--games".into(),
                    "2".into(),
                    "--players".into(),
                    pair,
                ],
                1 => vec![
                    "rate".into(),
                    "--games".into(),
                    "2".into(),
                    "--players".into(),
                    format!("random,{pair}"),
                ],
                2 => vec!["play".into(), "--players".into(), pair],
                _ => vec![
                    "compare".into(),
                    "--ladder".into(),
                    pair,
                    "--out".into(),
                    f.path("compare-out"),
                ],
            }
        }
        // Counts of games and threads out of range.
        1 => {
            let games = if s.below(2) == 0 {
                "0".to_string()
            } else {
                s.magnitude(1_000_000_001, u64::MAX).to_string()
            };
            match s.below(4) {
                0 => vec!["simulate".into(), "--games".into(), games],
                1 => vec![
                    "compare".into(),
                    "--games".into(),
                    games,
                    "--out".into(),
                    f.path("c"),
                ],
                2 => vec![
                    "compare".into(),
                    "--skill-games".into(),
                    s.magnitude(1_000_000_001, u64::MAX).to_string(),
                    "--out".into(),
                    f.path("c"),
                ],
                _ => {
                    let command = s.pick(&["simulate", "solve", "compare"]).to_string();
                    let mut args = vec![
                        command.clone(),
                        "--threads".into(),
                        s.magnitude(1025, u64::MAX).to_string(),
                    ];
                    if command != "simulate" {
                        args.extend(["--out".into(), f.path("t")]);
                    }
                    args
                }
            }
        }
        // Hundreds of kilobytes of text in every argument that reads text.
        2 => {
            let text = long_text(s);
            match s.below(7) {
                0 => vec!["moves".into(), "--throw".into(), text],
                1 => vec!["moves".into(), "--position".into(), text],
                2 => vec![
                    s.pick(&["moves", "simulate", "play"]).into(),
                    "--rules".into(),
                    text,
                ],
                3 => vec!["simulate".into(), "--players".into(), text],
                4 => vec!["play".into(), "--position".into(), text],
                5 => vec![
                    "compare".into(),
                    "--rules".into(),
                    text,
                    "--out".into(),
                    f.path("c"),
                ],
                _ => vec![
                    "solve".into(),
                    "--rules".into(),
                    text,
                    "--out".into(),
                    precious,
                ],
            }
        }
        // Too many throws, or throws no device shows.
        3 => {
            let count = if s.below(2) == 0 {
                33 + s.below(5_000)
            } else {
                1
            };
            let value = if count == 1 {
                7 + s.below(249)
            } else {
                1 + s.below(5)
            };
            let throws = vec![value.to_string(); count as usize].join(",");
            vec!["moves".into(), "--throw".into(), throws]
        }
        // Streams that never end, on every input that reads one.
        4 => match s.below(5) {
            0 => vec!["replay".into(), "/dev/zero".into()],
            1 => {
                input = Input::Zeros;
                vec!["replay".into(), "-".into()]
            }
            2 => vec!["play".into(), "--resume".into(), "/dev/zero".into()],
            3 => vec![
                "simulate".into(),
                "--players".into(),
                "perfect,random".into(),
                "--tables".into(),
                "/dev/zero".into(),
            ],
            _ => {
                input = Input::Zeros;
                vec!["play".into(), "--players".into(), "human,random".into()]
            }
        },
        // Files too long or damaged.
        5 => match s.below(4) {
            0 => vec!["replay".into(), f.huge_record.display().to_string()],
            1 => {
                input = Input::File(f.huge_record.clone());
                vec!["replay".into(), "-".into()]
            }
            2 => vec!["replay".into(), junk],
            _ => vec![
                "simulate".into(),
                "--players".into(),
                "perfect:1,random".into(),
                "--tables".into(),
                junk,
            ],
        },
        // Tables of fewer pieces than the perfect player asks for.
        6 => vec![
            s.pick(&["simulate", "play"]).into(),
            "--players".into(),
            format!("perfect:{},random", 2 + s.below(5)),
            "--tables".into(),
            tables,
        ],
        // Solves that cannot be done, or cannot fit.
        7 => {
            let mut args = vec!["solve".to_string()];
            match s.below(5) {
                0 => args.extend(["--pieces".into(), (4 + s.below(252)).to_string()]),
                1 => args.extend(["--pieces".into(), "0".into()]),
                2 => args.extend([
                    "--rules".into(),
                    "kendall(throw_timing=immediate)".into(),
                    "--pieces".into(),
                    "3".into(),
                    "--max-memory".into(),
                    format!("{}M", 1 + s.below(8_000)),
                ]),
                3 => args.extend([
                    "--rules".into(),
                    s.pick(&["bell", "jequier", "piccione", "kendall", "cemea"])
                        .into(),
                ]),
                _ => args.extend([
                    "--tolerance".into(),
                    s.pick(&["0", "1", "-1", "NaN", "inf", "2"]).into(),
                ]),
            }
            args.extend(["--out".into(), precious]);
            args
        }
        // Not arguments at all.
        8 => {
            let command = s.pick(&[
                "moves", "play", "simulate", "replay", "rules", "compare", "solve",
            ]);
            let flag = s.pick(&[
                "--games",
                "--seed",
                "--turn-cap",
                "--pieces",
                "--max-memory",
                "--bogus",
            ]);
            let value = s.pick(&["-1", "abc", "", "1e3", "99999999999999999999999", "0x10"]);
            vec![command.into(), flag.into(), value.into()]
        }
        // A record that is not one, given as a file.
        9 => {
            let name = format!("record-{}", s.below(4));
            let more = long_text(s);
            let text = match s.below(6) {
                // JSON whose unknown names serde quotes whole.
                0 => format!(
                    "{{\"rules\":\"regency\",\"actions\":[\"{}\"]}}",
                    "x".repeat(more.len())
                ),
                1 => format!("{{\"rules\":\"regency\",\"{}\":1}}", "k".repeat(more.len())),
                _ => {
                    let start =
                        s.pick(&["rules regency\n", "{\"rules\":", "", "rules bell\nthrow "]);
                    format!("{start}{more}")
                }
            };
            let path = f.dir.path().join(&name);
            fs::write(&path, text).unwrap();
            // Written before the snapshot is taken (see `run`), so it is part of the fixture.
            vec!["replay".into(), path.display().to_string()]
        }
        // Compare's options refused before any game.
        10 => vec![
            "compare".into(),
            "--ladder".into(),
            s.pick(&["random", "random,random", "greedy,human"]).into(),
            "--out".into(),
            f.path("c"),
        ],
        11 => vec!["simulate".into(), "--turn-cap".into(), "0".into()],
        12 => vec![
            "solve".into(),
            "--max-memory".into(),
            s.pick(&["12X", "-3G", "99999999999T", "G", ""]).into(),
            "--out".into(),
            precious,
        ],
        13 => vec![
            "play".into(),
            "--players".into(),
            s.pick(&["human", "a,b,c", "human,robot", ","]).into(),
        ],
        14 => vec![
            "moves".into(),
            "--rules".into(),
            format!("regency({}=true)", s.text(40)),
        ],
        _ => vec![
            "simulate".into(),
            "--games".into(),
            "0".into(),
            "--players".into(),
            bad_player(s),
        ],
    };
    Case { args, input }
}

/// Runs one case and checks every promise; returns a description of what broke.
fn run(case: &Case, f: &Fixture) -> Result<(), String> {
    let before = f.snapshot();
    let stdout_path = f
        .dir
        .path()
        .join("..")
        .join(format!("out-{}", std::process::id()));
    let stderr_path = stdout_path.with_extension("err");
    let stdin = match &case.input {
        Input::Empty => Stdio::null(),
        Input::Zeros => Stdio::from(fs::File::open("/dev/zero").unwrap()),
        Input::File(path) => Stdio::from(fs::File::open(path).unwrap()),
    };
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_senet"))
        .args(&case.args)
        .current_dir(f.dir.path())
        .stdin(stdin)
        .stdout(fs::File::create(&stdout_path).unwrap())
        .stderr(fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            child.kill().unwrap();
            child.wait().unwrap();
            return Err(format!("still running after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = fs::read(&stderr_path).unwrap();
    let _ = fs::remove_file(&stdout_path);
    let _ = fs::remove_file(&stderr_path);
    let stderr = String::from_utf8_lossy(&stderr);
    if status.code() != Some(2) {
        return Err(format!("exit {status} (stderr {:?})", short(&stderr)));
    }
    let lines: Vec<&str> = stderr.lines().collect();
    if lines.len() != 1 || !lines[0].starts_with("senet: ") {
        return Err(format!("stderr is not one line: {:?}", short(&stderr)));
    }
    if lines[0].len() > LONGEST_MESSAGE {
        return Err(format!(
            "a message of {} bytes: {:?}",
            lines[0].len(),
            short(lines[0])
        ));
    }
    if f.snapshot() != before {
        return Err("a file changed or appeared".to_string());
    }
    Ok(())
}

fn short(text: &str) -> String {
    text.chars().take(300).collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn hostile_run(default_cases: u64) {
    let cases = env_number("SENET_HOSTILE_CASES", default_cases);
    let seed = env_number("SENET_HOSTILE_SEED", 15);
    let fixture = Fixture::new();
    let mut stream = Stream(seed);
    let mut failures = Vec::new();
    let mut kinds_seen = std::collections::BTreeSet::new();
    for i in 0..cases {
        let case = case(&mut stream, &fixture);
        kinds_seen.insert(case.args[0].clone());
        if let Err(why) = run(&case, &fixture) {
            let shown: Vec<String> = case.args.iter().map(|a| short(a)).collect();
            failures.push(format!("case {i} {shown:?} ({:?}): {why}", case.input));
            if failures.len() >= 10 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "seed {seed}:\n{}", failures.join("\n"));
    if cases >= 200 {
        assert_eq!(
            kinds_seen.len(),
            8,
            "every command was tried: {kinds_seen:?}"
        );
    }
}

#[test]
fn hostile_invocations_are_refused_in_one_line() {
    hostile_run(1_500);
}

#[test]
#[ignore = "long: 30,000 hostile invocations"]
fn hostile_invocations_long() {
    hostile_run(30_000);
}

#[test]
fn the_stream_is_seeded() {
    let (mut a, mut b) = (Stream(1), Stream(1));
    assert!((0..100).all(|_| a.next() == b.next()));
    let text = Stream(2).text(50);
    assert_eq!(text.chars().count(), 50);
}
