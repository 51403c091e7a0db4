//! Birds by day, crickets by night: how much of each the time of day hears.

use crate::sound::config::Ambience;

/// Hours in a day: the drawn time of day is a fraction of one.
const HOURS_PER_DAY: f32 = 24.0;

/// How far day has come at `time_of_day` (a fraction of a day from midnight): 0 at night, 1
/// by day, rising through dawn and falling through dusk in a straight line.
#[must_use]
pub fn day_share(ambience: &Ambience, time_of_day: f32) -> f32 {
    let hour = time_of_day.rem_euclid(1.0) * HOURS_PER_DAY;
    let through = |(from, to): (f32, f32)| ((hour - from) / (to - from)).clamp(0.0, 1.0);
    let share = through(ambience.dawn_hours) - through(ambience.dusk_hours);
    if share.is_nan() { 1.0 } else { share.clamp(0.0, 1.0) }
}

/// The birds' and the crickets' amplitudes at `time_of_day`: an equal-power crossfade, so the
/// ambience is as loud at dawn as at noon or midnight.
#[must_use]
pub fn day_and_night(ambience: &Ambience, time_of_day: f32) -> (f32, f32) {
    let angle = day_share(ambience, time_of_day) * std::f32::consts::FRAC_PI_2;
    (angle.sin(), angle.cos())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ambience() -> Ambience {
        Ambience {
            dawn_hours: (5.0, 7.0),
            dusk_hours: (19.0, 21.0),
            birds_volume_db: -18.0,
            crickets_volume_db: -22.0,
        }
    }

    #[test]
    fn day_is_birds_night_is_crickets_and_dawn_is_both() {
        let a = ambience();
        let hour = |h: f32| h / 24.0;
        assert_eq!(day_and_night(&a, hour(12.0)), (1.0, angle_cos(1.0)));
        assert_eq!(day_share(&a, hour(2.0)), 0.0);
        assert_eq!(day_share(&a, hour(23.0)), 0.0);
        assert!((day_share(&a, hour(6.0)) - 0.5).abs() < 1e-5);
        assert!((day_share(&a, hour(20.5)) - 0.25).abs() < 1e-5);
        let (birds, crickets) = day_and_night(&a, hour(6.0));
        assert!((birds * birds + crickets * crickets - 1.0).abs() < 1e-5, "equal power");
    }

    fn angle_cos(share: f32) -> f32 {
        (share * std::f32::consts::FRAC_PI_2).cos()
    }
}
