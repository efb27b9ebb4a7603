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
