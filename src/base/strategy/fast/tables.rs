//! `fast`'s tables, built at compile time: a band word's rows folded to
//! (row, box) patterns and the cells each pattern allows (the permutation
//! filter), the row singles, the column claim, the givens' exclusions, the
//! other bands of a digit-band, and [`rows3`], the one way the search
//! spreads a row over a band.

use crate::base::counters::WAYS;

/// Bits of one row inside a band word.
pub(super) const ROW: u32 = 0x1FF;
/// All 27 cells of a band.
pub(super) const BAND: u32 = 0x7FF_FFFF;

/// For 9 row bits, which of the row's 3 box segments are non-empty (3 bits).
const SEGMENTS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if v & (7 << (3 * k)) != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// The 6 permutations of a band as (row, box) pair bits (`3*row + box`),
/// in [`WAYS`] order (the order the branch on ways tries them, which the
/// counters hear of).
pub(super) const PERM_BITS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        let s = WAYS[i];
        t[i] = (1 << s[0]) | (1 << (3 + s[1])) | (1 << (6 + s[2]));
        i += 1;
    }
    t
};

/// For a 3×3 pattern (bit `3*row + box`: "the digit can still sit where this
/// row meets this box"), the band cells that lie on some permutation inside
/// the pattern, i.e. that a complete placement of the digit could use.
/// Zero when no permutation fits: the digit cannot be placed in this band.
pub(super) const PERMUTATION_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let mut keep = 0usize;
        let mut i = 0;
        while i < 6 {
            let bits = PERM_BITS[i] as usize;
            if p & bits == bits {
                keep |= bits;
            }
            i += 1;
        }
        let mut cells = 0u32;
        let mut q = 0usize;
        while q < 9 {
            if keep & (1 << q) != 0 {
                let (r, k) = (q / 3, q % 3);
                cells |= 7 << (9 * r + 3 * k);
            }
            q += 1;
        }
        t[p] = cells;
        p += 1;
    }
    t
};

/// The same permutation filter on the 9-bit pattern itself: which
/// (row, box) pairs lie on some permutation inside the pattern.
pub(super) const PERMUTATION_PAIRS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let cells = PERMUTATION_CELLS[p];
        let mut q = 0usize;
        while q < 9 {
            if cells & (1 << (9 * (q / 3) + 3 * (q % 3))) != 0 {
                t[p] |= 1 << q;
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// For the 9 columns a digit can use in a band, the columns that are alone
/// in their box (3-column group), as cells of all three rows: the column
/// claim's mask as it is applied, with no multiply after the look-up (on
/// the band update's longest chain, #28).
pub(super) const LOCKED_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            let g = (v >> (3 * k)) & 7;
            if g == 1 || g == 2 || g == 4 {
                t[v] |= ((g as u32) << (3 * k)) * 0x40201;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// For a 3×3 pattern: the pairs on every permutation inside it (the
/// minirows the digit must use), and in bits 9..12 how many permutations
/// fit (its ways through the band).
pub(super) const MUST_WAYS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let mut must = 0x1FFu32;
        let mut ways = 0u32;
        let mut i = 0;
        while i < 6 {
            let bits = PERM_BITS[i];
            if p as u32 & bits == bits {
                must &= bits;
                ways += 1;
            }
            i += 1;
        }
        if ways == 0 {
            must = 0;
        }
        t[p] = must | ways << 9;
        p += 1;
    }
    t
};

/// For 9 (row, box) pair bits, the band cells of those minirows.
pub(super) const PAIR_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let mut q = 0;
        while q < 9 {
            if p & (1 << q) != 0 {
                t[p] |= 7 << (9 * (q / 3) + 3 * (q % 3));
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// Set bits of a 9-bit value.
pub(super) const POP9: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones();
        v += 1;
    }
    t
};

/// 9 row bits spread to 9 six-bit fields (bit `c` to bit `6c`), so that
/// adding spread rows counts per column, with room to add a box's count.
pub(super) const FIELDS6: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut v = 0;
    while v < 512 {
        let mut c = 0;
        while c < 9 {
            if v & (1 << c) != 0 {
                t[v] |= 1 << (6 * c);
            }
            c += 1;
        }
        v += 1;
    }
    t
};

/// 9 row bits kept if exactly one is set, else 0.
pub(super) const SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        if (v as u32).count_ones() == 1 {
            t[v] = v as u32;
        }
        v += 1;
    }
    t
};

/// For the 9 bits of row `r` of a band word (`[r][bits]`): bits `3r..3r+3`
/// the row's non-empty box segments ([`SEGMENTS`], in place for the band
/// filter's pattern), bits `32 + 9r..41 + 9r` the row's cell if it is the
/// only one ([`SINGLE`], in place for the band word shifted by 32: the low
/// half is the pattern alone, used as an index with no mask, #28). OR-ing
/// the three rows' entries gives the pattern and the row singles of a
/// word in three look-ups where they took six.
pub(super) const ROW_INFO: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut v = 0;
        while v < 512 {
            t[r][v] = (SEGMENTS[v] as u64) << (3 * r) | (SINGLE[v] as u64) << (32 + 9 * r);
            v += 1;
        }
        r += 1;
    }
    t
};

/// For 3 bits "box k of a band is used", the band cells of those boxes.
const BOXES_MASK: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut v = 0;
    while v < 8 {
        let mut k = 0;
        while k < 3 {
            if v & (1 << k) != 0 {
                t[v] |= (7 << (3 * k)) * 0x40201;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// For the 9 bits of a digit's givens in row `r` of a band (`[r][bits]`):
/// the low 32 bits are the band cells those givens take (their row and
/// boxes, 0 for none), bits 32..35 their boxes, bit 35 set when there are two
/// or more (a broken rule). OR-ing the three rows' entries gives a digit's
/// whole exclusion inside the band in three look-ups.
pub(super) const GIVEN_ROW: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut v = 0;
        while v < 512 {
            if v != 0 {
                let boxes = SEGMENTS[v];
                t[r][v] = (ROW << (9 * r) | BOXES_MASK[boxes as usize]) as u64 | (boxes as u64) << 32;
            }
            if (v as u32).count_ones() > 1 {
                t[r][v] |= 1 << 35;
            }
            v += 1;
        }
        r += 1;
    }
    t
};

/// Bits 32..35 of a [`GIVEN_ROW`] entry: the boxes a row's givens reach.
pub(super) const GIVEN_BOXES: u64 = 7 << 32;
/// Bit 35 of a [`GIVEN_ROW`] entry: two givens of a digit in one row.
pub(super) const GIVEN_TWICE: u64 = 1 << 35;

/// The two bands other than `b`.
pub(super) const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// For a digit-band index `9*b + d`, the indices of the same digit in the
/// two other bands: one look-up where the band, the digit and two band
/// numbers were three (the column claim of every band update).
pub(super) const OTHER_WORDS: [[u8; 2]; 27] = {
    let mut t = [[0u8; 2]; 27];
    let mut j = 0;
    while j < 27 {
        let (b, d) = (j / 9, j % 9);
        t[j] = [(9 * OTHER_BANDS[b].0 + d) as u8, (9 * OTHER_BANDS[b].1 + d) as u8];
        j += 1;
    }
    t
};

/// The band of a digit-band index `9*b + d`.
pub(super) const BAND_OF: [usize; 27] = {
    let mut t = [0usize; 27];
    let mut j = 0;
    while j < 27 {
        t[j] = j / 9;
        j += 1;
    }
    t
};

/// `v` (bits of one row) in all three rows of a band: `v * 0x40201` by
/// shifts, the one way the search spreads a row (tables built at compile
/// time keep the multiply). The compiler writes the sweeps over all digits (the triads, the
/// ways patterns) in vector code, where a 32-bit multiply (`vpmulld`) takes
/// 10 cycles on recent Intel cores (3 on Zen 3); three shifts and two ORs
/// take two (#28: ×1.03 and ×1.02 on top1465 and forum-hardest on an Intel
/// Xeon, the header's third round).
#[inline(always)]
pub(super) fn rows3(v: u32) -> u32 {
    v | (v << 9) | (v << 18)
}
