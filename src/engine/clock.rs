//! Time management: turns the manager's limits into a deadline for one move.
//!
//! The Gomocup rules: a move is late when it takes longer than `min(time_left, timeout_turn)`.
//! `timeout_turn 0` asks for an answer at once, a negative `timeout_turn` (extended protocol)
//! means no per-move limit, `timeout_match <= 0` and `time_left = 2147483647` mean no match limit.
//! We keep `protocol_lag + safety_margin` in hand on every move, so we never lose on time.
use std::time::Duration;

/// Stones by which a game between strong players is usually decided (Gomocup games against
/// Rapfi last 30-60 stones).
pub const EXPECTED_STONES: usize = 70;
/// The fewest moves the match clock's share assumes still to come.
pub const MIN_MOVES_TO_GO: u64 = 8;
/// Games against strong engines are mostly decided in the first moves out of the opening (a
/// threat sequence 25-40 plies long found by one side), so a move gets this many shares of the
/// match clock while the board is young.
const EARLY_WEIGHT: f64 = 2.0;
/// Up to this many stones on the board a move gets [`EARLY_WEIGHT`] shares...
const EARLY_STONES: usize = 20;
/// ...falling linearly to one share at this many.
const MIDDLE_STONES: usize = 40;

/// `time_left` value meaning "no match limit".
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// What the manager told us about time, in milliseconds, plus our own margins.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSettings {
    pub timeout_turn: i64,
    pub timeout_match: i64,
    /// The latest `INFO time_left`, if any was sent this match.
    pub time_left: Option<i64>,
    pub time_increment: i64,
    pub protocol_lag: u64,
    pub safety_margin: u64,
    pub moves_to_go: u32,
}

/// The time one move may use, from the moment its command arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeBudget {
    /// Aim to answer by then: the search stops here unless it is already sure.
    pub target: Duration,
    /// Never answer later than this.
    pub hard: Duration,
    /// Whether time this move leaves unused goes back to later moves (a match clock runs): only
    /// then does stopping early, once the choice is settled, gain anything.
    pub banked: bool,
}

impl TimeBudget {
    pub const INSTANT: TimeBudget = TimeBudget {
        target: Duration::ZERO,
        hard: Duration::ZERO,
        banked: false,
    };

    pub fn is_unlimited(&self) -> bool {
        self.hard == Duration::MAX
    }
}

impl TimeSettings {
    /// Our moves still to come, as the share of a match clock assumes: the configured
    /// `moves_to_go` while the board is young, fewer as it fills (a game between strong players
    /// is rarely still open past [`EXPECTED_STONES`]), never fewer than [`MIN_MOVES_TO_GO`]: the
    /// time goes to the game while it is open, not to the end of a game that is over before
    /// the clock is.
    fn moves_left(&self, stones: usize) -> u64 {
        let configured = u64::from(self.moves_to_go.max(1));
        let expected = (EXPECTED_STONES.saturating_sub(stones) / 2) as u64;
        expected.clamp(MIN_MOVES_TO_GO.min(configured), configured)
    }

    /// How many shares of the match clock a move gets with `stones` on the board: more while
    /// the game is young (see [`EARLY_WEIGHT`]).
    fn phase_weight(stones: usize) -> f64 {
        let towards_middle =
            (stones as f64 - EARLY_STONES as f64) / (MIDDLE_STONES - EARLY_STONES) as f64;
        EARLY_WEIGHT + (1.0 - EARLY_WEIGHT) * towards_middle.clamp(0.0, 1.0)
    }

    /// The budget for the next move, with `stones` on the board. `own_time_used` is what our
    /// moves of this match took so far, used only when the manager sends `timeout_match`
    /// without `time_left`.
    pub fn budget(&self, own_time_used: Duration, stones: usize) -> TimeBudget {
        let overhead = self.protocol_lag + self.safety_margin;
        let turn_cap: Option<u64> = match self.timeout_turn {
            0 => return TimeBudget::INSTANT,
            t if t < 0 => None,
            t => Some((t as u64).saturating_sub(overhead)),
        };
        let left = match self.time_left {
            Some(t) if t >= UNLIMITED_TIME_LEFT => None,
            Some(t) => Some(t),
            None if self.timeout_match > 0 => {
                Some(self.timeout_match - own_time_used.as_millis().min(i64::MAX as u128) as i64)
            }
            None => None,
        };
        let (match_cap, share) = match left {
            None => (None, None),
            Some(left) => {
                let left = left.max(0) as u64;
                let usable = left.saturating_sub(overhead);
                // Spend a share of what is left, plus the increment we get back; never bet more
                // than a third of the remaining time on one move.
                let increment = self.time_increment.max(0) as u64;
                let shares = Self::phase_weight(stones) / self.moves_left(stones) as f64;
                let share = (usable as f64 * shares) as u64 + increment;
                (Some(usable / 3 + increment.min(usable)), Some(share))
            }
        };
        let hard = match (turn_cap, match_cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let target = match (hard, share) {
            (Some(h), Some(s)) => Some(h.min(s)),
            (h, s) => h.or(s),
        };
        match (target, hard) {
            (Some(t), Some(h)) => TimeBudget {
                target: Duration::from_millis(t),
                hard: Duration::from_millis(h),
                banked: left.is_some(),
            },
            _ => TimeBudget {
                target: Duration::MAX,
                hard: Duration::MAX,
                banked: false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(turn: i64, matc: i64, left: Option<i64>) -> TimeSettings {
        TimeSettings {
            timeout_turn: turn,
            timeout_match: matc,
            time_left: left,
            time_increment: 0,
            protocol_lag: 40,
            safety_margin: 60,
            moves_to_go: 25,
        }
    }

    fn ms(b: Duration) -> u64 {
        b.as_millis() as u64
    }

    #[test]
    fn zero_turn_means_instant() {
        assert_eq!(
            settings(0, 0, None).budget(Duration::ZERO, 0),
            TimeBudget::INSTANT
        );
    }

    #[test]
    fn turn_limit_only_keeps_the_margin() {
        let b = settings(5000, 0, None).budget(Duration::ZERO, 0);
        assert_eq!(ms(b.hard), 4900);
        assert_eq!(ms(b.target), 4900);
        // Time a move leaves unused is lost: an early stop would only waste it.
        assert!(!b.banked);
    }

    #[test]
    fn fastgame_shares_the_match_time() {
        // Gomocup fastgame: 5 s a move, 120 s a match. The first moves' two shares
        // (2 x 119.9 s / 25) are more than the turn allows.
        let b = settings(5000, 120_000, Some(120_000)).budget(Duration::ZERO, 0);
        assert_eq!(ms(b.hard), 4900);
        assert_eq!(ms(b.target), 4900);
        assert!(b.banked);
        // Late in the match, the share shrinks and the hard cap stays under a third of what is left.
        let b = settings(5000, 120_000, Some(3000)).budget(Duration::ZERO, 0);
        assert!(ms(b.hard) <= (3000 - 100) / 3);
        assert!(b.target <= b.hard);
    }

    /// Whether `a` and `b` differ by at most a millisecond (the shares are rounded down).
    fn near(a: u64, b: u64) -> bool {
        a.abs_diff(b) <= 1
    }

    #[test]
    fn the_first_moves_out_of_the_opening_get_more_of_the_match_clock() {
        let s = settings(-1, 120_000, Some(60_000));
        let share = |stones| ms(s.budget(Duration::ZERO, stones).target);
        let usable = 60_000 - 100;
        assert!(
            near(share(10), 2 * usable / 25),
            "two shares of 25 moves to go"
        );
        assert!(near(share(20), 2 * usable / 25));
        assert!(near(share(30), 3 * usable / 2 / 20), "one and a half of 20");
        assert!(
            near(share(40), usable / 15),
            "one share of 15 from 40 stones on"
        );
        assert!(near(share(60), usable / 8), "never fewer than 8 moves");
        assert_eq!(share(150), share(60));
        assert!(share(10) > share(30) && share(30) > share(40));
    }

    #[test]
    fn no_time_left_or_negative_is_survivable() {
        let b = settings(5000, 120_000, Some(-50)).budget(Duration::ZERO, 0);
        assert_eq!(ms(b.hard), 0);
        let b = settings(5000, 120_000, Some(50)).budget(Duration::ZERO, 0);
        assert_eq!(ms(b.hard), 0);
    }

    #[test]
    fn unlimited_everything() {
        let b = settings(-1, 0, Some(UNLIMITED_TIME_LEFT)).budget(Duration::ZERO, 0);
        assert!(b.is_unlimited());
        let b = settings(-1, 0, None).budget(Duration::ZERO, 0);
        assert!(b.is_unlimited());
    }

    #[test]
    fn match_limit_without_time_left_uses_our_own_accounting() {
        let fresh = settings(-1, 60_000, None).budget(Duration::ZERO, 0);
        let later = settings(-1, 60_000, None).budget(Duration::from_secs(50), 0);
        assert!(later.hard < fresh.hard);
        assert!(ms(later.hard) <= (10_000 - 100) / 3);
    }

    #[test]
    fn increment_is_added_to_the_share() {
        let mut s = settings(-1, 0, Some(10_000));
        let base = s.budget(Duration::ZERO, 0);
        s.time_increment = 1000;
        let inc = s.budget(Duration::ZERO, 0);
        assert_eq!(ms(inc.target), ms(base.target) + 1000);
    }
}
