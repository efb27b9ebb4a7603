//! Array arguments whose elements are not aligned for their type, copied
//! to an aligned array for the call, and an output's copy written back.
//!
//! Compiled code loads and stores elements as their C type, which assumes
//! its alignment (docs/abi.md §3); data that is not aligned is undefined
//! behaviour for it: LLVM marks the accesses with the type's alignment, and
//! a C compiler's vectoriser may peel iterations until an address is
//! aligned and then use aligned vector instructions, which fault on data
//! that no number of elements aligns. Unaligned arrays are ordinary all the
//! same: NumPy's `frombuffer` at an odd offset, and the arrays Dask's
//! distributed serialisation delivers to its workers. Such an argument is
//! copied into a fresh, compact NumPy array (aligned by NumPy's allocator),
//! and an output's copy is written back over the argument's elements when
//! the call returns, also after a panic, so that what the function wrote
//! before panicking reaches the argument as it would have without the
//! copy.

use crate::dlpack;
use numpy::npyffi::{self, PY_ARRAY_API};
use postc_ir::DType;
use pyo3::prelude::*;
use smallvec::SmallVec;

/// An argument's elements, copied.
pub struct AlignedCopy<'py> {
    /// The compact NumPy array passed instead (it keeps a returned view of
    /// the copy alive).
    pub array: Bound<'py, PyAny>,
    /// The copy's first element.
    pub data: *mut u8,
    /// The argument's first element, extents and byte strides, for an
    /// output written back.
    source: *mut u8,
    shape: SmallVec<[i64; 4]>,
    byte_strides: SmallVec<[i64; 4]>,
    elem: usize,
    output: bool,
}

impl<'py> AlignedCopy<'py> {
    /// Copies the elements of a view of `d` at `source` (its first element),
    /// of `shape` and `byte_strides`, into a new compact array.
    ///
    /// # Safety
    /// The view's elements must be readable (and, for an `output`, stay
    /// writable until [`AlignedCopy::write_back`]); `shape` must have
    /// non-negative extents whose product fits in `isize`.
    pub unsafe fn new(
        py: Python<'py>,
        d: DType,
        source: *mut u8,
        shape: &[i64],
        byte_strides: &[i64],
        output: bool,
    ) -> PyResult<AlignedCopy<'py>> {
        let Some(typenum) = dlpack::npy_type(d) else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!("no NumPy array holds {} elements", d.name())));
        };
        let mut dims: SmallVec<[npyffi::npy_intp; 4]> = shape.iter().map(|&n| n as npyffi::npy_intp).collect();
        let descr = PY_ARRAY_API.PyArray_DescrFromType(py, typenum);
        let array_type = PY_ARRAY_API.get_type_object(py, npyffi::NpyTypes::PyArray_Type);
        let raw = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            array_type,
            descr,
            dims.len() as i32,
            dims.as_mut_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
        );
        let array = Bound::from_owned_ptr_or_err(py, raw)?;
        let data = (*array.as_ptr().cast::<npyffi::PyArrayObject>()).data.cast::<u8>();
        let copy = AlignedCopy {
            array,
            data,
            source,
            shape: shape.into(),
            byte_strides: byte_strides.into(),
            elem: d.size_bytes() as usize,
            output,
        };
        copy_strided(source, &copy.shape, &copy.byte_strides, copy.elem, data, Direction::ToCompact);
        Ok(copy)
    }

    /// Writes an output's copy back over the argument's elements (nothing
    /// for an input).
    ///
    /// # Safety
    /// The argument's elements must still be writable.
    pub unsafe fn write_back(&self) {
        if self.output {
            copy_strided(self.source, &self.shape, &self.byte_strides, self.elem, self.data, Direction::FromCompact);
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    ToCompact,
    FromCompact,
}

/// Copies the elements of a strided view (first element at `view`, `shape`
/// and byte `strides`, `elem` bytes each) to or from the compact row-major
/// buffer at `compact`, in row-major order. The offsets are stepped with
/// wrapping arithmetic: a stride along an axis of one element may be any
/// value and is undone as soon as it is added.
///
/// # Safety
/// Every element of the view and `compact`'s product-of-`shape` elements
/// must be valid for the direction's reads and writes; the two must not
/// overlap.
unsafe fn copy_strided(
    view: *mut u8,
    shape: &[i64],
    strides: &[i64],
    elem: usize,
    compact: *mut u8,
    direction: Direction,
) {
    if shape.iter().any(|&n| n <= 0) {
        return;
    }
    let count: usize = shape.iter().map(|&n| n as usize).product();
    let nd = shape.len();
    let mut index: SmallVec<[i64; 4]> = SmallVec::from_elem(0, nd);
    let mut offset: isize = 0;
    for k in 0..count {
        let element = view.wrapping_offset(offset);
        let slot = compact.add(k * elem);
        match direction {
            Direction::ToCompact => std::ptr::copy_nonoverlapping(element, slot, elem),
            Direction::FromCompact => std::ptr::copy_nonoverlapping(slot, element, elem),
        }
        // The next multi-index, the last axis fastest.
        for axis in (0..nd).rev() {
            index[axis] += 1;
            offset = offset.wrapping_add(strides[axis] as isize);
            if index[axis] < shape[axis] {
                break;
            }
            offset = offset.wrapping_sub((strides[axis] as isize).wrapping_mul(shape[axis] as isize));
            index[axis] = 0;
        }
    }
}
