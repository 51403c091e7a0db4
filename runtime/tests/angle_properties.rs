//! Properties of binary angles that the presentation and the rules rely on.

use fixstep_runtime::math::{Angle, Fx, Vec2, atan2};
use proptest::prelude::*;

proptest! {
    /// The shortest turn never exceeds half a turn and lands exactly on the target: what
    /// lets facing be drawn the short way across the ±π wrap.
    #[test]
    fn shortest_delta_is_at_most_half_a_turn_and_exact(a in any::<u32>(), b in any::<u32>()) {
        let (a, b) = (Angle(a), Angle(b));
        let delta = a.shortest_delta(b);
        prop_assert!(delta.unsigned_abs() <= 1 << 31);
        prop_assert_eq!(a.rotated(delta), b);
    }

    /// A bounded turn never overshoots and never takes the long way.
    #[test]
    fn turned_toward_moves_at_most_the_step_the_short_way(a in any::<u32>(), b in any::<u32>(), step in 0u32..(1 << 31)) {
        let (a, b) = (Angle(a), Angle(b));
        let turned = a.turned_toward(b, step);
        let moved = a.shortest_delta(turned);
        prop_assert!(moved.unsigned_abs() <= step);
        let before = a.shortest_delta(b).unsigned_abs();
        let after = turned.shortest_delta(b).unsigned_abs();
        prop_assert!(after <= before);
        if before <= step { prop_assert_eq!(turned, b); }
    }

    /// sin² + cos² stays one to within a few units of the last place, at every angle.
    #[test]
    fn sine_and_cosine_stay_on_the_unit_circle(a in any::<u32>()) {
        let (s, c) = Angle(a).sin_cos();
        let norm = s * s + c * c;
        prop_assert!((norm - Fx::ONE).abs() <= Fx::from_bits(8));
    }

    /// atan2 inverts the unit vector of an angle to within a few angle units.
    #[test]
    fn atan2_inverts_from_angle(a in any::<u32>()) {
        let v = Vec2::from_angle(Angle(a));
        let back = atan2(v.y, v.x);
        prop_assert!(Angle(a).shortest_delta(back).unsigned_abs() <= 16, "{} -> {}", a, back.0);
    }
}
