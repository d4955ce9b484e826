//! `denkmeter play`: a game in the terminal between people and the computer. The record is
//! written after every move, so nothing is lost if the program is stopped.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Context, Result};
use clap::Args;
use denkmeter_core::{ByPlayer, Player, Status, Viewer};
use denkmeter_engine::dynamic::AnySession;
use denkmeter_engine::{Agent, SearchOptions, SearchTable, TimeLeft};

#[derive(Debug, Args)]
pub struct PlayArgs {
    ruleset: String,
    /// Who plays White: human, random, computer, computer:LEVEL (1-8), mcts:LIMITS, ismcts:LIMITS (hidden games) or ab:LIMITS
    /// (ab:0.5s,no-egtb: without the endgame databases).
    #[arg(long, default_value = "human")]
    white: Seat,
    /// Who plays Black: the same choices as --white.
    #[arg(long, default_value = "computer")]
    black: Seat,
    /// A board file to play on, for games whose board is data (Schada).
    #[arg(long)]
    board: Option<PathBuf>,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Seed for the computer's search (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Where to save the record (default: denkmeter-RULESET-DATE-TIME.pgn here).
    #[arg(long)]
    record: Option<PathBuf>,
    /// Play on a clock: SECONDS for each side's game, and +INCREMENT seconds earned with every
    /// move (e.g. 300+5). A person's turn runs from the prompt to a legal move; the computer
    /// plans its time by the engine's time manager. A side whose time runs out loses. The
    /// clocks are not kept in the record.
    #[arg(long, value_name = "SECONDS[+INCREMENT]", value_parser = crate::matches::parse_clock)]
    clock: Option<(Duration, Duration)>,
}

impl PlayArgs {
    /// The ruleset played.
    pub fn ruleset(&self) -> &str {
        &self.ruleset
    }
}

/// A time left as `m:ss` (tenths under ten seconds).
fn clock_text(left: Duration) -> String {
    let seconds = left.as_secs_f64();
    if seconds < 10.0 {
        format!("0:{seconds:04.1}")
    } else {
        let whole = left.as_secs();
        format!("{}:{:02}", whole / 60, whole % 60)
    }
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug)]
pub enum Seat {
    Human,
    Computer(Agent),
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "human" {
            return Ok(Seat::Human);
        }
        let agent: Agent = s
            .parse()
            .map_err(|e| format!("{e} (or human for a person)"))?;
        Ok(Seat::Computer(agent))
    }
}

impl Seat {
    fn describe(self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Computer(Agent::Random) => "random mover".to_string(),
            Seat::Computer(Agent::Computer(level)) => format!("Denkmeter level {level}"),
            Seat::Computer(agent) => format!("Denkmeter {agent}"),
        }
    }
}

/// Days since 1970-01-01 to a civil (year, month, day), proleptic Gregorian calendar.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn now_stamp() -> (String, String) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = civil_date(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!(
            "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
            t / 3600,
            t / 60 % 60,
            t % 60
        ),
    )
}

/// Writes the record next to its final place, then renames it, so a crash never leaves half a
/// file. The file is readable by its owner only (0600 on Unix).
fn save(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("pgn.tmp");
    // A file left over from a crash would keep its own permissions: start afresh.
    match std::fs::remove_file(&tmp) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            return Err(error).with_context(|| format!("cannot replace {}", tmp.display()));
        }
        _ => {}
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(&tmp)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

struct Table {
    session: Box<dyn AnySession>,
    tags: Vec<(String, String)>,
    path: PathBuf,
    /// Who may read the record while the game goes on: the person at the terminal, or nobody's
    /// secret where two people share it or only computers play (a game that hides something).
    /// When the game is over, everything is written.
    reader: Viewer,
}

impl Table {
    fn save(&self) -> Result<()> {
        let secret = self.reader != Viewer::Everyone && !self.session.status().is_over();
        // The computer's seed would let its reader replay its hidden choice.
        let tags: Vec<(&str, &str)> = self
            .tags
            .iter()
            .filter(|(k, _)| !(secret && k == "Seed"))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let mut record = self.session.record(&tags);
        if secret {
            record.moves = self.session.moves_for(self.reader);
        }
        save(&self.path, &record.to_string())
    }
}

const HELP: &str = "Type a move in the game's notation, or: moves (list the legal moves), \
                    board (draw again), back (draw the back of a two-sided board), resign (asks first), \
                    quit (save and stop), help.";

/// Draws the back of a two-sided board (Straat's frame), or says there is none.
fn print_back(board: &denkmeter_core::Board, session: &dyn AnySession) {
    match session.back_view(denkmeter_core::Viewer::Everyone) {
        Some(back) => {
            outln!(
                "The back, seen through the board from the front (turned over, its left and \
                 right change places):"
            );
            out!("{}", crate::draw::board(board, &back, &[], false));
        }
        None => outln!("This board has one side only."),
    }
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let game = crate::find_ruleset_on(&args.ruleset, args.board.as_deref())?;
    let session = game
        .new_game(args.position.as_deref())
        .context("bad --position")?;
    let (date, stamp) = now_stamp();
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let path = args
        .record
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("denkmeter-{}-{stamp}.pgn", game.name())));
    let seats = [args.white, args.black];
    // What the game calls each player (English checkers calls its first player Black).
    let names = game.facts().side_names;
    // In a game that hides something the board is drawn as its viewer may see it: the one
    // person at the table, each person in turn behind a "pass the device" screen, or a
    // spectator when only computers play.
    let hidden = game.facts().hidden_information;
    let humans: Vec<Player> = Player::BOTH
        .into_iter()
        .filter(|p| matches!(seats[p.index()], Seat::Human))
        .collect();
    let reader = match humans.as_slice() {
        _ if !hidden => Viewer::Everyone,
        [one] => Viewer::Player(*one),
        _ => Viewer::Spectator,
    };
    let mut table = Table {
        session,
        tags: vec![
            ("White".into(), seats[0].describe()),
            ("Black".into(), seats[1].describe()),
            ("Date".into(), date),
            ("Seed".into(), seed.to_string()),
        ],
        path,
        reader,
    };
    table.save()?;
    outln!(
        "Denkmeter: {} ({}: {}). {HELP}",
        game.facts().display_name(),
        game.name(),
        game.facts().description
    );
    if let Some((board, _)) = game.board_file() {
        let words = if board == "reconstruction" {
            " (a reconstruction: the original board's markings are lost; see `denkmeter rules`)"
        } else {
            " (from a board file)"
        };
        outln!("Board: {board}{words}.");
    }
    outln!(
        "The record is saved to {} after every move{}.",
        table.path.display(),
        if reader == Viewer::Everyone {
            ""
        } else {
            " (until the game ends, with only what may be seen here: no hidden king)"
        }
    );
    let increment = args
        .clock
        .map_or(Duration::ZERO, |(_, increment)| increment);
    let mut clocks = args
        .clock
        .map(|(initial, _)| ByPlayer::new(initial, initial));
    if let Some((initial, increment)) = args.clock {
        outln!(
            "On the clock: {} a side, {:.1} s earned with every move.",
            clock_text(initial),
            increment.as_secs_f64()
        );
    }
    // The turn on the clock: its ply, and when it began (a person's commands take his time).
    let mut turn: Option<(usize, Instant)> = None;
    // An alpha-beta player (`ab:`) keeps its search table from move to move, as an engine
    // does; the levels play as on the server (see `AnySession::choose_move_within`).
    let mut search_tables = ByPlayer::from_fn(|player| {
        matches!(
            seats[player.index()],
            Seat::Computer(Agent::AlphaBeta { .. })
        )
        .then(|| SearchTable::new(SearchOptions::DEFAULT_HASH_MB))
    });
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut show_board = true;
    let mut shown_to: Option<Player> = None;
    // The board is drawn from the side of the one person playing, or of the person the
    // device is passed to; White's side otherwise.
    let sided = game.facts().players_at_ends;
    loop {
        let over = table.session.status().is_over();
        let to_move = table.session.to_move();
        let viewer = if !hidden || over {
            Viewer::Everyone
        } else {
            match humans.as_slice() {
                [] => Viewer::Spectator,
                [one] => Viewer::Player(*one),
                _ => Viewer::Player(to_move),
            }
        };
        if hidden && !over && humans.len() == 2 && shown_to != Some(to_move) {
            pass_the_device(names[to_move]);
            shown_to = Some(to_move);
            if lines.next().is_none() {
                outln!();
                outln!(
                    "End of input: the game is saved unfinished in {}.",
                    table.path.display()
                );
                return table.save();
            }
            show_board = true;
        }
        if show_board {
            let last = table.session.last_move(viewer);
            let marked: Vec<_> = last
                .as_ref()
                .map(|m| m.view.from.into_iter().chain(m.view.to).collect())
                .unwrap_or_default();
            let bottom = match (humans.as_slice(), viewer) {
                ([one], _) => *one,
                (_, Viewer::Player(player)) => player,
                _ => Player::White,
            };
            let turned = sided && bottom == Player::Black;
            outln!();
            out!(
                "{}",
                crate::draw::board(game.board(), &table.session.view(viewer), &marked, turned)
            );
            if let Some(last) = last {
                outln!(
                    "Last move: {}",
                    numbered(table.session.as_ref(), &last.text)
                );
            }
        }
        show_board = true;
        if let Status::Over(outcome) = table.session.status() {
            if table
                .session
                .back_view(denkmeter_core::Viewer::Everyone)
                .is_some()
            {
                outln!();
                print_back(game.board(), table.session.as_ref());
            }
            outln!(
                "Game over: {} ({}).",
                outcome.describe(names),
                outcome.result_token()
            );
            break;
        }
        let player = table.session.to_move();
        let seat = seats[player.index()];
        let ply = table.session.moves().len();
        let started = match turn {
            Some((at, started)) if at == ply => started,
            _ => {
                let now = Instant::now();
                turn = Some((ply, now));
                now
            }
        };
        let chosen = match seat {
            Seat::Computer(agent) => {
                outln!("{} ({}) is thinking...", names[player], seat.describe());
                let plan = clocks.as_ref().map(|left| {
                    TimeLeft {
                        left: left[player].saturating_sub(started.elapsed()),
                        increment,
                        moves_to_go: None,
                        moves_played: u32::try_from(ply / 2).unwrap_or(u32::MAX),
                    }
                    .plan()
                });
                let mv = table
                    .session
                    .choose_move_within(
                        &agent,
                        seed.wrapping_add(ply as u64),
                        plan,
                        search_tables[player].as_mut(),
                    )
                    .ok_or_else(|| anyhow!("the computer found no move"))?;
                mv
            }
            Seat::Human => {
                match &clocks {
                    Some(left) => out!(
                        "{} to move ({} left)> ",
                        names[player],
                        clock_text(left[player].saturating_sub(started.elapsed()))
                    ),
                    None => out!("{} to move> ", names[player]),
                }
                std::io::stdout().flush().ok();
                let Some(line) = lines.next() else {
                    outln!();
                    outln!(
                        "End of input: the game is saved unfinished in {}.",
                        table.path.display()
                    );
                    return table.save();
                };
                let line = line.context("cannot read the terminal")?;
                let input = line.trim();
                if clocks
                    .as_ref()
                    .is_some_and(|left| started.elapsed() > left[player])
                {
                    // The flag fell before the line came: lost on time (below), whatever
                    // was typed, a quit or a resignation too.
                    String::new()
                } else {
                    match input {
                        "" => {
                            show_board = false;
                            continue;
                        }
                        "help" | "?" => {
                            outln!("{HELP}");
                            show_board = false;
                            continue;
                        }
                        "board" => continue,
                        "back" => {
                            print_back(game.board(), table.session.as_ref());
                            show_board = false;
                            continue;
                        }
                        "moves" => {
                            print_moves(table.session.as_ref(), names);
                            show_board = false;
                            continue;
                        }
                        "quit" | "exit" => {
                            table.save()?;
                            outln!("Saved unfinished in {}.", table.path.display());
                            return Ok(());
                        }
                        "resign" => {
                            show_board = false;
                            out!("Resign this game? Type yes to resign: ");
                            std::io::stdout().flush().ok();
                            let answer = lines
                                .next()
                                .transpose()
                                .context("cannot read the terminal")?;
                            if answer.as_deref().map(str::trim) != Some("yes") {
                                outln!("Not resigned; play on.");
                                continue;
                            }
                            show_board = true;
                            table.session.end(denkmeter_core::Outcome::win(
                                !player,
                                denkmeter_core::Reason::Resignation,
                            ));
                            table.save()?;
                            continue;
                        }
                        _ => input.to_string(),
                    }
                }
            }
        };
        if let Some(left) = &mut clocks {
            let spent = started.elapsed();
            if spent > left[player] {
                left[player] = Duration::ZERO;
                outln!("{}'s time has run out.", names[player]);
                table.session.end(denkmeter_core::Outcome::win(
                    !player,
                    denkmeter_core::Reason::TimeForfeit,
                ));
                table.save()?;
                continue;
            }
        }
        match table.session.play(&chosen) {
            Ok(_) => {
                if let Some(left) = &mut clocks {
                    left[player] = left[player] - started.elapsed().min(left[player]) + increment;
                    if !humans.is_empty() {
                        outln!(
                            "Clocks: {} {}, {} {}",
                            names.white,
                            clock_text(left.white),
                            names.black,
                            clock_text(left.black)
                        );
                    }
                }
                if let Seat::Computer(_) = seat {
                    // As the people at the table may see it (a hidden setup move is `K@?`).
                    if let Some(shown) = table.session.last_move(viewer) {
                        outln!(
                            "{} plays {}",
                            names[player],
                            numbered(table.session.as_ref(), &shown.text)
                        );
                    }
                }
                table.save()?;
            }
            Err(error) => {
                outln!("{error}.");
                print_moves(table.session.as_ref(), names);
                show_board = false;
            }
        }
    }
    table.save()?;
    outln!("Record saved to {}.", table.path.display());
    Ok(())
}

/// Hides the board before `player` takes the device: the screen and its scrollback are
/// cleared (on a terminal) and the program waits for Enter.
fn pass_the_device(player: &str) {
    if std::io::stdout().is_terminal() {
        out!("\x1b[2J\x1b[3J\x1b[H");
    }
    outln!();
    out!("Pass the device to {player}; {player}, press Enter when nobody else is looking. ");
    std::io::stdout().flush().ok();
}

/// The last move played, `text` as the viewer may see it (a hidden setup is `K@?`), numbered
/// as the record numbers it (`12... f6-e5`).
fn numbered(session: &dyn AnySession, text: &str) -> String {
    let index = session.moves().len().saturating_sub(1);
    let black_first = session.first_to_move() == Player::Black;
    denkmeter_core::numbered_move(index, black_first, text)
}

/// The width the legal moves are laid out in: `COLUMNS` if set, else the terminal's own width
/// (asked of the terminal, as shells rarely export `COLUMNS`), else 80; within 20 to 1000.
fn line_width() -> usize {
    let asked = || {
        console::Term::stdout()
            .size_checked()
            .map(|(_, columns)| usize::from(columns))
    };
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .or_else(asked)
        .filter(|&c| (20..=1000).contains(&c))
        .unwrap_or(80)
}

fn print_moves(session: &dyn AnySession, names: ByPlayer<&str>) {
    let moves: Vec<String> = session.legal_moves().into_iter().map(|m| m.text).collect();
    outln!(
        "Legal moves for {} ({}):",
        names[session.to_move()],
        moves.len()
    );
    out!("{}", columns(&moves, line_width()));
}

/// `items` in columns read downwards, as many as fit in `width` characters.
fn columns(items: &[String], width: usize) -> String {
    let cell = items.iter().map(|m| m.chars().count()).max().unwrap_or(0) + 2;
    let across = (width / cell).max(1);
    let down = items.len().div_ceil(across);
    let mut out = String::new();
    for row in 0..down {
        let line: String = (0..across)
            .filter_map(|col| items.get(col * down + row))
            .map(|m| format!("  {m:<w$}", w = cell - 2))
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_779), (2026, 11, 22));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }

    #[test]
    fn moves_are_laid_out_in_columns_read_downwards() {
        let moves: Vec<String> = (1..=7).map(|i| format!("m{i}")).collect();
        assert_eq!(columns(&moves, 12), "  m1  m4  m7\n  m2  m5\n  m3  m6\n");
        assert_eq!(
            columns(&moves, 3),
            "  m1\n  m2\n  m3\n  m4\n  m5\n  m6\n  m7\n"
        );
        assert_eq!(columns(&[], 80), "");
    }

    #[test]
    fn seats_parse() {
        assert!(matches!("human".parse::<Seat>(), Ok(Seat::Human)));
        assert!(matches!(
            "computer:2".parse::<Seat>(),
            Ok(Seat::Computer(Agent::Computer(2)))
        ));
        assert!(matches!(
            "computer".parse::<Seat>(),
            Ok(Seat::Computer(Agent::Computer(3)))
        ));
        assert!(matches!(
            "random".parse::<Seat>(),
            Ok(Seat::Computer(Agent::Random))
        ));
        assert!("computer:9".parse::<Seat>().is_err());
        assert!("robot".parse::<Seat>().is_err());
    }
}
