//! Typed `u32` ids and the tables that only the right id can index.
//!
//! Every id reserves `u32::MAX`, so `Option<Id>` is still four bytes: the id
//! stores `index + 1` in a `NonZeroU32`, which gives the compiler its niche.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// An id usable as the index of an [`IndexVec`].
pub trait EntityId: Copy + Eq + fmt::Debug + 'static {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Declares a `Copy` newtype id over `u32` with a niche for `Option`.
#[macro_export]
macro_rules! entity_id {
    ($(#[$attr:meta])* $vis:vis struct $name:ident, $prefix:literal;) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name(::std::num::NonZeroU32);

        impl $name {
            /// The largest index an id can hold (`u32::MAX` is the niche).
            pub const MAX_INDEX: usize = (u32::MAX - 1) as usize;

            #[inline]
            pub const fn from_u32(index: u32) -> Self {
                match ::std::num::NonZeroU32::new(index.wrapping_add(1)) {
                    Some(n) => $name(n),
                    None => panic!("id index out of range"),
                }
            }

            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0.get() - 1
            }
        }

        impl $crate::entity::EntityId for $name {
            #[inline]
            fn new(index: usize) -> Self {
                assert!(index <= Self::MAX_INDEX, "id index out of range");
                Self::from_u32(index as u32)
            }
            #[inline]
            fn index(self) -> usize {
                self.as_u32() as usize
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.as_u32())
            }
        }
    };
}

/// A vector indexed by one id type only.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I: EntityId, T> {
    raw: Vec<T>,
    _id: PhantomData<fn(&I)>,
}

impl<I: EntityId, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: EntityId, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter_enumerated()).finish()
    }
}

impl<I: EntityId, T> IndexVec<I, T> {
    pub const fn new() -> Self {
        IndexVec { raw: Vec::new(), _id: PhantomData }
    }
    pub fn with_capacity(n: usize) -> Self {
        IndexVec { raw: Vec::with_capacity(n), _id: PhantomData }
    }
    pub fn from_raw(raw: Vec<T>) -> Self {
        IndexVec { raw, _id: PhantomData }
    }
    #[inline]
    pub fn push(&mut self, value: T) -> I {
        let id = I::new(self.raw.len());
        self.raw.push(value);
        id
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.raw.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
    #[inline]
    pub fn get(&self, id: I) -> Option<&T> {
        self.raw.get(id.index())
    }
    #[inline]
    pub fn get_mut(&mut self, id: I) -> Option<&mut T> {
        self.raw.get_mut(id.index())
    }
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + 'static {
        (0..self.raw.len()).map(I::new)
    }
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }
    pub fn iter_enumerated_mut(&mut self) -> impl Iterator<Item = (I, &mut T)> {
        self.raw.iter_mut().enumerate().map(|(i, t)| (I::new(i), t))
    }
    pub fn next_id(&self) -> I {
        I::new(self.raw.len())
    }
    pub fn raw(&self) -> &[T] {
        &self.raw
    }
    pub fn raw_mut(&mut self) -> &mut Vec<T> {
        &mut self.raw
    }
    pub fn into_raw(self) -> Vec<T> {
        self.raw
    }
    pub fn clear(&mut self) {
        self.raw.clear()
    }
    pub fn truncate(&mut self, len: usize) {
        self.raw.truncate(len)
    }
    pub fn capacity(&self) -> usize {
        self.raw.capacity()
    }
    pub fn shrink_to_fit(&mut self) {
        self.raw.shrink_to_fit()
    }
}

impl<I: EntityId, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, id: I) -> &T {
        &self.raw[id.index()]
    }
}

impl<I: EntityId, T> IndexMut<I> for IndexVec<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.raw[id.index()]
    }
}

impl<I: EntityId, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        IndexVec::from_raw(iter.into_iter().collect())
    }
}

impl<'a, I: EntityId, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    entity_id!(struct TestId, "t";);

    #[test]
    fn option_of_id_is_four_bytes() {
        assert_eq!(std::mem::size_of::<TestId>(), 4);
        assert_eq!(std::mem::size_of::<Option<TestId>>(), 4);
    }

    #[test]
    fn ids_round_trip_their_index() {
        let mut v: IndexVec<TestId, &str> = IndexVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!(a.index(), 0);
        assert_eq!(b.as_u32(), 1);
        assert_eq!(v[b], "b");
        assert_eq!(format!("{:?}", b), "t1");
        assert_eq!(TestId::new(TestId::MAX_INDEX).as_u32(), u32::MAX - 1);
    }
}
