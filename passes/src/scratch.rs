//! The scratch memory of a pass-manager worker.
//!
//! Passes need temporaries sized by the function they transform: use
//! counts, per-block plans, work lists, the id maps of a rebuild. Each
//! worker thread of a run owns one [`Scratch`]: an arena ([`bumpalo::Bump`])
//! that the temporaries are allocated from and that is reset before every
//! pass application, so after the first few functions its chunk is large
//! enough and allocating is a pointer bump that nothing frees one by one.
//!
//! Two things outlive a temporary and are not in the arena: rebuilt bodies
//! become the function's body (their tables are the IR's own vectors), and
//! control-flow graphs are cached by [`crate::analysis::Analyses`] across
//! passes. Spares of both are kept here, cleared rather than freed, for
//! the worker's next rebuild or graph.
//!
//! What the arena does not do: hand memory from one pass to the next.
//! Anything a pass returns is in ordinary vectors.

use bumpalo::Bump;
use postc_ir::body::Body;
use postc_ir::cfg::Cfg;
use std::cell::RefCell;
use std::sync::{Mutex, TryLockError};

/// A vector in a worker's arena.
pub type ScratchVec<'s, T> = bumpalo::collections::Vec<'s, T>;

/// At most this many spare bodies and graphs are kept: a pass holds the old
/// and the new body of one rebuild, plus one for pool compaction.
const MAX_SPARES: usize = 2;

/// One worker's scratch memory (see the module documentation).
#[derive(Default)]
pub struct Scratch {
    arena: Bump,
    bodies: RefCell<Vec<Body>>,
    /// Graphs moved into a function's [`crate::analysis::Analyses`] while
    /// it is transformed, and back after.
    pub(crate) cfgs: Vec<Cfg>,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// An empty vector in the arena.
    pub fn vec<T>(&self) -> ScratchVec<'_, T> {
        ScratchVec::new_in(&self.arena)
    }

    /// An empty vector in the arena with room for `n` items.
    pub fn vec_with_capacity<T>(&self, n: usize) -> ScratchVec<'_, T> {
        ScratchVec::with_capacity_in(n, &self.arena)
    }

    /// `n` copies of `value` in the arena.
    pub fn filled<T: Clone>(&self, n: usize, value: T) -> ScratchVec<'_, T> {
        let mut v = ScratchVec::with_capacity_in(n, &self.arena);
        v.resize(n, value);
        v
    }

    /// Frees every temporary at once, keeping the arena's largest chunk.
    /// Nothing allocated from the arena can be alive: that takes `&mut`.
    pub(crate) fn reset(&mut self) {
        self.arena.reset();
    }

    /// An empty body, with the tables of one given back by [`Scratch::recycle`].
    pub fn take_body(&self) -> Body {
        self.bodies.borrow_mut().pop().unwrap_or_default()
    }

    /// Gives a body that is no longer needed back, its tables cleared.
    pub fn recycle(&self, mut body: Body) {
        body.clear();
        let mut spares = self.bodies.borrow_mut();
        if spares.len() < MAX_SPARES {
            spares.push(body);
        }
    }

    /// Keeps a graph's buffers for the next function's graph.
    pub(crate) fn keep_cfgs(&mut self, cfgs: Vec<Cfg>) {
        self.cfgs = cfgs;
        self.cfgs.truncate(MAX_SPARES);
    }
}

/// The scratch of every worker thread of a run, one slot per thread of the
/// pool the run is in.
pub struct Workers {
    slots: Vec<Mutex<Scratch>>,
}

impl Workers {
    /// A slot for each thread of the current rayon pool (the one a
    /// `ThreadPool::install` entered, else the global one).
    pub fn for_current_pool() -> Workers {
        Workers { slots: (0..rayon::current_num_threads()).map(|_| Mutex::new(Scratch::new())).collect() }
    }

    /// Runs `f` with the calling worker's scratch. A thread outside the
    /// pool, or a worker whose scratch is already in use further up its
    /// stack (rayon may run a stolen job while a pass waits on a nested
    /// parallel loop), gets a fresh one instead: never a deadlock.
    pub fn with<R>(&self, f: impl FnOnce(&mut Scratch) -> R) -> R {
        let slot = rayon::current_thread_index().and_then(|i| self.slots.get(i));
        let guard = slot.and_then(|m| match m.try_lock() {
            Ok(g) => Some(g),
            // A pass that panicked left the arena as it was; reset clears it.
            Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        });
        match guard {
            Some(mut g) => f(&mut g),
            None => f(&mut Scratch::new()),
        }
    }
}
