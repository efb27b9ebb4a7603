//! The device arenas: one per stream, each the pool arena's rules over a
//! 64 MiB chunk of device memory. A staging wrapper takes a mark on its
//! stream, allocates its device buffers and restores the mark once it has
//! copied the results back: one release for the whole call. A buffer that
//! does not fit in what is left of the chunk spills to the driver's
//! allocator and is freed by the restore that covers it.
//!
//! Streams. Each host thread launches on its own stream
//! ([`crate::postc_gpu_stream`]), so each has its own arena and threads
//! never contend for one. The arena of a stream goes when its thread ends.
//!
//! Threads sharing a stream. The arenas sit behind one mutex, and a
//! stream's chunk belongs to one thread at a time: the first to mark (or
//! allocate) on the stream while its arena is empty. It stays that thread's
//! until a restore empties the arena again. Meanwhile a mark taken on another
//! thread is a *foreign* mark: that thread's allocations under it go
//! straight to the driver's allocator, are remembered per thread, and are
//! freed by its restore. So marks must nest per thread (restore on the
//! thread that marked, innermost first, as a wrapper's entry and exit do),
//! but threads never wait for each other and never free each other's
//! buffers.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::sync::{Mutex, MutexGuard};
use std::thread::{self, ThreadId};

use crate::backend::{Backend, DevicePtr, Handle};
use crate::{fatal, ok, rt};

/// The chunk each stream's arena carves buffers from.
pub const ARENA_CHUNK: u64 = 64 << 20;
/// Every buffer starts on this boundary (and takes a multiple of it).
pub const ARENA_ALIGN: u64 = 256;

/// Set in a foreign mark; bits 32..63 hold the thread's foreign depth and
/// bits 0..32 its count of spilled buffers. An owner's mark holds the
/// number of spilled buffers in bits 32..63 and the chunk's top in 0..32.
const FOREIGN: u64 = 1 << 63;
const LOW: u64 = 0xffff_ffff;

struct Arena {
    /// The stream (its handle's address; 0 is the default stream).
    stream: usize,
    /// The chunk's device address, 0 until first needed.
    base: DevicePtr,
    /// Bytes of the chunk in use.
    top: u64,
    /// Buffers that did not fit, oldest first.
    spills: Vec<DevicePtr>,
    owner: Option<ThreadId>,
}

static ARENAS: Mutex<Vec<Arena>> = Mutex::new(Vec::new());

thread_local! {
    /// How many foreign marks this thread has open.
    static FOREIGN_DEPTH: Cell<u64> = const { Cell::new(0) };
    /// This thread's buffers under foreign marks, oldest first.
    static LOCAL_SPILLS: RefCell<Vec<DevicePtr>> = const { RefCell::new(Vec::new()) };
}

fn lock() -> MutexGuard<'static, Vec<Arena>> {
    // Nothing unwinds while holding it (failures abort), so poison is moot.
    ARENAS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The arena of `stream`, made empty when it has none yet.
fn arena_of(arenas: &mut Vec<Arena>, stream: Handle) -> &mut Arena {
    let key = stream as usize;
    let at = match arenas.iter().position(|a| a.stream == key) {
        Some(i) => i,
        None => {
            arenas.push(Arena { stream: key, base: 0, top: 0, spills: Vec::new(), owner: None });
            arenas.len() - 1
        }
    };
    &mut arenas[at]
}

fn free_all(b: &dyn Backend, ptrs: impl Iterator<Item = DevicePtr>) {
    for p in ptrs {
        ok(b, b.mem_free(p));
    }
}

/// Marks the device arena of `stream`; pass the value to
/// [`postc_gpu_arena_restore`] with the same stream.
#[no_mangle]
pub extern "C" fn postc_gpu_arena_mark(stream: Handle) -> u64 {
    let me = thread::current().id();
    let depth = FOREIGN_DEPTH.get();
    if depth == 0 {
        let mut arenas = lock();
        let a = arena_of(&mut arenas, stream);
        if a.owner.is_none_or(|o| o == me) {
            a.owner = Some(me);
            return ((a.spills.len() as u64) << 32) | a.top;
        }
    }
    FOREIGN_DEPTH.set(depth + 1);
    let n = LOCAL_SPILLS.with_borrow(|v| v.len() as u64);
    FOREIGN | (depth << 32) | n
}

/// A device buffer of `size` bytes, 256-byte aligned, from the arena of
/// `stream` (the stream the buffer will be used on), valid until the
/// restore of a mark taken before it.
#[no_mangle]
pub extern "C" fn postc_gpu_arena_alloc(size: u64, stream: Handle) -> *mut c_void {
    let b = rt();
    let rounded = size.max(1).checked_next_multiple_of(ARENA_ALIGN).unwrap_or_else(|| too_big(size));
    if FOREIGN_DEPTH.get() == 0 {
        let me = thread::current().id();
        let mut arenas = lock();
        let a = arena_of(&mut arenas, stream);
        if a.owner.is_none_or(|o| o == me) {
            a.owner = Some(me);
            if a.base == 0 {
                a.base = ok(b, b.mem_alloc(ARENA_CHUNK, false));
            }
            if rounded <= ARENA_CHUNK - a.top {
                let p = a.base + a.top;
                a.top += rounded;
                return p as *mut c_void;
            }
            let p = ok(b, b.mem_alloc(rounded, false));
            a.spills.push(p);
            return p as *mut c_void;
        }
    }
    let p = ok(b, b.mem_alloc(rounded, false));
    LOCAL_SPILLS.with_borrow_mut(|v| v.push(p));
    p as *mut c_void
}

#[cold]
fn too_big(size: u64) -> ! {
    fatal(&format!("postc_gpu_arena_alloc: {size} bytes is too large"))
}

/// Synchronises `stream`, then releases every buffer allocated since `mark`
/// was taken (on this thread, on `stream`): the chunk's top goes back and
/// spilled buffers are freed.
#[no_mangle]
pub extern "C" fn postc_gpu_arena_restore(mark: u64, stream: Handle) {
    let b = rt();
    ok(b, b.stream_synchronize(stream));
    if mark & FOREIGN != 0 {
        let depth = (mark & !FOREIGN) >> 32;
        let n = (mark & LOW) as usize;
        let freed = LOCAL_SPILLS.with_borrow_mut(|v| {
            if n > v.len() || depth >= FOREIGN_DEPTH.get() {
                return None;
            }
            Some(v.split_off(n))
        });
        let Some(freed) = freed else {
            fatal("postc_gpu_arena_restore: the mark was taken on another thread or already restored")
        };
        free_all(b, freed.into_iter().rev());
        FOREIGN_DEPTH.set(depth);
        return;
    }
    let top = mark & LOW;
    let n = (mark >> 32) as usize;
    let me = thread::current().id();
    let mut arenas = lock();
    let a = arena_of(&mut arenas, stream);
    if a.owner.is_some_and(|o| o != me) {
        drop(arenas);
        fatal("postc_gpu_arena_restore: the device arena is held by another thread (restore a mark on the thread that took it)")
    }
    if top > a.top || n > a.spills.len() {
        let msg = format!(
            "postc_gpu_arena_restore: mark ({top} bytes, {n} spilled) is above the arena ({} bytes, {} spilled)",
            a.top,
            a.spills.len()
        );
        drop(arenas);
        fatal(&msg)
    }
    let freed = a.spills.split_off(n);
    a.top = top;
    if top == 0 && a.spills.is_empty() {
        a.owner = None;
    }
    // Freeing under the lock keeps a later mark from seeing a half-restored arena.
    free_all(b, freed.into_iter().rev());
}

/// Forgets the arena of a stream about to be destroyed, freeing its chunk
/// when nothing is allocated from it (a best effort: errors are ignored).
pub(crate) fn release_stream(b: &dyn Backend, stream: Handle) {
    let mut arenas = lock();
    let Some(at) = arenas.iter().position(|a| a.stream == stream as usize) else { return };
    let a = &arenas[at];
    if a.top != 0 || !a.spills.is_empty() {
        return;
    }
    if a.base != 0 {
        let _ = b.mem_free(a.base);
    }
    arenas.swap_remove(at);
}

/// The device arena of a stream as this thread sees it (for tests and
/// diagnostics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaUsage {
    /// Whether the stream's 64 MiB chunk has been allocated.
    pub chunk_allocated: bool,
    /// The chunk's device address (0 before it is allocated).
    pub chunk: u64,
    /// Bytes of the chunk in use.
    pub top: u64,
    /// Spilled buffers the owner holds.
    pub spilled: usize,
    /// Spilled buffers this thread holds under foreign marks.
    pub local_spilled: usize,
    /// Whether this thread owns the chunk.
    pub owned_here: bool,
}

/// A snapshot of the arena of `stream` (an empty one when the stream has
/// none).
pub fn arena_usage(stream: Handle) -> ArenaUsage {
    let arenas = lock();
    let local_spilled = LOCAL_SPILLS.with_borrow(|v| v.len());
    match arenas.iter().find(|a| a.stream == stream as usize) {
        Some(a) => ArenaUsage {
            chunk_allocated: a.base != 0,
            chunk: a.base,
            top: a.top,
            spilled: a.spills.len(),
            local_spilled,
            owned_here: a.owner == Some(thread::current().id()),
        },
        None => ArenaUsage { chunk_allocated: false, chunk: 0, top: 0, spilled: 0, local_spilled, owned_here: false },
    }
}

/// How many streams have an arena (for tests).
pub fn arena_count() -> usize {
    lock().len()
}
