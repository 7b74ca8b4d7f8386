//! Work counters, defined once for every strategy.
//!
//! Strategies are generic over a [`Counter`]. The timed path uses
//! [`NoCount`], whose methods are empty and `ENABLED` is `false`, so the
//! compiler removes every counting statement (and any work done only to count,
//! guarded by `if C::ENABLED`). The instrumented path uses [`Counts`]. Both
//! run the *same* search code, so counting cannot change what is timed.
//!
//! Every counter is one line of one table (`counter_table!` below): its name
//! (the CSV column), its meaning, and the event a rung calls to count it.
//! The table makes [`Counts`], the event methods of [`Counter`] and the
//! [`Id`] and [`Heard`] through which every other counter (the tracer, the
//! estimator's probe) receives them, so a counter added to the table is
//! counted, traced, estimated, summarised and written everywhere.
//!
//! `nodes` is counted twice: by the search context itself, because the node
//! budget needs it even when nothing else is counted, and by the counter,
//! like every other line of the table.

use serde::{Deserialize, Serialize};

use crate::base::board::Cell;
use std::fmt;

use crate::base::board::{Unit, UnitKind};

/// The table of counters: for each, its name (also its CSV column and table
/// heading), what it counts, and the event that counts it — a [`Heard`]
/// variant and the [`Counter`] method a rung calls, with its arguments (and
/// `by` how much, when not 1), documented for the rungs.
///
/// Adding a counter is one entry here plus the calls in the rungs that
/// count it: [`Counts`], [`Counter`]'s event, the tracer's and the probe's
/// sums, the CSV columns and summaries all follow from the table.
macro_rules! counter_table {
    ($then:ident) => {
        $then! {
            /// Entering a search node: reported by [`crate::base::search::Ctx::enter`]
            /// (which counts nodes itself too, for the node budget); rungs
            /// do not call it.
            nodes: "calls of the search procedure, the root included"
                => Node = node();
            /// Digit `digit` written into `cell` by the search (givens are not placements).
            placements: "digits written by the search (givens are not placements)"
                => Placement = placement(cell: usize, digit: u8);
            /// The placement of `digit` in `cell` undone on the way back up.
            backtracks: "placements undone (a search that stops at a solution does not undo it)"
                => Backtrack = backtrack(cell: usize, digit: u8);
            /// `k` elementary look-ups (board cells scanned, table entries or masks
            /// read) spent choosing a cell or checking a digit: the cost per node.
            probes: "cells, table entries or masks read to choose a cell and check digits: the per-node cost made countable"
                => Probes = probes(k: u64) by k;
            /// A placement made where the cell had more than one candidate
            /// (rungs report it to [`crate::base::search::Ctx::guess`], which passes it on).
            guesses: "placements made where more than one candidate remained"
                => Guess = guess();
            /// A node where the search cannot go on, saying why: a cell with no
            /// candidate, a digit with no place left in a unit, or (inferring
            /// rungs) a contradiction among them ([`Counter::dead_end`] when
            /// the rung does not say).
            dead_ends: "nodes where the search cannot go on: a cell with no candidate, or a digit with no place left in a unit"
                => DeadEnd = dead_end_because(why: DeadEnd);
            /// `cell` filled with `digit` by inference rather than by branching,
            /// saying which rule forced it ([`Counter::forced`] when the rung
            /// does not say). Forced cells are not placements and are never
            /// "backtracked".
            forced: "cells filled by inference (propagating strategies), not by branching"
                => Forced = forced_because(cell: usize, digit: u8, why: Reason);
        }
    };
}

/// Makes [`Counts`], [`Id`], [`Heard`] and `impl Counter for Counts` from the table.
macro_rules! define_counts {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident : $meaning:literal
            => $variant:ident = $event:ident ( $( $arg:ident : $ty:ty ),* ) $( by $k:expr )? ;
    )*) => {
        /// Exact work counts of one search.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub struct Counts {
            $( #[doc = $meaning] pub $field: u64, )*
        }

        impl Counts {
            /// How many counters there are.
            pub const LEN: usize = [$( stringify!($field), )*].len();
            /// The counter names, in CSV column order.
            pub const NAMES: [&'static str; Counts::LEN] = [$( stringify!($field), )*];
            /// What each counter counts, in the order of [`Counts::NAMES`].
            pub const MEANINGS: [&'static str; Counts::LEN] = [$( $meaning, )*];

            /// The counter values, in the order of [`Counts::NAMES`].
            pub fn values(&self) -> [u64; Counts::LEN] {
                [$( self.$field, )*]
            }

            /// The counts with these values, in the order of [`Counts::NAMES`].
            pub fn from_values(values: [u64; Counts::LEN]) -> Counts {
                let [$( $field, )*] = values;
                Counts { $( $field, )* }
            }
        }

        /// A counter of the table, named by its event; `id as usize` is its
        /// position in [`Counts::NAMES`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Id {
            $( #[doc = concat!("`", stringify!($field), "`")] $variant, )*
        }

        impl Id {
            /// Every counter, in the order of [`Counts::NAMES`].
            pub const ALL: [Id; Counts::LEN] = [$( Id::$variant, )*];
        }

        /// A counted event with its detail, as [`Counter::hear`] receives it
        /// (after [`Counter::add`] has counted it).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Heard {
            $(
                #[doc = concat!("[`Counter::", stringify!($event), "`]")]
                $variant { $( $arg: $ty, )* },
            )*
        }

        impl Counter for Counts {
            const ENABLED: bool = true;
            #[inline(always)]
            fn add(&mut self, counter: Id, k: u64) {
                match counter {
                    $( Id::$variant => self.$field += k, )*
                }
            }
        }
    };
}

/// The event methods of [`Counter`], from the table: each counts through
/// [`Counter::add`], then tells [`Counter::hear`].
macro_rules! counting_events {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident : $meaning:literal
            => $variant:ident = $event:ident ( $( $arg:ident : $ty:ty ),* ) $( by $k:expr )? ;
    )*) => {
        $(
            $(#[doc = $doc])*
            #[inline(always)]
            fn $event(&mut self, $( $arg: $ty ),*) {
                self.add(Id::$variant, counting_events!(@by $( $k )?));
                self.hear(Heard::$variant { $( $arg, )* });
            }
        )*
    };
    (@by) => { 1 };
    (@by $k:expr) => { $k };
}

counter_table!(define_counts);

/// Receives work events from a search. All methods must be cheap.
///
/// The counting events (`placement`, `backtrack`, `probes`, `guess`,
/// `dead_end_because`, `forced_because`, and `node` from the search
/// context) come from the counter table: each one adds to its counter
/// through [`Counter::add`], then hands its detail to [`Counter::hear`]. A
/// counter implements those two and leaves the events alone, so it cannot
/// miss a counter the table gains.
pub trait Counter {
    /// `false` for the no-op counter: lets strategies skip work done only to count.
    const ENABLED: bool;

    /// Adds `k` to `counter`: where every counting event ends up.
    fn add(&mut self, counter: Id, k: u64);

    /// The detail of an event just counted, for a counter that shows or
    /// steers the search (nothing by default).
    #[inline(always)]
    fn hear(&mut self, event: Heard) {
        let _ = event;
    }

    counter_table!(counting_events);

    /// [`Counter::dead_end_because`], from a rung that does not say why.
    #[inline(always)]
    fn dead_end(&mut self) {
        self.dead_end_because(DeadEnd::Unstated);
    }

    /// [`Counter::forced_because`], from a rung that does not say why.
    #[inline(always)]
    fn forced(&mut self, cell: usize, digit: u8) {
        self.forced_because(cell, digit, Reason::Unstated);
    }

    /// `true` only for a counter that steers the search (the size
    /// estimator's probe, [`crate::analysis::estimate`]): [`crate::base::search::Ctx::enter`]
    /// then asks [`Counter::admit`] before every node. `false` for every
    /// other counter, so the question compiles away.
    const STEERS: bool = false;
    /// Asked on entry to every node when [`Counter::STEERS`]: search it, skip
    /// it, or end the search.
    #[inline(always)]
    fn admit(&mut self) -> Admit {
        Admit::Enter
    }
    /// A child that [`Counter::admit`] let in has returned
    /// ([`crate::base::search::Ctx::descend`]); only steering counters hear it.
    #[inline(always)]
    fn left(&mut self) {}

    // Detail for tracers that counts nothing, so each has a default that
    // does nothing and `NoCount` compiles it away; the lab's rungs report
    // every detail, a rung written elsewhere may not.

    /// What the node branches on, with the options it will try: called once
    /// per branching node, before its first placement.
    #[inline(always)]
    fn branch(&mut self, on: Branch) {
        let _ = on;
    }
    /// A complete grid was found (reported by [`crate::base::search::Ctx::solution`]).
    #[inline(always)]
    fn solution(&mut self) {}
    /// The node's [`Branch::Ways`] tries way `way` (an index into [`WAYS`]):
    /// what a placement is to a cell branch, for a guess that writes no
    /// cell. Called before the way's [`Counter::guess`].
    #[inline(always)]
    fn way(&mut self, way: u8) {
        let _ = way;
    }
    /// Way `way`'s subtree is over: what a backtrack is to a placement (the
    /// cells forced under the way go with it).
    #[inline(always)]
    fn way_back(&mut self, way: u8) {
        let _ = way;
    }

    /// The branching cell and its candidate digits (bit `d-1` for digit `d`):
    /// a dead end when there are none, else [`Counter::branch`]. The common
    /// case of the cell-by-cell rungs, in one place.
    #[inline(always)]
    fn choose(&mut self, cell: usize, digits: u32) {
        choose_cell(self, cell, digits, None);
    }

    /// `true` for a counter that shows the search to a person (the
    /// tracer): a rung may then work out, uncounted, why it chose what it
    /// chose ([`Counter::choose_fewest`]). `false` everywhere else, so the
    /// extra work compiles away.
    const EXPLAINS: bool = false;
    /// [`Counter::choose`] by a rung that took the cell with the fewest
    /// candidates, with what the other empty cells had (kept in the
    /// [`Branch`] for a counter that [`Counter::EXPLAINS`]).
    #[inline(always)]
    fn choose_fewest(&mut self, cell: usize, digits: u32, rivals: Rivals) {
        choose_cell(self, cell, digits, Self::EXPLAINS.then_some(rivals));
    }
}

/// [`Counter::choose`] and [`Counter::choose_fewest`]: a dead end on `cell`
/// when `digits` is empty, else a branch on it.
#[inline(always)]
fn choose_cell<C: Counter + ?Sized>(c: &mut C, cell: usize, digits: u32, rivals: Option<Rivals>) {
    let cell = Cell(cell as u16);
    if digits == 0 {
        c.dead_end_because(DeadEnd::Cell(cell));
    } else {
        c.branch(Branch::Cell {
            cell,
            digits,
            rivals,
        });
    }
}

/// What a steering counter ([`Counter::admit`]) says about a node about to be entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Search it.
    Enter,
    /// Skip it and its subtree: the parent goes on with its next child.
    Skip,
    /// End the whole search.
    Stop,
}

/// The counter that counts nothing: used when timing. Every event comes
/// down to its empty [`Counter::add`] and the empty default
/// [`Counter::hear`], all inlined, so nothing is left.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCount;

impl Counter for NoCount {
    const ENABLED: bool = false;
    #[inline(always)]
    fn add(&mut self, _counter: Id, _k: u64) {}
}

impl Counts {
    /// The value of the counter named `name`.
    pub fn get(&self, name: &str) -> Option<u64> {
        Counts::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| self.values()[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every counter of the table, by position: its name, its value, and
    /// the one field its `Id` adds to (no counter spelled out, so a line
    /// added to the table is tested here too).
    #[test]
    fn names_values_ids_and_back() {
        let c = Counts::from_values(std::array::from_fn(|i| 10 + i as u64));
        assert_eq!(Counts::from_values(c.values()), c);
        for (i, id) in Id::ALL.into_iter().enumerate() {
            assert_eq!(id as usize, i);
            assert_eq!(c.get(Counts::NAMES[i]), Some(10 + i as u64));
            let mut one = Counts::default();
            one.add(id, 3);
            let want: [u64; Counts::LEN] = std::array::from_fn(|j| if j == i { 3 } else { 0 });
            assert_eq!(one.values(), want, "{}", Counts::NAMES[i]);
        }
        assert_eq!(c.guesses, c.get("guesses").unwrap());
        assert_eq!(c.get("time"), None);
        assert_eq!(Counts::NAMES[0], "nodes");
    }
}

#[cfg(test)]
mod forwarding;

// What a counter hears: the detail of the tracer hooks (branching, forced
// cells, dead ends), defined here with the trait so that rungs, counters
// and the tracer share one vocabulary below the strategies.

/// Why a cell was filled by inference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The cell had one candidate left.
    NakedSingle,
    /// The digit had one place left in this unit.
    HiddenSingle(Unit),
    /// `fast`'s band filter: the digit's places in the band's three rows
    /// must use one box each (locked candidates); what that leaves is one
    /// place in this row, where the candidates before the filter had more,
    /// in the row and in the box.
    BandFilter { band: u8, row: Unit },
    /// The strategy did not say (a rung that reports only [`Counter::forced`]).
    Unstated,
}

/// Why a rung that branches on the cell with the fewest candidates chose
/// this one: what the other empty cells had. Told only to a counter that
/// asks ([`Counter::EXPLAINS`]), so the rung's own work never includes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rivals {
    /// The fewest candidates among the other empty cells (0: none is left).
    pub next: u8,
    /// Other empty cells with as few candidates as the chosen one (the rung
    /// took the first in reading order).
    pub ties: u16,
}

/// What a search node branches on: the options it tries, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// A cell, with its candidate digits (bit `d-1` for digit `d`), and,
    /// for a rung that chose it as the cell with the fewest, its rivals.
    Cell {
        cell: Cell,
        digits: u32,
        rivals: Option<Rivals>,
    },
    /// A digit of a unit, with the places left for it in the unit (bit `i`
    /// for the `i`-th cell of [`crate::base::board::Geometry::unit_cells`]): what exact cover
    /// branches on when a row, column or box has fewer places for a digit
    /// than any cell has candidates.
    Digit { unit: Unit, digit: u8, places: u32 },
    /// A digit's ways through a chute, tdoku's branch (`fast-triads`): a
    /// way puts the digit in one line of each of the chute's three boxes;
    /// bit `i` of `ways` is [`WAYS`]`[i]`. A child keeps one way and writes
    /// no cell.
    Ways { chute: Chute, digit: u8, ways: u32 },
    /// The strategy did not say.
    Unstated,
}

/// The six ways of a digit through a chute, in the order a rung that
/// branches on them ([`Branch::Ways`]) tries them: way `i` puts the digit,
/// in a band, in row `r` of the band inside box `WAYS[i][r]` of the band;
/// in a stack, in box `k` of the stack (band `k`) inside column
/// `WAYS[i][k]` of the stack.
pub const WAYS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

impl Branch {
    /// How many options the node has (`None` when unstated).
    pub fn options(&self) -> Option<u32> {
        match *self {
            Branch::Cell { digits, .. } => Some(digits.count_ones()),
            Branch::Digit { places, .. } => Some(places.count_ones()),
            Branch::Ways { ways, .. } => Some(ways.count_ones()),
            Branch::Unstated => None,
        }
    }
}

/// Rows or columns in threes: where `fast`'s band filter looks for a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chute {
    /// Rows `3i+1..=3i+3`.
    Band(u8),
    /// Columns `3i+1..=3i+3`.
    Stack(u8),
}

/// Why a search node is a dead end: what failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadEnd {
    /// This cell has no candidate left.
    Cell(Cell),
    /// This digit has no place left in this unit.
    Digit { unit: Unit, digit: u8 },
    /// Several digits (bit `d-1` for digit `d`) whose only place in the unit
    /// is this one cell.
    Clash { unit: Unit, cell: Cell, digits: u32 },
    /// Every row and box of the chute still has room for the digit, but no
    /// way to place it once in each (locked candidates).
    Chute { chute: Chute, digit: u8 },
    /// Four or more digits (bit `d-1` for digit `d`) that must each use the
    /// three cells where `line` (a row or a column) crosses box `in_box`
    /// (0-based): tdoku's triads, in `fast-triads`.
    Crowded { line: Unit, in_box: u8, digits: u32 },
    /// The strategy did not say (a rung that reports only [`Counter::dead_end`]).
    Unstated,
}

impl fmt::Display for Chute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, lines, i) = match *self {
            Chute::Band(i) => ("band", "rows", i as u32),
            Chute::Stack(i) => ("stack", "columns", i as u32),
        };
        write!(f, "{what} {} ({lines} {}-{})", i + 1, 3 * i + 1, 3 * i + 3)
    }
}

/// Unit `index` of the kind numbered `0` row, `1` column, `2` box (the
/// order the rungs keep their unit tables in).
#[inline(always)]
pub fn unit(kind: usize, index: usize) -> Unit {
    Unit {
        kind: match kind {
            0 => UnitKind::Row,
            1 => UnitKind::Column,
            _ => UnitKind::Box,
        },
        index: index as u8,
    }
}
