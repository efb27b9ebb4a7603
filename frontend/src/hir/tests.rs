use super::*;
use crate::Tree;
use ruff_python_ast::Stmt as AstStmt;

/// Parsed as the frontend parses (a deep tree is dropped without
/// recursion).
fn parse(src: &str) -> Tree {
    let tree = Tree::parse(src);
    assert!(tree.errors().is_empty(), "{:?}", tree.errors());
    tree
}

/// The body of the first function of `src`, whose module level binds
/// `globals`; its parameters are its own.
fn body_of(src: &str, globals: &[&str]) -> Body {
    let parsed = parse(src);
    let def = parsed.body().iter().find_map(|s| match s {
        AstStmt::FunctionDef(f) => Some(f),
        _ => None,
    });
    let def = def.expect("a function");
    let params: Vec<&str> = def.parameters.args.iter().map(|p| p.parameter.name.id.as_str()).collect();
    let is_global = |n: &str| globals.contains(&n);
    BodyBuilder::build(def, params, &[], &is_global)
}

impl Body {
    /// The local named `name`, if the function has one.
    fn local(&self, name: &str) -> Option<LocalId> {
        self.locals.iter().find(|(_, l)| &*l.name == name).map(|(id, _)| id)
    }
}

/// The text of the source an expression was built from.
fn text<'s>(src: &'s str, body: &Body, e: ExprId) -> &'s str {
    &src[body.expr_ranges[e]]
}

/// Every name expression of a body, with the text it was built from.
fn names<'s>(src: &'s str, body: &Body) -> Vec<(&'s str, Name)> {
    (body.exprs.iter())
        .filter_map(|(id, e)| match e {
            Expr::Name(n) => Some((text(src, body, id), n.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn names_resolve_to_locals_globals_and_free_names() {
    let src = "\
def f(a, n):
    s = 0.0
    for i in range(n):
        s += a[i] * SCALE
    with ctx() as w:
        t = w
    try:
        pass
    except ValueError as err:
        u = err
    return s + undefined
";
    let body = body_of(src, &["SCALE", "ctx"]);
    let local_names: Vec<&str> = body.locals.values().map(|l| &*l.name).collect();
    assert_eq!(local_names, ["a", "n", "s", "i", "w", "t", "err", "u"]);
    let kinds: Vec<LocalKind> = body.locals.values().map(|l| l.kind).collect();
    assert_eq!(kinds[..2], [LocalKind::Param, LocalKind::Param]);
    assert!(kinds[2..].iter().all(|k| *k == LocalKind::Assigned));
    let local = |n: &str| Name::Local(body.local(n).expect("a local"));
    for (at, name) in names(src, &body) {
        let want = match at {
            "SCALE" | "ctx" => Name::Global(at.into()),
            "range" | "ValueError" | "undefined" => Name::Free(at.into()),
            _ => local(at),
        };
        assert_eq!(name, want, "{at}");
    }
}

#[test]
fn a_name_bound_anywhere_is_local_everywhere() {
    // Python's rule: `x` is local to all of `f`, so its first read (before
    // the assignment) is the local's, not the global's.
    let src = "def f():\n    y = x\n    x = 1\n    return y\n";
    let body = body_of(src, &["x"]);
    let x = body.local("x").expect("x is local");
    let reads: Vec<Name> = names(src, &body).into_iter().filter(|(t, _)| *t == "x").map(|(_, n)| n).collect();
    assert_eq!(reads, [Name::Local(x), Name::Local(x)]);
}

#[test]
fn a_parameter_bound_at_the_top_level_gets_a_new_local_from_there() {
    // `n` of the value and before it is the parameter; after, `n$1`, then
    // `n$2`. The binding in the loop is the version it follows; `a`,
    // bound only in a branch, keeps one local.
    let src = "\
def f(n, a):
    m = n
    n = n * 2.5
    for i in range(3):
        n = n + m
    n = n + 1
    if m:
        a = 0
    return n + a
";
    let body = body_of(src, &[]);
    let local = |name: &str| body.local(name).unwrap_or_else(|| panic!("a local {name}"));
    let (p, v1, v2) = (local("n"), local("n$1"), local("n$2"));
    assert_eq!(body.locals[v1].kind, LocalKind::Assigned);
    let reads: Vec<Name> = names(src, &body).into_iter().filter(|(t, _)| *t == "n").map(|(_, n)| n).collect();
    let want = [p, p, v1, v1, v1, v1, v2, v2].map(Name::Local);
    assert_eq!(reads, want);
    assert!(body.local("a$1").is_none());
}

#[test]
fn nested_functions_and_poisoned_parameters_are_quiet_locals() {
    let src = "def f(a, b):\n    def g():\n        pass\n    return g() + a + b\n";
    let parsed = parse(src);
    let AstStmt::FunctionDef(def) = &parsed.body()[0] else { panic!("a function") };
    let body = BodyBuilder::build(def, ["a", "b"], &["b".to_owned()], &|_| false);
    let kind = |n: &str| body.locals[body.local(n).expect("a local")].kind;
    assert_eq!(kind("a"), LocalKind::Param);
    assert_eq!(kind("b"), LocalKind::Poisoned);
    assert_eq!(kind("g"), LocalKind::Poisoned);
    assert!(matches!(body.stmts[body.top[0]], Stmt::NestedFunction { name_range } if &src[name_range] == "g"));
}

#[test]
fn every_node_keeps_its_source_range() {
    let src = "def f(a):\n    return a[1:3] + -a[0] * 2.5\n";
    let body = body_of(src, &[]);
    let texts: Vec<&str> = body.exprs.iter().map(|(id, _)| text(src, &body, id)).collect();
    for want in ["a[1:3] + -a[0] * 2.5", "a[1:3]", "1:3", "1", "3", "-a[0] * 2.5", "-a[0]", "a[0]", "0", "2.5"] {
        assert!(texts.contains(&want), "{want} not among {texts:?}");
    }
    let ret = body.top[0];
    assert_eq!(&src[body.stmt_ranges[ret]], "return a[1:3] + -a[0] * 2.5");
    let Stmt::Return(Some(value)) = body.stmts[ret] else { panic!("a return") };
    let Expr::BinOp { op: ast::Operator::Add, lhs, rhs } = body.exprs[value] else { panic!("a sum") };
    assert!(matches!(body.exprs[lhs], Expr::Subscript { .. }));
    assert!(matches!(body.exprs[rhs], Expr::BinOp { op: ast::Operator::Mult, .. }));
}

#[test]
fn refused_constructs_keep_what_they_hold() {
    let src = "\
def f(a):
    with open(a) as g:
        x = undefined_in_with
    d = {a: 1, 2: missing_value}
    h = lambda y: y + 1
    return (n := a + 1)
";
    let body = body_of(src, &[]);
    let top: Vec<&Stmt> = body.top.iter().map(|s| &body.stmts[*s]).collect();
    let Stmt::Refused { construct, exprs, blocks } = top[0] else { panic!("`with` is refused: {:?}", top[0]) };
    assert_eq!(*construct, "`with`");
    assert_eq!(exprs.iter().map(|e| text(src, &body, *e)).collect::<Vec<_>>(), ["open(a)", "g"]);
    let [inner] = &blocks[..] else { panic!("one block") };
    let Stmt::Assign { value, .. } = body.stmts[inner[0]] else { panic!("the assignment in the `with`") };
    assert!(matches!(&body.exprs[value], Expr::Name(Name::Free(n)) if &**n == "undefined_in_with"));

    let refused = |e: ExprId| match &body.exprs[e] {
        Expr::Refused { construct, parts } => (*construct, parts.iter().map(|p| text(src, &body, *p)).collect()),
        other => panic!("not refused: {other:?}"),
    };
    let value_of = |s: &Stmt| match s {
        Stmt::Assign { value, .. } => *value,
        Stmt::Return(Some(v)) => *v,
        other => panic!("{other:?}"),
    };
    let dict: (&str, Vec<&str>) = refused(value_of(top[1]));
    assert_eq!(dict, ("a dict literal", vec!["a", "1", "2", "missing_value"]));
    // A lambda's body sees its own parameters: it is not checked with
    // the function's names.
    assert_eq!(refused(value_of(top[2])), ("a lambda", vec![]));
    assert_eq!(refused(value_of(top[3])), ("an assignment expression (`:=`)", vec!["a + 1"]));
}

#[test]
fn an_elif_chain_is_one_node_with_its_arms() {
    let mut src = String::from("def f(x):\n    if x == 0:\n        r = 0\n");
    for i in 1..50 {
        src += &format!("    elif x == {i}:\n        r = {i}\n");
    }
    src += "    else:\n        r = -1\n    return r\n";
    let body = body_of(&src, &[]);
    let Stmt::If { arms } = &body.stmts[body.top[0]] else { panic!("an if") };
    assert_eq!(arms.len(), 51);
    assert!(arms[..50].iter().all(|a| a.test.is_some()));
    assert!(arms[50].test.is_none());
    assert_eq!(text(&src, &body, arms[49].test.unwrap()), "x == 49");
}

#[test]
fn local_names_are_in_order_of_first_binding() {
    let src = "\
def f():
    b = 1
    a, (c, *d) = 1, (2, 3)
    for i in range(3):
        b += i
    match b:
        case [e, *rest]:
            pass
";
    let parsed = parse(src);
    let AstStmt::FunctionDef(def) = &parsed.body()[0] else { panic!("a function") };
    assert_eq!(local_names(&def.body), ["b", "a", "c", "d", "i", "e", "rest"]);
}

#[test]
fn a_sum_of_100000_terms_builds_on_a_small_stack() {
    let terms = 100_000;
    let src = format!("def f(x):\n    return {}\n", vec!["x"; terms].join(" + "));
    let (exprs, depth) = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let body = body_of(&src, &[]);
            // Walked down the left operands, without recursion.
            let Stmt::Return(Some(mut e)) = body.stmts[body.top[0]] else { panic!("a return") };
            let mut depth = 1;
            while let Expr::BinOp { lhs, .. } = body.exprs[e] {
                e = lhs;
                depth += 1;
            }
            (body.exprs.len(), depth)
        })
        .expect("a thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(exprs, 2 * terms - 1);
    assert_eq!(depth, terms);
}
