//! What makes a `view` valid, decided once for the interpreter (which
//! checks it itself) and `insert-checks` (which writes the same checks as
//! IR before every `view` of compiled code), with the messages both panic
//! with.
//!
//! `view %base, %offset, [%e0, ...], [%s0, ...]` is valid when
//!
//! 1. every extent `e_k` is at least 0;
//! 2. the byte offset and every byte stride are multiples of the element
//!    size (so every element is aligned as the base's are);
//! 3. the view is empty (an extent is 0: it addresses no memory), or the
//!    base is not empty and the view's *span* lies within the base's.
//!
//! An array's span is the range of byte offsets, from its element 0, of
//! its elements: from `Σ min(0, (n_k - 1) * s_k)` to `Σ max(0, (n_k - 1) *
//! s_k)` over its axes (extent `n_k`, byte stride `s_k`); a view's is
//! shifted by its offset. Any element of a valid view is at an offset
//! between the base's first and last element: inside the base's memory,
//! whatever the base's own strides (a view of a step slice may address
//! the elements that the step skips, which lie in the same allocation).
//! NumPy's basic slicing never leaves the base, so a slice lowered to a
//! view passes these checks.
//!
//! Compiled code computes the view's span in Int64 with overflow checks
//! (an overflow means the span cannot fit, and fails rule 3); the base's
//! span is real memory, so computing it cannot overflow.

use crate::body::{Body, InstData, ValueId};
use crate::{EntityId, Opcode, TypeTable};

/// The message of a negative extent at `axis`; `{}` is the extent.
pub fn negative_extent_message(axis: usize) -> String {
    format!("invalid view: size {{}} of axis {axis} is negative")
}

/// The message of an offset or a stride that is not a multiple of the
/// element size `elsize`.
pub fn misaligned_message(elsize: u32) -> String {
    format!("invalid view: the byte offset and strides must be multiples of the element size {elsize}")
}

/// The message of a non-empty view of an empty base.
pub const EMPTY_BASE_MESSAGE: &str = "view out of bounds: the base array is empty";

/// The message of a view whose span leaves its base's.
pub const OUT_OF_BOUNDS_MESSAGE: &str = "view out of bounds: it reaches outside its base array";

/// The span `(first, last)` of a non-empty array with `extents` and byte
/// `strides`, relative to its element 0 (see the module docs); `None` when
/// it does not fit an `i128`.
pub fn span(extents: &[i128], strides: &[i128]) -> Option<(i128, i128)> {
    extents.iter().zip(strides).try_fold((0i128, 0i128), |(lo, hi), (&n, &s)| {
        let reach = (n - 1).checked_mul(s)?;
        Some((lo.checked_add(reach.min(0))?, hi.checked_add(reach.max(0))?))
    })
}

/// Which instructions of `body` are `view`s that never outlive the call of
/// the function that makes them, by instruction (`true` for such a view):
/// every use reads or writes through the view (`load`, `store`,
/// `index.load`, `index.store`), reads its extents or strides (`dim`,
/// `stride`), is the base of another such view, or passes it to a call
/// whose result is neither an array nor a tuple (the callee cannot hand
/// the view back, and no array holds arrays) and that `call_may_keep` does not name: a
/// call that may still use its arguments once it has returned. A view
/// that is returned, assigned to a local (`let`, `set`), chosen by a
/// `select` or the base of a view that escapes, escapes. (A local that
/// nothing reads is gone by then: `forward-sets` removes one whose reads
/// it made take the assigned view.)
///
/// Such a view needs no header in the call's arena: a backend may build
/// it in its caller's frame (the LLVM backend does).
pub fn local_views(body: &Body, types: &TypeTable, call_may_keep: impl Fn(&str) -> bool) -> Vec<bool> {
    let n = body.num_insts();
    let mut local: Vec<bool> =
        (0..n).map(|i| matches!(body.tags[ValueId::new(i)], Opcode::View | Opcode::ViewInBounds)).collect();
    if !local.contains(&true) {
        return local;
    }
    // (base, view) for every view whose base is a view: the base stays
    // local only while the view does.
    let mut base_of: Vec<(ValueId, ValueId)> = Vec::new();
    for b in body.blocks.ids() {
        let d = body.blocks[b];
        for u in (d.start..d.end).map(ValueId::from_u32) {
            let stays = match body.tags[u] {
                Opcode::Load
                | Opcode::Store
                | Opcode::IndexLoad
                | Opcode::IndexStore
                | Opcode::Dim
                | Opcode::Stride => true,
                Opcode::Call => match body.inst(u) {
                    InstData::Call { callee, .. } => {
                        let hands_back = body.ty(u).is_some_and(|t| types.is_array(t) || types.get(t).is_tuple());
                        !hands_back && !call_may_keep(callee)
                    }
                    _ => false,
                },
                Opcode::View | Opcode::ViewInBounds => {
                    if let InstData::View { base, .. } = body.inst(u) {
                        if local.get(base.index()) == Some(&true) {
                            base_of.push((base, u));
                        }
                    }
                    continue;
                }
                _ => false,
            };
            if !stays {
                body.for_each_operand(u, |x| {
                    if let Some(l) = local.get_mut(x.index()) {
                        *l = false;
                    }
                });
            }
        }
    }
    // The base of a view that escapes escapes: spread down chains of views.
    let mut changed = true;
    while changed {
        changed = false;
        for &(base, view) in &base_of {
            if local[base.index()] && !local[view.index()] {
                local[base.index()] = false;
                changed = true;
            }
        }
    }
    local
}
