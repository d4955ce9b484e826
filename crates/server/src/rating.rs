//! Players' ratings: Glicko-2, as described in Mark E. Glickman's "Example of the Glicko-2
//! system" (Boston University, 30 November 2013). The steps of that paper are numbered the same
//! way in the code below, so each line can be checked against it.
//!
//! A rating is three numbers: the rating itself (1500 is an average newcomer), the rating
//! deviation (how unsure we are of it: the player's true strength is within two deviations of
//! the rating 95% of the time) and the volatility (how erratic the player's results have been,
//! which sets how fast the deviation grows again).
//!
//! The paper updates ratings once per "rating period" holding many games. The server does as
//! lichess does instead: every rated game is a rating period of its own, so ratings move as soon
//! as a game ends. Both sides' new ratings must be computed from both sides' ratings *before*
//! the game (compute both, then store both). When one side is the computer, only the person's
//! rating is updated; the computer's level keeps a [`Rating::fixed`] rating.
//!
//! Time away can be accounted for with [`Rating::aged`] before the game's update, so that a
//! player back after months moves faster than one who plays every day.
//!
//! Every function here returns finite numbers within the documented bounds for any input,
//! including NaN and infinities, which are clamped as [`Rating::after`] describes: a rating
//! update after a game must never fail or poison a stored rating.

/// The system constant τ of the paper's step 1: how much the volatility may change in one
/// rating period. The paper advises a value between 0.3 and 1.2, chosen by testing which
/// predicts results best; smaller values keep the volatility, and so the ratings, from jumping
/// after a very improbable result. We have no results to test on yet, so we take 0.5, in the
/// lower half of that range and the value of the paper's own worked example:
/// with one game per rating period the volatility is updated after every game, which argues
/// for the calmer end of the range (lichess, rating the same way, uses 0.75).
pub const TAU: f64 = 0.5;

/// A rating whose deviation is above this is provisional: shown with a "?" and not trusted for
/// rankings, as on lichess, which uses the same 110.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The smallest deviation a rating update gives. Without a floor, a player who plays very
/// often would see the deviation shrink until the rating hardly moves at all, even after the
/// player has really improved; lichess keeps the same floor of 45.
pub const MIN_DEVIATION: f64 = 45.0;

/// The largest deviation: that of a new player, whom we know nothing about. Time away or
/// erratic results never make a player less known than a newcomer (the paper's unrated default;
/// the original Glicko paper caps the deviation at 350 for the same reason).
pub const MAX_DEVIATION: f64 = 350.0;

/// The deviation of a [`Rating::fixed`] opponent, such as a level of the computer, whose
/// strength is known well from many games but not exactly. It must stay small, because the
/// paper's g function discounts results against uncertain opponents.
pub const FIXED_DEVIATION: f64 = 60.0;

/// The range a volatility is kept in. The paper puts no bounds on it, but with one game per
/// rating period a long run of surprising results could otherwise drive it, and with it the
/// deviation, up without limit; lichess caps it at the same 0.1. The lower bound keeps it
/// positive, as step 5 takes its logarithm.
pub const MIN_VOLATILITY: f64 = 0.01;
/// See [`MIN_VOLATILITY`].
pub const MAX_VOLATILITY: f64 = 0.1;

/// The range a rating is kept in (lichess uses the same). It keeps every number finite and the
/// expected scores of step 3 away from exactly 0 or 1.
pub const MIN_RATING: f64 = 400.0;
/// See [`MIN_RATING`].
pub const MAX_RATING: f64 = 4000.0;

/// The paper's step 2: ratings and deviations are divided by this to be on the Glicko-2 scale
/// (it is 400 / ln 10, which makes the two scales' expected scores agree).
const SCALE: f64 = 173.7178;

/// The rating every scale is centred on (a new player's rating).
const CENTRE: f64 = 1500.0;

/// The convergence tolerance ε of the paper's step 5.
const TOLERANCE: f64 = 0.000_001;

/// The most iterations step 5's searches may take. The Illinois algorithm needed at most 11 on
/// the tests' 40,000 random inputs, extremes included; the bound only guarantees that a rating
/// update ends whatever the floating-point arithmetic does.
const MAX_ITERATIONS: usize = 100;

/// A Glicko-2 rating, on the Glicko scale (the one players see, where 1500 is a newcomer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimate of the player's strength (r in the paper).
    pub rating: f64,
    /// How unsure the estimate is (RD in the paper): one standard deviation.
    pub deviation: f64,
    /// How erratic the player's results are (σ in the paper).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::NEW
    }
}

impl Rating {
    /// A player who has never played a rated game: the paper's suggested 1500, 350 and 0.06.
    pub const NEW: Rating = Rating {
        rating: CENTRE,
        deviation: MAX_DEVIATION,
        volatility: 0.06,
    };

    /// An opponent of known strength, such as a level of the computer: its rating never moves
    /// (the server does not update it) and its deviation is the small [`FIXED_DEVIATION`], so a
    /// result against it counts almost fully. A non-finite `rating` is treated as 1500; the
    /// rating is clamped to [[`MIN_RATING`], [`MAX_RATING`]].
    pub fn fixed(rating: f64) -> Rating {
        Rating {
            rating,
            deviation: FIXED_DEVIATION,
            volatility: Rating::NEW.volatility,
        }
        .sanitized()
    }

    /// The rating after one rating period with these results: for each game, the opponent's
    /// rating before the period and the score (1 a win, 0.5 a draw, 0 a loss). For the server,
    /// a period is one game, so `results` holds one entry; the paper's worked example has three.
    ///
    /// With no games, only the deviation grows, by one period of volatility (the paper's
    /// step 6 alone), as the paper says for a player who does not compete.
    ///
    /// Inputs are clamped, never rejected, so that the result is always finite: a rating to
    /// [[`MIN_RATING`], [`MAX_RATING`]] (NaN: 1500), a deviation to [0, [`MAX_DEVIATION`]]
    /// (NaN: [`MAX_DEVIATION`], nothing known), a volatility to [[`MIN_VOLATILITY`],
    /// [`MAX_VOLATILITY`]] (NaN: 0.06), a score to [0, 1]. A game whose score is NaN carries no
    /// result and is left out (with no other game, it is as if there were none). The result's
    /// deviation is within [[`MIN_DEVIATION`], [`MAX_DEVIATION`]], and its rating and volatility
    /// within the ranges above.
    pub fn after(self, results: &[(Rating, f64)]) -> Rating {
        self.after_with_tau(results, TAU)
    }

    /// The rating with its deviation grown for `periods` rating periods without games (the
    /// paper's step 6, repeated: the variance grows by σ² per period), up to [`MAX_DEVIATION`].
    /// The server chooses what a period is in time: lichess counts about 0.21 periods per day
    /// idle. A negative or NaN `periods` counts as none, an infinite one leaves the deviation
    /// at [`MAX_DEVIATION`]. Other inputs are clamped as in [`Rating::after`]; the deviation is
    /// never below [`MIN_DEVIATION`].
    pub fn aged(self, periods: f64) -> Rating {
        let periods = if periods > 0.0 { periods } else { 0.0 };
        let old = self.sanitized();
        let phi = old.deviation / SCALE;
        let grown = (phi * phi + periods * old.volatility * old.volatility).sqrt() * SCALE;
        Rating {
            deviation: bounded(grown, MIN_DEVIATION, MAX_DEVIATION, MAX_DEVIATION),
            ..old
        }
    }

    /// Whether the rating is still too unsure to be trusted: its deviation is above
    /// [`PROVISIONAL_DEVIATION`]. It is then shown with a "?". A NaN deviation is provisional.
    pub fn is_provisional(self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION || self.deviation.is_nan()
    }

    /// [`Rating::after`] with the system constant τ given, so that the paper's worked example,
    /// computed with τ = 0.5, stays testable whatever [`TAU`] is.
    fn after_with_tau(self, results: &[(Rating, f64)], tau: f64) -> Rating {
        // Step 1 is choosing τ and the new player's defaults (above). Step 2: convert to the
        // Glicko-2 scale.
        let me = self.sanitized().scaled();
        let games: Vec<(Scaled, f64)> = results
            .iter()
            .filter(|(_, score)| !score.is_nan())
            .map(|&(opponent, score)| (opponent.sanitized().scaled(), score.clamp(0.0, 1.0)))
            .collect();

        // Steps 3 and 4: what the games say about the player. Without usable games, the
        // rating and volatility stay and only the deviation grows, one period's worth.
        let Some(Evidence {
            v,
            delta,
            improvement,
        }) = evidence(me.mu, &games)
        else {
            return self.aged(1.0);
        };

        // Step 5: the new volatility, bounded (see MIN_VOLATILITY).
        let sigma = bounded(
            new_volatility(me.phi, me.sigma, v, delta, tau),
            MIN_VOLATILITY,
            MAX_VOLATILITY,
            me.sigma,
        );

        // Step 6: the deviation grows by one period of the new volatility (before the games
        // are taken into account), never past a newcomer's.
        let phi_star = (me.phi * me.phi + sigma * sigma)
            .sqrt()
            .min(MAX_DEVIATION / SCALE);

        // Step 7: the games shrink the deviation, and move the rating by the surprise in the
        // results, weighted by the new variance.
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = me.mu + phi * phi * improvement;

        // Step 8: back to the Glicko scale, within the bounds.
        Rating {
            rating: bounded(
                mu * SCALE + CENTRE,
                MIN_RATING,
                MAX_RATING,
                self.sanitized().rating,
            ),
            deviation: bounded(phi * SCALE, MIN_DEVIATION, MAX_DEVIATION, MAX_DEVIATION),
            volatility: sigma,
        }
    }

    /// The rating with every number in its range (see [`Rating::after`]). The deviation may
    /// be below [`MIN_DEVIATION`] here: the floor is for the deviations this module produces,
    /// while an opponent may be known better (one in the paper's example has 30).
    fn sanitized(self) -> Rating {
        Rating {
            rating: bounded(self.rating, MIN_RATING, MAX_RATING, CENTRE),
            deviation: bounded(self.deviation, 0.0, MAX_DEVIATION, MAX_DEVIATION),
            volatility: bounded(
                self.volatility,
                MIN_VOLATILITY,
                MAX_VOLATILITY,
                Rating::NEW.volatility,
            ),
        }
    }

    /// The paper's step 2: μ and φ on the Glicko-2 scale (σ is the same on both).
    fn scaled(self) -> Scaled {
        Scaled {
            mu: (self.rating - CENTRE) / SCALE,
            phi: self.deviation / SCALE,
            sigma: self.volatility,
        }
    }
}

/// `x` within [lo, hi], or `if_nan` when it is NaN (which `f64::clamp` would pass through).
fn bounded(x: f64, lo: f64, hi: f64, if_nan: f64) -> f64 {
    if x.is_nan() {
        if_nan
    } else {
        x.clamp(lo, hi)
    }
}

/// A rating on the Glicko-2 scale (the paper's step 2).
#[derive(Clone, Copy, Debug)]
struct Scaled {
    mu: f64,
    phi: f64,
    sigma: f64,
}

/// The paper's g(φ): how much a result against an opponent with deviation φ counts. A result
/// against an opponent we know little about says little about the player.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The paper's E(μ, μj, φj): the score a player rated μ is expected to make against an
/// opponent rated μj with deviation φj.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// What one rating period's games say about a player, on the Glicko-2 scale.
#[derive(Clone, Copy, Debug)]
struct Evidence {
    /// The paper's v (step 3): the estimated variance of the rating from the games alone.
    v: f64,
    /// The paper's Δ (step 4): the estimated improvement, the games' performance minus the
    /// rating before them.
    delta: f64,
    /// Σ g(φj)(sj − Ej), the sum in steps 4 and 7 (Δ is v times it).
    improvement: f64,
}

/// Steps 3 and 4 of the paper for a player rated `mu` against `games` (opponent, score). None
/// when there are no games, or when they carry no information (v not finite: impossible with
/// ratings within [MIN_RATING, MAX_RATING], but a rating update must never produce NaN).
fn evidence(mu: f64, games: &[(Scaled, f64)]) -> Option<Evidence> {
    let mut information = 0.0;
    let mut improvement = 0.0;
    for (opponent, score) in games {
        let g = g(opponent.phi);
        let e = expected(mu, opponent.mu, opponent.phi);
        information += g * g * e * (1.0 - e);
        improvement += g * (score - e);
    }
    let v = 1.0 / information;
    (v.is_finite() && v > 0.0).then_some(Evidence {
        v,
        delta: v * improvement,
        improvement,
    })
}

/// The paper's step 5: the new volatility σ′, from the root of the paper's f, found by the
/// Illinois algorithm (a regula falsi that halves the value at the end it keeps whenever it
/// keeps the same end again, so that end cannot stall the search). `phi` and `sigma` are the
/// player's before the period, `v` and `delta` those of steps 3 and 4.
///
/// The searches are bounded by MAX_ITERATIONS; if the bound is reached (never seen in the
/// tests), the root is still between the two ends A and B kept, and σ′ is taken from A as when
/// the search converges. A non-finite result is the caller's to replace (it keeps the old σ).
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let phi2 = phi * phi;
    let delta2 = delta * delta;
    // Step 5.1: a = ln σ², and f, whose root is ln σ′².
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };

    // Step 5.2: the starting ends A and B, with f of opposite signs at them (or 0 at one), so
    // that f's root is between them. f(a) has the sign of Δ² − φ² − v − σ². When
    // Δ² > φ² + v, B = ln(Δ² − φ² − v) and f(B) = −(B − a)/τ², of the other sign; otherwise
    // f(a) < 0 and B is found below a, where f is positive.
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        // f(a − kτ) > 0 for k > τ/2 (the first term is above −1/2), so this ends at once.
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < MAX_ITERATIONS as f64 {
            k += 1.0;
        }
        a - k * tau
    };

    // Step 5.3.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);

    // Step 5.4: narrow [A, B] around the root until it is within the tolerance.
    let mut iterations = 0;
    while (big_b - big_a).abs() > TOLERANCE && iterations < MAX_ITERATIONS {
        iterations += 1;
        if f_b == f_a {
            // Both ends at the root (both 0): nothing left to narrow, and no division by 0.
            break;
        }
        // (a) The secant through the two ends meets zero at C.
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        // (b) If C and B are on opposite sides of the root (or C on it), B becomes the kept
        // end A; otherwise A stays and its value is halved (the Illinois step), which pulls
        // the next C toward it.
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        // (c) C is the new B.
        big_b = big_c;
        f_b = f_c;
    }

    // Step 5.5: σ′ = e^(A/2).
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, within: f64) -> bool {
        (actual - expected).abs() <= within
    }

    /// The paper's worked example: a player rated 1500 (deviation 200, volatility 0.06) beats
    /// a 1400 (deviation 30) and loses to a 1550 (100) and a 1700 (300), with τ = 0.5.
    fn paper_example() -> (Rating, [(Rating, f64); 3]) {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ];
        (player, results)
    }

    #[test]
    fn the_papers_worked_example() {
        let (player, results) = paper_example();

        // The paper rounds its intermediate values (E to three decimals) and computes on with
        // the rounded ones, so its later figures differ from exact arithmetic in the last
        // printed digit: exactly, v = 1.77898 (printed 1.7785), Δ = −0.48395 (−0.4834),
        // σ′ = 0.059996 (0.05999), r′ = 1464.0507 (1464.06), RD′ = 151.5165 (151.52). Its own
        // figures do follow from its rounded ones, as this checks:
        let printed = [
            (0.9955, 0.639, 1.0),
            (0.9531, 0.432, 0.0),
            (0.7242, 0.303, 0.0),
        ];
        let v_printed = 1.0
            / printed
                .iter()
                .map(|(g, e, _)| g * g * e * (1.0 - e))
                .sum::<f64>();
        let delta_printed = v_printed * printed.iter().map(|(g, e, s)| g * (s - e)).sum::<f64>();
        assert!(close(v_printed, 1.7785, 0.00005) && close(delta_printed, -0.4834, 0.00005));
        // So every figure is asserted to within a unit or so of its last printed digit,
        // which tells a right computation from a wrong one (a wrong step moves them by far more).

        // Step 2: μ = 0, φ = 1.1513.
        let me = player.scaled();
        assert!(
            close(me.mu, 0.0, 1e-12) && close(me.phi, 1.1513, 0.00005),
            "{me:?}"
        );
        // Step 3: the opponents' g(φj) = 0.9955, 0.9531, 0.7242 and E = 0.639, 0.432, 0.303.
        let games: Vec<(Scaled, f64)> = results.iter().map(|&(o, s)| (o.scaled(), s)).collect();
        for ((opponent, _), (g_printed, e_printed, _)) in games.iter().zip(printed) {
            assert!(
                close(g(opponent.phi), g_printed, 0.00005),
                "g {}",
                g(opponent.phi)
            );
            let e = expected(me.mu, opponent.mu, opponent.phi);
            assert!(close(e, e_printed, 0.0005), "E {e}");
        }
        // Steps 3 and 4: v = 1.7785, Δ = −0.4834.
        let evidence = evidence(me.mu, &games).expect("three games are evidence");
        assert!(close(evidence.v, 1.7785, 0.001), "v = {}", evidence.v);
        assert!(
            close(evidence.delta, -0.4834, 0.001),
            "Δ = {}",
            evidence.delta
        );
        // Step 5: σ′ = 0.05999. Step 6: φ* = 1.152862.
        let sigma = new_volatility(me.phi, me.sigma, evidence.v, evidence.delta, 0.5);
        assert!(close(sigma, 0.05999, 0.00001), "σ′ = {sigma}");
        let phi_star = (me.phi * me.phi + sigma * sigma).sqrt();
        assert!(close(phi_star, 1.152862, 0.00001), "φ* = {phi_star}");

        // Steps 7 and 8 through `after`'s own code, with τ = 0.5 given: φ′ = 0.8722,
        // μ′ = −0.2069, r′ = 1464.06, RD′ = 151.52, σ′ = 0.05999.
        let after = player.after_with_tau(&results, 0.5);
        let (mu, phi) = ((after.rating - CENTRE) / SCALE, after.deviation / SCALE);
        assert!(
            close(mu, -0.2069, 0.00005) && close(phi, 0.8722, 0.00005),
            "μ′ = {mu}, φ′ = {phi}"
        );
        assert!(close(after.rating, 1464.06, 0.01), "r′ = {}", after.rating);
        assert!(
            close(after.deviation, 151.52, 0.005),
            "RD′ = {}",
            after.deviation
        );
        assert!(
            close(after.volatility, 0.05999, 0.00001),
            "σ′ = {}",
            after.volatility
        );

        // `after` is the same computation with TAU; while TAU is the paper's 0.5, it gives the
        // paper's numbers.
        assert_eq!(player.after(&results), player.after_with_tau(&results, TAU));
        if TAU == 0.5 {
            assert_eq!(player.after(&results), after);
        }
    }

    #[test]
    fn the_illinois_search_converges_from_both_starting_cases() {
        // Δ² > φ² + v (B from the logarithm) and Δ² ≤ φ² + v (B found by stepping down):
        // in both, σ′ is a root of the paper's f to within the tolerance's effect.
        for (phi, sigma, v, delta) in [
            (0.5, 0.06, 0.3, 3.0),
            (1.1513, 0.06, 1.7785, -0.4834),
            (0.26, 0.1, 50.0, 0.0),
        ] {
            let s = new_volatility(phi, sigma, v, delta, TAU);
            let (x, a) = ((s * s).ln(), (sigma * sigma).ln());
            let ex = x.exp();
            let f = ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (TAU * TAU);
            assert!(
                f.abs() < 1e-5,
                "f(ln σ′²) = {f} for φ {phi}, σ {sigma}, v {v}, Δ {delta}"
            );
        }
    }

    #[test]
    fn wins_raise_losses_lower_draws_between_equals_hold() {
        let player = Rating {
            rating: 1600.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let opponent = Rating {
            rating: 1600.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        assert!(player.after(&[(opponent, 1.0)]).rating > player.rating);
        assert!(player.after(&[(opponent, 0.0)]).rating < player.rating);
        let drawn = player.after(&[(opponent, 0.5)]);
        assert!(close(drawn.rating, player.rating, 1e-9), "{drawn:?}");

        // Two new players: the winner gains what the loser loses, computed from the ratings
        // both had before the game.
        let (a, b) = (Rating::NEW, Rating::NEW);
        let (a_after, b_after) = (a.after(&[(b, 1.0)]), b.after(&[(a, 0.0)]));
        let (gain, loss) = (a_after.rating - a.rating, b.rating - b_after.rating);
        assert!(
            gain > 100.0,
            "a first win against an equal moves a new player a lot: {gain}"
        );
        assert!(close(gain, loss, 1e-9), "gain {gain}, loss {loss}");
        assert!(close(a_after.deviation, b_after.deviation, 1e-9));
        assert!(close(a_after.volatility, b_after.volatility, 1e-12));
    }

    #[test]
    fn the_deviation_shrinks_with_games_and_grows_with_time() {
        let player = Rating {
            rating: 1700.0,
            deviation: 120.0,
            volatility: 0.06,
        };
        let opponent = Rating::fixed(1650.0);
        for score in [0.0, 0.5, 1.0] {
            let after = player.after(&[(opponent, score)]);
            assert!(after.deviation < player.deviation, "{score}: {after:?}");
        }
        let aged = player.aged(10.0);
        assert!(aged.deviation > player.deviation);
        assert_eq!(
            (aged.rating, aged.volatility),
            (player.rating, player.volatility)
        );
        // One period of the paper's step 6: √(φ² + σ²) on the Glicko-2 scale.
        let one = player.aged(1.0).deviation / SCALE;
        assert!(close(
            one,
            ((120.0 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt(),
            1e-12
        ));
        // No games is one period of aging.
        assert_eq!(player.after(&[]), player.aged(1.0));
        for idle in [0.0, -3.0, f64::NAN] {
            assert!(
                close(player.aged(idle).deviation, player.deviation, 1e-9),
                "{idle}"
            );
        }

        // The bounds: aging stops at a newcomer's deviation, games at the floor.
        assert_eq!(player.aged(1e9).deviation, MAX_DEVIATION);
        assert_eq!(player.aged(f64::INFINITY).deviation, MAX_DEVIATION);
        assert_eq!(Rating::NEW.after(&[]).deviation, MAX_DEVIATION);
        let mut regular = Rating {
            rating: 1500.0,
            deviation: 60.0,
            volatility: MIN_VOLATILITY,
        };
        for i in 0..500 {
            regular = regular.after(&[(Rating::fixed(1500.0), if i % 2 == 0 { 1.0 } else { 0.0 })]);
            assert!(
                (MIN_DEVIATION..=MAX_DEVIATION).contains(&regular.deviation),
                "{regular:?}"
            );
        }
        assert_eq!(
            regular.deviation, MIN_DEVIATION,
            "500 games bring the deviation to the floor"
        );
        let too_sure = Rating {
            deviation: 1.0,
            ..regular
        };
        assert_eq!(
            too_sure.after(&[(Rating::fixed(1500.0), 1.0)]).deviation,
            MIN_DEVIATION
        );
        assert_eq!(too_sure.aged(0.0).deviation, MIN_DEVIATION);
        assert!(!Rating::NEW.aged(f64::NAN).deviation.is_nan());
    }

    #[test]
    fn an_expected_win_gains_little_and_an_upset_loss_costs_much() {
        let strong = Rating {
            rating: 2000.0,
            deviation: 70.0,
            volatility: 0.06,
        };
        let weak = Rating::fixed(1300.0);
        let gain = strong.after(&[(weak, 1.0)]).rating - strong.rating;
        let loss = strong.rating - strong.after(&[(weak, 0.0)]).rating;
        assert!(gain > 0.0 && gain < 2.0, "gain {gain}");
        assert!(loss > 20.0 * gain && loss > 25.0, "loss {loss}");
        // Against an equal, the same win is worth far more.
        let even = strong.after(&[(Rating::fixed(2000.0), 1.0)]).rating - strong.rating;
        assert!(
            even > 10.0 * gain,
            "{even} against an equal, {gain} against a far weaker"
        );
    }

    #[test]
    fn bad_inputs_are_clamped_or_left_out_as_documented() {
        let player = Rating {
            rating: 1550.0,
            deviation: 90.0,
            volatility: 0.07,
        };
        let opponent = Rating::fixed(1600.0);
        let won = player.after(&[(opponent, 1.0)]);
        assert_eq!(player.after(&[(opponent, 1.7)]), won);
        assert_eq!(player.after(&[(opponent, f64::INFINITY)]), won);
        assert_eq!(
            player.after(&[(opponent, -3.0)]),
            player.after(&[(opponent, 0.0)])
        );
        // A NaN score is no result: left out.
        assert_eq!(player.after(&[(opponent, f64::NAN), (opponent, 1.0)]), won);
        assert_eq!(player.after(&[(opponent, f64::NAN)]), player.after(&[]));
        // NaN numbers are those of a newcomer; out-of-range ones are clamped.
        let unknown = Rating {
            rating: f64::NAN,
            deviation: f64::NAN,
            volatility: f64::NAN,
        };
        assert_eq!(
            unknown.after(&[(opponent, 1.0)]),
            Rating::NEW.after(&[(opponent, 1.0)])
        );
        let huge = Rating {
            rating: 1e300,
            deviation: f64::INFINITY,
            volatility: 5.0,
        };
        let clamped = Rating {
            rating: MAX_RATING,
            deviation: MAX_DEVIATION,
            volatility: MAX_VOLATILITY,
        };
        assert_eq!(
            huge.after(&[(opponent, 0.0)]),
            clamped.after(&[(opponent, 0.0)])
        );
        assert_eq!(
            player.after(&[(huge, 0.0)]),
            player.after(&[(clamped, 0.0)])
        );
        assert_eq!(Rating::fixed(f64::NAN), Rating::fixed(1500.0));
        assert_eq!(Rating::fixed(-50.0).rating, MIN_RATING);
    }

    /// A linear congruential generator (Knuth's MMIX constants), so the tests need no crate.
    struct Lcg(u64);

    impl Lcg {
        /// A number in [0, 1).
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        /// A number in [lo, hi), or one time in twenty a value a careless caller might pass:
        /// NaN, an infinity, an extreme or a negative.
        fn pick(&mut self, lo: f64, hi: f64) -> f64 {
            const SPECIALS: [f64; 9] = [
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                0.0,
                -0.0,
                f64::MAX,
                f64::MIN,
                f64::MIN_POSITIVE,
                -1.0,
            ];
            if self.next() < 0.05 {
                SPECIALS[(self.next() * SPECIALS.len() as f64) as usize % SPECIALS.len()]
            } else {
                lo + (hi - lo) * self.next()
            }
        }

        /// A rating with every number anywhere, in range or not.
        fn rating(&mut self) -> Rating {
            Rating {
                rating: self.pick(-1000.0, 6000.0),
                deviation: self.pick(-50.0, 600.0),
                volatility: self.pick(-0.1, 2.0),
            }
        }
    }

    #[test]
    fn any_input_gives_finite_bounded_results() {
        let mut lcg = Lcg(0x2545_f491_4f6c_dd1d);
        let in_bounds = |r: Rating| {
            r.rating.is_finite()
                && r.deviation.is_finite()
                && r.volatility.is_finite()
                && (MIN_RATING..=MAX_RATING).contains(&r.rating)
                && (MIN_DEVIATION..=MAX_DEVIATION).contains(&r.deviation)
                && (MIN_VOLATILITY..=MAX_VOLATILITY).contains(&r.volatility)
        };
        for _ in 0..20_000 {
            let player = lcg.rating();
            let games = (lcg.next() * 4.0) as usize;
            let results: Vec<(Rating, f64)> = (0..games)
                .map(|_| (lcg.rating(), lcg.pick(-0.5, 1.5)))
                .collect();
            let after = player.after(&results);
            assert!(in_bounds(after), "{player:?} after {results:?}: {after:?}");
            let aged = player.aged(lcg.pick(-5.0, 1000.0));
            assert!(in_bounds(aged), "{player:?} aged: {aged:?}");
            assert!(in_bounds(Rating::fixed(lcg.pick(-1000.0, 6000.0))));
            // An ordinary player against ordinary opponents: within bounds, and the Illinois
            // search lands on a root (σ′ moves only a little in one game).
            let ordinary = Rating {
                rating: 800.0 + 2400.0 * lcg.next(),
                deviation: 45.0 + 305.0 * lcg.next(),
                volatility: 0.03 + 0.06 * lcg.next(),
            };
            let opponent = Rating {
                rating: 800.0 + 2400.0 * lcg.next(),
                deviation: 45.0 + 305.0 * lcg.next(),
                volatility: 0.06,
            };
            let score = [0.0, 0.5, 1.0][(lcg.next() * 3.0) as usize % 3];
            let after = ordinary.after(&[(opponent, score)]);
            assert!(
                in_bounds(after) && close(after.volatility, ordinary.volatility, 0.01),
                "{ordinary:?} {opponent:?} {score}: {after:?}"
            );
        }
    }

    #[test]
    fn a_winning_newcomer_soon_stops_being_provisional() {
        // A new player beats the computer's fixed 1500 ten times in a row. Measured: each win
        // raises the rating and lowers the deviation (1675 and 249 after the first, then 211,
        // 190, 177, 167, ... 141 after the tenth, at 1908), but a win that was expected says
        // little, so the player is still provisional after ten. Winning on, the player stops
        // being provisional at the 34th game (2034, 109.7); playing at 50% after the ten wins,
        // at the 19th (1688, 107.7).
        // Against opponents of the player's own strength, ten games suffice (next test).
        let computer = Rating::fixed(1500.0);
        let mut player = Rating::NEW;
        assert!(player.is_provisional());
        for _ in 0..10 {
            let next = player.after(&[(computer, 1.0)]);
            assert!(
                next.rating > player.rating && next.deviation < player.deviation,
                "{next:?}"
            );
            player = next;
        }
        assert!(
            player.is_provisional() && close(player.deviation, 140.7, 0.5),
            "{player:?}"
        );
        let after_ten = player;

        let settled = |mut player: Rating, score: fn(usize) -> f64| {
            (11..=100).find(|&game| {
                player = player.after(&[(computer, score(game))]);
                !player.is_provisional()
            })
        };
        assert_eq!(settled(after_ten, |_| 1.0), Some(34));
        assert_eq!(settled(after_ten, |game| (game % 2) as f64), Some(19));
    }

    #[test]
    fn a_newcomer_against_equals_settles_in_ten_games() {
        // Measured: winning and losing in turn, against a fixed 1500 or against opponents
        // rated as the player is, a new player stops being provisional at the 10th game.
        for follow in [false, true] {
            let mut player = Rating::NEW;
            let settled = (1..=100).find(|&game| {
                let opponent = Rating::fixed(if follow { player.rating } else { 1500.0 });
                player = player.after(&[(opponent, (game % 2) as f64)]);
                !player.is_provisional()
            });
            assert_eq!(settled, Some(10), "following the player's rating: {follow}");
        }
    }
}
