//! Name sets and the hasher of the verifier's maps.

use super::*;

// ---------------------------------------------------------------------------
// A small, fast string hasher (FxHash): names are short and trusted.

#[derive(Default, Clone, Copy)]
pub(super) struct FxHasher {
    pub(super) hash: u64,
}

impl FxHasher {
    #[inline]
    pub(super) fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The product's entropy is in its high bits, and the table picks
        // buckets by the low ones: without the rotation, names that differ
        // only past their first few bytes (`f1` ... `f99999`) share a few
        // hundred buckets and lookups turn quadratic.
        self.hash.rotate_left(26)
    }
}

pub(super) type FxBuild = BuildHasherDefault<FxHasher>;
pub(super) type FxMap<K, V> = HashMap<K, V, FxBuild>;

/// The result names of one function, for the uniqueness check: an
/// open-addressing table of instruction ids keyed by a hash of the name's
/// bytes, reused across functions. A slot holds the high half of the hash
/// and the instruction id, so most probes compare no bytes.
#[derive(Default)]
pub(super) struct NameSet {
    pub(super) slots: Vec<u64>,
    pub(super) mask: usize,
    /// The multiplicative hash keeps its information in the high bits.
    pub(super) shift: u32,
}

pub(super) const EMPTY_SLOT: u64 = u64::MAX;

/// A hash of a short byte string: the first and last words (overlapping
/// for short strings), the words between, and the length; no copies.
#[inline(always)]
pub(super) fn name_hash(b: &[u8]) -> u64 {
    #[inline(always)]
    pub(super) fn fold(a: u64, b: u64) -> u64 {
        let r = (a as u128).wrapping_mul(b as u128);
        (r as u64) ^ ((r >> 64) as u64)
    }
    #[inline(always)]
    pub(super) fn word(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]])
    }
    const K0: u64 = 0xa076_1d64_78bd_642f;
    const K1: u64 = 0xe703_7ed1_a0b4_28db;
    let n = b.len();
    let (lo, hi) = if n >= 8 {
        (word(b, 0), word(b, n - 8))
    } else if n >= 4 {
        let (x, y) = (&b[..4], &b[n - 4..]);
        (u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as u64, u32::from_le_bytes([y[0], y[1], y[2], y[3]]) as u64)
    } else if n > 0 {
        ((b[0] as u64) | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16, 0)
    } else {
        (0, 0)
    };
    let mut h = K0 ^ n as u64;
    if n > 16 {
        let mut at = 8;
        while at + 8 <= n - 8 {
            h = fold(h ^ word(b, at), K1);
            at += 8;
        }
    }
    fold(lo ^ K1, hi ^ h)
}

impl NameSet {
    pub(super) fn reset(&mut self, n: usize) {
        let cap = (n * 2).next_power_of_two().max(16);
        self.slots.clear();
        self.slots.resize(cap, EMPTY_SLOT);
        self.mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
    }

    /// Adds the name `nm` of `v`; false when another value has it already.
    #[inline(always)]
    pub(super) fn insert(&mut self, body: &Body, v: ValueId, nm: &[u8]) -> bool {
        let h = name_hash(nm);
        let tag = h & 0xffff_ffff_0000_0000;
        let mut i = (h >> self.shift) as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s == EMPTY_SLOT {
                self.slots[i] = tag | v.as_u32() as u64;
                return true;
            }
            if s & 0xffff_ffff_0000_0000 == tag && body.name_bytes(ValueId::from_u32(s as u32)) == Some(nm) {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }
}
