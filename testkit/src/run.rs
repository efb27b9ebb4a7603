//! Running a case in the reference interpreter.

use crate::cases::{build_args, Arg, Case, Ret, Tol};
use crate::compare::{compare_list, show, values_match};
use postc_ir::interp::{Array, InterpOptions, Interpreter, Trap, TrapKind, Value};
use postc_ir::{ModuleId, Program};

/// Instructions one case may execute.
pub const FUEL: u64 = 50_000_000;

/// The whole buffer under a view, as a 1-D array of `n` elements.
pub fn whole_buffer(view: &Array, n: usize) -> Array {
    view.view(vec![n], vec![view.dtype.size_bytes() as isize], 0)
}

/// Compares a call's result (`None` for none) with the expected one of a
/// case that does not panic: a tuple element by element.
pub fn check_return(want: &Ret, got: Option<&Value>, tol: Tol) -> Result<(), String> {
    match (want, got) {
        (Ret::Void, None) => {}
        (Ret::Scalar(w), Some(g)) if !matches!(g, Value::Array(_) | Value::Tuple(_)) => {
            if !values_match(g, w, tol) {
                return Err(format!("returned {}, expected {}", show(g), show(w)));
            }
        }
        (Ret::Array { dtype, shape, values }, Some(Value::Array(a))) => {
            if a.dtype != *dtype || &a.shape != shape {
                return Err(format!(
                    "returned a {}[] of shape {:?}, expected {dtype}[] of shape {shape:?}",
                    a.dtype, a.shape
                ));
            }
            compare_list("returned array", &a.to_values(), values, tol)?;
        }
        (Ret::Tuple(ws), Some(Value::Tuple(gs))) if ws.len() == gs.len() => {
            for (k, (w, g)) in ws.iter().zip(gs).enumerate() {
                check_return(w, Some(g), tol).map_err(|e| format!("element {k}: {e}"))?;
            }
        }
        (want, got) => {
            return Err(format!("returned {}, expected {want:?}", got.map(show).unwrap_or_else(|| "nothing".into())))
        }
    }
    Ok(())
}

/// Checks what a case printed against its `stdout` line.
pub fn check_stdout(want: &str, got: &str) -> Result<(), String> {
    if want != got {
        return Err(format!("printed {got:?}, expected {want:?}"));
    }
    Ok(())
}

/// Runs one case in the interpreter (`checked`: overflow checks, the -O0
/// semantics) on the first module of `program`; `Err` says how the result
/// differs from the expected one.
pub fn run_case(program: &Program, case: &Case, checked: bool) -> Result<(), String> {
    let (args, arrays) = build_args(case);
    let mut interp = Interpreter::new(program, InterpOptions { overflow_checks: checked, fuel: Some(FUEL) });
    let mid = ModuleId::from_u32(0);
    let result: Result<Option<Value>, Trap> =
        if case.ufunc { interp.call_ufunc(mid, &case.func, &args) } else { interp.call(mid, &case.func, &args) };
    let tol = case.tol;
    match (case.ret.as_ref().unwrap(), result) {
        (Ret::Panic { message, loc }, Err(t)) => {
            if t.kind != TrapKind::Panic || &t.message != message || t.loc.as_ref() != Some(loc) {
                return Err(format!(
                    "trapped `{t}` ({:?}), expected `panic: {message} at {}:{}:{}`",
                    t.kind, loc.0, loc.1, loc.2
                ));
            }
            return Ok(());
        }
        (Ret::Panic { message, loc }, Ok(v)) => {
            return Err(format!(
                "returned {}, expected `panic: {message} at {}:{}:{}`",
                v.as_ref().map(show).unwrap_or_else(|| "nothing".into()),
                loc.0,
                loc.1,
                loc.2
            ))
        }
        (_, Err(t)) => return Err(format!("trapped `{t}` ({:?})", t.kind)),
        (want, Ok(got)) => check_return(want, got.as_ref(), tol)?,
    }
    check_stdout(&case.stdout, &interp.take_output())?;
    for (idx, want) in &case.outs {
        let a = arrays[*idx].as_ref().unwrap();
        compare_list(&format!("argument {idx}"), &a.to_values(), want, tol)?;
    }
    for (idx, want) in &case.bufs {
        let a = arrays[*idx].as_ref().unwrap();
        let n = match &case.args[*idx] {
            Arg::Array(x) => x.buf.len(),
            _ => unreachable!(),
        };
        compare_list(&format!("buffer of argument {idx}"), &whole_buffer(a, n).to_values(), want, tol)?;
    }
    Ok(())
}
