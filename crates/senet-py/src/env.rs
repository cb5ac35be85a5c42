//! The cores of the single-agent environments: one game against a built-in player
//! (`EnvCore`) and many of them stepped in one call (`VecEnvCore`). The Gymnasium classes in
//! python/senet/envs.py wrap them.

use std::sync::Mutex;

use numpy::{PyArray1, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::prelude::*;
use senet::action_codes::{ActionCodes, CodeList, Next};
use senet::registry::AnyRuleset;
use senet::rng::{ChaCha8Rng, seeded};
use senet::simulation::random_pick;
use senet::{AnyGame, AnyPlayer, AnyTables, MOVE_LIST_CAPACITY, MoveList, Phase, Side};
use senet_ai::PlayerSpec;

use std::time::{Duration, Instant};

use crate::args::{Arg, int_arg};
use crate::errors::{MoveError, PlayerError, SenetError};
use crate::game::{Game, rules_arg};
use crate::obs::{Layout, write_mask};
use crate::players::{parse_spec, perfect_tables, tables_arg, turn_cap_arg};

/// The built-in player the agent plays against.
enum Opponent {
    /// Draws as `senet simulate`'s random player.
    Random,
    /// A player of `senet-ai` (behind a lock only so that the environment is `Sync`).
    Ai(Mutex<AnyPlayer>),
}

impl Opponent {
    fn new(spec: PlayerSpec, rules: &AnyRuleset, tables: Option<&AnyTables>) -> PyResult<Opponent> {
        let player = match tables {
            _ if spec == PlayerSpec::Random => return Ok(Opponent::Random),
            Some(tables) => AnyPlayer::with_tables(&spec, rules, tables),
            None => AnyPlayer::new(&spec, rules),
        };
        player
            .map(|p| Opponent::Ai(Mutex::new(p)))
            .map_err(|e| PlayerError::new_err(e.to_string()))
    }
}

/// How a step ended for the agent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Step {
    reward: f32,
    terminated: bool,
    truncated: bool,
}

/// One episode: a game in which the agent plays `agent`, the opponent the other side, and
/// every throw and every random choice of the opponent comes from `rng`.
struct Episode {
    rules: AnyRuleset,
    agent: Side,
    turn_cap: u32,
    opponent: Opponent,
    game: AnyGame,
    rng: ChaCha8Rng,
    ended: bool,
    /// The agent's legal moves while it is to move (empty otherwise), generated once per
    /// decision.
    moves: MoveList,
    /// The fixed action codes (`action_encoding="fixed"`), or None for indices into `moves`.
    codes: Option<ActionCodes>,
    /// The codes of a split move the agent has chosen so far.
    partial: CodeList,
}

/// A legal action, checked: an index into the legal moves, or fixed codes that make a move
/// or begin one.
#[derive(Clone, Copy, Debug)]
enum Checked {
    Index(usize),
    Code(u32, Next),
}

/// Reads `action_encoding`: fixed codes (`"fixed"`) or indices into the legal moves
/// (`"index"`).
fn action_codes(rules: &AnyRuleset, encoding: &str) -> PyResult<Option<ActionCodes>> {
    match encoding {
        "fixed" => Ok(Some(ActionCodes::new(rules))),
        "index" => Ok(None),
        other => Err(SenetError::new_err(format!(
            "action_encoding must be \"fixed\" or \"index\", not {other:?}"
        ))),
    }
}

impl Episode {
    fn new(
        rules: AnyRuleset,
        agent: Side,
        turn_cap: u32,
        opponent: Opponent,
        codes: Option<ActionCodes>,
    ) -> Episode {
        Episode {
            codes,
            partial: CodeList::new(),
            game: AnyGame::new(rules.clone()),
            rules,
            agent,
            turn_cap,
            opponent,
            rng: seeded(0, 0),
            ended: true,
            moves: MoveList::new(),
        }
    }

    /// Starts a new game drawing from `rng` and plays up to the agent's first decision.
    fn reset(&mut self, rng: ChaCha8Rng) -> Step {
        self.game = AnyGame::new(self.rules.clone());
        self.rng = rng;
        self.ended = false;
        self.advance()
    }

    /// Plays throws and the opponent's moves until the agent has to move, the game ends or
    /// the turn cap is reached.
    fn advance(&mut self) -> Step {
        self.moves.clear();
        self.partial = CodeList::new();
        loop {
            if self.game.turns() > self.turn_cap {
                self.ended = true;
                return Step {
                    truncated: true,
                    ..Step::default()
                };
            }
            match self.game.phase() {
                Phase::Over(outcome) => {
                    self.ended = true;
                    let reward = match outcome.winner {
                        Some(side) if side == self.agent => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    return Step {
                        reward,
                        terminated: true,
                        truncated: false,
                    };
                }
                Phase::Move(side) if side == self.agent => {
                    self.game.generate_moves(&mut self.moves);
                    return Step::default();
                }
                Phase::Throw(_) => {
                    // The device's values are always legal throws.
                    let _ = self.game.throw_random(&mut self.rng);
                }
                Phase::Move(_) => {
                    // The agent's list is free until its next decision.
                    self.game.generate_moves(&mut self.moves);
                    let moves = &self.moves;
                    let mv = match &mut self.opponent {
                        Opponent::Random => random_pick(moves, &mut self.rng),
                        Opponent::Ai(player) => match player.get_mut() {
                            Ok(player) => player
                                .choose(&self.game, &mut self.rng)
                                .unwrap_or_else(|_| moves[0]),
                            Err(_) => moves[0],
                        },
                    };
                    self.moves.clear();
                    // A generated move is legal.
                    let _ = self.game.play(mv);
                }
            }
        }
    }

    /// Refuses an action that is not the index of a legal move, or any once the episode
    /// has ended.
    fn check(&self, action: i64) -> Result<Checked, String> {
        if self.ended {
            return Err("the episode has ended: call reset() first".to_string());
        }
        if let Some(codes) = &self.codes {
            let count = codes.count();
            let code = u32::try_from(action)
                .ok()
                .filter(|&c| c < count)
                .ok_or_else(|| {
                    format!("action {action} is out of range: the action codes are 0..{count}")
                })?;
            let mut list = self.partial;
            list.push(code);
            return codes
                .advance(&self.moves, &list)
                .map(|next| Checked::Code(code, next))
                .map_err(|e| format!("action {action} is not legal now: {e}"));
        }
        let legal = self.moves.len();
        usize::try_from(action)
            .ok()
            .filter(|&a| a < legal)
            .map(Checked::Index)
            .ok_or_else(|| {
                format!("action {action} is not legal: the legal actions are 0..{legal}")
            })
    }

    /// The number of actions: the code count, or the move list's capacity.
    fn action_count(&self) -> usize {
        match &self.codes {
            Some(codes) => codes.count() as usize,
            None => MOVE_LIST_CAPACITY,
        }
    }

    /// Writes the action mask (`action_count` values).
    fn write_mask(&self, out: &mut [i8]) {
        match &self.codes {
            Some(codes) if !self.moves.is_empty() => {
                // The mask has the count's length and the moves are generated ones.
                let _ = codes.legal_next(&self.moves, &self.partial, out);
            }
            Some(_) => out.fill(0),
            None => write_mask(self.moves.len(), out),
        }
    }

    /// Ends the episode as a loss of the agent, for an illegal action, leaving the game as
    /// it was.
    fn forfeit(&mut self) -> Step {
        self.ended = true;
        self.moves.clear();
        self.partial = CodeList::new();
        Step {
            reward: -1.0,
            terminated: true,
            truncated: false,
        }
    }

    /// Plays `action` if it is legal; otherwise raises, or, when `lose_on_illegal`, ends
    /// the episode as a loss. Acting after the end always raises. The flag says whether
    /// the action was illegal.
    fn act(&mut self, action: i64, lose_on_illegal: bool) -> Result<(Step, bool), String> {
        match self.check(action) {
            Ok(action) => Ok((self.step(action), false)),
            Err(e) if self.ended || !lose_on_illegal => Err(e),
            Err(_) => Ok((self.forfeit(), true)),
        }
    }

    /// Plays legal action `action` (see [`check`](Episode::check)) and advances; the step of
    /// a split move that goes on only notes its code.
    fn step(&mut self, action: Checked) -> Step {
        let mv = match action {
            Checked::Index(i) => self.moves[i],
            Checked::Code(_, Next::Move(mv)) => mv,
            Checked::Code(code, Next::More) => {
                self.partial.push(code);
                return Step::default();
            }
        };
        let _ = self.game.play(mv);
        self.advance()
    }
}

/// Reads `illegal`: whether an illegal action loses the episode (`"lose"`) or raises
/// (`"raise"`).
fn lose_on_illegal(illegal: &str) -> PyResult<bool> {
    match illegal {
        "lose" => Ok(true),
        "raise" => Ok(false),
        other => Err(SenetError::new_err(format!(
            "illegal must be \"lose\" or \"raise\", not {other:?}"
        ))),
    }
}

fn agent_side(name: &str) -> PyResult<Side> {
    match name {
        "black" => Ok(Side::Black),
        "white" => Ok(Side::White),
        other => Err(SenetError::new_err(format!(
            "agent must be \"black\" or \"white\", not {other:?}"
        ))),
    }
}

/// The opponent's spec and the tables it needs.
fn opponent_setup(
    py: Python<'_>,
    rules: &AnyRuleset,
    opponent: &str,
    tables: Option<&Bound<'_, PyAny>>,
) -> PyResult<(PlayerSpec, Option<AnyTables>)> {
    let spec = parse_spec(opponent, "opponent")?;
    let tables = perfect_tables(py, rules, &[spec], tables_arg(rules, tables)?, "opponent")?;
    Ok((spec, tables))
}

/// The most games one vector environment steps: 65,536 Regency games against random
/// players take about 0.7 GB with fixed codes (measured: docs/python.md).
pub(crate) const MAX_ENVS: usize = 1 << 16;

/// The most action-mask values (`num_envs` x actions) of one vector environment: the masks
/// grow the memory by about 6 bytes a value (measured: docs/python.md), so configurations
/// with more actions than Regency's 963 take fewer games (Kendall's 4,812: 13,946).
pub(crate) const MAX_MASK_VALUES: usize = 1 << 26;

/// The most games of a vector environment with `actions` actions.
pub(crate) fn max_envs(actions: usize) -> usize {
    MAX_ENVS.min(MAX_MASK_VALUES / actions.max(1))
}

/// The string arguments of the environments' cores.
struct EnvArgs {
    opponent: String,
    agent: Side,
    turn_cap: u32,
    lose_on_illegal: bool,
    codes: Option<ActionCodes>,
}

#[allow(clippy::too_many_arguments)]
fn env_args(
    rules: &AnyRuleset,
    opponent: &Arg<'_>,
    agent: &Arg<'_>,
    turn_cap: &Arg<'_>,
    illegal: &Arg<'_>,
    action_encoding: &Arg<'_>,
) -> PyResult<EnvArgs> {
    let opponent = opponent.string("opponent", "random")?;
    Ok(EnvArgs {
        agent: agent_side(&agent.string("agent", "black")?)?,
        turn_cap: turn_cap_arg(turn_cap)?,
        lose_on_illegal: lose_on_illegal(&illegal.string("illegal", "lose")?)?,
        codes: action_codes(rules, &action_encoding.string("action_encoding", "fixed")?)?,
        opponent,
    })
}

/// Checks for signals (Ctrl-C) every 50 ms from a loop that runs without the interpreter
/// lock.
struct Signals {
    last: Instant,
    calls: u32,
    /// Calls between two looks at the clock.
    calls_per_clock: u32,
}

impl Signals {
    /// A checker for a loop over `episodes`. Against the random player an episode's step
    /// takes well under a microsecond, and reading the clock at each cost 4% of a vector
    /// step, so the clock is read every 64 episodes; a built-in player may think for many
    /// milliseconds an episode, so then it is read at each.
    fn new(episodes: &[Episode]) -> Signals {
        let cheap = matches!(
            episodes.first().map(|e| &e.opponent),
            Some(Opponent::Random)
        );
        Signals {
            last: Instant::now(),
            calls: 0,
            calls_per_clock: if cheap { 64 } else { 1 },
        }
    }

    fn check(&mut self) -> PyResult<()> {
        self.calls += 1;
        if self.calls < self.calls_per_clock {
            return Ok(());
        }
        self.calls = 0;
        if self.last.elapsed() < Duration::from_millis(50) {
            return Ok(());
        }
        self.last = Instant::now();
        Python::attach(|py| py.check_signals())
    }
}

/// How a batch call without the interpreter lock stopped early.
enum Stop {
    /// An action refused, naming its environment.
    Refused(String),
    /// A signal's exception (`KeyboardInterrupt`).
    Signal(PyErr),
}

/// One game against a built-in player, for `senet.envs.SenetEnv`.
#[pyclass(module = "senet._senet")]
pub(crate) struct EnvCore {
    episode: Episode,
    layout: Layout,
    lose_on_illegal: bool,
}

#[pymethods]
impl EnvCore {
    #[new]
    #[pyo3(signature = (rules, opponent = Arg::Default, agent = Arg::Default, turn_cap = Arg::Default, tables = None, illegal = Arg::Default, action_encoding = Arg::Default))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        opponent: Arg<'_>,
        agent: Arg<'_>,
        turn_cap: Arg<'_>,
        tables: Option<&Bound<'_, PyAny>>,
        illegal: Arg<'_>,
        action_encoding: Arg<'_>,
    ) -> PyResult<EnvCore> {
        let rules = rules_arg(rules)?;
        let args = env_args(
            &rules,
            &opponent,
            &agent,
            &turn_cap,
            &illegal,
            &action_encoding,
        )?;
        let (spec, tables) = opponent_setup(py, &rules, &args.opponent, tables)?;
        let opponent = Opponent::new(spec, &rules, tables.as_ref())?;
        Ok(EnvCore {
            layout: Layout::new(&rules),
            episode: Episode::new(rules, args.agent, args.turn_cap, opponent, args.codes),
            lose_on_illegal: args.lose_on_illegal,
        })
    }

    /// Values in an observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.layout.size()
    }

    /// Starts an episode from `seed`; returns (observation, mask, ended). An episode may end
    /// before the agent's first move (an opponent that wins at once, or the turn cap).
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
    ) -> (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>, bool) {
        let step = self.episode.reset(seeded(seed, 0));
        let (obs, mask) = self.arrays(py);
        (obs, mask, step.terminated || step.truncated)
    }

    /// Plays action `action` (an index into the legal moves); returns (observation, mask,
    /// reward, terminated, truncated, illegal).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<i8>>,
        f32,
        bool,
        bool,
        bool,
    )> {
        let (step, illegal) = self
            .episode
            .act(action, self.lose_on_illegal)
            .map_err(MoveError::new_err)?;
        let (obs, mask) = self.arrays(py);
        Ok((
            obs,
            mask,
            step.reward,
            step.terminated,
            step.truncated,
            illegal,
        ))
    }

    /// A copy of the game so far.
    fn game(&self) -> Game {
        Game::wrap(self.episode.game.clone())
    }

    /// The number of actions: the configuration's code count (fixed codes) or
    /// `MOVE_LIST_CAPACITY` (indices).
    #[getter]
    fn action_count(&self) -> usize {
        self.episode.action_count()
    }

    /// The codes of a split move the agent has chosen so far (fixed codes only).
    fn partial_codes(&self) -> Vec<u32> {
        self.episode.partial.to_vec()
    }
}

impl EnvCore {
    fn arrays<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>) {
        let mut obs = vec![0.0; self.layout.size()];
        self.layout.write(&*self.episode.game, &mut obs);
        let mut mask = vec![0; self.episode.action_count()];
        self.episode.write_mask(&mut mask);
        (PyArray1::from_vec(py, obs), PyArray1::from_vec(py, mask))
    }
}

/// Many games against built-in players, stepped in one call, for
/// `senet.envs.SenetVectorEnv`. Episode `i` of a reset with `seed` draws from ChaCha8
/// stream `i` of `seed` and keeps drawing from it through its automatic resets.
#[pyclass(module = "senet._senet")]
pub(crate) struct VecEnvCore {
    episodes: Vec<Episode>,
    /// Set when a reset or a step was interrupted (Ctrl-C) part way: the games are then in
    /// no consistent state until the next reset.
    interrupted: bool,
    layout: Layout,
    lose_on_illegal: bool,
    /// Actions per environment (the mask's row length).
    mask_len: usize,
    /// The actions of a step once checked, kept to save an allocation per step.
    checked: Vec<Checked>,
}

/// Writes the codes chosen so far, padded with -1.
pub(crate) fn write_partial(partial: &[u32], out: &mut [i64]) {
    out.fill(-1);
    for (slot, &code) in out.iter_mut().zip(partial) {
        *slot = i64::from(code);
    }
}

#[pymethods]
impl VecEnvCore {
    #[new]
    #[pyo3(signature = (rules, num_envs, opponent = Arg::Default, agent = Arg::Default, turn_cap = Arg::Default, tables = None, illegal = Arg::Default, action_encoding = Arg::Default))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        opponent: Arg<'_>,
        agent: Arg<'_>,
        turn_cap: Arg<'_>,
        tables: Option<&Bound<'_, PyAny>>,
        illegal: Arg<'_>,
        action_encoding: Arg<'_>,
    ) -> PyResult<VecEnvCore> {
        let num = num_envs;
        let rules = rules_arg(rules)?;
        let EnvArgs {
            opponent,
            agent,
            turn_cap,
            lose_on_illegal,
            codes,
        } = env_args(
            &rules,
            &opponent,
            &agent,
            &turn_cap,
            &illegal,
            &action_encoding,
        )?;
        let actions = codes.map_or(MOVE_LIST_CAPACITY, |c| c.count() as usize);
        let cap = max_envs(actions);
        let num_envs: usize = int_arg(num, "num_envs", 1, cap as i128).map_err(|_| {
            SenetError::new_err(format!(
                "num_envs: expected an integer from 1 to {cap} (at most {MAX_ENVS} games and {MAX_MASK_VALUES} mask values, {actions} actions a game: memory), not {}",
                crate::args::describe(num)
            ))
        })?;
        let (spec, tables) = opponent_setup(py, &rules, &opponent, tables)?;
        let episodes = (0..num_envs)
            .map(|_| {
                Opponent::new(spec, &rules, tables.as_ref())
                    .map(|o| Episode::new(rules.clone(), agent, turn_cap, o, codes))
            })
            .collect::<PyResult<_>>()?;
        Ok(VecEnvCore {
            episodes,
            interrupted: false,
            layout: Layout::new(&rules),
            lose_on_illegal,
            mask_len: codes.map_or(MOVE_LIST_CAPACITY, |c| c.count() as usize),
            checked: Vec::with_capacity(num_envs),
        })
    }

    /// The number of actions of each environment.
    #[getter]
    fn action_count(&self) -> usize {
        self.mask_len
    }

    /// Writes into row `i` of `out` (`num_envs` x `MAX_STEPS` int64) the codes of the split
    /// move episode `i`'s agent has chosen so far, padded with -1.
    fn partial_into(&self, mut out: PyReadwriteArray2<'_, i64>) -> PyResult<()> {
        let out = slice_of(out.as_slice_mut())?;
        let width = senet::MAX_STEPS;
        if out.len() != self.episodes.len() * width {
            return Err(SenetError::new_err(format!(
                "out must be {}x{width} int64, contiguous",
                self.episodes.len()
            )));
        }
        for (row, episode) in out.chunks_mut(width).zip(&self.episodes) {
            write_partial(&episode.partial, row);
        }
        Ok(())
    }

    /// Values in an observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.layout.size()
    }

    /// Starts every episode from `seed` and writes the observations and masks.
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: u64,
        mut obs: PyReadwriteArray2<'_, f32>,
        mut mask: PyReadwriteArray2<'_, i8>,
    ) -> PyResult<()> {
        let obs = slice_of(obs.as_slice_mut())?;
        let mask = slice_of(mask.as_slice_mut())?;
        self.check_len(obs.len(), mask.len(), self.episodes.len())?;
        let (episodes, layout, mask_len) = (&mut self.episodes, &self.layout, self.mask_len);
        self.interrupted = true;
        py.detach(|| {
            let mut signals = Signals::new(episodes);
            for (i, episode) in episodes.iter_mut().enumerate() {
                signals.check()?;
                let mut step = episode.reset(seeded(seed, i as u64));
                // An episode that ends before the agent moves starts again at once.
                while step.terminated || step.truncated {
                    step = episode.reset(episode.rng.clone());
                }
                write(layout, mask_len, episode, i, obs, mask);
            }
            Ok::<(), PyErr>(())
        })?;
        self.interrupted = false;
        Ok(())
    }

    /// Plays `actions[i]` in episode `i`, writes the observations, masks, rewards and ends,
    /// and starts a finished episode again in the same step (its observation is then the
    /// new episode's first; the finished game's last observation goes to row `i` of
    /// `final_obs`, and `illegal[i]` says whether an illegal action ended it). An illegal
    /// action loses its episode, or, with `illegal="raise"`, refuses the whole step,
    /// changing nothing. A step interrupted by a signal (Ctrl-C, checked every 50 ms)
    /// raises its exception and leaves the games to be reset.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut obs: PyReadwriteArray2<'_, f32>,
        mut mask: PyReadwriteArray2<'_, i8>,
        mut rewards: PyReadwriteArray1<'_, f32>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
        mut final_obs: PyReadwriteArray2<'_, f32>,
        mut illegal: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        if self.interrupted {
            return Err(SenetError::new_err(
                "actions: a reset or step was interrupted: call reset() first",
            ));
        }
        let actions = actions
            .as_slice()
            .map_err(|e| SenetError::new_err(e.to_string()))?;
        let obs = slice_of(obs.as_slice_mut())?;
        let mask = slice_of(mask.as_slice_mut())?;
        let rewards = slice_of(rewards.as_slice_mut())?;
        let terminated = slice_of(terminated.as_slice_mut())?;
        let truncated = slice_of(truncated.as_slice_mut())?;
        let final_obs = slice_of(final_obs.as_slice_mut())?;
        let illegal = slice_of(illegal.as_slice_mut())?;
        let n = self.episodes.len();
        self.check_len(obs.len(), mask.len(), n)?;
        if [
            actions.len(),
            rewards.len(),
            terminated.len(),
            truncated.len(),
            illegal.len(),
        ] != [n; 5]
            || final_obs.len() != obs.len()
        {
            return Err(SenetError::new_err(format!(
                "actions: actions, rewards, terminated, truncated and illegal need {n} values each, final_obs the shape of obs"
            )));
        }
        let (episodes, layout, lose, mask_len) = (
            &mut self.episodes,
            &self.layout,
            self.lose_on_illegal,
            self.mask_len,
        );
        let interrupted = &mut self.interrupted;
        let checked = &mut self.checked;
        py.detach(|| {
            checked.clear();
            if !lose {
                // Every action is checked before any is played, so that a refusal changes
                // nothing; the checked actions are then played without a second look.
                for (i, (episode, &action)) in episodes.iter().zip(actions).enumerate() {
                    let action = episode
                        .check(action)
                        .map_err(|e| Stop::Refused(format!("actions[{i}]: {e}")))?;
                    checked.push(action);
                }
            }
            let mut signals = Signals::new(episodes);
            for (i, (episode, &action)) in episodes.iter_mut().zip(actions).enumerate() {
                if let Err(e) = signals.check() {
                    *interrupted = true;
                    return Err(Stop::Signal(e));
                }
                let acted = match checked.get(i) {
                    Some(&legal) => Ok((episode.step(legal), false)),
                    None => episode.act(action, lose),
                };
                let (step, refused) = match acted {
                    Ok(done) => done,
                    Err(e) => {
                        // Only an ended episode refuses here; the earlier ones have moved.
                        *interrupted = i > 0;
                        return Err(Stop::Refused(format!("actions[{i}]: {e}")));
                    }
                };
                rewards[i] = step.reward;
                terminated[i] = step.terminated;
                truncated[i] = step.truncated;
                illegal[i] = refused;
                let mut ended = step.terminated || step.truncated;
                if ended {
                    let size = layout.size();
                    layout.write(&*episode.game, &mut final_obs[i * size..(i + 1) * size]);
                }
                while ended {
                    let next = episode.reset(episode.rng.clone());
                    ended = next.terminated || next.truncated;
                }
                write(layout, mask_len, episode, i, obs, mask);
            }
            Ok(())
        })
        .map_err(|stop| match stop {
            Stop::Refused(e) => MoveError::new_err(e),
            Stop::Signal(e) => e,
        })
    }

    /// A copy of the game of episode `index`.
    fn game(&self, index: &Bound<'_, PyAny>) -> PyResult<Game> {
        let last = self.episodes.len() as i128 - 1;
        let index: usize = int_arg(index, "index", 0, last)?;
        self.episodes
            .get(index)
            .map(|e| Game::wrap(e.game.clone()))
            .ok_or_else(|| SenetError::new_err(format!("index: no env {index}")))
    }
}

impl VecEnvCore {
    fn check_len(&self, obs: usize, mask: usize, n: usize) -> PyResult<()> {
        if obs != n * self.layout.size() || mask != n * self.mask_len {
            return Err(SenetError::new_err(format!(
                "obs must be {n}x{} float32 and mask {n}x{} int8, contiguous",
                self.layout.size(),
                self.mask_len
            )));
        }
        Ok(())
    }
}

fn slice_of<T>(slice: Result<T, numpy::AsSliceError>) -> PyResult<T> {
    slice.map_err(|e| SenetError::new_err(e.to_string()))
}

/// Writes the observation and mask of episode `i` into row `i`.
fn write(
    layout: &Layout,
    mask_len: usize,
    episode: &Episode,
    i: usize,
    obs: &mut [f32],
    mask: &mut [i8],
) {
    let size = layout.size();
    layout.write(&*episode.game, &mut obs[i * size..(i + 1) * size]);
    episode.write_mask(&mut mask[i * mask_len..(i + 1) * mask_len]);
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvCore>()?;
    m.add_class::<VecEnvCore>()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn episode(rules: &str, agent: Side) -> Episode {
        let rules = AnyRuleset::parse(rules).unwrap();
        Episode::new(rules, agent, 10_000, Opponent::Random, None)
    }

    /// With fixed codes, an episode of every ruleset plays to its end choosing the first
    /// marked code each time (split moves code by code), and the mask has the count's length.
    #[test]
    fn fixed_codes_play_whole_episodes() {
        for info in senet::registry::RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let codes = ActionCodes::new(&rules);
            let mut e = Episode::new(rules, Side::White, 10_000, Opponent::Random, Some(codes));
            let mut step = e.reset(seeded(2, 0));
            let mut mask = vec![0i8; e.action_count()];
            while !(step.terminated || step.truncated) {
                e.write_mask(&mut mask);
                let first = mask.iter().position(|&m| m == 1).expect("a legal code") as i64;
                assert!(e.check(codes.count() as i64).is_err());
                step = e.step(e.check(first).unwrap());
            }
        }
    }

    /// Playing the first legal action to the end, from the same seed, gives the same game;
    /// the agent is the side to move at every decision it is given.
    #[test]
    fn episodes_repeat_from_their_seed_and_stop_at_the_agents_moves() {
        for agent in [Side::Black, Side::White] {
            let play = |seed| {
                let mut e = episode("kendall", agent);
                let mut step = e.reset(seeded(seed, 0));
                while !(step.terminated || step.truncated) {
                    assert_eq!(e.game.phase(), Phase::Move(agent));
                    step = e.step(e.check(0).unwrap());
                }
                assert!(e.check(0).is_err());
                (e.game.record_text(), step)
            };
            assert_eq!(play(3), play(3));
            assert_ne!(play(3).0, play(4).0);
        }
    }

    #[test]
    fn illegal_actions_are_refused() {
        let mut e = episode("regency", Side::Black);
        e.reset(seeded(1, 0));
        let legal = e.game.legal_moves().len() as i64;
        assert!(e.check(-1).is_err());
        assert!(e.check(legal).is_err());
        assert!(e.check(legal - 1).is_ok());
    }
}
