//! Local-variable clean-up of a finished function body. Every IR value
//! lives in a local, so a value used right where it is made comes out as
//! `local.set x; local.get x`: that pair becomes `local.tee x`, or nothing
//! (the value stays on the stack) when it is the local's only write and
//! only read. V8's optimising tier sees through the locals either way; the
//! module gets smaller and its baseline code (what runs before a function
//! is optimised) faster.

use wasm_encoder::Instruction as I;

/// Folds `local.set x; local.get x` pairs in `code`, whose function has
/// `nlocals` locals, the first `nparams` of them its parameters (never
/// dropped: the caller's value is one more write).
pub(crate) fn fold_local_pairs(code: &mut Vec<I<'static>>, nparams: u32, nlocals: u32) {
    let mut writes = vec![0u32; nlocals as usize];
    let mut reads = vec![0u32; nlocals as usize];
    for i in code.iter() {
        match *i {
            I::LocalSet(x) | I::LocalTee(x) => writes[x as usize] += 1,
            I::LocalGet(x) => reads[x as usize] += 1,
            _ => {}
        }
    }
    let old = std::mem::take(code);
    code.reserve(old.len());
    let mut it = old.into_iter().peekable();
    while let Some(i) = it.next() {
        if let I::LocalSet(x) = i {
            if matches!(it.peek(), Some(I::LocalGet(y)) if *y == x) {
                it.next();
                let k = x as usize;
                if !(x >= nparams && writes[k] == 1 && reads[k] == 1) {
                    code.push(I::LocalTee(x));
                }
                continue;
            }
        }
        code.push(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_become_tees_or_vanish() {
        // Local 1 (a parameter) and local 3 are read twice; local 2 is
        // written and read once, right away.
        let mut code = vec![
            I::LocalGet(0),
            I::LocalSet(1),
            I::LocalGet(1),
            I::LocalGet(1),
            I::I32Add,
            I::LocalSet(2),
            I::LocalGet(2),
            I::LocalSet(3),
            I::LocalGet(3),
            I::LocalGet(3),
            I::I32Mul,
            I::Drop,
        ];
        fold_local_pairs(&mut code, 2, 4);
        let want = vec![
            I::LocalGet(0),
            I::LocalTee(1),
            I::LocalGet(1),
            I::I32Add,
            I::LocalTee(3),
            I::LocalGet(3),
            I::I32Mul,
            I::Drop,
        ];
        assert_eq!(format!("{code:?}"), format!("{want:?}"));
        // A local written on two paths and read once after them keeps its
        // pair's write.
        let mut code = vec![
            I::LocalGet(0),
            I::If(wasm_encoder::BlockType::Empty),
            I::I32Const(1),
            I::LocalSet(1),
            I::Else,
            I::I32Const(2),
            I::LocalSet(1),
            I::End,
            I::LocalGet(1),
            I::Drop,
        ];
        let before = format!("{code:?}");
        fold_local_pairs(&mut code, 1, 2);
        assert_eq!(format!("{code:?}"), before);
    }
}
