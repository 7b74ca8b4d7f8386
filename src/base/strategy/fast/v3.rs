//! The copy for x86-64-v3 CPUs (AVX2, BMI1/2, POPCNT, LZCNT: Intel since
//! 2013, AMD since 2015). Nothing in the source is specific to them: the
//! compiler gets to use `tzcnt`, `blsr`, `andn`, `shlx` and 256-bit vectors
//! for the same code (the state copy, the sweeps over all digits).

use super::{Ctx, Flow, Isa, State, Switches};
use crate::base::counters::Counter;

/// Whether this CPU runs the v3 copy (`std` caches the answer).
#[inline(always)]
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("lzcnt")
}

pub(super) struct V3;

impl Isa for V3 {
    #[inline(always)]
    fn node<S: Switches, C: Counter>(st: State<S>, dirty: u32, ctx: &mut Ctx<C>) -> Flow {
        // SAFETY: only reached from `node` below, which only runs on a
        // CPU that `available` accepted.
        unsafe { node::<S, C>(st, dirty, ctx) }
    }
    #[inline(always)]
    fn clear_band(band: &mut [u32; 9], s: u32) -> u32 {
        // SAFETY: as above, only reached from the v3 copy.
        unsafe { clear_band(band, s) }
    }
}

/// [`super::Isa::clear_band`] with one 8-word AND and compare, turned
/// into a bit per word by one `movmskps` (the compiler's version of the
/// plain loop gathers the bits by shuffles and ORs), the ninth word by
/// itself.
///
/// # Safety
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn clear_band(band: &mut [u32; 9], s: u32) -> u32 {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps,
        _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_storeu_si256,
    };
    let at = band.as_mut_ptr().cast::<__m256i>();
    // SAFETY: words 0..8 of the 9 are inside the array (`loadu` and
    // `storeu` take any alignment), and the CPU has AVX2.
    let none = unsafe {
        let words = _mm256_loadu_si256(at);
        let cells = _mm256_set1_epi32(s as i32);
        let zero = _mm256_cmpeq_epi32(_mm256_and_si256(words, cells), _mm256_setzero_si256());
        _mm256_storeu_si256(at, _mm256_andnot_si256(cells, words));
        _mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32
    };
    let last = band[8];
    band[8] = last & !s;
    (!none & 0xFF) | ((last & s != 0) as u32) << 8
}

/// [`super::node`] compiled for x86-64-v3.
///
/// # Safety
/// The CPU must have the features below ([`available`]).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
pub(super) unsafe fn node<S: Switches, C: Counter>(
    st: State<S>,
    dirty: u32,
    ctx: &mut Ctx<C>,
) -> Flow {
    super::node::<S, C, V3>(st, dirty, ctx)
}
