//! Value types, interned per module: dtype + array flag + output flag +
//! shape + layout. Scalar types have fixed ids equal to their dtype's index.

use crate::dtype::DType;
use crate::entity::{EntityId, IndexVec};
use crate::entity_id;
use indexmap::IndexSet;
use smallvec::SmallVec;
use std::fmt;

entity_id! {
    /// An interned value type of one module.
    pub struct TypeId, "type";
}

impl TypeId {
    /// The scalar type of a dtype: always interned, at a fixed id.
    pub const fn scalar(d: DType) -> TypeId {
        TypeId::from_u32(d as u32)
    }
    pub const BOOL: TypeId = TypeId::scalar(DType::Bool);
    pub const INT64: TypeId = TypeId::scalar(DType::Int64);
    pub const FLOAT64: TypeId = TypeId::scalar(DType::Float64);
    pub const STR: TypeId = TypeId::scalar(DType::Str);
}

/// One array dimension: concrete or dynamic (`?`).
pub type Dim = Option<u64>;

/// An array's dimensions: fully unknown (`AnyShape`) or one entry per axis.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Shape {
    #[default]
    Any,
    Dims(SmallVec<[Dim; 4]>),
}

impl Shape {
    pub fn dims(dims: &[Dim]) -> Shape {
        Shape::Dims(dims.iter().copied().collect())
    }
    /// Number of axes, when the shape fixes it.
    pub fn ndim(&self) -> Option<usize> {
        match self {
            Shape::Any => None,
            Shape::Dims(d) => Some(d.len()),
        }
    }
    pub fn is_any(&self) -> bool {
        matches!(self, Shape::Any)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Any => f.write_str("AnyShape"),
            Shape::Dims(d) => {
                f.write_str("Shape[")?;
                for (i, dim) in d.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match dim {
                        Some(n) => write!(f, "{n}")?,
                        None => f.write_str("?")?,
                    }
                }
                f.write_str("]")
            }
        }
    }
}

/// Memory layout of an array view. Strides are in bytes (NumPy convention).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Layout {
    #[default]
    COrder,
    FOrder,
    Strides(SmallVec<[i64; 4]>),
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layout::COrder => f.write_str("COrder"),
            Layout::FOrder => f.write_str("FOrder"),
            Layout::Strides(s) => {
                f.write_str("Strides[")?;
                for (i, st) in s.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{st}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// What a value's type says: the `dtype`, `shape`, `layout`,
/// `is_array` and `is_output` fields, or, for a tuple, its `elements`.
///
/// A tuple type (`(Float64, Int64[]Shape[?])`) is only ever the result
/// type of a function and of the calls of it, and the operand of
/// `extract`: it holds scalars and arrays, never another tuple or an
/// output. Its other fields are those of [`TypeData::tuple`] and say
/// nothing; code that reads `dtype` of a type that may be a function's
/// result asks [`TypeData::is_tuple`] first.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TypeData {
    pub dtype: DType,
    pub is_array: bool,
    pub is_output: bool,
    pub shape: Shape,
    pub layout: Layout,
    /// The element types of a tuple, in order; empty for every other type.
    pub elements: Vec<TypeData>,
}

impl TypeData {
    pub fn scalar(dtype: DType) -> TypeData {
        TypeData {
            dtype,
            is_array: false,
            is_output: false,
            shape: Shape::Any,
            layout: Layout::COrder,
            elements: Vec::new(),
        }
    }
    pub fn array(dtype: DType, shape: Shape, layout: Layout) -> TypeData {
        TypeData { dtype, is_array: true, is_output: false, shape, layout, elements: Vec::new() }
    }
    /// The tuple of `elements` (at least one; scalars and arrays that are
    /// not outputs).
    pub fn tuple(elements: Vec<TypeData>) -> TypeData {
        TypeData { elements, ..TypeData::scalar(DType::Int64) }
    }
    pub fn is_tuple(&self) -> bool {
        !self.elements.is_empty()
    }
    pub fn output(mut self) -> TypeData {
        self.is_output = true;
        self
    }
    /// The same type without the output flag (what a reader of it sees).
    pub fn without_output(&self) -> TypeData {
        TypeData { is_output: false, ..self.clone() }
    }
    /// Number of axes, when the shape fixes it.
    pub fn ndim(&self) -> Option<usize> {
        self.shape.ndim()
    }

    /// The byte stride of `axis` when the type alone fixes it: explicit
    /// `Strides`, or C / Fortran order with a static shape. With a dynamic
    /// dimension anywhere the array may be any view (the interpreter and
    /// the ABI take the caller's strides), so no stride is assumed.
    pub fn static_stride(&self, axis: usize) -> Option<i64> {
        let elem = self.dtype.size_bytes() as i64;
        let dims = match &self.shape {
            Shape::Dims(d) => d,
            Shape::Any => return None,
        };
        if axis >= dims.len() {
            return None;
        }
        if !matches!(self.layout, Layout::Strides(_)) && dims.iter().any(Option::is_none) {
            return None;
        }
        let extents = |ds: &[Dim]| ds.iter().try_fold(elem, |acc, d| acc.checked_mul(i64::try_from((*d)?).ok()?));
        match &self.layout {
            Layout::Strides(s) => s.get(axis).copied(),
            Layout::COrder => extents(&dims[axis + 1..]),
            Layout::FOrder => extents(&dims[..axis]),
        }
    }
}

/// Prints as a value's type is written after its name (`%x: &Float64[]Shape[3, 3]`):
/// `&` for an output, `[]` for an array, shape and layout only when they
/// differ from `AnyShape` and `COrder`; a tuple as its elements in
/// parentheses (`(Float64, Int64[]Shape[?])`).
impl fmt::Display for TypeData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_tuple() {
            f.write_str("(")?;
            for (i, e) in self.elements.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{e}")?;
            }
            return f.write_str(")");
        }
        if self.is_output {
            f.write_str("&")?;
        }
        f.write_str(self.dtype.name())?;
        if self.is_array {
            f.write_str("[]")?;
        }
        if !self.shape.is_any() {
            write!(f, "{}", self.shape)?;
        }
        if self.layout != Layout::COrder {
            write!(f, "{}", self.layout)?;
        }
        Ok(())
    }
}

/// The module's type interner.
#[derive(Clone, Debug)]
pub struct TypeTable {
    set: IndexSet<TypeData>,
}

impl Default for TypeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeTable {
    pub fn new() -> TypeTable {
        let mut set = IndexSet::with_capacity(32);
        for d in DType::ALL {
            set.insert(TypeData::scalar(d));
        }
        TypeTable { set }
    }

    pub fn intern(&mut self, t: TypeData) -> TypeId {
        let (i, _) = self.set.insert_full(t);
        TypeId::new(i)
    }

    pub fn lookup(&self, t: &TypeData) -> Option<TypeId> {
        self.set.get_index_of(t).map(TypeId::new)
    }

    /// The data of an interned type. Ids come from this table, so indexing
    /// cannot fail for an id of this module.
    #[inline]
    pub fn get(&self, id: TypeId) -> &TypeData {
        &self.set[id.index()]
    }

    /// The data of a type, or `None` for an id this table never gave out.
    pub fn try_get(&self, id: TypeId) -> Option<&TypeData> {
        self.set.get_index(id.index())
    }

    #[inline]
    pub fn dtype(&self, id: TypeId) -> DType {
        self.set[id.index()].dtype
    }

    #[inline]
    pub fn is_array(&self, id: TypeId) -> bool {
        self.set[id.index()].is_array
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (TypeId, &TypeData)> {
        self.set.iter().enumerate().map(|(i, t)| (TypeId::new(i), t))
    }

    pub fn display(&self, id: TypeId) -> impl fmt::Display + '_ {
        self.get(id)
    }

    /// Copies a type of another module's table into this one.
    pub fn import(&mut self, other: &TypeTable, id: TypeId) -> TypeId {
        self.intern(other.get(id).clone())
    }
}

/// A map from ids of one table to ids of another, filled on demand.
pub type TypeMap = IndexVec<TypeId, Option<TypeId>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_ids_are_fixed() {
        let mut t = TypeTable::new();
        for d in DType::ALL {
            assert_eq!(t.intern(TypeData::scalar(d)), TypeId::scalar(d));
        }
        assert_eq!(t.dtype(TypeId::INT64), DType::Int64);
    }

    #[test]
    fn prints_like_the_seed_repr() {
        let t = TypeData::array(DType::Float64, Shape::dims(&[Some(3), Some(3)]), Layout::COrder).output();
        assert_eq!(t.to_string(), "&Float64[]Shape[3, 3]");
        let t = TypeData::array(DType::Int32, Shape::dims(&[None, Some(4)]), Layout::FOrder);
        assert_eq!(t.to_string(), "Int32[]Shape[?, 4]FOrder");
        let t = TypeData::array(DType::UInt8, Shape::Any, Layout::Strides([24, 8].into_iter().collect()));
        assert_eq!(t.to_string(), "UInt8[]Strides[24, 8]");
        assert_eq!(TypeData::scalar(DType::Bool).to_string(), "Bool");
    }

    #[test]
    fn tuples_print_their_elements() {
        let arr = TypeData::array(DType::Int64, Shape::dims(&[None]), Layout::COrder);
        let t = TypeData::tuple(vec![TypeData::scalar(DType::Float64), arr]);
        assert!(t.is_tuple() && !TypeData::scalar(DType::Int64).is_tuple());
        assert_eq!(t.to_string(), "(Float64, Int64[]Shape[?])");
    }

    #[test]
    fn interning_dedups() {
        let mut t = TypeTable::new();
        let a = t.intern(TypeData::array(DType::Float32, Shape::Any, Layout::COrder));
        let b = t.intern(TypeData::array(DType::Float32, Shape::Any, Layout::COrder));
        assert_eq!(a, b);
        assert_eq!(t.len(), 17);
    }
}
