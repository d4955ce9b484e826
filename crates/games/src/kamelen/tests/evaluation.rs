//! The evaluation: material, the able camels' distance to the enemy home-field, threats.

use super::*;

fn eval(state: &State) -> i32 {
    game().evaluate(state)
}

#[test]
fn the_start_is_even_on_every_board() {
    for g in all_rulesets() {
        assert_eq!(g.evaluate(&g.start()), 0, "{}", g.name());
        let mut black = g.start();
        g.play_unchecked(&mut black, Move::PASS);
        assert_eq!(g.evaluate(&black), 0, "{}", g.name());
    }
}

#[test]
fn a_dromedary_up_is_about_one_unit() {
    // The dromedary on a1 also brings its two moves (10 each).
    let up = setup("Da1 Cc2 cc10", 'w');
    let even = setup("Cc2 cc10", 'w');
    assert_eq!(eval(&even), 0);
    assert_eq!(eval(&up), 120);
    assert_eq!(eval(&setup("Da1 Cc2 cc10", 'b')), -120);
    // Shut in by a rock on b2 (which also takes c2's way west, off the board anyway).
    assert_eq!(eval(&setup("Da1 Xb2 Cc2 cc10", 'w')), 100);
}

#[test]
fn more_moves_score_more() {
    // A rock on c4 takes the two leaps north of White's camel on c2.
    let free = eval(&setup("Cc2 Ce2 cc10 ce10", 'w'));
    let hemmed = eval(&setup("Cc2 Ce2 Xc4 cc10 ce10", 'w'));
    assert_eq!(free - hemmed, 20);
}

#[test]
fn able_camels_weigh_more_than_idle_ones_and_the_last_ones_most() {
    // White's d2 can never reach f11; c2 and e2 can.
    let idle = eval(&setup("Cc2 Cd2 cc10", 'w'));
    let able = eval(&setup("Cc2 Ce2 cc10", 'w'));
    assert!(able > idle && idle > 0, "{able} {idle}");
    let second = eval(&setup("Cc2 Ce2 cc10 ce10", 'w'));
    let third = eval(&setup("Cc2 Ce2 Cg2 cc10 ce10", 'w'));
    assert!(able - second > third - second, "{able} {second} {third}");
}

#[test]
fn able_camels_near_the_enemy_home_field_score_more() {
    let g = game();
    assert_eq!(g.camel_distance(Player::White, sq("e8")), Some(1));
    assert_eq!(g.camel_distance(Player::White, sq("d5")), Some(2));
    assert_eq!(g.camel_distance(Player::White, sq("c2")), Some(3));
    assert_eq!(g.camel_distance(Player::White, sq("d2")), None);
    let far = eval(&setup("Cc2 cc10", 'w'));
    let near = eval(&setup("Cd5 cc10", 'w'));
    assert!(near > far, "{near} {far}");
}

#[test]
fn threats_to_able_camels_count() {
    // White to move can take Black's able camel on c10 with b7; only the other able one stays.
    let threat = eval(&setup("Cb7 Cc2 cc10 ce10", 'w'));
    let quiet = eval(&setup("Cb6 Cc2 cc10 ce10", 'w'));
    assert!(threat > quiet + 100, "{threat} {quiet}");
    // The same attack with Black to move is Black's worry, not a gain for White.
    let attacked = eval(&setup("Cb7 Cc2 cc10 ce10", 'b'));
    assert!(attacked < -quiet, "{attacked} {quiet}");
}

#[test]
fn a_camel_one_leap_from_conquering_decides() {
    let win_now = eval(&setup("Ce8 Cc2 cc10", 'w'));
    assert!(win_now > 1_000, "{win_now}");
    let must_stop = eval(&setup("Ce8 Cc2 cc10", 'b'));
    assert!(must_stop < -200, "{must_stop}");
    // A blocked way is no threat.
    let blocked = eval(&setup("Ce8 Xe9 Cc2 cc10", 'w'));
    assert!(blocked < 1_000, "{blocked}");
}

#[test]
fn the_evaluation_is_cheap_and_finite_in_random_games() {
    for (g, state) in random_states(61, 4, 300) {
        if !g.status(&state).is_over() {
            assert!(g.evaluate(&state).abs() < 10_000);
        }
    }
}
