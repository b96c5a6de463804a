//! The process's allocator: mimalloc, asked for plain blocks when the
//! alignment needs nothing more.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has, whatever its size: a machine
/// word, its smallest unit (mimalloc's own `mi_realloc_aligned` takes the
/// plain path up to it). Blocks of some sizes are not aligned to more: a
/// 24-byte block is aligned to 8, not 16.
const PLAIN_ALIGN: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator. The `mimalloc` crate's own asks for
/// every block through `mi_malloc_aligned`, whose check of the alignment
/// cost sixty instructions a block against twenty for `mi_malloc`, at 185
/// blocks an inbound text (BENCHMARKS.md, issue 30). As the standard
/// library's own allocator does with malloc, a layout whose alignment the
/// plain call always gives takes the plain call.
pub struct Mimalloc;

fn plain(layout: Layout) -> bool {
    layout.align() <= PLAIN_ALIGN
}

/// A new block for `layout`: from `plain` when the layout asks no more
/// than a word's alignment, else from `aligned`.
#[inline]
fn block(
    layout: Layout,
    plain_call: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned_call: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    // SAFETY: mimalloc's calls take any size and return a block or null;
    // a plain block is word-aligned, which is all a `plain` layout asks.
    unsafe {
        if plain(layout) {
            plain_call(layout.size()).cast()
        } else {
            aligned_call(layout.size(), layout.align()).cast()
        }
    }
}

// SAFETY: every block comes from mimalloc and goes back to it, aligned as
// its layout asks (`block`).
unsafe impl GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        block(layout, mi::mi_malloc, mi::mi_malloc_aligned)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        block(layout, mi::mi_zalloc, mi::mi_zalloc_aligned)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe {
            if plain(layout) {
                mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_has_its_alignment_and_keeps_its_bytes() {
        let allocator = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 8, 20, 24, 40, 56, 100, 1000, 70_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a layout of non-zero size; each block is freed once,
                // with the layout it has.
                unsafe {
                    let block = allocator.alloc(layout);
                    assert!(!block.is_null());
                    assert_eq!(block as usize % align, 0, "{size} bytes at {align}");
                    block.write_bytes(0xA5, size);
                    let grown = allocator.realloc(block, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "{size} grown, at {align}");
                    assert!((0..size).all(|i| *grown.add(i) == 0xA5));
                    allocator.dealloc(grown, Layout::from_size_align(size * 3, align).unwrap());
                    let zeroed = allocator.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0);
                    assert!((0..size).all(|i| *zeroed.add(i) == 0));
                    allocator.dealloc(zeroed, layout);
                }
            }
        }
    }
}
