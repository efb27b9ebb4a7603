//! The payload layout of each format (`Format::layout`) is the one
//! description the operand walks read; the typed decoder (`Body::inst`) is
//! written per variant. Both must agree on every instruction of every
//! program in the tree, and a rewrite through `map_operands` and
//! `map_block_operands` must change exactly the operands the decoder sees.

use postc_ir::body::InstData;
use postc_ir::{BlockId, ValueId};
use postc_testkit::corpus::{load, program_files};

/// Value and block operands in textual order, from the typed decoder.
fn decoded(i: &InstData<'_>) -> (Vec<ValueId>, Vec<BlockId>) {
    let v = |xs: &[ValueId]| (xs.to_vec(), Vec::new());
    match i {
        InstData::Param { .. } | InstData::Const(_) | InstData::Unreachable | InstData::Malformed => v(&[]),
        InstData::Binary { left, right, .. } => v(&[*left, *right]),
        InstData::Unary { operand, .. } | InstData::Cast { operand } | InstData::Bitcast { operand } => v(&[*operand]),
        InstData::Load { array, offset } => v(&[*array, *offset]),
        InstData::Store { array, offset, value } => v(&[*array, *offset, *value]),
        InstData::Dim { array, .. } | InstData::Stride { array, .. } => v(&[*array]),
        InstData::RawRead { base, .. } => v(&[*base]),
        InstData::RawOffset { address, bytes } => v(&[*address, *bytes]),
        InstData::RawLoad { address } => v(&[*address]),
        InstData::RawStore { address, value } => v(&[*address, *value]),
        InstData::Call { args, .. } => (args.iter().collect(), Vec::new()),
        InstData::Let { value } => v(&[*value]),
        InstData::Set { target, value } => v(&[*target, *value]),
        InstData::Select { cond, if_true, if_false } => v(&[*cond, *if_true, *if_false]),
        InstData::Alloc { dims } => (dims.iter().collect(), Vec::new()),
        InstData::Tuple { elements } => (elements.iter().collect(), Vec::new()),
        InstData::Extract { tuple, .. } => v(&[*tuple]),
        InstData::GetField { aggregate, .. } => v(&[*aggregate]),
        InstData::SetField { aggregate, value, .. } => v(&[*aggregate, *value]),
        InstData::IndexLoad { array, indices } => (std::iter::once(*array).chain(indices.iter()).collect(), Vec::new()),
        InstData::IndexStore { array, indices, value } => {
            (std::iter::once(*array).chain(indices.iter()).chain([*value]).collect(), Vec::new())
        }
        InstData::RawData { array } => v(&[*array]),
        InstData::TextByte { text, index } => v(&[*text, *index]),
        InstData::View { base, offset, extents, strides }
        | InstData::RawView { address: base, offset, extents, strides } => {
            ([*base, *offset].into_iter().chain(extents.iter()).chain(strides.iter()).collect(), Vec::new())
        }
        InstData::Return { value } => (value.iter().copied().collect(), Vec::new()),
        InstData::Br { target } => (Vec::new(), vec![*target]),
        InstData::CondBr { cond, if_true, if_false, .. } => (vec![*cond], vec![*if_true, *if_false]),
    }
}

#[test]
fn layout_walks_agree_with_the_decoder() {
    let mut checked = 0;
    for path in program_files() {
        let m = load(&path).unwrap_or_else(|e| panic!("{e}"));
        for f in m.functions.iter() {
            let mut body = f.body.clone();
            for v in f.body.tags.ids() {
                let (values, blocks) = decoded(&f.body.inst(v));
                assert_eq!(f.body.operands(v).to_vec(), values, "{}: %{}", f.name, f.body.name_or_empty(v));
                // Rewrite every operand to a marker and decode again.
                body.map_operands(v, |x| ValueId::from_u32(x.as_u32() + 1_000_000));
                body.map_block_operands(v, |b| BlockId::from_u32(b.as_u32() + 1_000));
                let (v2, b2) = decoded(&body.inst(v));
                let shifted: Vec<ValueId> = values.iter().map(|x| ValueId::from_u32(x.as_u32() + 1_000_000)).collect();
                let bshifted: Vec<BlockId> = blocks.iter().map(|b| BlockId::from_u32(b.as_u32() + 1_000)).collect();
                assert_eq!((v2, b2), (shifted, bshifted), "{}: %{}", f.name, f.body.name_or_empty(v));
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} instructions");
}
