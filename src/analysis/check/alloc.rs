//! Counting allocations: the global allocator the [`Allocation`] check
//! needs installed in the test binary ([`CountingAllocator`]).
//!
//! [`Allocation`]: super::Check::Allocation

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;

thread_local! {
    /// Allocations made by this thread: tests run on parallel threads, and
    /// each counts only its own.
    static ALLOCATIONS: StdCell<u64> = const { StdCell::new(0) };
}

/// A global allocator that counts each thread's allocations, for the
/// [`Check::Allocation`](super::Check::Allocation) check (and any test of your own, with
/// [`allocations`]). It forwards every call to the system allocator.
/// Install it in the test binary that checks your rung:
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: sudoku_lab::analysis::check::CountingAllocator = sudoku_lab::analysis::check::CountingAllocator;
///
/// let before = sudoku_lab::analysis::check::allocations();
/// let v = std::hint::black_box(vec![1u8; 10]);
/// assert_eq!(sudoku_lab::analysis::check::allocations() - before, 1);
/// # drop(v);
/// ```
pub struct CountingAllocator;

impl CountingAllocator {
    /// Whether this process counts allocations (the allocator is installed).
    pub fn installed() -> bool {
        let before = allocations();
        drop(std::hint::black_box(Box::new(0u64)));
        allocations() > before
    }
}

/// Allocations (and reallocations) made so far by the calling thread; stays
/// 0 unless [`CountingAllocator`] is the global allocator.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(StdCell::get)
}

fn count_one() {
    // `try_with`: a thread being torn down has no counter left; not counted.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards to the system allocator unchanged; only counts calls
// (a const-initialised thread-local Cell neither allocates nor has a destructor).
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
