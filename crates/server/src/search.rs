//! The computer's searches run on a fixed pool of threads, never on the async runtime and never
//! more at once than the pool has threads. Searches queue for it first come, first served: a
//! game has at most one move search, one hint and one analysis queued or running, so every game
//! waiting gets its turn. Games where a person waits for the computer's reply go first, then
//! computer-vs-computer games someone watches and hints, then games nobody watches and
//! analyses.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use denkmeter_engine::dynamic::{AnalysisLine, AnySession};
use denkmeter_engine::{Agent, SearchOptions, TimePlan};
use tokio::sync::oneshot;

/// The least time a computer on the clock is given for a search, however little it has left:
/// a search always completes its first depth anyway.
pub const SHORTEST_THINK: Duration = Duration::from_millis(20);

/// A computer's time for one move on the clock: the plan of its clock
/// ([`crate::clock::Clock::thinking_plan`]), counted from when the move was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThinkingTime {
    pub asked: Instant,
    pub plan: TimePlan,
}

impl ThinkingTime {
    /// What is left of the plan now, each part at least [`SHORTEST_THINK`].
    pub fn left(&self) -> TimePlan {
        let waited = self.asked.elapsed();
        let left = |d: Duration| d.saturating_sub(waited).max(SHORTEST_THINK);
        TimePlan {
            target: left(self.plan.target),
            most: left(self.plan.most),
        }
    }
}

/// Which queue a search waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// A person plays the game and waits for the reply.
    Player,
    /// A computer-vs-computer game someone watches, or a hint a person asked for (behind the
    /// computer's own replies to people).
    Watched,
    /// A computer-vs-computer game nobody watches.
    Background,
}

/// A search to run: it sends its own answer, and does nothing if nobody waits for it any more.
type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queues {
    /// One queue per [`Priority`], in order.
    waiting: [VecDeque<Job>; 3],
    closed: bool,
}

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    running: AtomicUsize,
    /// Searches above [`Priority::Background`] queued or running: someone waits for them.
    foreground: AtomicUsize,
    /// The stop flags of the background work running now that gives way when a search someone
    /// waits for finds every thread busy (see [`SearchPool::compute_yielding`]).
    yielding: Mutex<Vec<Arc<AtomicBool>>>,
}

/// Counts a search someone waits for from its queueing until it has run (or was dropped).
struct ForegroundJob(Arc<Shared>);

impl Drop for ForegroundJob {
    fn drop(&mut self) {
        self.0.foreground.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A fixed pool of search threads.
pub struct SearchPool {
    shared: Arc<Shared>,
    threads: usize,
}

impl std::fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPool")
            .field("threads", &self.threads)
            .field("queued", &self.queued())
            .field("running", &self.running())
            .finish()
    }
}

/// The default number of search threads: the machine's cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl SearchPool {
    /// Starts `threads` search threads (at least one).
    pub fn new(threads: usize) -> SearchPool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
            running: AtomicUsize::new(0),
            foreground: AtomicUsize::new(0),
            yielding: Mutex::new(Vec::new()),
        });
        for n in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("denkmeter-search-{n}"))
                .spawn(move || work(&shared));
            if let Err(error) = spawned {
                tracing::error!(%error, "cannot start a search thread");
            }
        }
        SearchPool { shared, threads }
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches waiting for a thread.
    pub fn queued(&self) -> usize {
        self.shared
            .queues
            .lock()
            .map_or(0, |q| q.waiting.iter().map(VecDeque::len).sum())
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.shared.running.load(Ordering::Relaxed)
    }

    /// Searches someone waits for (every priority above [`Priority::Background`]), queued or
    /// running: background work that can wait leaves them a thread.
    pub fn foreground(&self) -> usize {
        self.shared.foreground.load(Ordering::Relaxed)
    }

    /// The computer's move in `session`, searched on the pool; `None` if there is none (or the
    /// search failed, which is logged). A computer on the clock searches within `thinking`,
    /// counted from when the search was asked for (the wait for a thread is its own time),
    /// and at least [`SHORTEST_THINK`].
    pub async fn search(
        &self,
        priority: Priority,
        session: Box<dyn AnySession>,
        agent: Agent,
        seed: u64,
        thinking: Option<ThinkingTime>,
    ) -> Option<String> {
        let ruleset = session.ruleset().to_string();
        self.run(priority, ruleset, move || {
            let plan = thinking.map(|t| t.left());
            // A search of its own: the pool's threads serve every game.
            session.choose_move_within(&agent, seed, plan, None)
        })
        .await
    }

    /// The alpha-beta analysis of `session` for its side to move (see
    /// [`AnySession::analyse`]), its last complete depth; `None` if the game is over (or the
    /// search failed, which is logged).
    pub async fn analyse(
        &self,
        priority: Priority,
        session: Box<dyn AnySession>,
        options: SearchOptions,
    ) -> Option<AnalysisLine> {
        let ruleset = session.ruleset().to_string();
        self.run(priority, ruleset, move || {
            session.analyse(&options, &mut |_| {})
        })
        .await
    }

    /// Queues any work for the pool's threads (a game of a lab study) and waits for its
    /// answer; `None` if it failed (which is logged, under `label`) or the pool is closed.
    pub async fn compute<T: Send + 'static>(
        &self,
        priority: Priority,
        label: String,
        work: impl FnOnce() -> Option<T> + Send + 'static,
    ) -> Option<T> {
        self.run(priority, label, work).await
    }

    /// Queues background work that gives way to searches someone waits for: `work` is given a
    /// stop flag, set when such a search is queued while every thread is busy, and is to end
    /// soon after (a search with the flag as its `stop` ends within a few thousand nodes).
    /// Whether the flag was set is returned with the answer, so that the caller can do the
    /// work again later.
    pub async fn compute_yielding<T: Send + 'static>(
        &self,
        label: String,
        work: impl FnOnce(Arc<AtomicBool>) -> Option<T> + Send + 'static,
    ) -> Option<(T, bool)> {
        self.compute_yielding_with(label, Arc::new(AtomicBool::new(false)), work)
            .await
    }

    /// As [`SearchPool::compute_yielding`], with a stop flag of the caller's, who may also set
    /// it to stop the work (and tell the two apart by a flag of its own).
    pub async fn compute_yielding_with<T: Send + 'static>(
        &self,
        label: String,
        flag: Arc<AtomicBool>,
        work: impl FnOnce(Arc<AtomicBool>) -> Option<T> + Send + 'static,
    ) -> Option<(T, bool)> {
        let shared = self.shared.clone();
        self.run(Priority::Background, label, move || {
            if let Ok(mut yielding) = shared.yielding.lock() {
                yielding.push(flag.clone());
            }
            // Taken off the list however the work ends.
            struct Listed(Arc<Shared>, Arc<AtomicBool>);
            impl Drop for Listed {
                fn drop(&mut self) {
                    if let Ok(mut yielding) = self.0.yielding.lock() {
                        yielding.retain(|f| !Arc::ptr_eq(f, &self.1));
                    }
                }
            }
            let _listed = Listed(shared, flag.clone());
            let found = work(flag.clone())?;
            Some((found, flag.load(Ordering::Relaxed)))
        })
        .await
    }

    /// Asks one running piece of yielding background work to give way when it holds every
    /// thread. Work that holds fewer goes on: the searches someone waits for have a thread, and
    /// the background work is never starved by a steady stream of them.
    fn make_room(&self) {
        if self.running() < self.threads {
            return;
        }
        if let Ok(yielding) = self.shared.yielding.lock() {
            let going = yielding
                .iter()
                .filter(|f| !f.load(Ordering::Relaxed))
                .count();
            if going >= self.threads {
                // The newest gives way: it has the least work to lose.
                if let Some(flag) = yielding.iter().rev().find(|f| !f.load(Ordering::Relaxed)) {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Queues `search` and waits for its answer.
    async fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        ruleset: String,
        search: impl FnOnce() -> Option<T> + Send + 'static,
    ) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        let counted = (priority != Priority::Background).then(|| {
            self.shared.foreground.fetch_add(1, Ordering::Relaxed);
            ForegroundJob(self.shared.clone())
        });
        let job: Job = Box::new(move || {
            if reply.is_closed() {
                return;
            }
            let found = std::panic::catch_unwind(AssertUnwindSafe(search)).unwrap_or_else(|_| {
                tracing::error!(ruleset, "a search failed");
                None
            });
            // No longer waited for once answered.
            drop(counted);
            let _ = reply.send(found);
        });
        {
            let Ok(mut queues) = self.shared.queues.lock() else {
                return None;
            };
            if queues.closed {
                return None;
            }
            queues.waiting[priority as usize].push_back(job);
        }
        self.shared.ready.notify_one();
        if priority != Priority::Background {
            self.make_room();
        }
        answer.await.ok().flatten()
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        if let Ok(mut queues) = self.shared.queues.lock() {
            queues.closed = true;
            queues.waiting.iter_mut().for_each(VecDeque::clear);
        }
        self.shared.ready.notify_all();
    }
}

/// Searches run at a low priority (niceness 10, batch scheduling): when the machine is busy the
/// server's answers go first, and the searches take what is left.
fn lower_priority() {
    use thread_priority::unix::{
        set_thread_priority_and_policy, thread_native_id, NormalThreadSchedulePolicy,
        ThreadSchedulePolicy,
    };
    use thread_priority::ThreadPriority;
    let nice_10 = ThreadPriority::Crossplatform(23u8.try_into().unwrap_or_default());
    let policy = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch);
    if let Err(error) = set_thread_priority_and_policy(thread_native_id(), nice_10, policy) {
        tracing::warn!(?error, "search threads run at normal priority");
    }
}

fn work(shared: &Shared) {
    lower_priority();
    loop {
        let job = {
            let Ok(mut queues) = shared.queues.lock() else {
                return;
            };
            loop {
                if queues.closed {
                    return;
                }
                if let Some(job) = queues.waiting.iter_mut().find_map(VecDeque::pop_front) {
                    break job;
                }
                queues = match shared.ready.wait(queues) {
                    Ok(q) => q,
                    Err(_) => return,
                };
            }
        };
        shared.running.fetch_add(1, Ordering::Relaxed);
        job();
        shared.running.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use denkmeter_engine::{Limits, Registry};
    use std::time::Duration;

    fn registry() -> Registry {
        Registry::from_list(denkmeter_games::visit_rulesets)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_more_searches_at_once_than_threads() {
        let pool = Arc::new(SearchPool::new(2));
        let chad = registry().find("chad").unwrap();
        let agent = Agent::Mcts(Limits {
            nodes: Some(3_000),
            time: Some(Duration::from_secs(5)),
            depth: None,
            target: None,
        });
        let mut tasks = Vec::new();
        for seed in 0..12 {
            let pool = pool.clone();
            let session = chad.new_game(None).unwrap();
            tasks.push(tokio::spawn(async move {
                pool.search(Priority::Player, session, agent, seed, None)
                    .await
            }));
        }
        let mut most = 0;
        while tasks.iter().any(|t| !t.is_finished()) {
            most = most.max(pool.running());
            assert!(pool.running() <= 2, "{} searches at once", pool.running());
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert_eq!(most, 2, "the pool never used both threads");
        for task in tasks {
            assert!(task.await.unwrap().is_some());
        }
        assert_eq!(pool.queued(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_person_waiting_goes_before_computer_games() {
        let pool = Arc::new(SearchPool::new(1));
        let chad = registry().find("chad").unwrap();
        let agent = Agent::Mcts(Limits {
            nodes: Some(1_500),
            time: Some(Duration::from_secs(5)),
            depth: None,
            target: None,
        });
        let finished = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        let order = [
            Priority::Background,
            Priority::Background,
            Priority::Watched,
            Priority::Background,
            Priority::Player,
        ];
        for (n, priority) in order.into_iter().enumerate() {
            let (pool, finished) = (pool.clone(), finished.clone());
            let session = chad.new_game(None).unwrap();
            tasks.push(tokio::spawn(async move {
                pool.search(priority, session, agent, n as u64, None).await;
                finished.lock().unwrap().push(n);
            }));
            // Let the first one start before the others queue.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        for task in tasks {
            task.await.unwrap();
        }
        // The first was running already; then the person, the watched game, the rest in turn.
        assert_eq!(*finished.lock().unwrap(), [0, 4, 2, 1, 3]);
    }

    /// Background work that spins until told to stop (or for 3 s), as a long search would.
    fn spin(stop: &AtomicBool) -> Option<bool> {
        let until = std::time::Instant::now() + Duration::from_secs(3);
        while !stop.load(Ordering::Relaxed) && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        Some(stop.load(Ordering::Relaxed))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn background_work_holding_every_thread_gives_way_to_a_game() {
        let pool = Arc::new(SearchPool::new(2));
        let started = |n: usize| {
            let pool = pool.clone();
            async move {
                while pool.shared.yielding.lock().unwrap().len() < n {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
        };
        let background = |label: &str| {
            let pool = pool.clone();
            let label = label.to_string();
            tokio::spawn(async move { pool.compute_yielding(label, |stop| spin(&stop)).await })
        };
        let first = background("first");
        let second = background("second");
        started(2).await;
        assert_eq!(pool.foreground(), 0);
        // A game's search finds both threads held by background work: one gives way at once.
        let asked = std::time::Instant::now();
        let game = pool
            .compute(Priority::Player, "game".into(), || Some(7))
            .await;
        assert_eq!(game, Some(7));
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{:?}",
            asked.elapsed()
        );
        assert_eq!(
            pool.foreground(),
            0,
            "the game's search is counted until it has run"
        );
        let mut gave_way = 0;
        for task in [first, second] {
            let (stopped, flagged) = task.await.unwrap().unwrap();
            assert_eq!(stopped, flagged);
            gave_way += usize::from(flagged);
        }
        assert_eq!(gave_way, 1, "exactly one piece of background work gave way");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn background_work_on_one_thread_of_two_goes_on() {
        let pool = Arc::new(SearchPool::new(2));
        let worker = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.compute_yielding("analysis".into(), |stop| {
                    std::thread::sleep(Duration::from_millis(300));
                    Some(stop.load(Ordering::Relaxed))
                })
                .await
            })
        };
        while pool.running() < 1 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        // Two games' searches in a row take the free thread; the background work is not stopped.
        for n in 0..2 {
            let got = pool
                .compute(Priority::Player, "game".into(), move || {
                    std::thread::sleep(Duration::from_millis(50));
                    Some(n)
                })
                .await;
            assert_eq!(got, Some(n));
        }
        let (stopped, flagged) = worker.await.unwrap().unwrap();
        assert!(!stopped && !flagged);
    }
}
