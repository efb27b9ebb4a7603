//! The types of a function's locals (scalars, tuples and arrays) and of
//! its expressions, solved once over its HIR.
//!
//! What it does: collects every binding of every local (assignments,
//! annotations, augmented assignments, unpackings of tuples, of
//! `a.shape` and of 1-D arrays, `for` counters over `range` and `prange`
//! and `for` variables over tuples (one name, or names unpacking each
//! element) and arrays, `enumerate` and `zip`),
//! each with the statement it is in
//! (counted in the order the lowering walks the body) and whether it is
//! inside a block, then runs one worklist: a binding's value is typed from
//! the types known so far, joined into its local's type ([`join`], along
//! the numeric tower and NEP 50; an annotated local keeps its annotation;
//! a tuple local's elements each join as a local of their own does; an
//! array local takes the first array bound to it, and every other must be
//! the same) and its non-negativity; when a local's type changes, only the
//! bindings that read it are typed again. The lattice is finite and joins
//! only go up, so it ends. An array local (or array element of a tuple
//! local) bound twice, or inside a block, is `rebound`, as the lowering
//! needs to know before it lowers the body;
//! one read by a statement at or before its first binding has no value
//! there (as in the lowering), and what is typed from that read is not
//! typed. A local bound only to NumPy dtypes (`dtype = np.int_`) has no
//! type: it is solved as the dtype a later `dtype=` reads.
//!
//! Then, the locals' types final and when asked (`TypeEnv::expr_types`),
//! it sweeps the body once, in the order
//! the lowering walks it, and records the type of every expression it
//! types there (`LocalTypes::exprs`, a [`Ty`] each), each expression
//! typed once, after the ones it holds, on an explicit stack: the
//! expressions of every statement, nested blocks and the blocks of
//! refused statements included, down to the parts of refused
//! expressions. It knows literals,
//! module constants, parameters, arithmetic, comparisons, `and`/`or`,
//! conditional expressions, indexing one element of an array, an array's
//! extents, `ndim`, `size` and `T`, views (`a[i]` of a 2-D array,
//! `a[:, j]`, `a[1:, ...]`), arrays created by `np.empty`, `np.zeros`,
//! `np.ones`, `np.full`, their `*_like` forms, `np.arange`, `np.array` of
//! nested lists, `postc.empty`, `a.copy()` and `a.astype(dtype)`,
//! transposes, ravels, reshapes and flattens, `cumsum`, reductions of a
//! whole array or along an axis (`a.sum()`, `np.argmax(a)`,
//! `a.sum(axis=0)`, `keepdims=`), whole-array expressions
//! (`2.0 * x + y`, `a > 0`, `np.sqrt(a)`: the element's type by the
//! scalar rules, the widest rank), products (`np.dot`, `a.dot(b)`,
//! `a @ b`), `np.sort`, `np.searchsorted`, `np.linalg.norm` and the
//! NaN-skipping reductions, NumPy's and `math`'s constants,
//! `np.iinfo`/`np.finfo` constants, NumPy's float ufuncs, `abs`,
//! `negative`, `square` and rounding of scalars, Python's `math` float
//! functions, casts, `len`, `abs`, `min`, `max`, `round`, `real`, `imag`
//! and `conjugate` of numbers, `postc.math` intrinsics and calls of POST
//! functions (the module's, aliased or imported from other POST modules;
//! arrays and tuples in and out; keyword arguments), and tuples (of
//! scalars, arrays and tuples): displays, `a.shape`, `divmod`, indexing,
//! slices with constant bounds, `sum`, `min` and `max`, `==`, orderings
//! and `in`, each by the rule the lowering applies; a value that may be
//! `None` (a parameter or result `T | None`) as its number (`None` binds
//! a local's presence flag, not its type), a conditional expression with
//! a `None` arm as its other arm, `x is None` and `x == None` as Python
//! bools, and `not None` and a `None` operand of `and`/`or` as the
//! lowering reads them, false.
//!
//! An expression it does not type is absent from the map: a name of a
//! module, a function, a type or a dtype and the attributes naming them
//! (`np`, `np.zeros`, `range`, `Float64`, `np.int32`), calls of other
//! NumPy functions and of builtins not above, `None`, `...`, slices and
//! starred expressions on their own, a refused construct (its parts are
//! typed), an undefined name, a local left untyped, and whatever reads
//! one of them or is refused by the lowering. A name is typed as a read
//! of its local where its statement is: an array local (or a tuple local
//! holding an array) has no type at or before its first binding, the
//! target of that binding included. What the final lowering of a valid
//! program lowers has a type, every expression but the literal `None`
//! (which no [`Ty`] describes: a value that may be `None` has its value's
//! type); `tests/lowering.rs` checks it through
//! `untyped_in_final_lowering`.
//!
//! Solving reports nothing: a binding
//! whose value is not typed here (another NumPy call, a construct
//! refused) or that does not fit the local's other bindings (a value that
//! does not join them, a narrowing, a target compiled code does not
//! store into) is left out, and the local is typed by its other
//! bindings; the sweep then reports such a binding against that type
//! ([`assignments`]). A local no binding types gets no type.
//!
//! The sweep reports ([`LocalTypes::errors`]), every one it finds, each
//! expression refused once and nothing for what only reads a refused or
//! untyped value:
//!
//! - statements refused whatever their types: `with`, `try`, `global`, an import, a nested function,
//!   an expression standing alone that is not a call, `break` and
//!   `continue` outside a loop ([`outside_loops`]), `async for`, a
//!   `raise` of what compiled code cannot raise, an `assert` whose message
//!   is not a string, an unpacking compiled code does not make (chained,
//!   nested, starred, counts that differ), an annotated assignment to
//!   what is not a local, of what is not a scalar type, of a parameter or
//!   of a local annotated before with another type, a `for` loop over a
//!   `range` whose arguments it refuses ([`Solver::range_error`]); their
//!   blocks are still swept; a `return` of what a function whose result
//!   is annotated does not return ([`Solver::return_error`]: no value,
//!   `None`, a number that does not widen to the result's dtype, an array
//!   of another dtype or number of axes);
//! - `for` loops whose target or iterable it refuses where it types them
//!   ([`Solver::for_error`], in `loops`): a `range` or `prange`
//!   bound to what is not one name, targets that are not as many names as
//!   each step gives (arrays, `enumerate`, `zip`) or not names, numbers and
//!   arrays the lowering does not step over, arrays of no or unknown axes,
//!   `enumerate` and `zip` given keywords or counts of arguments they do
//!   not take, a refused `range` among `zip`'s arguments, shapes of
//!   `np.ndindex` not of integers or targets not of their rank, and loops
//!   over tuples and list displays whose targets are not names, whose
//!   elements do not unpack into them or mix kinds of numbers; `prange`
//!   loops ([`loops::prange_checks`]): `break` out of one that runs in
//!   parallel, bodies whose iterations are not independent (a `return`,
//!   the counter assigned or read after the loop, variables carried that
//!   are not reductions), reductions of a parallel one that are not
//!   numeric scalars or that their operator does not reduce; their
//!   blocks are still swept; `return`s of tuples in a function whose
//!   result is annotated (`-> None` included; [`Solver::tuple_return`]):
//!   a tuple for a number, an array or nothing, counts of elements that
//!   differ, elements that do not widen, tuples and lists held, an empty
//!   tuple or a tuple of tuples; what is not a tuple for a tuple result,
//!   and any typed value for `-> None`;
//! - integer literals beyond 64 bits, unary operators, the arithmetic
//!   operators on numbers (`pytypes::arith`'s rules), comparisons (`is`,
//!   `in` and `== None` where refused, numbers of no common dtype,
//!   complex numbers ordered), conditional expressions (arms of no common
//!   type), conditions (a string, an array or a tuple whose truth is
//!   read: see [`conditions`]) and the operands of an `and` or `or` whose
//!   value is used (not Bools);
//! - names read as values that have none (undefined, a function, a POST
//!   module: not where a callee, an argument, a dtype or a module's
//!   member is read, see [`not_read_as_values`]), attributes a value does
//!   not have, `a.shape[k]` of what is not an array or of an axis that is
//!   not a literal or that the array does not have;
//! - the calls of builtins whose arguments it types (an argument it does
//!   not type may hold an error only the lowering finds, so such a call
//!   is left to it): `len`, `abs`, `min`, `max` and `round` of the wrong
//!   number of arguments or of values they do not take
//!   ([`builtin_arity_error`], [`len_error`], [`abs_error`],
//!   [`min_max_error`], [`round_error`], [`round_digits_error`]), casts
//!   ([`cast_error`]: the count of arguments, constants the dtype does not
//!   hold, text, complex numbers to Python numbers, arrays),
//!   `x.conjugate()` of what is not a number ([`conjugate_error`]), the
//!   `postc.math` functions of what is not a real number
//!   ([`intrinsic_error`]), Python's `math` functions ([`math_error`]: the
//!   count of arguments, what is not a real number, `trunc` of a NumPy
//!   scalar, `gcd` of what is not an integer) and NumPy's ufuncs of
//!   scalars ([`numpy_error`]: the count of arguments, strings, tuples,
//!   complex numbers where the ufunc takes none, `fmod` of integers,
//!   `negative` and `sign` of Bools);
//! - calls of what compiled code does not call ([`Solver::target_error`]:
//!   a name bound nowhere, a local, a function `postc.math` or `math` does
//!   not have or compile, a function of a POST module that it does not
//!   have or of a CPython module other than NumPy, and keyword or `*`
//!   arguments given to a builtin, a cast, `math`'s functions, an
//!   intrinsic or a CPython function);
//! - the calls of POST functions refused: a `*` or `**` argument, a callee
//!   compiled callers cannot call ([`callee_error`]), arguments that do
//!   not bind ([`bind`]: too many, an unknown keyword, one given twice, a
//!   positional-only parameter by keyword, one missing), an argument that
//!   gives a generic function's parameter without annotation no type
//!   ([`generic_argument_error`]: `None`, a list, text or a tuple holding
//!   what is no number, a default of `None`), and every argument whose type does not
//!   fit its parameter ([`argument_error`], and [`optional_number_error`]
//!   of a number for one that may be `None`; not of the instances of
//!   generic functions);
//! - assignments ([`assignments`]): targets compiled code does not store
//!   into (an attribute, a call, a starred name), an augmented assignment
//!   through an array index, values that do not unpack into their targets
//!   (a tuple of another length, the shape of an array of another number
//!   of axes, an array not of one axis, a number), every binding whose
//!   value its local's type (the join of its other bindings) does not hold
//!   (a number that does not join, or narrows an annotated local or a
//!   parameter no binding widens; a number for an array or a tuple local;
//!   an array of another type, a parameter's rebound; a tuple for what
//!   holds none or tuples of another length, or whose elements do not
//!   join), the operators of augmented assignments of numbers and of whole
//!   arrays (only `+=`, `-=`, `*=`, `/=`); and the stores through the
//!   subscripts assigned to whose parts it types, in refused assignments
//!   too: into elements (a number or a tuple indexed, more indices than
//!   axes, an index that is not an integer, a value an element does not
//!   hold: [`assignments::store_error`]), into views (what is not an array
//!   sliced, their indices, bounds and steps, text, arrays of more axes,
//!   of text or of complex numbers into real ones) and through array
//!   indices (what is not an array, indices not of integers or Bools, an
//!   array of no axes, a mask of more axes); a write to an input array is
//!   reported besides ([`read_only`]);
//! - the `return`s of a function whose result is unannotated
//!   ([`results`]): the first `return` of a tuple gives the result's type
//!   ([`LocalTypes::tuple_result`]: its elements flattened as the lowering
//!   flattens them, with the tuples inside it, its lists and the presence
//!   flags of elements some `return` gives as `None`; the rounds of
//!   `PyFrontend::define` read it instead of lowering the body), and every
//!   other `return` that does not give the same is refused: a value that
//!   is not a tuple, or none; tuples or lists inside it in other places;
//!   another count of elements; an element that does not widen to the
//!   first's. Also refused: a tuple of tuples or an empty tuple held, and
//!   a tuple or a list beside elements that may be `None`; the instances
//!   of generic functions that calls name ([`instances`]) are asked for
//!   where the sweep binds the call (arrays writable unless the argument
//!   reads an input or a module-level array), so that the rounds type the
//!   bodies rather than lower them to find them;
//! - a local that may be `None` read as the base of an index or as an
//!   argument of a NumPy function, a `math` function or an array's method
//!   (not `np.histogram`'s: [`maybe_none`]), reported as a number, an
//!   array or a tuple as it is typed; a `for` loop over `None`; a tuple
//!   among the names of an `np.ndindex` loop ([`loops::TUPLE_UNPACKING`]);
//!   a function whose result is annotated (not `T | None`, not a
//!   generator) and whose body can reach its end
//!   ([`fall_off::can_fall_off`]: its last statement is not a `return`, a
//!   `raise`, an `if` with an `else` whose arms all end so, or a `while
//!   True` without a `break`), reported at its name; the lowering's check
//!   of its control flow is an internal error;
//! - lists and local dtypes (`lists`, `dtype_locals`): a list local
//!   never given a number (an empty display, nothing appended: the
//!   statement), a list display bound to anything but one list local (a
//!   list literal as a value: the display, its elements still typed), a
//!   list local read as a value (not by index, `len`, a `for` loop,
//!   `np.array`, a method or a `return`: [`Solver::list_misreads`]) or
//!   grown in a `prange` loop that runs in parallel, a list local
//!   returned under an annotated result
//!   ([`lists::list_returned_error`], in [`Solver::return_error`]), a
//!   local bound to a dtype other than the one its binding before gave
//!   (each such binding, in the order the lowering walks them:
//!   [`dtype_locals::two_dtypes_error`]); a `for` loop over the name of a
//!   CPython module or of what it imports ([`name_error`], in
//!   [`Solver::for_error`]);
//! - values that may be `None` ([`maybe_none`]): `None`, or a call of a
//!   function returning `T | None` or a conditional expression with such
//!   an arm, bound to a parameter not annotated `T | None`; a local bound
//!   only ever to `None`; an arm beside a `None` arm that is not a Bool,
//!   an integer or a float; and where the lowering reads a number (the
//!   operands of arithmetic, of unary operators but `not` and of
//!   orderings, the operands of `and` and the last of `or` whose value is
//!   used, the target and value of an augmented assignment of numbers, a
//!   value returned where the result is a number, an argument of a POST
//!   function's parameter that is a number): a local that may be `None`
//!   there ([`presence`]: the lowering's narrowing by `is None` tests,
//!   bindings, `assert`, early exits and loops, followed once over the
//!   HIR), a call whose result may be `None`, a `None` arm or an arm
//!   that may be `None`;
//! - writes into read-only memory (an input array, a module-level array,
//!   or a view of one, as `lower::read_only` finds them before the
//!   typecheck runs, through locals bound in branches and loops and
//!   through POST functions returning views of their arguments) where it
//!   types the array written ([`read_only`]): stores into elements, views
//!   and through array indices, augmented assignments and whole arrays
//!   updated in place, in refused statements too, each reported beside the
//!   statement's other errors; `a.sort()` of one (outside GPU code); and
//!   one given for an `Out` parameter of a POST function (not of a generic
//!   one, whose instance reports the write instead);
//! - subscripts read as values (arguments and the bases of other
//!   subscripts included; targets are checked with their assignment: see
//!   [`subscripts_not_read`] and [`assignments`]) whose parts it
//!   types: a scalar indexed
//!   ([`scalar_indexed`]), an element given more indices than axes
//!   ([`index_count_error`]) or one that is not an integer
//!   ([`element_index_error`]), a view's indices, bounds and steps that
//!   are not integers ([`int_operand_error`], every one), a zero step,
//!   more than one `...`, more axes named than the array has
//!   ([`too_many_indices`]), an array index not of integers or Bools
//!   ([`array_index_error`]), of an array of no axes, a mask of more axes
//!   than the array ([`mask_axes_error`]); of tuples, an index out of
//!   range or not an integer ([`tuple_index_error`]), one not constant
//!   among elements of different types or of the empty tuple
//!   ([`tuple_pick_error`]), slices' bounds that are not constants and a
//!   zero step; arithmetic with a tuple it does not do
//!   ([`tuple_arith_error`]); and comparisons of tuples whose elements do
//!   not compare or that order a tuple and what is not one
//!   ([`tuple_comparison_error`]);
//! - the calls of NumPy's functions and array methods given `*`
//!   arguments; those that create arrays in GPU code
//!   ([`crate::lower::arrays::gpu_creation_error`]; not the reductions);
//!   the calls of NumPy's array functions and array methods (`np.zeros`,
//!   `np.arange`, `a.sum`, `a.astype`, ...) that compiled code refuses
//!   whatever their arguments' values
//!   ([`crate::lower::arrays::array_call_form`]: a keyword they do not
//!   take, `keepdims=` not a Bool literal, `**`, the count of arguments,
//!   a dtype or an axis given twice, `astype` without a dtype), and the
//!   ones whose arguments it types where the lowering certainly refuses
//!   them ([`Solver::array_value_error`]: what is not an array where one
//!   is taken, a fill value that is not a number, a dtype of text, one
//!   no dtype names or NumPy 2 removed, arrays of text created, an axis
//!   that is not an integer constant, a tuple where one axis is taken,
//!   axes out of range, named twice or some of several, reductions of
//!   text, orderings of complex numbers, shapes of no extent or whose
//!   extents are not integers, every one, bounds of `np.arange` that are
//!   not integers or floats and dtypes it does not make);
//! - the calls of NumPy's functions of arrays (`np.sort`, `np.argsort`,
//!   `np.searchsorted`, `np.linalg.norm`, `np.array`, `np.linspace`,
//!   `np.roll`, the NaN-skipping reductions, ...) given `**` or a keyword
//!   the lowering does not read
//!   ([`crate::lower::npfuncs::keyword_error`]); `np.array` of a count of
//!   arguments it does not take, a dtype given twice or refused, a
//!   ragged list or none, elements that are arrays, tuples or text, a
//!   complex number where the dtype is not ([`Solver::array_of_error`]);
//!   `np.linspace` of too many arguments, one given twice, no start or
//!   stop, an endpoint that is no constant, bounds that are not real
//!   numbers, a number of samples that is not an integer
//!   ([`Solver::linspace_error`]); `np.outer` and `np.roll` of counts of
//!   arguments they do not take, one given twice, what is not an array of
//!   numbers ([`crate::lower::npfuncs::numeric_array_error`]) or not of
//!   one axis, axes out of range or no constants, shifts that are not
//!   integers ([`Solver::outer_error`], [`Solver::roll_error`]);
//!   `np.linalg.norm` of a count of arguments, the order given twice,
//!   what is not an array of numbers of one or two axes, an order that is
//!   no constant, a string order of a vector, a number order of a matrix
//!   ([`Solver::norm_error`]); the reads
//!   of `np.iinfo(T).ATTR` and `np.finfo(T).ATTR` of a keyword, a count
//!   of arguments, a dtype refused, not an integer or not inexact, an
//!   attribute compiled code does not read
//!   ([`crate::lower::numpy::type_info_value`]); `np.round` of scalars
//!   of a count of arguments, decimals that are no integer constant or
//!   beyond a float's exponent, what is not a number, an integer to
//!   negative decimals, a complex number ([`Solver::numpy_round_error`]);
//!   and, each as the lowering of the function refuses it, with its
//!   messages (`numpy_functions`): `np.sort`, `a.sort()`, `np.argsort`,
//!   `np.partition` and `np.searchsorted` (their forms, arrays not of
//!   real numbers or of one axis, kinds NumPy does not name, `kth` not of
//!   integers, values searched for of other types), `np.linalg.det`,
//!   `eigh`, `eigvalsh` (`UPLO`, matrices of dtypes `linalg` does not
//!   take) and `np.cross`, `np.trace`, `a.trace()`, `np.eye`,
//!   `np.identity` (arguments bound by name, integers that are not), the
//!   NaN-skipping reductions, `np.var`, `np.std` (`ddof`),
//!   `np.concatenate`, `np.diff`, `np.unique`, `np.flatnonzero`,
//!   `np.where` of one argument and `np.histogram` (density, weights,
//!   data, ranges, bins, edges);
//! - the products `np.dot`, `a.dot(b)` and `@` ([`Solver::product_of`]:
//!   keywords, `*` operands, counts, scalars, arrays of text or of three
//!   axes or more, matrices made in GPU code); the calls of `print`
//!   (`printing`: every keyword and argument it refuses, where every
//!   argument has a type); the expressions refused whatever their types
//!   (dict and set displays, comprehensions but a list's assigned to a
//!   name, lambdas, f-strings but an assert's message, assignment
//!   expressions: [`refused_construct_error`]), and not the call of one;
//! - undefined names given as arguments or indexed (a dtype argument
//!   that is one is not reported again as no dtype: see
//!   [`call_arguments`]); `None` read
//!   as a number ([`none_operands`]: an operand of arithmetic, of a unary
//!   operator or of an ordering); `*` in a tuple read as a value
//!   ([`tuple_displays`]); a builtin's count of arguments whatever their
//!   types; `sum` of other than a tuple and a start value;
//!   `postc.empty` of other than an integer length and a numeric dtype;
//!   the NumPy functions compiled code does not call
//!   ([`crate::lower::numpy_compiles`], decided once), the methods of
//!   values it does not call ([`methods::method_compiles`]: not of a
//!   local left without a type) and a list local's methods other than
//!   `append`, `append` of other than one value or (outside `prange`
//!   loops) of what is not a number; the callees of what a `for` loop
//!   runs over but the calls it steps through ([`uncalled`]); a module
//!   name that is undefined called through (`math.sqrt` without `import
//!   math`); undefined names in the arguments of a `raise` of what
//!   compiled code does not raise; reshapes (no shape, the shape `()`,
//!   every extent that is not an integer, what is not an array); `min`
//!   and `max` of tuples among what is not one or of different lengths;
//!   whole-array arithmetic whose elements the operator refuses (its
//!   message for numbers of their types); list displays indexed or read
//!   as operands; `type(x)` of what is not a scalar parameter; a POST
//!   module's member it does not have, read as a value; a local holding a
//!   `range` bound to one again or read but as what a loop runs over
//!   ([`range_locals`]).
//!
//! - what GPU code cannot do whatever its types ([`gpu`]): a whole-array
//!   expression (refused whole), the first read of a module-level array;
//! - functions without a result type ([`unresolved`], decided where the
//!   module's results are found: [`crate::declare::NoResult`]): a call of
//!   one that returns nothing whose value is read, a call of one whose
//!   result needs itself (recursion the other `return`s do not settle),
//!   the `return`s of an unannotated function that give no one type, an
//!   inferred tuple result whose body can reach its end; a constant bound
//!   to a local that cannot hold it (a Python int beyond Int64's range);
//! - locals read before anything assigns them ([`unassigned`]): a local
//!   only updated, locals whose only bindings read one another;
//! - expressions (`expressions`): what the lowering's `binop`, `compare`,
//!   `unary`, `attribute`, `materialize` and `tuple_*` would refuse,
//!   refused where typed: a constant operand, element stored, update,
//!   argument or result its dtype cannot hold
//!   ([`expressions::conversion_error`]); a tuple meeting an array in
//!   arithmetic, `-t`; `in` of what is not a tuple and arrays compared
//!   inside tuples or in chains; modules and namespace members
//!   (`math.sin`), GPU registers outside kernels and `...` read as
//!   values; an array indexed by a tuple local of the wrong length or
//!   elements; the elements of `divmod`, `sum`, `min`/`max` of tuples and
//!   of list locals; a `for` loop over a tuple binding one name to values
//!   of different kinds ([`expressions::tuple_loop_mixed_error`]); a
//!   conditional expression bound to a name with an arm that may be
//!   `None`; and locals that may be `None` read as indices, arguments of
//!   `range`, casts and builtins, tuple elements, attribute bases and
//!   values stored;
//! - `np.where` and `np.clip` of other than 3 arguments, of an operand
//!   that is not a number nor an array of numbers (of `np.clip` a complex
//!   one too), or of numbers only, which the lowering takes only as nodes
//!   of a whole-array expression; an augmented assignment of a tuple to a
//!   number or an array, or of what a whole array's elements do not meet
//!   (`a += s`); `None` as the value of an augmented assignment or stored
//!   through an index (`statements`: [`statements::number_values`],
//!   `Solver::select_error`, `Solver::in_place_operand_error`);
//! - values stored into arrays and arguments of NumPy's functions over
//!   arrays that the lowering refuses by their values ([`arrays`]):
//!   `None` stored into an array; through an array index (`a[idx] = v`,
//!   `a[mask] = v`, `a[i, idx] = v`) a value of a dtype the array does not
//!   hold, an array of more axes than the indexed result (or than one for
//!   a mask over every axis), a tuple; into a view a complex number into
//!   reals, a tuple not of numbers, of no common dtype or of a dtype the
//!   view does not hold, an array or a tuple copied in GPU code;
//!   subscripts holding an array the lowering takes as no array index (an
//!   element's entries too many or not integers, augmented assignments
//!   included; a view stored into with an array entry); a constant stored
//!   or filling an array that its dtype does not take; a fill value of
//!   `np.full`/`np.full_like` that is complex for reals or text for
//!   numbers; `None` or a list display where NumPy's functions over arrays
//!   read a number or an array (not a shape) and as operands of `np.dot`;
//!   `x.shape` of a number given as a shape; and in GPU code the
//!   reductions, `np.transpose` and the functions that make no array
//!   checked as elsewhere, a reduction whose result is an array refused;
//! - calls the lowering refuses by what they call ([`calls`]): `range`
//!   and `prange` where no `for` loop runs over them (nor a local holding
//!   a `range` is bound to them); keyword and `*` arguments of NumPy's
//!   functions of numbers, of casts to a dtype (`postyp.Float64`,
//!   `type(x)`, a local bound to a dtype) and of `postc.empty`;
//!   `conjugate` given arguments; the CPython functions it meets as calls
//!   (Numba's but `prange`, those of NumPy's modules, `iinfo` and `finfo`
//!   not read an attribute of, `ndindex` not looped over); calls of
//!   globals that hold no function (a module, a namespace, a decorator,
//!   `Out`, a launch coordinate), of a call's result or another value,
//!   and methods of names that hold no value; the GPU built-ins `shared`,
//!   `sync_threads` and `atomic_add` outside a `@kernel` or of the wrong
//!   forms; and (in `printing`) a `print` of more values certainly
//!   `None`-able than it prints at once;
//! - attributes and methods of values that have none where the lowering
//!   reads them ([`attributes`]): an attribute a value does not have
//!   passed as an argument, printed, indexed or given an array method
//!   (`print(x.shape)`, `np.dot(t.T, a)`, `t.T[0]`, `t.T.sum()`; not
//!   `dtype`, nor the shape of `np.zeros(x.shape)`, whose error is the
//!   call's), `x.shape[k]` of what is not an array given to a call
//!   (`range(x.shape[0])`), and the methods compiled code calls only of
//!   some receivers called of another (`.dot` of what is not a local,
//!   `.var`, `.std`, `.trace` of what is not an array, `.sort`,
//!   `.argsort` of what is not an array local or a view: `r.sort()`,
//!   `(1, 2).var()`); calls of a member of a namespace's member
//!   (`math.foo.bar(x)`);
//! - values written where compiled code takes another kind of thing
//!   ([`misuses`]): a dtype argument that no dtype can be (a number, a
//!   tuple, a call, a local holding a value), `a.shape[k]` given to a
//!   call with an axis not constant or out of range, a unary operator or
//!   a comparison on whole arrays whose elements it refuses (its message
//!   for numbers of their types), a NumPy ufunc of an array beside a
//!   tuple or of elements it refuses, a number updated in place by an
//!   array (`s += a`), the `range` a local holds whose arguments it
//!   refuses, a tuple indexed with slices or `...` among several indices,
//!   strings in a list local of no dtype; and a tuple display among an
//!   unpacking's values bound to its name (refused where the name holds
//!   no tuple);
//! - `None` read where the lowering needs a number or an array
//!   ([`none_values`]): indexed or an attribute's base, an element of a
//!   tuple display read as a value (of one returned only where the result
//!   is annotated) or of a list display, the value of an unpacking or an
//!   element of its tuple, a positional argument of a builtin of numbers
//!   (`len`, `abs`, `min`, `max`, `round`, `int`, `float`, `bool`,
//!   `complex`, `sum`, `divmod`, `range`, `enumerate`, `zip`), of a
//!   `math`, NumPy scalar or `postc.math` function, of a cast or of a
//!   list's `append`, the first value arguments of `np.array`,
//!   `np.asarray`, `np.linspace`, `np.identity`, `np.eye` and `np.roll`
//!   and the keywords `bins=` of `np.histogram`, `axis=` of `np.roll`,
//!   `offset=` of `np.trace`, `start=`, `stop=` and `num=` of
//!   `np.linspace`, a tuple's index, an operand of `and` (the
//!   last of `or`) whose value is read, an argument for a parameter of a
//!   module's function that cannot be `None`; `None` as a dtype (an
//!   unknown dtype); a local bound only to `None` and updated (`x += v`)
//!   is only ever `None`; `None` as the test of a conditional expression
//!   is false; `x: T = None` of a type `T` that does not allow `None`;
//!   an element of an inferred tuple result that is `None` wherever it is
//!   given (`results`); a local that may be `None` returned in a tuple
//!   where the result is annotated (where it is not, the element may be
//!   `None`);
//! - list displays read where the lowering needs a number or an array
//!   ([`none_values`]): in the places above where `None` is (but the one
//!   argument of `min`, `max` and `sum`, the first of `np.array` and
//!   `np.asarray`, a list display's elements), every argument of
//!   `np.where` and `np.clip`, of a POST function, of `print` and of a
//!   cast to a parameter's type, an `axis=` or an axis by position, an
//!   index, a comparison's operand, a conditional expression's part, a
//!   slice's bound, an element of a tuple returned or unpacked or of a
//!   list local's display, and the value returned, tested, bound to an
//!   annotated local or added in place;
//! - `for` loops over a tuple of arrays of one dtype and number of axes
//!   but two types (layouts, extents), which a name cannot hold both of,
//!   and over an array whose steps the name cannot hold (rows where it
//!   holds numbers elsewhere); stores of the elements of a tuple
//!   unpacked that is not a display (`a[0], a[1] = t`) that an element
//!   cannot hold.
//!
//! It also finds, for the lowering, the reads of locals that may come
//! before anything binds them on the path taken ([`unbound`]), which it
//! checks when they run (CPython's `UnboundLocalError`).
//!
//! The lowering reports nothing a user can cause. Each body is
//! typechecked (`lower::check_function`) and lowered
//! (`lower::lower_function`) only when the typecheck accepts it, in a
//! module whose declarations and bodies before it have no error, and not
//! where it calls a function whose own errors leave its result unknown
//! ([`LocalTypes::calls_broken`]); a module with an error keeps no body
//! lowered. The lowering reads the types of bodies the typecheck
//! accepted, and each check it still makes (a value of a kind it cannot
//! lower, a binding the types do not hold, a tuple result other than the
//! one found here) is an internal error, which no program of
//! `tests/py-invalid` may produce and the frontend fuzz target fails on.

use crate::declare::{math_constant, python_scalar, FuncDecl, Global, GpuBuiltin, Namespace};
use crate::hir::{Body, Expr, ExprId, Keyword, LocalId, LocalKind, Name, Stmt, StmtId};
use crate::lower::arrays::{
    array_func, array_method, numpy_dtype, removed_numpy_dtype, sum_dtype, sum_dtypes, ArrFn, Red,
};
use crate::lower::expr::array_fits;
use crate::lower::linalg::Product;
use crate::lower::npfuncs::{
    array_element_via, array_of_dtype, creates_array, keyword_error, leading_keywords, linalg_function, nested_shape,
    np_function_shown, numpy_function, NanRed, NpFn, DOUBLE_STAR,
};
use crate::lower::numpy::{numpy_constant, numpy_func, NpOp};
use crate::lower::pymath::{math_func, MathFn};
use crate::lower::tuples::slice_indices;
use crate::lower::{
    argument_error, bind, callee_error, generic_argument_error, is_builtin, nth_argument, optional_number_error,
    Callee, TargetError, KEYWORD_ARGUMENTS, STARRED_ARGUMENT,
};
use crate::pytypes::{
    annotation_text, arith, default_of, float_for, join, kind, promote, promote_strong, widens_to, Kind, Operand,
    Scalar,
};
use crate::syntax::{deep, Lit, LitCast};
use la_arena::ArenaMap;
use postc_ir::builtins::{Axis, GpuReg};
use postc_ir::{DType, FuncAttrs, Layout, Shape, TypeData, TypeTable};
use ruff_python_ast as ast;
use ruff_text_size::TextRange;
use std::collections::HashMap;

/// What a function body is typed against.
pub(crate) struct TypeEnv<'a> {
    pub globals: &'a HashMap<String, Global>,
    pub funcs: &'a [FuncDecl],
    /// The module's generic functions and the instances made so far.
    pub generics: &'a crate::generics::Generics,
    pub types: &'a TypeTable,
    pub decl: &'a FuncDecl,
    /// The function a name imported from another POST module names.
    pub imported: &'a dyn Fn(&str) -> Option<Callee>,
    /// The `postc.math` function each local name of an import names.
    pub intrinsics: &'a indexmap::IndexMap<String, String>,
    /// Whether to record every expression's type ([`LocalTypes::exprs`]),
    /// a sweep of the whole body: about a tenth of the frontend's time on
    /// a large module, which the lowering, not reading them yet, does not
    /// ask for.
    pub expr_types: bool,
    /// The reads of the body that may see read-only memory, whose writes
    /// the sweep refuses (see [`read_only`]); `None`: none refused.
    pub read_only: Option<&'a crate::lower::read_only::ReadOnly>,
    /// Where the function's name is in its `def`.
    pub def_name: TextRange,
}

/// A scalar local's type, as the lowering's `LocalInfo` holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LocalType {
    pub scalar: Scalar,
    /// Every value bound to it is non-negative.
    pub nonneg: bool,
    /// Its type is its annotation.
    pub annotated: bool,
}

/// An array local's type, as the lowering's `LocalInfo` holds it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ArrayLocal {
    pub ty: TypeData,
    /// Bound more than once, or inside a block: the lowering keeps it in
    /// a `let` declared in the entry block.
    pub rebound: bool,
}

/// An element of a tuple local, as the lowering's element local holds it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TupleElement {
    Scalar(LocalType),
    Array(ArrayLocal),
    Tuple(Vec<TupleElement>),
}

/// What the typecheck solves: the types of the locals (scalars, tuples
/// element by element as the lowering's element locals hold them, and
/// arrays), and of the expressions they give.
#[derive(Default)]
pub(crate) struct LocalTypes {
    pub scalars: ArenaMap<LocalId, LocalType>,
    pub tuples: ArenaMap<LocalId, Vec<TupleElement>>,
    pub arrays: ArenaMap<LocalId, ArrayLocal>,
    /// Locals bound to a NumPy dtype (`dtype = np.int_`), which have no
    /// type: the lowering reads them where a `dtype=` names them.
    pub dtypes: ArenaMap<LocalId, DType>,
    /// The list locals (see [`list_locals`]), typed in `arrays` when an
    /// element gives them a type.
    pub lists: Vec<LocalId>,
    /// The scalar parameters a binding in a branch or a loop widens
    /// (`n = np.log(n)` of an Int64 `n` under an `if`): their type, the
    /// join of the annotation's and the values', as Numba unifies them;
    /// the argument is converted on entry.
    pub widened: ArenaMap<LocalId, Scalar>,
    /// The type of every expression of the body the solver types, the
    /// locals' types above final (see the module's header for what it
    /// leaves out).
    pub exprs: ArenaMap<ExprId, Ty>,
    /// The type errors found while typing the expressions (see the
    /// module's header), in the order the sweep finds them.
    pub errors: Vec<TypeError>,
    /// The reads of locals that may be `None` where they may be (see
    /// [`presence`]): the lowering knows none of them present.
    pub absent_reads: ArenaMap<ExprId, ()>,
    /// The reads of locals that may come before anything binds them (see
    /// [`unbound`]): the lowering checks each when it runs.
    pub unbound_reads: ArenaMap<ExprId, ()>,
    /// The tuple result of a function whose result has no annotation, as
    /// its `return`s give it (see [`results`]).
    pub tuple_result: Option<results::TupleResult>,
    /// The body calls a function whose result its own errors leave
    /// unknown ([`crate::declare::NoResult::Broken`]): those errors are
    /// the module's, and the body is not lowered.
    pub calls_broken: bool,
}

/// A type error: where, and what.
pub(crate) struct TypeError {
    pub at: TextRange,
    pub message: String,
}

/// The types of the locals of `body`, each the join of its bindings that
/// are typed (see the module's header).
pub(crate) fn local_types(body: &Body, env: &TypeEnv) -> LocalTypes {
    let mut cx = Solver {
        body,
        env,
        states: ArenaMap::default(),
        bindings: Vec::new(),
        at: 0,
        nested: false,
        reading_at: std::cell::Cell::new(0),
        known: std::cell::RefCell::default(),
        reports: std::cell::RefCell::default(),
        conditions: ArenaMap::default(),
        outside_loops: ArenaMap::default(),
        prange: loops::PrangeChecks::default(),
        not_values: ArenaMap::default(),
        arguments: ArenaMap::default(),
        stored: ArenaMap::default(),
        uncalled: ArenaMap::default(),
        unlowered: ArenaMap::default(),
        none_operands: ArenaMap::default(),
        displays: ArenaMap::default(),
        range_iterables: ArenaMap::default(),
        none_locals: ArenaMap::default(),
        absent_reads: ArenaMap::default(),
        list_misreads: ArenaMap::default(),
        unread_results: std::cell::OnceCell::new(),
        never_assigned: ArenaMap::default(),
    };
    let lists = list_locals(body);
    for (id, local) in body.locals.iter() {
        // A scalar parameter starts as its annotation's type; what the
        // body binds to it joins in (see `widened`).
        let param = (local.kind == LocalKind::Param).then(|| scalar_parameter(env, &local.name)).flatten();
        let open = local.kind == LocalKind::Assigned || param.is_some();
        let st = State {
            ty: param,
            elems: None,
            arr: None,
            repeated: false,
            dtype: None,
            range: None,
            list: lists.contains(&id).then_some(None),
            nonneg: param.is_none(),
            annotation: None,
            open,
            bindings: 0,
            first_at: None,
        };
        cx.states.insert(id, st);
    }
    cx.collect(&body.top);
    cx.solve();
    // A local is typed by the bindings that are: one whose value does not
    // fit the others is left out (the sweep reports it, see
    // `assignments`), and so is one whose value is not typed (it reads a
    // construct refused, or a local no binding types).
    let assigned = |id: LocalId| body.locals[id].kind == LocalKind::Assigned;
    let untyped: Vec<LocalId> = (cx.states.iter())
        .filter(|(id, st)| {
            // A local bound to a dtype has no type; one bound to a value
            // too is refused by the lowering.
            let (dtype_only, dtype_and_value) =
                (st.dtype.is_some() && st.bindings == 0, st.dtype.is_some() && st.bindings > 0);
            let no_type = st.ty.is_none() && st.elems.is_none() && st.arr.is_none() && !dtype_only;
            assigned(*id) && (!st.open || no_type || dtype_and_value)
        })
        .map(|(id, _)| id)
        .collect();
    for id in &untyped {
        cx.states[*id].open = false;
    }
    let lists = cx.states.iter().filter(|(_, st)| st.list.is_some()).map(|(id, _)| id).collect();
    let mut out = LocalTypes { lists, ..LocalTypes::default() };
    for (id, st) in cx.states.iter() {
        if body.locals[id].kind == LocalKind::Param {
            let declared = scalar_parameter(env, &body.locals[id].name);
            if let (Some(t), Some(d), true) = (st.ty, declared, st.open) {
                if t != d {
                    out.widened.insert(id, t);
                }
            }
            continue;
        }
        if let (true, 0, Some((d, _))) = (st.open, st.bindings, st.dtype) {
            out.dtypes.insert(id, d);
            continue;
        }
        // An annotated local is typed by its annotation, bound or not.
        if !(st.open && (st.bindings > 0 || st.annotation.is_some())) {
            continue;
        }
        if let Some(scalar) = st.ty {
            out.scalars.insert(id, LocalType { scalar, nonneg: st.nonneg, annotated: st.annotation.is_some() });
        } else if let Some(elems) = &st.elems {
            out.tuples.insert(id, tuple_elements(elems, cx.rebound(id)));
        } else if let Some(ty) = &st.arr {
            out.arrays.insert(id, ArrayLocal { ty: ty.clone(), rebound: cx.rebound(id) });
        }
    }
    if env.expr_types {
        *cx.reports.borrow_mut() = Some(Reports::default());
        cx.conditions = conditions(body);
        cx.outside_loops = outside_loops(body);
        cx.prange = loops::prange_checks(&cx);
        cx.not_values = not_read_as_values(body);
        cx.arguments = call_arguments(body);
        cx.stored = subscripts_not_read(body);
        cx.uncalled = uncalled(body);
        cx.unlowered = unlowered_constructs(body);
        cx.none_operands = none_operands(body);
        cx.displays = tuple_displays(body);
        for v in cx.none_values().into_iter().chain(cx.list_values()) {
            cx.none_operands.insert(v, ());
        }
        cx.range_iterables = range_locals::range_iterables(body);
        cx.none_locals = cx.maybe_none_locals();
        cx.absent_reads = cx.absent_reads();
        cx.list_misreads = cx.list_misreads();
        cx.never_assigned = cx.never_assigned();
        out.exprs = cx.sweep();
        cx.check_unassigned_reads(&out);
        cx.check_fall_off();
        out.tuple_result = cx.tuple_result(&out.exprs);
        cx.check_unresolved_returns(out.tuple_result.is_some());
        let reports = cx.reports.take().unwrap_or_default();
        out.errors = reports.errors;
        out.calls_broken = reports.calls_broken;
        out.absent_reads = std::mem::take(&mut cx.absent_reads);
        // Locals that hold a value: not a dtype or a range.
        let valued = |id: LocalId| cx.states[id].dtype.is_none() && cx.states[id].range.is_none();
        out.unbound_reads = unbound::maybe_unbound_reads(body, &valued, &|iter| cx.is_prange_call(iter));
    }
    out
}

/// The expressions a statement holds itself (not those of its blocks), in
/// source order, and its blocks.
fn parts_of(stmt: &Stmt) -> (Vec<ExprId>, Vec<&[StmtId]>) {
    match stmt {
        Stmt::Expr(e) => (vec![*e], Vec::new()),
        Stmt::Assign { targets, value } => (targets.iter().copied().chain([*value]).collect(), Vec::new()),
        Stmt::AnnAssign { target, annotation, value } => {
            ([*target, *annotation].into_iter().chain(*value).collect(), Vec::new())
        }
        Stmt::AugAssign { target, value, .. } => (vec![*target, *value], Vec::new()),
        Stmt::If { arms } => (arms.iter().filter_map(|a| a.test).collect(), arms.iter().map(|a| &*a.body).collect()),
        Stmt::While { test, body, orelse } => (vec![*test], vec![body, orelse]),
        Stmt::For { target, iter, body, orelse, .. } => (vec![*target, *iter], vec![body, orelse]),
        Stmt::Return(value) => (value.iter().copied().collect(), Vec::new()),
        Stmt::Assert { test, msg } => ([*test].into_iter().chain(*msg).collect(), Vec::new()),
        Stmt::Raise { exc, cause } => (exc.iter().chain(cause).copied().collect(), Vec::new()),
        Stmt::Refused { exprs, blocks, .. } => (exprs.to_vec(), blocks.iter().map(|b| &**b).collect()),
        Stmt::Break | Stmt::Continue | Stmt::Pass | Stmt::NestedFunction { .. } | Stmt::Global | Stmt::Import => {
            (Vec::new(), Vec::new())
        }
    }
}

/// The elements of a tuple local as the lowering's element locals hold
/// them: an array element is rebound when the tuple local is.
fn tuple_elements(elems: &[Element], rebound: bool) -> Vec<TupleElement> {
    let element = |e: &Element| match e {
        Element::Scalar(scalar, nonneg) => {
            TupleElement::Scalar(LocalType { scalar: *scalar, nonneg: *nonneg, annotated: false })
        }
        Element::Array(ty) => TupleElement::Array(ArrayLocal { ty: ty.clone(), rebound }),
        Element::Tuple(inner) => TupleElement::Tuple(tuple_elements(inner, rebound)),
    };
    elems.iter().map(element).collect()
}

/// An element of a tuple local, as the solver knows it.
#[derive(Clone, Debug, PartialEq)]
enum Element {
    /// Its type and whether it stays non-negative.
    Scalar(Scalar, bool),
    Array(TypeData),
    Tuple(Vec<Element>),
}

impl Element {
    /// A value's first binding to an element, as the lowering's
    /// `assign_local` types it: a weak scalar of a dtype not its kind's
    /// default settles at the default (`join_into`).
    fn of(ty: &Ty) -> Option<Element> {
        Some(match ty {
            Ty::Num { .. } | Ty::Lit { .. } => {
                let s = ty.scalar()?;
                Element::Scalar(join(s, s).unwrap_or(s), ty.nonneg())
            }
            Ty::Arr(t) => Element::Array(t.clone()),
            Ty::Tuple(elems) => Element::Tuple(elems.iter().map(Element::of).collect::<Option<_>>()?),
        })
    }

    /// The element joined with another binding's, as the lowering's
    /// element locals join: scalars along the numeric tower, arrays only
    /// when they are the same, tuples of one length element by element.
    fn join(&self, other: &Element) -> Option<Element> {
        Some(match (self, other) {
            (Element::Scalar(t, t_nonneg), Element::Scalar(s, s_nonneg)) => {
                Element::Scalar(join(*t, *s)?, *t_nonneg && *s_nonneg)
            }
            (Element::Array(a), Element::Array(b)) if a == b => Element::Array(a.clone()),
            (Element::Tuple(a), Element::Tuple(b)) if a.len() == b.len() => {
                Element::Tuple(a.iter().zip(b).map(|(x, y)| x.join(y)).collect::<Option<_>>()?)
            }
            _ => return None,
        })
    }

    fn ty(&self) -> Ty {
        match self {
            Element::Scalar(s, nonneg) => Ty::Num { s: *s, nonneg: *nonneg },
            Element::Array(t) => Ty::Arr(t.clone()),
            Element::Tuple(elems) => Ty::Tuple(elems.iter().map(Element::ty).collect()),
        }
    }

    fn holds_array(&self) -> bool {
        match self {
            Element::Scalar(..) => false,
            Element::Array(_) => true,
            Element::Tuple(elems) => elems.iter().any(Element::holds_array),
        }
    }
}

/// What the solver knows of a local.
struct State {
    ty: Option<Scalar>,
    /// A tuple local's elements.
    elems: Option<Vec<Element>>,
    /// An array local's type.
    arr: Option<TypeData>,
    /// One binding gave it more than one value (a `for` loop over a
    /// tuple, unrolled): as bound more than once.
    repeated: bool,
    /// A local bound to a NumPy dtype: the dtype, and the statement of
    /// its first binding.
    dtype: Option<(DType, usize)>,
    /// A local bound to a range (see [`range_value`]): the value, which
    /// a `for` loop over the local runs over.
    range: Option<ExprId>,
    /// A local bound to a list display (see [`list_locals`]): its
    /// elements' type so far, the join of the display's and of every
    /// value appended.
    list: Option<Option<Scalar>>,
    nonneg: bool,
    annotation: Option<DType>,
    /// Still typeable here: no binding of it is one this module does not
    /// know, and no two of them conflict.
    open: bool,
    bindings: usize,
    /// The statement (in the order the lowering walks them) of its first
    /// binding that is not an update: an array local read at or before it
    /// has no value yet where the lowering reads it.
    first_at: Option<usize>,
}

#[derive(Clone, Copy)]
enum Bound {
    /// `x = value` (or `x: T = value`).
    Value(ExprId),
    /// `x op= value`.
    Update(ast::Operator, ExprId),
    /// `for x in range(...)`: the call.
    RangeCounter(ExprId),
    /// `xs = [a, b, ...]` of a list local: the display.
    ListDisplay(ExprId),
    /// `xs.append(v)` of a list local: the value.
    ListAppend(ExprId),
    /// `n, m = a.shape`: one extent of the array `a` of `axes` axes.
    Extent { array: ExprId, axes: usize },
    /// `x, y = t`: element `index` of `count` of a tuple, or of a 1-D
    /// array.
    Element { value: ExprId, index: usize, count: usize },
    /// `for x in t` over a tuple: each of its elements in turn.
    EveryElement(ExprId),
    /// `for a, b in t` over a tuple of tuples: part `index` of `count`
    /// of each element in turn.
    EveryElementPart { iter: ExprId, index: usize, count: usize },
    /// `for x, y in zip(a, b)`, `for i, x in enumerate(a)`: the element
    /// (or row) of one array at each step.
    ArrayStep(ExprId),
    /// `for i, x in enumerate(a)`: the index.
    StepIndex(ExprId),
    /// `for idx in np.ndindex(shape)`: the tuple of indices (the call).
    IndexTuple(ExprId),
    /// `for i, j in np.ndindex(shape)`: one of `count` indices.
    IndexPart { iter: ExprId, count: usize },
}

struct Binding {
    local: LocalId,
    bound: Bound,
    /// The statement it is in, counted in the order the lowering walks
    /// the body.
    at: usize,
    /// Inside a block (a loop, an `if`), not at the body's top level.
    nested: bool,
}

/// The type of a value, as the lowering's `Val` would have it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty {
    /// A number (or a string) computed at run time: its scalar type (weak
    /// for a Python `int`, `float`, `complex` or `bool`) and whether it is
    /// known never to be negative.
    Num { s: Scalar, nonneg: bool },
    /// A constant known at compile time (a literal, a module's or a
    /// library's constant, a folded `-1`, `len` of a tuple), with the
    /// scalar type it has until it meets another value.
    Lit { lit: Lit, s: Scalar },
    /// An array or a view of one: its dtype, axes (with the extents known
    /// statically), layout, and whether it is a caller's output.
    Arr(TypeData),
    /// A tuple, element by element.
    Tuple(Vec<Ty>),
}

impl Ty {
    /// The scalar type of a number or a constant; `None` for an array or
    /// a tuple.
    pub(crate) fn scalar(&self) -> Option<Scalar> {
        match self {
            Ty::Num { s, .. } | Ty::Lit { s, .. } => Some(*s),
            Ty::Arr(_) | Ty::Tuple(_) => None,
        }
    }

    /// Whether it is known never to be negative (as `Val::nonneg`): an
    /// unsigned integer, a non-negative constant, a bool.
    pub(crate) fn nonneg(&self) -> bool {
        match self {
            Ty::Num { nonneg, s } => *nonneg || s.dtype.is_unsigned_int(),
            Ty::Lit { lit: Lit::Int(i), .. } => *i >= 0,
            Ty::Lit { lit: Lit::Bool(_), .. } => true,
            _ => false,
        }
    }

    fn operand(&self) -> Option<Operand<'_>> {
        let (s, lit) = match self {
            Ty::Num { s, .. } => (*s, None),
            Ty::Lit { lit, s } => (*s, Some(lit)),
            Ty::Arr(_) | Ty::Tuple(_) => return None,
        };
        Some(Operand { s, nonneg: self.nonneg(), lit })
    }

    /// Whether the lowering's `materialize` converts it to `dtype`
    /// without an error.
    fn converts_to(&self, dtype: DType) -> bool {
        match self {
            Ty::Lit { lit, .. } => lit.convert(dtype).is_some(),
            Ty::Num { s, .. } => s.dtype == dtype || !(s.dtype.is_text() || dtype.is_text()),
            Ty::Arr(_) | Ty::Tuple(_) => false,
        }
    }

    /// Whether it is a condition (the lowering's `truth`).
    fn is_condition(&self) -> bool {
        match self.scalar() {
            Some(s) if kind(s.dtype) <= Kind::Complex => self.converts_to(s.dtype),
            _ => false,
        }
    }
}

/// Joins a tuple into a local's state, element by element, as the
/// lowering's `assign_tuple_local` does; whether the state changed.
fn join_tuple_into(st: &mut State, elems: &[Ty]) -> bool {
    let new: Option<Vec<Element>> = elems.iter().map(Element::of).collect();
    let Some(new) = new.filter(|_| st.ty.is_none() && st.annotation.is_none()) else {
        // A scalar local bound to a tuple (refused by the lowering).
        return false;
    };
    let Some(old) = &st.elems else {
        st.elems = Some(new);
        return true;
    };
    let joined = Element::Tuple(old.clone()).join(&Element::Tuple(new));
    let Some(Element::Tuple(joined)) = joined else { return false };
    let changed = *old != joined;
    st.elems = Some(joined);
    changed
}

/// A view of `ty` of `axes` axes, as the lowering's `make_view` types
/// it: C order by type (the strides are the view's own), writable as its
/// base is.
fn view_of(ty: &TypeData, axes: usize) -> Ty {
    let mut view = TypeData::array(ty.dtype, Shape::dims(&vec![None; axes]), Layout::COrder);
    view.is_output = ty.is_output;
    Ty::Arr(view)
}

/// What `for x in a` binds at each step, as the lowering's
/// `iteration_value`: an element of a 1-D array, a row (a view) of a
/// higher one.
fn array_step(ty: &TypeData) -> Option<Ty> {
    match ty.ndim()? {
        _ if ty.dtype.is_text() => None,
        0 => None,
        1 => Some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false }),
        n => Some(view_of(ty, n - 1)),
    }
}

fn python_float(x: f64) -> Ty {
    Ty::Lit { lit: Lit::Float(x), s: Scalar::weak(DType::Float64) }
}

/// An array's extent: a Python int, never negative.
fn extent() -> Ty {
    Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }
}

fn bool_result(weak: bool) -> Ty {
    Ty::Num { s: Scalar { dtype: DType::Bool, weak }, nonneg: true }
}

struct Solver<'a> {
    body: &'a Body,
    env: &'a TypeEnv<'a>,
    states: ArenaMap<LocalId, State>,
    bindings: Vec<Binding>,
    /// While collecting: the statement being collected, counted in the
    /// order the lowering walks the body, and whether it is in a block.
    at: usize,
    nested: bool,
    /// While solving: the statement of the binding being typed; while
    /// sweeping, of the expression.
    reading_at: std::cell::Cell<usize>,
    /// While sweeping (the locals' types final): what [`Solver::ty`]
    /// gave each expression already swept, typed or not. Empty while
    /// solving, when a type may still change.
    known: std::cell::RefCell<ArenaMap<ExprId, Option<Ty>>>,
    /// While sweeping: the errors found, each expression refused once.
    /// `None` while solving, when a type may still change and an
    /// expression is typed many times.
    reports: std::cell::RefCell<Option<Reports>>,
    /// While sweeping: the expressions whose truth only is read (see
    /// [`conditions`]).
    conditions: ArenaMap<ExprId, ()>,
    /// While sweeping: the statements in no loop's body (see
    /// [`outside_loops`]).
    outside_loops: ArenaMap<StmtId, ()>,
    /// While sweeping: the breaks out of a parallel `prange` loop and the
    /// errors of `prange` loops (see [`loops::prange_checks`]).
    prange: loops::PrangeChecks,
    /// While sweeping: the expressions not read as values (see
    /// [`not_read_as_values`]).
    not_values: ArenaMap<ExprId, ()>,
    /// While sweeping: the arguments of calls (see [`call_arguments`]).
    arguments: ArenaMap<ExprId, ()>,
    /// While sweeping: the subscripts the lowering does not read as
    /// values (see [`subscripts_not_read`]).
    stored: ArenaMap<ExprId, ()>,
    /// The expressions the lowering does not lower as values (see
    /// [`uncalled`]).
    uncalled: ArenaMap<ExprId, ()>,
    /// The refused constructs the lowering does not lower (see
    /// [`unlowered_constructs`]).
    unlowered: ArenaMap<ExprId, ()>,
    /// The `None`s and list displays read as numbers or arrays (see
    /// [`none_operands`], [`Solver::none_values`] and
    /// [`Solver::list_values`]).
    none_operands: ArenaMap<ExprId, ()>,
    /// The tuples read as values (see [`tuple_displays`]).
    displays: ArenaMap<ExprId, ()>,
    /// Where a local holding a `range` is not read as a value (see
    /// [`range_locals::range_iterables`]).
    range_iterables: ArenaMap<ExprId, ()>,
    /// While sweeping: the locals that may hold `None` (see
    /// [`Solver::maybe_none_locals`]).
    none_locals: ArenaMap<LocalId, ()>,
    /// The reads of locals that may be `None` where they may be (see
    /// [`presence`]).
    absent_reads: ArenaMap<ExprId, ()>,
    /// The reads of list locals as values (see [`Solver::list_misreads`]).
    list_misreads: ArenaMap<ExprId, ()>,
    /// The calls whose value is not read (see
    /// [`unresolved::unread_results`]), found when first asked.
    unread_results: std::cell::OnceCell<ArenaMap<ExprId, ()>>,
    /// The locals nothing assigns (see [`unassigned`]).
    never_assigned: ArenaMap<LocalId, ()>,
}

#[derive(Default)]
struct Reports {
    errors: Vec<TypeError>,
    refused: ArenaMap<ExprId, ()>,
    refused_stmts: ArenaMap<StmtId, ()>,
    /// A call of a function whose result is broken (see
    /// [`LocalTypes::calls_broken`]).
    calls_broken: bool,
    /// The dtype each local bound to one was last bound to, so far in
    /// the sweep ([`dtype_locals`]).
    dtypes: ArenaMap<LocalId, DType>,
}

impl Solver<'_> {
    /// Whether an array local (or an array element of a tuple local) is a
    /// variable, as the lowering's `assign_local` finds it: bound more
    /// than once, or inside a block.
    fn rebound(&self, id: LocalId) -> bool {
        let mut binds = self.bindings.iter().filter(|b| b.local == id && !matches!(b.bound, Bound::Update(..)));
        let (count, nested) = binds.by_ref().fold((0, false), |(n, nested), b| (n + 1, nested || b.nested));
        count > 1 || nested || self.states[id].repeated || self.states[id].list.is_some()
    }

    // ---- bindings ---------------------------------------------------------

    fn bind(&mut self, local: LocalId, bound: Bound) {
        let st = &mut self.states[local];
        st.bindings += 1;
        if !matches!(bound, Bound::Update(..) | Bound::ListAppend(_)) && st.first_at.is_none() {
            st.first_at = Some(self.at);
        }
        self.bindings.push(Binding { local, bound, at: self.at, nested: self.nested });
    }

    /// `name = np.int_`: a local bound to a NumPy dtype, which a `dtype=`
    /// names (the lowering's `bind_dtype`). It has no type; a local bound
    /// to two dtypes, or to a dtype and a value, is not typed here.
    fn bind_dtype(&mut self, local: LocalId, d: DType) {
        let at = self.at;
        let st = &mut self.states[local];
        match st.dtype {
            None => st.dtype = Some((d, at)),
            Some((before, _)) if before == d => {}
            Some(_) => st.open = false,
        }
    }

    fn local_of(&self, e: ExprId) -> Option<LocalId> {
        match self.body.exprs[e] {
            Expr::Name(Name::Local(id)) => Some(id),
            _ => None,
        }
    }

    /// The bindings of `block` and the blocks in it, in source order.
    fn collect(&mut self, block: &[StmtId]) {
        // Blocks nest as deep as the source: a stack of the statements
        // still to visit, innermost first.
        // Each with whether it is inside a block.
        let mut pending: Vec<(StmtId, bool)> = block.iter().rev().map(|s| (*s, false)).collect();
        while let Some((s, nested)) = pending.pop() {
            self.at += 1;
            self.nested = nested;
            let push_blocks = |pending: &mut Vec<(StmtId, bool)>, blocks: &[&[StmtId]]| {
                for b in blocks.iter().rev() {
                    pending.extend(b.iter().rev().map(|s| (*s, true)));
                }
            };
            match &self.body.stmts[s] {
                Stmt::Assign { targets, value } => {
                    let unpacks = targets.iter().any(|t| matches!(self.body.exprs[*t], Expr::Tuple(_) | Expr::List(_)));
                    if let (true, [target]) = (unpacks, &targets[..]) {
                        self.unpacking(*target, *value);
                        continue;
                    }
                    if let ([t], Expr::List(_)) = (&targets[..], &self.body.exprs[*value]) {
                        if let Some(id) = self.local_of(*t).filter(|id| self.states[*id].list.is_some()) {
                            self.bind(id, Bound::ListDisplay(*value));
                            continue;
                        }
                    }
                    if let ([t], Some(_)) = (&targets[..], range_value(self.body, *value)) {
                        if let Some(id) = self.local_of(*t) {
                            let st = &mut self.states[id];
                            match st.range {
                                None => st.range = Some(*value),
                                // Bound twice: the lowering refuses it.
                                Some(_) => st.open = false,
                            }
                            continue;
                        }
                    }
                    if let ([t], Some(d)) =
                        (&targets[..], parameter_type(self.body, self.env.decl, self.env.types, *value))
                    {
                        if let Some(id) = self.local_of(*t) {
                            self.bind_dtype(id, d);
                            continue;
                        }
                    }
                    // `U = T` of a local bound to a dtype before: the same.
                    if let ([t], Some(other)) = (&targets[..], self.local_of(*value)) {
                        let st = &self.states[other];
                        if let (Some(id), Some((d, _)), true, 0) = (self.local_of(*t), st.dtype, st.open, st.bindings) {
                            self.bind_dtype(id, d);
                            continue;
                        }
                    }
                    if let ([t], Some(name)) = (&targets[..], self.numpy_attr(*value)) {
                        if let Some(id) = self.local_of(*t) {
                            match (removed_numpy_dtype(name), numpy_dtype(name)) {
                                (Some(_), _) => self.states[id].open = false,
                                (None, Some(d)) => self.bind_dtype(id, d),
                                (None, None) => self.bind(id, Bound::Value(*value)),
                            }
                            continue;
                        }
                    }
                    // A target of another form binds no local (the lowering
                    // refuses what it does not store into).
                    for &t in targets.iter() {
                        if let (Some(id), false) = (self.local_of(t), unpacks) {
                            self.bind(id, Bound::Value(*value));
                        }
                    }
                }
                Stmt::AnnAssign { target, annotation, value } => {
                    let Some(id) = self.local_of(*target) else { continue };
                    match (self.annotation(*annotation), self.states[id].annotation) {
                        (Some(d), None) => {
                            // The annotation is the type, bound or not.
                            self.states[id].annotation = Some(d);
                            self.states[id].ty = Some(Scalar::strong(d));
                        }
                        (Some(d), Some(before)) if d == before => {}
                        // Refused or conflicting: its value is not bound (the
                        // lowering reports the annotation).
                        _ => continue,
                    }
                    if let Some(v) = value {
                        self.bind(id, Bound::Value(*v));
                    }
                }
                Stmt::AugAssign { target, op, value } => {
                    if let Some(id) = self.local_of(*target) {
                        self.bind(id, Bound::Update(*op, *value));
                    }
                }
                // A `for` target of a form not below binds nothing here: the
                // lowering refuses it.
                Stmt::For { is_async, target, iter, body, orelse } => {
                    match self.local_of(*target) {
                        _ if *is_async => {}
                        Some(id) if self.is_range_call(*iter) => self.bind(id, Bound::RangeCounter(*iter)),
                        Some(id) if self.held_range(*iter).is_some() => {
                            let range = self.held_range(*iter).expect("a range local");
                            self.bind(id, Bound::RangeCounter(range));
                        }
                        Some(id) if self.is_ndindex_call(*iter) => self.bind(id, Bound::IndexTuple(*iter)),
                        None if self.is_ndindex_call(*iter) => {
                            let ids = self.unpacked_names(*target).unwrap_or_default();
                            let count = ids.len();
                            for id in ids {
                                self.bind(id, Bound::IndexPart { iter: *iter, count });
                            }
                        }
                        Some(id) if self.may_iterate(*iter) => self.bind(id, Bound::EveryElement(*iter)),
                        None if self.may_iterate(*iter) => {
                            let ids = self.unpacked_names(*target).unwrap_or_default();
                            let count = ids.len();
                            for (index, id) in ids.into_iter().enumerate() {
                                self.bind(id, Bound::EveryElementPart { iter: *iter, index, count });
                            }
                        }
                        _ => {
                            for (id, b) in self.steps_over_arrays(*target, *iter).into_iter().flatten() {
                                self.bind(id, b);
                            }
                        }
                    }
                    push_blocks(&mut pending, &[body, orelse]);
                }
                Stmt::If { arms } => {
                    let blocks: Vec<&[StmtId]> = arms.iter().map(|a| &*a.body).collect();
                    push_blocks(&mut pending, &blocks);
                }
                Stmt::While { body, orelse, .. } => push_blocks(&mut pending, &[body, orelse]),
                // A refused statement binds nothing (the lowering reports it
                // and goes on with its blocks).
                Stmt::Refused { blocks, .. } => {
                    let blocks: Vec<&[StmtId]> = blocks.iter().map(|b| &**b).collect();
                    push_blocks(&mut pending, &blocks);
                }
                Stmt::Expr(e) => {
                    if let Some((id, v)) = list_append(self.body, *e) {
                        if self.states[id].list.is_some() {
                            self.bind(id, Bound::ListAppend(v));
                        }
                    }
                }
                Stmt::Break
                | Stmt::Continue
                | Stmt::Pass
                | Stmt::Return(_)
                | Stmt::Assert { .. }
                | Stmt::Raise { .. }
                | Stmt::NestedFunction { .. }
                | Stmt::Global
                | Stmt::Import => {}
            }
        }
    }

    /// `a, b = x, y` and `n, m = a.shape`, as the lowering's `unpack`
    /// takes them: one level of names (or elements), as many values as
    /// targets; each name is bound to its value.
    fn unpacking(&mut self, target: ExprId, value: ExprId) {
        let (Expr::Tuple(targets) | Expr::List(targets)) = &self.body.exprs[target] else { return };
        let nested = |e: &ExprId| matches!(self.body.exprs[*e], Expr::Tuple(_) | Expr::List(_) | Expr::Starred(_));
        let bounds: Option<Vec<Bound>> = match &self.body.exprs[value] {
            _ if targets.iter().any(nested) => None,
            Expr::Tuple(values) | Expr::List(values) => {
                // A tuple display among the values binds a tuple, as the
                // lowering's unpacking binds it.
                let refused = |e: &ExprId| matches!(self.body.exprs[*e], Expr::List(_) | Expr::Starred(_));
                let plain = values.len() == targets.len() && !values.iter().any(refused);
                plain.then(|| values.iter().map(|v| Bound::Value(*v)).collect())
            }
            Expr::Attribute { base, attr } if &**attr == "shape" => {
                Some(vec![Bound::Extent { array: *base, axes: targets.len() }; targets.len()])
            }
            _ => {
                let count = targets.len();
                Some((0..count).map(|index| Bound::Element { value, index, count }).collect())
            }
        };
        // Nested or starred targets, or counts that differ: refused.
        let Some(bounds) = bounds else { return };
        for (t, bound) in targets.iter().zip(bounds) {
            if let Some(id) = self.local_of(*t) {
                self.bind(id, bound);
            }
        }
    }

    /// A local's annotation, when it is a scalar type named plainly
    /// (`Float32`, `float`).
    fn annotation(&self, e: ExprId) -> Option<DType> {
        // `T | None`, `Optional[T]`: a local that may be `None` has the
        // type of its value.
        let e = self.body.maybe_none_inner(e).unwrap_or(e);
        match &self.body.exprs[e] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                Some(Global::Type(t)) => Some(*t),
                _ => None,
            },
            Expr::Name(Name::Free(n)) => python_scalar(n),
            // `postyp.Float64`, as the lowering's `local_annotation` reads
            // it (by the module's own name).
            Expr::Attribute { base, attr } => match &self.body.exprs[*base] {
                Expr::Name(Name::Free(m) | Name::Global(m)) if &**m == "postyp" => DType::from_name(attr),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether a `for` loop over `e` may run over a tuple or an array (as
    /// the lowering's `is_tuple_expr` and `iterates_arrays` decide once
    /// types are known).
    fn may_iterate(&self, e: ExprId) -> bool {
        match &self.body.exprs[e] {
            // A list display iterates as a tuple of its values.
            Expr::Tuple(_) | Expr::List(_) | Expr::Name(Name::Local(_)) => true,
            Expr::Attribute { attr, .. } => matches!(&**attr, "shape" | "T"),
            Expr::Subscript { base, .. } => matches!(self.body.exprs[*base], Expr::Name(Name::Local(_))),
            // An array a method, a NumPy function or an operator makes
            // (`for v in a.ravel()`, `np.sort(a)`, `a * 2`); `np.ndindex`
            // is bound above, the builtins (`enumerate`, `zip`) below.
            Expr::Call { func, .. } => matches!(self.body.exprs[*func], Expr::Attribute { .. }),
            Expr::BinOp { .. } | Expr::UnaryOp { .. } => true,
            _ => false,
        }
    }

    /// The locals `for a, b in ...` binds: a tuple of plain names.
    fn unpacked_names(&self, target: ExprId) -> Option<Vec<LocalId>> {
        let Expr::Tuple(names) = &self.body.exprs[target] else { return None };
        names.iter().map(|n| self.local_of(*n)).collect()
    }

    /// `for i, x in enumerate(a)` and `for x, y in zip(a, b)` (the
    /// builtins, without keywords): what each name is bound to, as the
    /// lowering's `for_over_arrays` binds them.
    fn steps_over_arrays(&self, target: ExprId, iter: ExprId) -> Option<Vec<(LocalId, Bound)>> {
        let Expr::Call { func, args, keywords } = &self.body.exprs[iter] else { return None };
        let Expr::Name(Name::Free(f)) = &self.body.exprs[*func] else { return None };
        let counted = match &**f {
            "enumerate" if args.len() == 1 => true,
            "zip" if !args.is_empty() => false,
            _ => return None,
        };
        if !keywords.is_empty() || args.iter().any(|a| matches!(self.body.exprs[*a], Expr::Starred(_))) {
            return None;
        }
        let want = args.len() + counted as usize;
        let names: &[ExprId] = match &self.body.exprs[target] {
            Expr::Tuple(names) if want > 1 => names,
            Expr::Name(_) if want == 1 => std::slice::from_ref(&target),
            _ => return None,
        };
        if names.len() != want {
            return None;
        }
        let index = counted.then_some(Bound::StepIndex(iter));
        // `zip(range(n), a)`: a range steps with the arrays.
        let step = |a: &ExprId| if self.is_range_call(*a) { Bound::RangeCounter(*a) } else { Bound::ArrayStep(*a) };
        let bounds = index.into_iter().chain(args.iter().map(step));
        names.iter().zip(bounds).map(|(n, b)| Some((self.local_of(*n)?, b))).collect()
    }

    /// The range value a local `e` holds (`for i in order` of `order =
    /// range(n)`).
    fn held_range(&self, e: ExprId) -> Option<ExprId> {
        let Expr::Name(Name::Local(id)) = self.body.exprs[e] else { return None };
        self.states[id].range
    }

    /// `range(...)` with the builtin `range`, or `prange(...)` (whose
    /// counter is typed as `range`'s), without keywords.
    fn is_range_call(&self, e: ExprId) -> bool {
        let Expr::Call { func, keywords, .. } = &self.body.exprs[e] else { return false };
        keywords.is_empty() && self.names_range(*func)
    }

    /// Whether `func` names `range` or `prange`.
    fn names_range(&self, func: ExprId) -> bool {
        let global = |n: &str| self.env.globals.get(n);
        match &self.body.exprs[func] {
            Expr::Name(Name::Free(n)) => &**n == "range",
            Expr::Name(Name::Global(n)) => matches!(global(n), Some(Global::Prange)),
            Expr::Attribute { base, attr } if &**attr == "prange" => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match global(m) {
                    Some(Global::Namespace(Namespace::Postc)) => true,
                    Some(Global::BoundaryModule(m)) => m == "numba",
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// Why `return value` (at `at`) of a function whose result is
    /// annotated (not `T | None`) is refused, and where (the lowering's
    /// `return_`): no value, `None`, a number that does not widen to the
    /// result's dtype, an array of another dtype or number of axes, an
    /// array for a number or a number for an array, what is not a tuple
    /// for a tuple, a list local ([`lists::list_returned_error`]). A tuple
    /// ([`Solver::tuple_return`]) and a value without a type are the
    /// lowering's.
    fn return_error(&self, at: TextRange, value: Option<ExprId>) -> Option<(TextRange, String)> {
        let decl = self.env.decl;
        let t = decl.ret.filter(|_| !decl.ret_maybe_none && !decl.ret_poisoned)?;
        let td = self.env.types.get(t);
        let name = &decl.name;
        let Some(v) = value else {
            return Some((at, return_without_value(name, td)));
        };
        let v_at = self.body.expr_ranges[v];
        if matches!(self.body.exprs[v], Expr::None) {
            return Some((v_at, return_none_error(name, td)));
        }
        let list = matches!(self.body.exprs[v], Expr::Name(Name::Local(id)) if self.states[id].list.is_some());
        if list && decl.result_lists != [0] {
            return self.ty(v).map(|_| (v_at, lists::list_returned_error(name, td)));
        }
        if list || decl.result_lists == [0] {
            return None;
        }
        match self.ty(v)? {
            Ty::Tuple(_) => None,
            v => returned_value_error(name, td, Some(&v)).map(|message| (v_at, message)),
        }
    }

    /// Why the `range(...)` (or `prange(...)`) a `for` loop runs over,
    /// `iter`, is refused, and where (the lowering's `range_bounds`): a
    /// keyword, a count of arguments, the first argument that is not an
    /// integer, a step of zero. An argument without a type leaves the
    /// call to the lowering.
    fn range_error(&self, iter: ExprId) -> Option<(TextRange, String)> {
        let Expr::Call { func, args, keywords } = &self.body.exprs[iter] else { return None };
        if !self.names_range(*func) {
            return None;
        }
        if let Some(k) = keywords.first() {
            return Some((k.range, RANGE_KEYWORD.into()));
        }
        if !(1..=3).contains(&args.len()) {
            return Some((self.body.expr_ranges[iter], range_arity_error(args.len())));
        }
        for a in args.iter() {
            let t = self.ty(*a)?;
            if let Some(message) = range_argument_error(t.scalar()) {
                return Some((self.body.expr_ranges[*a], message));
            }
        }
        let step = args.get(2).map(|a| (a, self.ty(*a)));
        match step {
            Some((a, Some(Ty::Lit { lit: Lit::Int(0), .. }))) => {
                Some((self.body.expr_ranges[*a], RANGE_STEP_ZERO.into()))
            }
            _ => None,
        }
    }

    // ---- the worklist -------------------------------------------------------

    fn solve(&mut self) {
        let mut readers: ArenaMap<LocalId, Vec<usize>> = ArenaMap::default();
        for (i, b) in self.bindings.iter().enumerate() {
            let (value, updated) = match b.bound {
                Bound::Value(v)
                | Bound::RangeCounter(v)
                | Bound::Extent { array: v, .. }
                | Bound::Element { value: v, .. }
                | Bound::EveryElement(v)
                | Bound::EveryElementPart { iter: v, .. }
                | Bound::ArrayStep(v)
                | Bound::StepIndex(v)
                | Bound::IndexTuple(v)
                | Bound::IndexPart { iter: v, .. }
                | Bound::ListDisplay(v)
                | Bound::ListAppend(v) => (v, None),
                Bound::Update(_, v) => (v, Some(b.local)),
            };
            for id in self.locals_read(value).into_iter().chain(updated) {
                let r = readers.entry(id).or_default();
                if r.last() != Some(&i) {
                    r.push(i);
                }
            }
        }
        let mut queued = vec![true; self.bindings.len()];
        let mut queue: std::collections::VecDeque<usize> = (0..self.bindings.len()).collect();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let local = self.bindings[i].local;
            if !self.states[local].open {
                continue;
            }
            self.reading_at.set(self.bindings[i].at);
            let tys = self.binding_types(self.bindings[i].bound, local);
            let Some(tys) = tys else { continue };
            self.states[local].repeated |= tys.len() > 1;
            let mut changed = false;
            for ty in &tys {
                changed |= self.join_into(local, ty);
            }
            if changed {
                for &r in readers.get(local).into_iter().flatten() {
                    if !queued[r] {
                        queued[r] = true;
                        queue.push_back(r);
                    }
                }
            }
        }
    }

    /// The locals an expression reads.
    fn locals_read(&self, e: ExprId) -> Vec<LocalId> {
        let mut out = Vec::new();
        let mut pending = vec![e];
        while let Some(e) = pending.pop() {
            if let Expr::Name(Name::Local(id)) = self.body.exprs[e] {
                out.push(id);
            }
            self.body.push_children(e, &mut pending);
        }
        out
    }

    /// Joins a value bound to `local` into its type, as the lowering's
    /// `assign_local` does; whether its state changed. A value refused
    /// there (of another kind, a narrowing, types that do not join) is
    /// left out, the local keeping the type its other bindings give; the
    /// sweep reports it against that type ([`assignments`]).
    fn join_into(&mut self, local: LocalId, ty: &Ty) -> bool {
        let st = &mut self.states[local];
        if let Some(elem) = st.list {
            // An element of a list: joined as `np.array` joins numbers
            // (a Python int as Int64, a Python float as Float64).
            let Some(s) = ty.scalar().filter(|s| !s.dtype.is_text()) else { return false };
            let Some(d) = array_of_dtype(None, elem.into_iter().chain([s])) else { return false };
            let joined = Some(Scalar::strong(d));
            if joined == elem {
                return false;
            }
            st.list = Some(joined);
            st.arr = Some(TypeData::array(d, Shape::dims(&[None]), Layout::COrder));
            return true;
        }
        if let Ty::Arr(ty) = ty {
            // As the lowering: the first array bound fixes the type, every
            // other must be the same.
            if st.ty.is_some() || st.elems.is_some() || st.annotation.is_some() {
                return false;
            }
            return match &st.arr {
                None => {
                    st.arr = Some(ty.clone());
                    true
                }
                Some(t) if t == ty => false,
                Some(_) => false,
            };
        }
        if st.arr.is_some() {
            // An array local bound to a scalar or a tuple: refused.
            return false;
        }
        if let Ty::Tuple(elems) = ty {
            return join_tuple_into(st, elems);
        }
        let Some(s) = ty.scalar() else {
            return false;
        };
        if st.elems.is_some() {
            // A tuple local bound to a scalar: refused by the lowering.
            return false;
        }
        let before = (st.ty, st.nonneg);
        match (st.annotation, st.ty) {
            (Some(annotated), _) if !widens_to(s, annotated) => {
                return false;
            }
            (Some(annotated), _) => st.ty = Some(Scalar::strong(annotated)),
            // A local's type is the join of its values', one value's
            // with itself too: a weak value of a dtype not its kind's
            // default (`x.imag` of a Float32) settles at the default.
            (None, None) => st.ty = Some(join(s, s).unwrap_or(s)),
            (None, Some(t)) => match join(t, s) {
                Some(j) => st.ty = Some(j),
                None => return false,
            },
        }
        st.nonneg &= ty.nonneg();
        (st.ty, st.nonneg) != before
    }

    /// The types a binding gives its local, in order (a `for` loop over a
    /// tuple gives it each element's).
    fn binding_types(&self, bound: Bound, local: LocalId) -> Option<Vec<Ty>> {
        match bound {
            Bound::ListDisplay(v) => {
                let Expr::List(elts) = &self.body.exprs[v] else { return None };
                elts.iter().map(|e| self.ty(*e)).collect()
            }
            Bound::ListAppend(v) => Some(vec![self.ty(v)?]),
            // `x = None` of a local that may be `None` (the lowering's
            // `assign_maybe_none`): its flag, not its type.
            Bound::Value(v) if matches!(self.body.exprs[v], Expr::None) => Some(Vec::new()),
            Bound::EveryElement(iter) if matches!(self.body.exprs[iter], Expr::List(_)) => {
                let Expr::List(elts) = &self.body.exprs[iter] else { return None };
                elts.iter().map(|e| self.ty(*e)).collect()
            }
            Bound::EveryElement(iter) => match self.ty(iter)? {
                Ty::Tuple(elems) => Some(elems),
                Ty::Arr(ty) => Some(vec![array_step(&ty)?]),
                _ => None,
            },
            // As the lowering's `for_over_tuple`: every element a tuple of
            // as many parts as names.
            Bound::EveryElementPart { iter, index, count } => match self.ty(iter)? {
                Ty::Tuple(elems) => elems
                    .into_iter()
                    .map(|e| match e {
                        Ty::Tuple(mut parts) if parts.len() == count => Some(parts.swap_remove(index)),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            },
            other => self.binding_type(other, local).map(|t| vec![t]),
        }
    }

    fn binding_type(&self, bound: Bound, local: LocalId) -> Option<Ty> {
        match bound {
            Bound::Value(v) => self.ty(v),
            // Typed element by element, by `binding_types`.
            Bound::ListDisplay(_) | Bound::ListAppend(_) => None,
            Bound::Update(op, v) => {
                let st = &self.states[local];
                if let Some(arr) = &st.arr {
                    // In place: the array keeps its type.
                    return Some(Ty::Arr(arr.clone()));
                }
                let current = Ty::Num { s: st.ty?, nonneg: st.nonneg };
                let value = self.ty(v)?;
                self.arith_type(op, &current, &value)
            }
            Bound::RangeCounter(call) => self.range_counter(call),
            Bound::Extent { array, axes } => match self.ty(array)? {
                Ty::Arr(ty) if ty.ndim() == Some(axes) => Some(extent()),
                _ => None,
            },
            // As the lowering's `unpacked`.
            Bound::Element { value, index, count } => match self.ty(value)? {
                Ty::Tuple(mut elems) if elems.len() == count => Some(elems.swap_remove(index)),
                Ty::Arr(ty) if ty.ndim() == Some(1) => Some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false }),
                _ => None,
            },
            Bound::ArrayStep(array) => match self.ty(array)? {
                Ty::Arr(ty) => array_step(&ty),
                _ => None,
            },
            // Typed when every array it runs over is.
            Bound::StepIndex(_) => Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }),
            Bound::EveryElement(_) | Bound::EveryElementPart { .. } => None,
            Bound::IndexTuple(call) => Some(Ty::Tuple(vec![index_counter(); self.ndindex_rank(call)?])),
            Bound::IndexPart { iter, count, .. } => (self.ndindex_rank(iter)? == count).then(index_counter),
        }
    }

    /// `np.ndindex(shape)`, `np.ndindex(n, m)` (as the lowering's
    /// `for_over_ndindex` takes it).
    fn is_ndindex_call(&self, e: ExprId) -> bool {
        let Expr::Call { func, keywords, .. } = &self.body.exprs[e] else { return false };
        keywords.is_empty() && self.numpy_attr(*func) == Some("ndindex")
    }

    /// How many indices each step of `np.ndindex(...)` gives: the
    /// elements of a tuple of integers, or the integers given.
    fn ndindex_rank(&self, call: ExprId) -> Option<usize> {
        let Expr::Call { args, .. } = &self.body.exprs[call] else { return None };
        let int = |t: &Ty| t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int || s.dtype == DType::Bool);
        match &args[..] {
            [one] => match self.ty(*one)? {
                Ty::Tuple(elems) if elems.iter().all(int) => Some(elems.len()),
                t if int(&t) => Some(1),
                _ => None,
            },
            many => {
                for a in many {
                    if !int(&self.ty(*a)?) {
                        return None;
                    }
                }
                Some(many.len())
            }
        }
    }

    // ---- expressions --------------------------------------------------------

    /// Refuses `e` with `message`, located at `at` (the expression's
    /// own range or a part of it, such as an attribute's name): it has
    /// no type. Reported while sweeping, once per expression.
    fn refuse(&self, e: ExprId, at: TextRange, message: impl Into<String>) -> Option<Ty> {
        let first = self.reports.borrow_mut().as_mut().is_some_and(|r| r.refused.insert(e, ()).is_none());
        if first {
            self.report(at, message);
        }
        None
    }

    /// Why `target: annotation = ...` is refused, and where: a target that
    /// is not a name, an annotation that is not a scalar type, a
    /// parameter annotated again, a local annotated before with another
    /// type (its first annotation is its type).
    fn annotated_assignment_error(&self, target: ExprId, annotation: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        let Expr::Name(name) = &body.exprs[target] else {
            return Some((body.expr_ranges[target], "only a local variable can be annotated".into()));
        };
        let inner = body.maybe_none_inner(annotation).unwrap_or(annotation);
        let inner_at = body.expr_ranges[inner];
        let Some(d) = self.annotation(annotation) else {
            let globals = self.env.globals;
            let message = match body.dotted(inner) {
                Some(n) if globals.get(&n).is_none() && DType::from_name(&n).is_some() => {
                    crate::declare::unknown_type(&n)
                }
                Some(n) => format!("a local is annotated with a scalar type such as `Float64`, not `{n}`"),
                None => "a local is annotated with a scalar type such as `Float64`; an array or a tuple local is \
                         not annotated"
                    .into(),
            };
            return Some((inner_at, message));
        };
        let Name::Local(id) = name else { return None };
        let shown = &body.locals[*id].name;
        if body.locals[*id].kind == LocalKind::Param {
            return Some((body.expr_ranges[target], format!("`{shown}` is a parameter; its type is its annotation")));
        }
        let first = self.states.get(*id).and_then(|st| st.annotation);
        (first.is_some_and(|first| first != d))
            .then(|| (body.expr_ranges[annotation], format!("`{shown}` is annotated twice with different types")))
    }

    /// `x: T = None` of a scalar type `T` that does not allow `None`
    /// (`T | None` does): where, and why.
    fn annotated_none_error(
        &self,
        target: ExprId,
        annotation: ExprId,
        value: Option<ExprId>,
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let value = value.filter(|v| matches!(body.exprs[*v], Expr::None))?;
        if body.maybe_none_inner(annotation).is_some() {
            return None;
        }
        let Expr::Name(Name::Local(id)) = body.exprs[target] else { return None };
        let d = self.annotation(annotation)?;
        Some((body.expr_ranges[value], maybe_none::cannot_be_none_error(false, &body.locals[id].name, Some(d))))
    }

    /// Refuses the statement `s` with `message`, located at `at`.
    fn refuse_statement(&self, s: StmtId, at: TextRange, message: impl Into<String>) {
        if let Some(reports) = self.reports.borrow_mut().as_mut() {
            reports.refused_stmts.insert(s, ());
        }
        self.report(at, message);
    }

    /// Reports `message` at `at`, while sweeping.
    fn report(&self, at: TextRange, message: impl Into<String>) {
        if let Some(reports) = self.reports.borrow_mut().as_mut() {
            reports.errors.push(TypeError { at, message: message.into() });
        }
    }

    /// Reports the statement `s` if POST Python refuses it whatever its
    /// types (the lowering lowers none of these): a refused statement
    /// (`with`, `try`, ...; its blocks are still swept), a nested
    /// function, `global`, an import, an expression standing alone that
    /// is not a call or a string (its parts are still typed), `break` out
    /// of a parallel `prange` loop and a `prange` loop whose body or
    /// reductions it refuses ([`loops::prange_checks`]).
    fn check_statement(&self, s: StmtId) {
        let body = self.body;
        let at = body.stmt_ranges[s];
        match &body.stmts[s] {
            Stmt::Expr(e) => {
                let message = match &body.exprs[*e] {
                    Expr::Call { .. } | Expr::Literal(Lit::Str(_)) => return,
                    Expr::Refused { construct: what @ ("`yield`" | "`yield from`" | "`await`"), .. } => {
                        format!("{what} is not supported: POST functions are not generators or coroutines")
                    }
                    _ => format!("{} has no effect as a statement; only calls stand alone", body.construct_name(*e)),
                };
                self.refuse_here(*e, message);
            }
            Stmt::NestedFunction { name_range } => {
                self.report(*name_range, "nested functions are not supported: define the function at module level")
            }
            Stmt::Global => {
                self.report(at, "`global` is not supported: module constants are read-only in compiled code")
            }
            Stmt::Import => self.report(at, "imports inside a function are not supported: import at module level"),
            Stmt::Refused { construct, .. } => self.report(at, format!("{construct} is not supported in POST Python")),
            Stmt::For { is_async: true, .. } => self.refuse_statement(s, at, "`async for` is not supported"),
            Stmt::Break if self.outside_loops.get(s).is_some() => {
                self.refuse_statement(s, at, "`break` outside a loop")
            }
            Stmt::Continue if self.outside_loops.get(s).is_some() => {
                self.refuse_statement(s, at, "`continue` outside a loop")
            }
            Stmt::Break if self.prange.breaks.get(s).is_some() => self.refuse_statement(s, at, loops::PRANGE_BREAK),
            Stmt::For { .. } if self.prange.loops.get(s).is_some() => self.prange_loop_errors(s),
            Stmt::Assign { targets, value } => match unpacking_error(body, at, targets, *value) {
                Some((at, message)) => self.refuse_statement(s, at, message),
                None => {
                    self.range_rebound(s);
                    self.check_list_display(s);
                    self.check_dtype_binding(s);
                    self.check_assignment_targets(s)
                }
            },
            Stmt::AugAssign { .. } => self.check_assignment_targets(s),
            Stmt::AnnAssign { target, annotation, value } => {
                let error = self.annotated_assignment_error(*target, *annotation);
                if let Some((at, message)) = error.or_else(|| self.annotated_none_error(*target, *annotation, *value)) {
                    self.refuse_statement(s, at, message);
                }
            }
            Stmt::Assert { msg: Some(m), .. } if !matches!(body.exprs[*m], Expr::Literal(Lit::Str(_))) => {
                self.refuse_statement(s, body.expr_ranges[*m], "an assert message must be a string literal")
            }
            Stmt::Raise { exc, cause } => {
                if let Some((at, message)) = raise_error(body, at, *exc, *cause) {
                    self.refuse_statement(s, at, message);
                }
            }
            _ => {}
        }
    }

    /// Reports the statement `s` if POST Python refuses it for the types
    /// of its expressions, once the sweep has typed them (typing them
    /// before would type a deep expression again at each level): a `for`
    /// loop whose target or iterable it refuses ([`Solver::for_error`]) or
    /// over a `range` of arguments it refuses, a `return` of what the
    /// function does not return ([`Solver::return_error`],
    /// [`Solver::tuple_return`]).
    fn check_typed_statement(&self, s: StmtId) {
        let at = self.body.stmt_ranges[s];
        self.check_gpu_code(s);
        self.check_maybe_none_reads(s);
        self.check_list_elements(s);
        self.check_ternary_that_may_be_none(s);
        self.check_absent_reads_in_parts(s);
        self.check_held_ranges(s);
        let error = match &self.body.stmts[s] {
            Stmt::For { is_async: false, target, iter, .. } => {
                let error = self.for_error(*target, *iter).or_else(|| self.range_error(*iter));
                if error.is_none() {
                    self.check_loop_binding(s);
                }
                error
            }
            Stmt::Return(value) => self.return_error(at, *value).or_else(|| self.tuple_return(*value)),
            Stmt::Assign { .. } | Stmt::AnnAssign { .. } | Stmt::AugAssign { .. } => {
                if !self.check_unassigned_update(s) {
                    self.check_assignment(s);
                }
                return;
            }
            _ => None,
        };
        if let Some((at, message)) = error {
            self.refuse_statement(s, at, message);
        }
    }

    /// Whether the starred expression `e` is held by what reads it as a
    /// starred part: a call's arguments, a tuple or list display, a
    /// subscript's index (a search of the body: starred expressions are
    /// rare).
    fn starred_held(&self, e: ExprId) -> bool {
        self.body.exprs.values().any(|x| match x {
            Expr::Call { args, .. } => args.contains(&e),
            Expr::Tuple(elts) | Expr::List(elts) => elts.contains(&e),
            Expr::Subscript { index, .. } => *index == e,
            _ => false,
        })
    }

    /// [`Solver::refuse`] at the expression's own range.
    fn refuse_here(&self, e: ExprId, message: impl Into<String>) -> Option<Ty> {
        self.refuse(e, self.body.expr_ranges[e], message)
    }

    /// Why the name `name`, read as a value, has none: an undefined name,
    /// a function, a POST module. Other names without a type (a dtype, a
    /// CPython module's) are the lowering's to refuse.
    fn name_read_error(&self, name: &Name) -> Option<String> {
        match name {
            Name::Free(n) if python_scalar(n).is_none() => name_error(n, None),
            Name::Global(n) => match self.env.globals.get(&**n)? {
                g @ (Global::Func(_)
                | Global::Intrinsic { .. }
                | Global::PostImport { .. }
                | Global::Alias(_)
                | Global::PostModule(_)
                | Global::BoundaryModule(_)
                | Global::Namespace(_)) => name_error(n, Some(g)),
                _ => None,
            },
            Name::Free(_) | Name::Local(_) => None,
        }
    }

    fn is_int_literal(&self, e: ExprId) -> bool {
        matches!(self.body.exprs[e], Expr::Literal(Lit::Int(_)))
    }

    /// Refuses `e` with no message of its own, while sweeping: what holds
    /// it is refused for it (a generic function's argument that gives its
    /// parameter no type), and it is not lowered as a value.
    fn quiet(&self, e: ExprId) {
        if let Some(reports) = self.reports.borrow_mut().as_mut() {
            reports.refused.insert(e, ());
        }
    }

    /// The list local whose method `func` names (`xs.append`).
    fn list_local_method(&self, func: ExprId) -> Option<LocalId> {
        let Expr::Attribute { base, .. } = self.body.exprs[func] else { return None };
        let Expr::Name(Name::Local(l)) = self.body.exprs[base] else { return None };
        self.states[l].list.is_some().then_some(l)
    }

    /// Why the operator `op` refuses the elements of `l` and `r` (one an
    /// array of numbers of a known number of axes, the other too or a
    /// number): its message for numbers of their types (or for a constant
    /// their dtype does not hold), said of their elements.
    fn element_arith_error(&self, op: ast::Operator, l: &Ty, r: &Ty) -> Option<String> {
        let element = |t: &Ty| match t {
            Ty::Arr(a) if a.ndim().is_some() && !a.dtype.is_text() => {
                Some(Ty::Num { s: Scalar::strong(a.dtype), nonneg: false })
            }
            Ty::Num { .. } | Ty::Lit { .. } => Some(t.clone()),
            _ => None,
        };
        let (el, er) = (element(l)?, element(r)?);
        el.operand()?;
        er.operand()?;
        let message = expressions::binop_error(op, &el, &er)?;
        Some(crate::lower::expr::whole_array_arithmetic_error(&message))
    }

    /// Whether `e` was refused, while sweeping.
    fn was_refused(&self, e: ExprId) -> bool {
        self.reports.borrow().as_ref().is_some_and(|r| r.refused.get(e).is_some())
    }

    fn ty(&self, e: ExprId) -> Option<Ty> {
        if let Some(known) = self.known.borrow().get(e) {
            return known.clone();
        }
        // A sum of 100,000 terms is 100,000 levels deep.
        deep(|| self.ty_inner(e))
    }

    /// The type of every expression of the body that [`Solver::ty`] types,
    /// once the locals' types are final: the statements in the order
    /// [`Solver::collect`] counts them (each expression read where its
    /// statement is), each expression after the ones it holds, so that
    /// typing it finds theirs known and each is typed once, without
    /// recursing.
    fn sweep(&self) -> ArenaMap<ExprId, Ty> {
        let body = self.body;
        self.known.borrow_mut().reserve(body.exprs.len());
        let mut at = 0;
        let mut pending: Vec<StmtId> = body.top.iter().rev().copied().collect();
        // Expressions still to type, each with whether the ones it holds
        // are typed already.
        let mut exprs: Vec<(ExprId, bool)> = Vec::new();
        let mut children = Vec::new();
        while let Some(s) = pending.pop() {
            at += 1;
            self.reading_at.set(at);
            self.check_statement(s);
            let (roots, blocks) = parts_of(&body.stmts[s]);
            exprs.extend(roots.iter().rev().map(|e| (*e, false)));
            while let Some((e, held_typed)) = exprs.pop() {
                if held_typed {
                    // What it holds is known: typing it does not recurse.
                    let ty = self.ty_inner(e);
                    if let (Some(t), Some(())) = (&ty, self.conditions.get(e)) {
                        if let Some(message) = not_a_condition(Some(t)) {
                            self.refuse_here(e, message);
                        }
                    }
                    self.known.borrow_mut().insert(e, ty);
                    continue;
                }
                exprs.push((e, true));
                body.push_children(e, &mut children);
                exprs.extend(children.drain(..).rev().map(|c| (c, false)));
            }
            self.check_typed_statement(s);
            for b in blocks.iter().rev() {
                pending.extend(b.iter().rev());
            }
        }
        let known = self.known.take();
        known.into_iter().filter_map(|(e, ty)| Some((e, ty?))).collect()
    }

    fn ty_inner(&self, e: ExprId) -> Option<Ty> {
        match &self.body.exprs[e] {
            // `return *x`, `y = *x`: a starred expression on its own (in
            // a call's arguments, a display or a subscript, its holder's).
            Expr::Starred(_) if !self.starred_held(e) => {
                self.refuse_here(e, refused_construct_error(self.body.construct_name(e)))
            }
            Expr::Literal(lit) => {
                let d = lit.default_dtype();
                Some(Ty::Lit { lit: lit.clone(), s: Scalar { dtype: d, weak: !d.is_text() } })
            }
            Expr::Name(Name::Local(id)) if self.never_assigned.get(*id).is_some() => {
                self.refuse_here(e, unassigned::unassigned_error(&self.body.locals[*id].name))
            }
            Expr::Name(Name::Local(id)) if self.list_misreads.get(e).is_some() => {
                self.refuse_here(e, crate::lower::lists::list_read_error(&self.body.locals[*id].name))
            }
            Expr::Name(Name::Local(id)) if self.holds_range(*id) => self.range_read(e, *id),
            Expr::Name(name) => {
                let t = self.name(name);
                // A name that is no local, global or builtin is undefined
                // wherever the lowering lowers it, an argument included
                // (read as a dtype, it is no dtype for that).
                let undefined_argument =
                    matches!(name, Name::Free(_)) && self.arguments.get(e).is_some() && self.unlowered.get(e).is_none();
                if t.is_none() && (self.not_values.get(e).is_none() || undefined_argument) {
                    if let Some(message) = self.name_read_error(name) {
                        return self.refuse_here(e, message);
                    }
                }
                t
            }
            Expr::IntTooLarge => self.refuse_here(e, "integer literal is too large for 64 bits"),
            Expr::Ellipsis if expressions::ellipsis_read_as_value(self.body, e) => {
                self.refuse_here(e, refused_construct_error(self.body.construct_name(e)))
            }
            Expr::None if self.none_operands.get(e).is_some() && self.unlowered.get(e).is_none() => {
                self.refuse_here(e, crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER)
            }
            Expr::List(_) if self.none_operands.get(e).is_some() && self.unlowered.get(e).is_none() => {
                self.refuse_here(e, none_values::LIST_READ_AS_VALUE)
            }
            Expr::Refused { construct, .. } if self.unlowered.get(e).is_none() => {
                self.refuse_here(e, refused_construct_error(construct))
            }
            Expr::BinOp { op, lhs, rhs } => {
                if *op == ast::Operator::MatMult {
                    return self.product_of(e, Product::MatMul, *lhs, *rhs);
                }
                let (l, r) = (self.ty(*lhs)?, self.ty(*rhs)?);
                if matches!(l, Ty::Tuple(_)) || matches!(r, Ty::Tuple(_)) {
                    if let Some(message) = expressions::binop_error(*op, &l, &r) {
                        return self.refuse_here(e, message);
                    }
                    return tuple_arith(*op, l, r);
                }
                if matches!(l, Ty::Arr(_)) || matches!(r, Ty::Arr(_)) {
                    let element = |e: &[Ty]| self.arith_type(*op, &e[0], &e[1]);
                    if let Some(t) = self.elementwise(&[l.clone(), r.clone()], element) {
                        // Elements the operator refuses (`a + "s"`): the
                        // lowering's `binop` of the whole arrays.
                        if let (None, Some(message)) = (&t, self.element_arith_error(*op, &l, &r)) {
                            return self.refuse_here(e, message);
                        }
                        return t;
                    }
                }
                // CPython's and NumPy's operator rules (NEP 50), and the
                // constants the operands' dtype holds.
                if let (Some(_), Some(_)) = (l.operand(), r.operand()) {
                    if let Some(message) = expressions::binop_error(*op, &l, &r) {
                        return self.refuse_here(e, message);
                    }
                }
                self.arith_type(*op, &l, &r)
            }
            // `not None`: the lowering reads the truth of `None`, false.
            Expr::UnaryOp { op: ast::UnaryOp::Not, operand } if matches!(self.body.exprs[*operand], Expr::None) => {
                Some(bool_result(false))
            }
            Expr::UnaryOp { op, operand } => {
                let v = self.ty(*operand)?;
                if let Some(refused) = self.unary_of_tuple(e, *op, &v) {
                    return refused;
                }
                if *op != ast::UnaryOp::Not {
                    if let Some(t) = self.elementwise(std::slice::from_ref(&v), |e| unary(*op, e[0].clone())) {
                        return t.or_else(|| self.refuse_unary_elements(e, *op, &v));
                    }
                }
                if let Some(message) = unary_error(*op, &v) {
                    return self.refuse_here(e, message);
                }
                unary(*op, v)
            }
            Expr::Compare { ops, operands } => self.compare(e, ops, operands),
            Expr::BoolOp { op, values } => {
                // A `None` operand is false where the lowering takes one (a
                // condition, an `or` operand before the last) and refused
                // elsewhere. Where the value is used, not only its truth,
                // each operand is a Bool.
                let word = if *op == ast::BoolOp::And { "and" } else { "or" };
                let value = self.conditions.get(e).is_none();
                let mut typed = true;
                for v in values.iter().filter(|v| !matches!(self.body.exprs[**v], Expr::None)) {
                    let Some(t) = self.ty(*v) else {
                        typed = false;
                        continue;
                    };
                    typed &= t.scalar().is_some_and(|s| s.dtype == DType::Bool) && t.converts_to(DType::Bool);
                    if let Some(message) = bool_operand_error(word, t.scalar()).filter(|_| value) {
                        self.refuse_here(*v, message);
                    }
                }
                typed.then(|| bool_result(false))
            }
            Expr::If { test, body, orelse } => {
                if !self.is_condition(*test) {
                    return None;
                }
                // As the lowering's `ternary_maybe_none`: an arm that is
                // `None` sets the flag only, the other gives the type (of
                // a Bool, an integer or a float); both `None`, no type.
                let none = |e: &ExprId| matches!(self.body.exprs[*e], Expr::None);
                match (none(body), none(orelse)) {
                    (true, true) => return None,
                    (true, false) => return self.beside_none_arm(e, *orelse),
                    (false, true) => return self.beside_none_arm(e, *body),
                    (false, false) => {}
                }
                let (t, f) = (self.ty(*body)?, self.ty(*orelse)?);
                let pure = crate::lower::expr::is_pure(self.body, *body)
                    && crate::lower::expr::is_pure(self.body, *orelse)
                    && !matches!(t, Ty::Tuple(_))
                    && !matches!(f, Ty::Tuple(_));
                if let Some(message) = arms_error(Some(&t), Some(&f), pure) {
                    return self.refuse_here(e, message);
                }
                if let (Ty::Tuple(ts), Ty::Tuple(fs)) = (&t, &f) {
                    return arms_of_tuples(ts, fs);
                }
                let p = promote(t.scalar()?, f.scalar()?)?;
                (t.converts_to(p.dtype) && f.converts_to(p.dtype))
                    .then(|| Ty::Num { s: p, nonneg: t.nonneg() && f.nonneg() })
            }
            Expr::Call { func, args, keywords } if self.dot_operands(*func, args).is_some() => {
                let operands = self.dot_operands(*func, args)?;
                let at = self.body.expr_ranges[e];
                if let Some((at, message)) = crate::lower::linalg::dot_form_error(self.body, &operands, keywords, at) {
                    return self.refuse(e, at, message);
                }
                self.product_of(e, Product::Dot, operands[0], operands[1])
            }
            Expr::Call { func, args, keywords } if self.numpy_array_function(*func).is_some() => {
                // As the lowering's `np_function_call`: `*` arguments, then
                // `**`, arrays created in GPU code, then (outside GPU code)
                // the keywords it reads first and the arguments.
                let g = self.numpy_array_function(*func)?;
                if let Some(s) = args.iter().find(|a| matches!(self.body.exprs[**a], Expr::Starred(_))) {
                    return self.refuse(e, self.body.expr_ranges[*s], STARRED_ARGUMENT);
                }
                if let Some(k) = keywords.iter().find(|k| k.name.is_none()) {
                    return self.refuse(e, k.range, DOUBLE_STAR);
                }
                if creates_array(g) && self.env.decl.attrs.is_device() {
                    return self.refuse_here(e, crate::lower::arrays::gpu_creation_error(np_function_shown(g)));
                }
                if let Some(known) = leading_keywords(g) {
                    if let Some((at, message)) = keyword_error(keywords, known, np_function_shown(g)) {
                        return self.refuse(e, at, message);
                    }
                }
                if let Some((at, message)) = self.numpy_function_error(e, *func, g, args, keywords) {
                    return self.refuse(e, at, message);
                }
                match (self.numpy_array_function(*func)?, &self.body.exprs[*func]) {
                    (NpFn::ArgSortMethod, Expr::Attribute { base, .. }) if args.is_empty() => {
                        self.numpy_array_call(NpFn::ArgSort, std::slice::from_ref(base), keywords)
                    }
                    (NpFn::ArgSortMethod, _) => None,
                    (NpFn::VarMethod | NpFn::StdMethod, Expr::Attribute { base, .. }) if args.is_empty() => {
                        let plain =
                            if self.numpy_array_function(*func)? == NpFn::VarMethod { NpFn::Var } else { NpFn::Std };
                        self.numpy_array_call(plain, std::slice::from_ref(base), keywords)
                    }
                    (NpFn::VarMethod | NpFn::StdMethod, _) => None,
                    // `a.trace(offset)`: `np.trace(a, offset)`.
                    (NpFn::TraceMethod, Expr::Attribute { base, .. }) => {
                        let all: Vec<ExprId> = std::iter::once(*base).chain(args.iter().copied()).collect();
                        self.numpy_array_call(NpFn::Trace, &all, keywords)
                    }
                    (NpFn::TraceMethod, _) => None,
                    (f, _) => self.numpy_array_call(f, args, keywords),
                }
            }
            Expr::Call { func, .. } if self.was_refused(*func) => {
                // `(lambda t: t)(x)`: the callee's error is the call's.
                self.quiet(e);
                None
            }
            Expr::Call { func, args, keywords } if matches!(&self.body.exprs[*func], Expr::Name(Name::Free(n)) if &**n == "print") => {
                self.print_call(e, args, keywords)
            }
            Expr::Call { func, args, keywords } if self.list_local_method(*func).is_some() => {
                let list = self.list_local_method(*func)?;
                self.list_method_call(e, *func, list, args, keywords)
            }
            Expr::Call { func, args, keywords } => {
                if let Some((at, message)) = self.target_error(e, *func, args, keywords) {
                    return self.refuse(e, at, message);
                }
                if let Some((at, message)) = self.call_error(e, *func, args, keywords) {
                    return self.refuse(e, at, message);
                }
                match self.array_function(*func) {
                    Some((f, recv)) => self.array_call(e, f, recv, args, keywords),
                    None if keywords.is_empty() => self.call(e, *func, args),
                    // Keywords name the parameters of the module's functions.
                    None => match &self.body.exprs[*func] {
                        Expr::Name(Name::Global(n)) => self.post_call(e, n, args, keywords),
                        _ => None,
                    },
                }
            }
            Expr::Subscript { base, index } => self.element(e, *base, *index),
            Expr::Tuple(es) => {
                let starred: Vec<ExprId> =
                    es.iter().copied().filter(|x| matches!(self.body.exprs[*x], Expr::Starred(_))).collect();
                if !starred.is_empty() {
                    // A display read as a value, as the lowering's
                    // `tuple_display` refuses it: every `*` in it.
                    if self.displays.get(e).is_some() {
                        for s in starred {
                            self.report(self.body.expr_ranges[s], STARRED_IN_TUPLE);
                        }
                        self.quiet(e);
                    }
                    return None;
                }
                let elems = es.iter().map(|e| self.ty(*e));
                Some(Ty::Tuple(elems.collect::<Option<_>>()?))
            }
            Expr::Attribute { base, attr } if &**attr == "shape" => match self.ty(*base)? {
                Ty::Arr(ty) => Some(Ty::Tuple(vec![extent(); ty.ndim()?])),
                other => self.shape_of_non_array(e, &other),
            },
            // `np.pi`, `math.pi`, `postc.math.pi`: Python floats.
            Expr::Attribute { base, attr } if self.constant_of_module(*base, attr).is_some() => {
                self.constant_of_module(*base, attr).map(python_float)
            }
            // `thread_idx.x` in a `@kernel`: a Python int, never negative.
            Expr::Attribute { base, attr } if self.is_gpu_register(*base) => {
                if let Some(refused) = self.gpu_register_read(e, *base, attr) {
                    return refused;
                }
                let kernel = self.env.decl.attrs.contains(FuncAttrs::KERNEL);
                (kernel && Axis::ALL.iter().any(|x| x.name() == &**attr)).then(extent)
            }
            Expr::Attribute { base, attr } if self.type_info_of(*base).is_some() => {
                let (which, args, keywords) = self.type_info_of(*base)?;
                self.type_info(e, *base, which, args, keywords, attr)
            }
            // `m.x` of a POST module without `x`, read as a value (its
            // constants are resolved when the body is built).
            Expr::Attribute { base, attr } if self.post_module_of(*base).is_some() => {
                let m = self.post_module_of(*base)?;
                if self.not_values.get(e).is_some() {
                    return None;
                }
                self.refuse(e, self.body.attr_ranges[e], format!("module `{m}` has no `{attr}`"))
            }
            // As the lowering's `attribute` of an array, or of a number.
            Expr::Attribute { base, attr } => {
                if let Some(refused) = self.namespace_member_read(e, *base, attr) {
                    return refused;
                }
                if let Some(refused) = self.unknown_numpy_member_read(e, *base, attr) {
                    return refused;
                }
                let base_ty = self.ty(*base)?;
                // `a.dtype` is read where a dtype is (`dtype=a.dtype`).
                let error = attribute_error(Some(&base_ty), attr);
                if let (Some((whole, message)), true) = (error, self.attribute_read(e, attr)) {
                    let at = if whole { self.body.expr_ranges[e] } else { self.body.attr_ranges[e] };
                    return self.refuse(e, at, message);
                }
                let ty = match base_ty {
                    Ty::Arr(ty) => ty,
                    Ty::Tuple(_) => return None,
                    number => return part_of(number, attr),
                };
                let nd = ty.ndim()?;
                match &**attr {
                    "T" => (!ty.dtype.is_text()).then(|| view_of(&ty, nd)),
                    "ndim" => Some(Ty::Lit { lit: Lit::Int(nd as i128), s: Scalar::weak(DType::Int64) }),
                    "size" if nd > 0 => Some(extent()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The arm beside a `None` arm of a conditional expression: a Bool,
    /// an integer or a float, in its own type.
    fn number_arm(&self, e: ExprId) -> Option<Ty> {
        let t = self.ty(e)?;
        let s = t.scalar()?;
        (kind(s.dtype) <= Kind::Float && t.converts_to(s.dtype)).then(|| Ty::Num { s, nonneg: t.nonneg() })
    }

    fn name(&self, name: &Name) -> Option<Ty> {
        match name {
            Name::Local(id) => match self.body.locals[*id].kind {
                LocalKind::Param if self.states[*id].open => {
                    let st = &self.states[*id];
                    Some(Ty::Num { s: st.ty?, nonneg: false })
                }
                LocalKind::Param => {
                    let decl = self.env.decl;
                    let at = decl.params.iter().position(|(n, _)| **n == *self.body.locals[*id].name)?;
                    // A parameter that may be `None` is read as a number
                    // where a test narrows it (elsewhere the lowering
                    // refuses the read): of its value's type.
                    let t = &decl.params[at].1;
                    let td = self.env.types.get(*t);
                    let number = |t: &TypeData| Ty::Num { s: Scalar::strong(t.dtype), nonneg: false };
                    Some(if td.is_tuple() {
                        Ty::Tuple(td.elements.iter().map(number).collect())
                    } else if td.is_array {
                        Ty::Arr(td.clone())
                    } else {
                        Ty::Num { s: decl.param_scalar(at, td), nonneg: false }
                    })
                }
                LocalKind::Poisoned => None,
                LocalKind::Constant => match self.env.globals.get(&*self.body.locals[*id].name)? {
                    Global::ConstArray(a) => Some(Ty::Arr(crate::lower::const_array_type(a))),
                    _ => None,
                },
                LocalKind::Assigned => {
                    let st = &self.states[*id];
                    if !st.open {
                        return None;
                    }
                    if let Some(arr) = &st.arr {
                        // Bound by an earlier statement, or not yet where
                        // the lowering reads it.
                        let bound_before = st.first_at.is_some_and(|at| at < self.reading_at.get());
                        return bound_before.then(|| Ty::Arr(arr.clone()));
                    }
                    if let Some(elems) = &st.elems {
                        // An array element has no value before its first
                        // binding, as an array local.
                        let bound_before = st.first_at.is_some_and(|at| at < self.reading_at.get());
                        if elems.iter().any(Element::holds_array) && !bound_before {
                            return None;
                        }
                        return Some(Ty::Tuple(elems.iter().map(Element::ty).collect()));
                    }
                    Some(Ty::Num { s: st.ty?, nonneg: st.nonneg })
                }
            },
            Name::Global(n) => match self.env.globals.get(&**n)? {
                Global::Const { lit, scalar } => Some(Ty::Lit { lit: lit.clone(), s: *scalar }),
                // `pi` imported from NumPy or `math`: a Python float.
                Global::Boundary { module, name } if module == "numpy" => numpy_constant(name).map(python_float),
                Global::Boundary { module, name } if module == "math" => math_constant(name).map(python_float),
                _ => None,
            },
            Name::Free(_) => None,
        }
    }

    fn arith_type(&self, op: ast::Operator, l: &Ty, r: &Ty) -> Option<Ty> {
        let a = arith(op, &l.operand()?, &r.operand()?).ok()?;
        (l.converts_to(a.operand) && r.converts_to(a.operand)).then_some(Ty::Num { s: a.result, nonneg: a.nonneg })
    }

    /// `a < b`, `a < b <= c`: as the lowering's `compare_pair` accepts
    /// each pair.
    fn compare(&self, e: ExprId, ops: &[ast::CmpOp], operands: &[ExprId]) -> Option<Ty> {
        use ast::CmpOp as C;
        if let Some(message) = refused_comparison(self.body, ops, operands) {
            return self.refuse_here(e, message);
        }
        // `x is None`, `x == None` (the lowering's `is_none_test`): a
        // Python bool.
        if let ([C::Is | C::IsNot | C::Eq | C::NotEq], [l, r]) = (ops, operands) {
            if [l, r].iter().any(|e| matches!(self.body.exprs[**e], Expr::None)) {
                return Some(bool_result(true));
            }
        }
        let tys: Vec<Ty> = operands.iter().map(|e| self.ty(*e)).collect::<Option<_>>()?;
        if let Some(refused) = self.comparison_refusal(e, ops, operands, &tys) {
            return refused;
        }
        if let [op] = ops {
            let element = |e: &[Ty]| {
                let ordered = !matches!(op, C::Is | C::IsNot | C::In | C::NotIn);
                (ordered && self.comparable(*op, &e[0], &e[1])).then(|| bool_result(false))
            };
            if let Some(t) = self.elementwise(&tys, element) {
                return t.or_else(|| self.refuse_compared_elements(e, *op, &tys));
            }
        }
        if let ([op], [l, r]) = (ops, &tys[..]) {
            let tuple = matches!(l, Ty::Tuple(_)) || matches!(r, Ty::Tuple(_));
            if tuple {
                if let Ok(Some(message)) = tuple_comparison_error(*op, l, r) {
                    return self.refuse_here(e, message);
                }
            }
            match op {
                // As the lowering's `tuple_compare` (which refuses a call
                // on the right of `in` before lowering it).
                C::In | C::NotIn => {
                    let Ty::Tuple(elems) = r else { return None };
                    if matches!(self.body.exprs[operands[1]], Expr::Call { .. }) {
                        return None;
                    }
                    return elems.iter().all(|e| self.equality_typed(l, e)).then(|| bool_result(true));
                }
                C::Eq | C::NotEq if tuple => return self.equality_typed(l, r).then(|| bool_result(true)),
                C::Lt | C::LtE | C::Gt | C::GtE if tuple => {
                    return self.ordering_typed(*op, l, r).then(|| bool_result(true))
                }
                _ => {}
            }
        }
        for (op, pair) in ops.iter().zip(tys.windows(2)) {
            let tuple = matches!(pair[0], Ty::Tuple(_)) || matches!(pair[1], Ty::Tuple(_));
            let typed = match op {
                C::Is | C::IsNot | C::In | C::NotIn => false,
                // A link of a chain of tuple comparisons.
                _ if tuple && tuple_comparison_error(*op, &pair[0], &pair[1]) != Ok(None) => {
                    if let Ok(Some(message)) = tuple_comparison_error(*op, &pair[0], &pair[1]) {
                        return self.refuse_here(e, message);
                    }
                    false
                }
                C::Eq | C::NotEq if tuple => self.equality_typed(&pair[0], &pair[1]),
                _ if tuple => self.ordering_typed(*op, &pair[0], &pair[1]),
                _ => {
                    if let Some(message) = scalar_comparison_error(*op, &pair[0], &pair[1]) {
                        return self.refuse_here(e, message);
                    }
                    self.comparable(*op, &pair[0], &pair[1])
                }
            };
            if !typed {
                return None;
            }
        }
        // Comparing Python scalars gives a Python bool.
        let weak = ops.len() == 1 && tys.iter().all(|t| t.scalar().is_some_and(|s| s.weak));
        Some(bool_result(weak))
    }

    /// Whether `e` is typed as a condition (where only its truth is read,
    /// `and`, `or` and `not` read their operands' truth, as the lowering's
    /// `condition_value`).
    fn is_condition(&self, e: ExprId) -> bool {
        match &self.body.exprs[e] {
            Expr::BoolOp { values, .. } => {
                values.iter().all(|v| matches!(self.body.exprs[*v], Expr::None) || self.is_condition(*v))
            }
            Expr::UnaryOp { op: ast::UnaryOp::Not, operand } => self.is_condition(*operand),
            // `None` is false, as the lowering's `truth` takes it.
            Expr::None => true,
            _ => self.ty(e).is_some_and(|t| t.is_condition()),
        }
    }

    /// Whether `l op r` of two scalars is a comparison the lowering's
    /// `compare_pair` makes.
    fn comparable(&self, op: ast::CmpOp, l: &Ty, r: &Ty) -> bool {
        use ast::CmpOp as C;
        let (Some(ls), Some(rs)) = (l.scalar(), r.scalar()) else { return false };
        let Some(mut p) = promote(ls, rs) else { return false };
        let out_of_range = |t: &Ty| match t {
            Ty::Lit { lit: Lit::Int(i), .. } => p.dtype.int_range().is_some_and(|(lo, hi)| *i < lo || *i > hi),
            _ => false,
        };
        let python_int = |t: &Ty| matches!(t, Ty::Num { s, .. } if s.weak && s.dtype.is_int());
        if p.dtype.is_int() && (out_of_range(l) || out_of_range(r)) {
            if p.dtype == DType::UInt64 {
                return true;
            }
            p = Scalar::strong(DType::Int64);
        }
        if p.dtype.is_int() && !p.weak && p.dtype != DType::Int64 && (python_int(l) || python_int(r)) {
            if p.dtype == DType::UInt64 {
                return true;
            }
            p = Scalar::strong(DType::Int64);
        }
        if p.dtype.is_complex() && !matches!(op, C::Eq | C::NotEq) {
            return false;
        }
        l.converts_to(p.dtype) && r.converts_to(p.dtype)
    }

    /// `min(t, u, ...)`, `max(...)` of tuples of one length, as the
    /// lowering's `min_max_of_tuples`: each element of the result of the
    /// promotion of its position's elements (real numbers or strings),
    /// non-negative as `min` and `max` of numbers are.
    fn min_max_of_tuples(&self, values: &[Ty], is_min: bool) -> Option<Ty> {
        let tuples = tuple_elements_of(values)?;
        let (first, rest) = tuples.split_first()?;
        let len = first.len();
        if rest.iter().any(|t| t.len() != len) {
            return None;
        }
        let mut types = Vec::with_capacity(len);
        for k in 0..len {
            let mut joined: Option<Scalar> = None;
            for t in &tuples {
                let s = t[k].scalar().filter(|s| kind(s.dtype) <= Kind::Float || s.dtype.is_text())?;
                joined = Some(match joined {
                    None => s,
                    Some(q) => promote(q, s)?,
                });
            }
            types.push(joined?);
        }
        let mut nonneg: Vec<bool> = first.iter().map(Ty::nonneg).collect();
        if !first.iter().zip(&types).all(|(e, s)| e.converts_to(s.dtype)) {
            return None;
        }
        let op = if is_min { ast::CmpOp::Lt } else { ast::CmpOp::Gt };
        let current: Vec<Ty> = types.iter().map(|&s| Ty::Num { s, nonneg: false }).collect();
        for t in rest {
            if !self.ordering_typed(op, &Ty::Tuple(t.to_vec()), &Ty::Tuple(current.clone())) {
                return None;
            }
            for (k, e) in t.iter().enumerate() {
                if !e.converts_to(types[k].dtype) {
                    return None;
                }
                nonneg[k] = if is_min { nonneg[k] && e.nonneg() } else { nonneg[k] || e.nonneg() };
            }
        }
        let elems = types.into_iter().zip(nonneg).map(|(s, nonneg)| Ty::Num { s, nonneg });
        Some(Ty::Tuple(elems.collect()))
    }

    /// Whether the lowering's `compare_values` orders `l` and `r` by `op`
    /// (`<`, `<=`, `>`, `>=`): two tuples lexicographically (each pair of
    /// elements compared for equality and by `op`), scalars as
    /// [`Solver::comparable`]; a tuple and anything else is refused.
    fn ordering_typed(&self, op: ast::CmpOp, l: &Ty, r: &Ty) -> bool {
        match (l, r) {
            (Ty::Tuple(ls), Ty::Tuple(rs)) => {
                ls.iter().zip(rs).all(|(a, b)| self.equality_typed(a, b) && self.ordering_typed(op, a, b))
            }
            (Ty::Tuple(_), _) | (_, Ty::Tuple(_)) => false,
            _ => self.comparable(op, l, r),
        }
    }

    /// Whether the lowering's `values_equal` compares `l` and `r`: tuples
    /// element by element, a tuple and another value as unequal, scalars
    /// with `==`.
    fn equality_typed(&self, l: &Ty, r: &Ty) -> bool {
        match (l, r) {
            (Ty::Tuple(ls), Ty::Tuple(rs)) if ls.len() == rs.len() => {
                ls.iter().zip(rs).all(|(a, b)| self.equality_typed(a, b))
            }
            (Ty::Arr(_), _) | (_, Ty::Arr(_)) => false,
            (Ty::Tuple(_), _) | (_, Ty::Tuple(_)) => true,
            _ => self.comparable(ast::CmpOp::Eq, l, r),
        }
    }

    /// `a[i, j]`: one element of an array, every index an integer; or
    /// `a.shape[k]`, one extent.
    fn element(&self, s: ExprId, base: ExprId, index: ExprId) -> Option<Ty> {
        if let Expr::Attribute { base: array, attr } = &self.body.exprs[base] {
            // `a.T[i, j]` and other attributes are arrays, below.
            if &**attr == "shape" {
                // Where a value is read (not a target), an argument
                // included (`range(a.shape[0])`).
                let read = || self.read_as_argument(s);
                let index_at = self.body.expr_ranges[index];
                let ty = match self.ty(*array)? {
                    Ty::Arr(ty) => ty,
                    _ if read() => return self.refuse(s, self.body.expr_ranges[*array], SHAPE_OF_NOT_AN_ARRAY),
                    _ => return None,
                };
                // A literal axis, as written (not a constant's name).
                let k = match &self.body.exprs[index] {
                    Expr::Literal(Lit::Int(k)) => *k,
                    Expr::UnaryOp { op: ast::UnaryOp::USub, operand } if self.is_int_literal(*operand) => {
                        let Expr::Literal(Lit::Int(k)) = &self.body.exprs[*operand] else { return None };
                        -*k
                    }
                    // `a.shape[:-1]`: a slice of the tuple of extents.
                    Expr::Slice { .. } => return self.tuple_element(s, vec![extent(); ty.ndim()?], index),
                    _ if read() => return self.refuse(s, index_at, SHAPE_AXIS_NOT_CONSTANT),
                    _ => return None,
                };
                let axes = ty.ndim()? as i128;
                let axis = if k < 0 { k + axes } else { k };
                if !(0..axes).contains(&axis) && read() {
                    return self.refuse(s, index_at, axis_out_of_range(k, axes));
                }
                return (0..axes).contains(&axis).then(extent);
            }
        }
        // Where a value is read (not a target: an assignment's stores are
        // checked with the statement, see `assignments`).
        let read = self.stored.get(s).is_none();
        let ty = match self.ty(base)? {
            Ty::Arr(ty) => ty,
            Ty::Tuple(elems) => return self.tuple_element(s, elems, index),
            t if read => {
                let d = t.scalar()?.dtype;
                return self.refuse(s, self.body.expr_ranges[base], scalar_indexed(d));
            }
            _ => return None,
        };
        let entries: &[ExprId] = match &self.body.exprs[index] {
            Expr::Tuple(es) => es,
            _ => std::slice::from_ref(&index),
        };
        // `a[idx]` of a tuple of one integer per axis (a tuple local,
        // `np.ndindex`'s step): an element, as the lowering's `element_of`.
        if let (Expr::Name(_), Some(Ty::Tuple(elems))) = (&self.body.exprs[index], self.ty(index)) {
            if let Some(refused) = read.then(|| self.index_tuple_refusal(s, index, ty.ndim(), &elems)).flatten() {
                return refused;
            }
            let ints = elems.iter().all(|t| t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int));
            return (ints && Some(elems.len()) == ty.ndim())
                .then(|| Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false });
        }
        // `a[i, idx]`, `a[mask, j]`: one array entry and integers, one entry
        // per axis, as the lowering's `mixed_view` then `gather`.
        let special = |e: &ExprId| matches!(self.body.exprs[*e], Expr::Slice { .. } | Expr::None | Expr::Ellipsis);
        if entries.len() > 1 && Some(entries.len()) == ty.ndim() && !entries.iter().any(special) {
            let tys: Vec<Option<Ty>> = entries.iter().map(|e| self.ty(*e)).collect();
            let arrays: Vec<&TypeData> = tys
                .iter()
                .filter_map(|t| match t {
                    Some(Ty::Arr(t)) => Some(t),
                    _ => None,
                })
                .collect();
            if let [it] = arrays[..] {
                let ints = tys.iter().all(|t| match t {
                    Some(Ty::Arr(_)) => true,
                    Some(t) => t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int),
                    None => false,
                });
                let rank = match it.dtype {
                    DType::Bool if it.ndim() == Some(1) => Some(1),
                    d if kind(d) == Kind::Int => it.ndim(),
                    _ => None,
                };
                // Else the lowering reads one element, below.
                if let (true, Some(rank)) = (ints, rank) {
                    return Some(Ty::Arr(TypeData::array(ty.dtype, Shape::dims(&vec![None; rank]), Layout::COrder)));
                }
            }
        }
        // `a[idx]`, `a[mask]`: one array index, as the lowering's `gather`.
        if let [e] = entries {
            if let Some(Ty::Arr(it)) = self.ty(*e) {
                let (nd, ind) = (ty.ndim()?, it.ndim()?);
                if read {
                    if let Some(message) = array_index_error(it.dtype) {
                        return self.refuse(s, self.body.expr_ranges[*e], message);
                    }
                    if nd == 0 {
                        return self.refuse_here(s, NO_AXES_INDEXED_BY_ARRAY);
                    }
                    if let Some(message) = mask_axes_error(nd, ind).filter(|_| it.dtype == DType::Bool) {
                        return self.refuse_here(s, message);
                    }
                }
                let rank = match it.dtype {
                    DType::Bool if (1..=nd).contains(&ind) => 1 + nd - ind,
                    d if kind(d) == Kind::Int && nd > 0 => ind + nd - 1,
                    _ => return None,
                };
                return Some(Ty::Arr(TypeData::array(ty.dtype, Shape::dims(&vec![None; rank]), Layout::COrder)));
            }
        }
        if entries.iter().any(special) || entries.len() < ty.ndim()? {
            return self.view(s, read, &ty, index, entries);
        }
        if let Some(message) = index_count_error(ty.ndim()?, entries.len()) {
            return if read { self.refuse(s, self.body.expr_ranges[index], message) } else { None };
        }
        for e in entries {
            if matches!(self.body.exprs[*e], Expr::Slice { .. } | Expr::None | Expr::Ellipsis | Expr::Starred(_)) {
                return None;
            }
            let t = self.ty(*e)?;
            if let Some(message) = element_index_error(Some(&t)).filter(|_| read) {
                return self.refuse(s, self.body.expr_ranges[*e], message);
            }
            if kind(t.scalar()?.dtype) != Kind::Int || !t.converts_to(DType::Int64) {
                return None;
            }
        }
        Some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false })
    }

    /// `a[...]` of an array with slices, `None`, `...` or fewer integers
    /// than axes, as the lowering's `view_subscript` types it: a view
    /// with an axis for each slice and `None` and each axis not named;
    /// the element when every entry is an integer after all. Where the
    /// subscript `s` is `read`, its errors are refused, every one the
    /// lowering finds once every entry is typed.
    fn view(&self, s: ExprId, read: bool, ty: &TypeData, index: ExprId, entries: &[ExprId]) -> Option<Ty> {
        let nd = ty.ndim()?;
        let body = self.body;
        let ellipses = entries.iter().filter(|e| matches!(body.exprs[**e], Expr::Ellipsis)).count();
        let named = entries.iter().filter(|e| !matches!(body.exprs[**e], Expr::None | Expr::Ellipsis)).count();
        if read && ellipses > 1 {
            return self.refuse(s, body.expr_ranges[index], ONE_ELLIPSIS);
        }
        if read && named > nd {
            return self.refuse(s, body.expr_ranges[index], too_many_indices(nd, named));
        }
        // The errors of the entries, in the lowering's order; `typed`
        // while every entry has a type.
        let mut errors: Vec<(TextRange, String)> = Vec::new();
        let mut typed = true;
        let operand = |e: ExprId, what: &str, errors: &mut Vec<(TextRange, String)>, typed: &mut bool| -> bool {
            let t = self.ty(e);
            *typed &= t.is_some();
            let Some(t) = t else { return false };
            if let Some(message) = int_operand_error(what, Some(&t)) {
                errors.push((body.expr_ranges[e], message));
                return false;
            }
            t.converts_to(DType::Int64)
        };
        let mut fine = true;
        let mut axes = 0;
        for &e in entries {
            match &body.exprs[e] {
                Expr::Slice { lower, upper, step } => {
                    let written = |b: &Option<ExprId>| b.filter(|b| !matches!(body.exprs[*b], Expr::None));
                    for (part, what) in [(lower, "a slice bound"), (upper, "a slice bound"), (step, "a slice step")] {
                        if let Some(p) = written(part) {
                            fine &= operand(p, what, &mut errors, &mut typed);
                        }
                    }
                    // A literal zero, `-0` too (as the lowering reads it).
                    if let Some(st) =
                        written(step).filter(|st| crate::lower::slicing::literal_int(body, *st) == Some(0))
                    {
                        errors.push((body.expr_ranges[st], SLICE_STEP_ZERO.into()));
                        fine = false;
                    }
                    axes += 1;
                }
                Expr::None => axes += 1,
                Expr::Ellipsis => {}
                _ => fine &= operand(e, "an index", &mut errors, &mut typed),
            }
        }
        if read && typed && !errors.is_empty() {
            let mut errors = errors.into_iter();
            let (at, message) = errors.next()?;
            self.refuse(s, at, message);
            for (at, message) in errors {
                self.report(at, message);
            }
            return None;
        }
        if !fine || ellipses > 1 || named > nd || ty.dtype.is_text() {
            return None;
        }
        // The axes not named (`...` stands for them, or they follow).
        axes += nd - named;
        if axes == 0 {
            return Some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false });
        }
        Some(view_of(ty, axes))
    }

    /// `t[k]` of a tuple, as the lowering's `tuple_subscript`: a constant
    /// index picks its element; another integer index one of a single
    /// dtype shared by every element.
    fn tuple_element(&self, s: ExprId, mut elems: Vec<Ty>, index: ExprId) -> Option<Ty> {
        let read = self.stored.get(s).is_none();
        let index_at = self.body.expr_ranges[index];
        if let Expr::Slice { lower, upper, step } = self.body.exprs[index] {
            // As the lowering's `tuple_slice`: integer constants (or left
            // out), the elements picked as CPython picks them.
            let mut bounds = [None; 3];
            let mut errors = Vec::new();
            for (bound, part) in bounds.iter_mut().zip([lower, upper, step]) {
                let Some(e) = part.filter(|e| !matches!(self.body.exprs[*e], Expr::None)) else { continue };
                match self.ty(e)? {
                    Ty::Lit { lit: Lit::Int(k), .. } => *bound = Some(k),
                    _ => errors.push(self.body.expr_ranges[e]),
                }
            }
            if let (true, Some((first, others))) = (read, errors.split_first()) {
                self.refuse(s, *first, TUPLE_SLICE_BOUND);
                for at in others {
                    self.report(*at, TUPLE_SLICE_BOUND);
                }
                return None;
            }
            if !errors.is_empty() {
                return None;
            }
            let [start, stop, step] = bounds;
            if step == Some(0) {
                return if read { self.refuse(s, index_at, TUPLE_SLICE_STEP_ZERO) } else { None };
            }
            let picked = slice_indices(elems.len(), start, stop, step.unwrap_or(1));
            return Some(Ty::Tuple(picked.into_iter().map(|i| elems[i].clone()).collect()));
        }
        if read && self.refuse_tuple_index_slices(index) {
            return None;
        }
        // `t[None]`: a tuple has no new axis.
        if read && self.none_value(index) {
            return None;
        }
        let i = self.ty(index)?;
        if read {
            if let Some(message) = tuple_index_error(elems.len(), Some(&i)) {
                return self.refuse(s, index_at, message);
            }
            if !matches!(i, Ty::Lit { .. }) {
                let tys: Vec<Option<Ty>> = elems.iter().cloned().map(Some).collect();
                if let Some((whole, message)) = tuple_pick_error(&tys) {
                    let at = if whole { self.body.expr_ranges[s] } else { index_at };
                    return self.refuse(s, at, message);
                }
            }
        }
        if let Ty::Lit { lit: Lit::Int(k), .. } = i {
            let len = elems.len() as i128;
            let at = if k < 0 { k + len } else { k };
            return (0..len).contains(&at).then(|| elems.swap_remove(at as usize));
        }
        if !i.scalar()?.dtype.is_int() || !i.converts_to(DType::Int64) {
            return None;
        }
        let common = elems.first()?.scalar()?.dtype;
        let mut weak = true;
        let mut nonneg = true;
        for e in &elems {
            let s = e.scalar()?;
            if s.dtype != common || !e.converts_to(common) {
                return None;
            }
            weak &= s.weak;
            nonneg &= e.nonneg();
        }
        Some(Ty::Num { s: Scalar { dtype: common, weak }, nonneg })
    }

    fn call(&self, e: ExprId, func: ExprId, args: &[ExprId]) -> Option<Ty> {
        if let Expr::Name(Name::Global(n)) = &self.body.exprs[func] {
            if let Some(Global::Func(_) | Global::PostImport { .. } | Global::Alias(_) | Global::Generic(_)) =
                self.env.globals.get(self.unaliased(n)?)
            {
                return self.post_call(e, n, args, &[]);
            }
        }
        if args.iter().any(|a| matches!(self.body.exprs[*a], Expr::Starred(_))) {
            return None;
        }
        let tys = || args.iter().map(|a| self.ty(*a)).collect::<Option<Vec<Ty>>>();
        // As the lowering's `target_of`, which takes any `.conjugate` for
        // the method of numbers first.
        if let Expr::Attribute { base, attr } = &self.body.exprs[func] {
            if matches!(&**attr, "conjugate" | "conj") && !self.names_module(*base, "numpy") {
                let v = self.ty(*base)?;
                if !args.is_empty() {
                    tys()?;
                    return self.refuse_here(e, crate::lower::calls::CONJUGATE_FORM);
                }
                if !matches!(v, Ty::Arr(_)) {
                    if let Some(message) = conjugate_error(Some(&v)) {
                        return self.refuse(e, self.body.expr_ranges[*base], message);
                    }
                }
                return match v {
                    // The method of a real array returns the array itself;
                    // of a complex array, a new array of the conjugates.
                    Ty::Arr(t) if args.is_empty() && t.dtype.is_complex() => {
                        let axes = t.ndim()?;
                        Some(Ty::Arr(TypeData::array(t.dtype, Shape::dims(&vec![None; axes]), Layout::COrder)))
                    }
                    Ty::Arr(t) if args.is_empty() => (!t.dtype.is_text()).then_some(Ty::Arr(t)),
                    v if args.is_empty() => conjugate(v),
                    _ => None,
                };
            }
        }
        if self.names_postc_empty(func) {
            return self.postc_empty(e, args);
        }
        // `np.where(c, a, b)` and `np.clip(a, lo, hi)`, as the lowering's
        // `element_select` (of arrays, a node of a whole-array expression).
        // `np.where(a)` of one 1-D argument: a tuple of its nonzero indices.
        if let (Some("where"), [a]) = (self.numpy_attr(func), args) {
            return match self.ty(*a)? {
                Ty::Arr(t) if t.ndim() == Some(1) => {
                    if let Some(message) = crate::lower::npfuncs::numeric_array_error("`np.where`", Some(&t), false) {
                        return self.refuse(e, self.body.expr_ranges[*a], message);
                    }
                    Some(Ty::Tuple(vec![Ty::Arr(TypeData::array(DType::Int64, Shape::dims(&[None]), Layout::COrder))]))
                }
                _ => self.refuse_here(e, crate::lower::sequences::WHERE_OF_ONE),
            };
        }
        if let Some(name @ ("where" | "clip")) = self.numpy_attr(func) {
            if let Some(message) = self.select_error(e, name, args) {
                return self.refuse_here(e, message);
            }
            let [_, _, _] = args else { return None };
            let tys = tys()?;
            let element = |e: &[Ty]| {
                let mut common = match name {
                    "where" => promote(e[1].scalar()?, e[2].scalar()?)?,
                    _ => {
                        let mut p: Option<Scalar> = None;
                        for t in e {
                            let s = t.scalar().filter(|s| kind(s.dtype) <= Kind::Float)?;
                            p = Some(match p {
                                None => s,
                                Some(p) => promote(p, s)?,
                            });
                        }
                        p?
                    }
                };
                if common.dtype.is_text() {
                    return None;
                }
                if common.weak {
                    common = Scalar::strong(default_of(kind(common.dtype)));
                }
                Some(Ty::Num { s: Scalar::strong(common.dtype), nonneg: false })
            };
            return match self.elementwise(&tys, element) {
                Some(t) => t,
                None => element(&tys),
            };
        }
        // `np.float64(x)`: the dtype's cast, as the lowering's
        // `numpy_scalar_type`.
        if let Some(name) = self.numpy_attr(func) {
            if numpy_func(name).is_none() {
                if let Some(d) = numpy_dtype(name) {
                    return self.cast_call(e, func, args, d, false);
                }
            }
        }
        // `type(z)(1)`: the cast to a scalar parameter's dtype.
        if let Some(d) = parameter_type(self.body, self.env.decl, self.env.types, func) {
            return self.cast_call(e, func, args, d, false);
        }
        // `postc.math.sqrt(x)`, as the lowering's `target_of`.
        if let Expr::Attribute { base, attr } = &self.body.exprs[func] {
            if self.names_postc_math(*base) && postc_ir::interp::is_known_intrinsic(attr) {
                return self.intrinsic_call(e, args, attr);
            }
        }
        if let Some(f) = self.scalar_library_function(func) {
            let tys = tys()?;
            let refs: Vec<Option<&Ty>> = tys.iter().map(Some).collect();
            return match f {
                // `np.round(a, decimals)` of an array of decimals: they are
                // one constant, whatever rounds.
                Library::Numpy(NpOp::Around, name) if matches!(tys.get(1), Some(Ty::Arr(_))) => {
                    let message = crate::lower::numpy::round_decimals_error(&format!("numpy.{name}"));
                    self.refuse(e, self.body.expr_ranges[args[1]], message)
                }
                Library::Numpy(op, name) => match self.elementwise(&tys, |e| numpy_ufunc(op, e)) {
                    Some(t) => t.or_else(|| self.refuse_unfused_ufunc(e, args, op, name, &tys)),
                    None if op == NpOp::Around => match self.numpy_round_error(e, name, args, &tys) {
                        Some((at, message)) => self.refuse(e, at, message),
                        None => numpy_ufunc(op, &tys),
                    },
                    // Of scalars, as the lowering's `numpy_call` (`round`
                    // is its `numpy_round`).
                    None => match numpy_error(op, name, args.len(), &refs).filter(|_| op != NpOp::Around) {
                        Some((site, message)) => self.refuse_call(e, args, site, message),
                        None => numpy_ufunc(op, &tys),
                    },
                },
                Library::Math(f, name) => match math_error(f, name, args.len(), &refs) {
                    Some((site, message)) => self.refuse_call(e, args, site, message),
                    None => python_math(f, &tys),
                },
            };
        }
        let Expr::Name(name) = &self.body.exprs[func] else { return None };
        match name {
            Name::Free(n) => match &**n {
                "len" | "round" | "abs" | "min" | "max" => self.builtin_call(e, n, args),
                "sum" => {
                    use crate::lower::tuples::{summed_error, SUM_FORM};
                    let (&[items] | &[items, _]) = args else { return self.refuse_here(e, SUM_FORM) };
                    if self.maybe_none(items) {
                        return None;
                    }
                    if let Some(message) = summed_error(Some(&self.ty(items)?)) {
                        return self.refuse(e, self.body.expr_ranges[items], message);
                    }
                    let tys = tys()?;
                    if let Some(refused) = self.sum_refusal(e, &tys) {
                        return refused;
                    }
                    self.sum(tys)
                }
                "divmod" => {
                    if args.len() != 2 {
                        return self.refuse_here(e, crate::lower::tuples::DIVMOD_FORM);
                    }
                    let tys = tys()?;
                    if let Some(refused) = self.divmod_refusal(e, &tys) {
                        return refused;
                    }
                    match &tys[..] {
                        [a, b] => Some(Ty::Tuple(vec![
                            self.arith_type(ast::Operator::FloorDiv, a, b)?,
                            self.arith_type(ast::Operator::Mod, a, b)?,
                        ])),
                        _ => None,
                    }
                }
                n => self.cast_call(e, func, args, python_scalar(n)?, true),
            },
            Name::Global(n) => match self.env.globals.get(self.unaliased(n)?)? {
                Global::Type(t) => self.cast_call(e, func, args, *t, false),
                Global::Intrinsic { local } => {
                    let symbol = self.env.intrinsics.get(local).unwrap_or(local);
                    self.intrinsic_call(e, args, symbol)
                }
                Global::Func(_) | Global::PostImport { .. } | Global::Alias(_) | Global::Generic(_) => {
                    self.post_call(e, n, args, &[])
                }
                Global::GpuBuiltin(g) => self.gpu_call(*g, args),
                _ => None,
            },
            // `T(0.5)` of `T = type(z)`: the dtype's cast.
            Name::Local(_) => self.cast_call(e, func, args, self.dtype_local(func)?, false),
        }
    }

    /// Why the lowering's `numpy_round` refuses `np.round(args)` of
    /// scalars typed `tys`, where it certainly does: a count of
    /// arguments, decimals that are no integer constant or beyond a
    /// float's exponent, what is not a number, an integer to negative
    /// decimals, a complex number.
    fn numpy_round_error(&self, e: ExprId, name: &str, args: &[ExprId], tys: &[Ty]) -> Option<(TextRange, String)> {
        use crate::lower::numpy::{
            round_count_error, round_decimals_error, round_dtype_error, round_negative_error, round_number_error,
            round_range_error,
        };
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = format!("numpy.{name}");
        if args.is_empty() || args.len() > 2 {
            return Some((at(e), round_count_error(&shown, args.len())));
        }
        if args.iter().any(|a| self.maybe_none(*a)) {
            return None;
        }
        let decimals = match (args.get(1), tys.get(1)) {
            (Some(_), Some(Ty::Lit { lit: Lit::Int(k), .. })) => *k,
            (Some(&d), Some(t))
                if t.scalar().is_none_or(|s| kind(s.dtype) != Kind::Int) || self.number_parameter(d) =>
            {
                return Some((at(d), round_decimals_error(&shown)));
            }
            (Some(_), _) => return None,
            (None, _) => 0,
        };
        if decimals.unsigned_abs() >= 400 {
            return Some((at(args[1]), round_range_error(&shown)));
        }
        let s = match &tys[0] {
            Ty::Num { s, .. } | Ty::Lit { s, .. } if !s.dtype.is_text() => *s,
            Ty::Arr(_) => return None,
            _ => return Some((at(args[0]), round_number_error(&shown))),
        };
        let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
        match kind(d) {
            Kind::Int if decimals < 0 => Some((at(args[1]), round_negative_error(&shown))),
            Kind::Int | Kind::Bool | Kind::Float => None,
            _ => Some((at(e), round_dtype_error(&shown, d))),
        }
    }

    /// Refuses the call `e` of `args` with `message`, located at `site`.
    fn refuse_call(&self, e: ExprId, args: &[ExprId], site: CallSite, message: String) -> Option<Ty> {
        let at = site.at(self.body.expr_ranges[e], |i| self.body.expr_ranges[args[i]]);
        self.refuse(e, at, message)
    }

    /// `len`, `round`, `abs`, `min` or `max` (`name`) of `args`, as the
    /// lowering's `call_builtin`; the call refused where the lowering
    /// refuses it (its arguments typed: one it does not type may hold
    /// an error only the lowering finds).
    fn builtin_call(&self, e: ExprId, name: &str, args: &[ExprId]) -> Option<Ty> {
        // The count of arguments is refused whatever their types.
        if let Some(message) = builtin_arity_error(name, args.len()) {
            return self.refuse_here(e, message);
        }
        let tys = args.iter().map(|a| self.ty(*a)).collect::<Option<Vec<Ty>>>()?;
        let arg = |i: usize| self.body.expr_ranges[args[i]];
        match name {
            "len" => match len_error(tys.first()) {
                Some(message) => self.refuse(e, arg(0), message),
                None => len(&tys),
            },
            "abs" => match abs_error(tys.first()) {
                Some(message) => self.refuse(e, arg(0), message),
                None => abs(&tys),
            },
            "round" => match &tys[..] {
                [v] => match round_error(Some(v)) {
                    Some(message) => self.refuse(e, arg(0), message),
                    None => round(v),
                },
                [v, digits] => match round_digits_error(Some(v), Some(digits)) {
                    Some((i, message)) => self.refuse(e, arg(i), message),
                    None => round_digits(v),
                },
                _ => None,
            },
            _ => {
                if let [one] = &tys[..] {
                    if let Some((site, message)) = min_max_of_one_error(name, Some(one)) {
                        return self.refuse_call(e, args, site, message);
                    }
                }
                let values = spread_one_tuple(tys);
                if values.iter().any(|v| matches!(v, Ty::Tuple(_))) {
                    use crate::lower::tuples::{tuple_lengths_error, tuples_compared_error};
                    // As the lowering's `min_max_of_tuples`: what is not a
                    // tuple among tuples, tuples of different lengths.
                    if let Some(i) = values.iter().position(|v| !matches!(v, Ty::Tuple(_))) {
                        let message = tuples_compared_error(name, &describe_a_ty(Some(&values[i])));
                        return self.refuse(e, arg(if args.len() == 1 { 0 } else { i }), message);
                    }
                    let lengths = values.iter().map(|v| match v {
                        Ty::Tuple(es) => es.len(),
                        _ => 0,
                    });
                    if lengths.collect::<std::collections::HashSet<_>>().len() > 1 {
                        return self.refuse_here(e, tuple_lengths_error(name));
                    }
                    if let Some(refused) = self.min_max_of_tuples_refusal(e, name, &values) {
                        return refused;
                    }
                    return self.min_max_of_tuples(&values, name == "min");
                }
                let refs: Vec<Option<&Ty>> = values.iter().map(Some).collect();
                if let Some((i, message)) = min_max_error(name, &refs) {
                    // The elements of one tuple are refused at the tuple.
                    return self.refuse(e, arg(if args.len() == 1 { 0 } else { i }), message);
                }
                min_max(&values, name == "min")
            }
        }
    }

    /// A cast of `args` to `dtype` (`weak`: `int(x)`, `float(x)`, ...),
    /// as the lowering's `cast_call`, refused where it refuses it (its
    /// arguments typed).
    fn cast_call(&self, e: ExprId, func: ExprId, args: &[ExprId], dtype: DType, weak: bool) -> Option<Ty> {
        let tys = args.iter().map(|a| self.ty(*a)).collect::<Option<Vec<Ty>>>()?;
        let name = self.body.dotted(func).unwrap_or_default();
        let refs: Vec<Option<&Ty>> = tys.iter().map(Some).collect();
        if let Some((site, message)) = cast_error(&name, dtype, weak, args.len(), &refs) {
            return self.refuse_call(e, args, site, message);
        }
        cast(dtype, weak, &tys)
    }

    /// A `postc.math` function `symbol` of `args`, as the lowering's
    /// `Target::Intrinsic`, refused where it refuses it (its arguments
    /// typed).
    fn intrinsic_call(&self, e: ExprId, args: &[ExprId], symbol: &str) -> Option<Ty> {
        let tys = args.iter().map(|a| self.ty(*a)).collect::<Option<Vec<Ty>>>()?;
        let refs: Vec<Option<&Ty>> = tys.iter().map(Some).collect();
        if let Some((site, message)) = intrinsic_error(symbol, args.len(), &refs) {
            return self.refuse_call(e, args, site, message);
        }
        intrinsic(&tys)
    }

    /// What the global `name` names at the end of its chain of aliases
    /// (`gammaln = lgamma`): itself when it is no alias; `None` when the
    /// chain comes back to a name seen.
    fn unaliased<'n>(&'n self, name: &'n str) -> Option<&'n str> {
        let mut seen = std::collections::HashSet::from([name]);
        let mut at = name;
        while let Some(Global::Alias(next)) = self.env.globals.get(at) {
            if !seen.insert(next) {
                return None;
            }
            at = next;
        }
        Some(at)
    }

    /// Whether `e` is `postc.math` (imported as a module, or the attribute
    /// of `postc`).
    fn names_postc_math(&self, e: ExprId) -> bool {
        let ns = |e: ExprId| match &self.body.exprs[e] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                Some(Global::Namespace(ns)) => Some(*ns),
                _ => None,
            },
            _ => None,
        };
        match &self.body.exprs[e] {
            Expr::Attribute { base, attr } if &**attr == "math" => ns(*base) == Some(Namespace::Postc),
            _ => ns(e) == Some(Namespace::PostcMath),
        }
    }

    /// Whether `func` names `postc.empty` (imported, or as `postc.empty`).
    fn names_postc_empty(&self, func: ExprId) -> bool {
        match &self.body.exprs[func] {
            Expr::Name(Name::Global(n)) => matches!(self.env.globals.get(&**n), Some(Global::Empty)),
            Expr::Attribute { base, attr } if &**attr == "empty" => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => {
                    matches!(self.env.globals.get(&**m), Some(Global::Namespace(Namespace::Postc)))
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// `postc.empty(n, Float64)`, as the lowering types it: a fresh 1-D
    /// array of the dtype named as a cast is (`Float64`, `float`,
    /// `postyp.Float64`), its extent static when written as a
    /// non-negative integer literal.
    fn postc_empty(&self, e: ExprId, args: &[ExprId]) -> Option<Ty> {
        use crate::lower::{EMPTY_DTYPE, EMPTY_FORM, EMPTY_LENGTH};
        let at = |x: ExprId| self.body.expr_ranges[x];
        let &[n, dtype] = args else { return self.refuse_here(e, EMPTY_FORM) };
        // A value (it has a type) or a dtype of text is no numeric dtype.
        if self.ty(dtype).is_some() || self.cast_dtype(dtype).is_some_and(|d| d.is_text()) {
            return self.refuse(e, at(dtype), EMPTY_DTYPE);
        }
        if !self.maybe_none(n) {
            if let Some(t) = self.ty(n) {
                if t.scalar().is_none_or(|s| kind(s.dtype) != Kind::Int) {
                    return self.refuse(e, at(n), EMPTY_LENGTH);
                }
            }
        }
        let d = self.cast_dtype(dtype)?;
        let len = self.ty(n)?;
        if d.is_text() || kind(len.scalar()?.dtype) != Kind::Int || !len.converts_to(DType::Int64) {
            return None;
        }
        let extent = match len {
            Ty::Lit { lit: Lit::Int(i), .. } if i >= 0 => Some(i as u64),
            _ => None,
        };
        Some(Ty::Arr(TypeData::array(d, Shape::dims(&[extent]), Layout::COrder)))
    }

    /// The dtype `e` names as a cast does (`Float64`, `float`,
    /// `postyp.Float64`: the lowering's `Target::Cast`).
    fn cast_dtype(&self, e: ExprId) -> Option<DType> {
        match &self.body.exprs[e] {
            Expr::Name(Name::Global(g)) => match self.env.globals.get(&**g)? {
                Global::Type(t) => Some(*t),
                _ => None,
            },
            Expr::Name(Name::Free(f)) => python_scalar(f),
            Expr::Attribute { base, attr } => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m)? {
                    Global::Namespace(Namespace::Postyp) => DType::from_name(attr),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `e` names a GPU register (`thread_idx`, `postc.block_dim`),
    /// as the lowering's `gpu_register`.
    fn is_gpu_register(&self, e: ExprId) -> bool {
        match &self.body.exprs[e] {
            Expr::Name(Name::Global(n)) => matches!(self.env.globals.get(&**n), Some(Global::GpuRegister(_))),
            Expr::Attribute { base, attr } => {
                let postc = match &self.body.exprs[*base] {
                    Expr::Name(Name::Global(m)) => {
                        matches!(self.env.globals.get(&**m), Some(Global::Namespace(Namespace::Postc)))
                    }
                    _ => false,
                };
                postc && GpuReg::ALL.iter().any(|r| r.name() == &**attr)
            }
            _ => false,
        }
    }

    /// `shared(T[n, m])` and `atomic_add(a, i, ..., v)` in a `@kernel`, as
    /// the lowering's `gpu_builtin` types them: a block-shared C-order
    /// array of static extents; the element's old value.
    fn gpu_call(&self, g: GpuBuiltin, args: &[ExprId]) -> Option<Ty> {
        if !self.env.decl.attrs.contains(FuncAttrs::KERNEL) {
            return None;
        }
        match g {
            GpuBuiltin::SyncThreads => None,
            GpuBuiltin::Shared => {
                let [ann] = args else { return None };
                let Expr::Subscript { base, index } = &self.body.exprs[*ann] else { return None };
                let d = self.cast_dtype(*base)?;
                let items: &[ExprId] = match &self.body.exprs[*index] {
                    Expr::Tuple(es) => es,
                    _ => std::slice::from_ref(index),
                };
                let mut dims = Vec::with_capacity(items.len());
                for it in items {
                    match &self.body.exprs[*it] {
                        Expr::Literal(Lit::Int(n)) if *n > 0 => dims.push(Some(u64::try_from(*n).ok()?)),
                        _ => return None,
                    }
                }
                let ty = TypeData::array(d, Shape::dims(&dims), Layout::COrder);
                postc_ir::builtins::shared_bytes(&ty).is_ok().then_some(Ty::Arr(ty))
            }
            GpuBuiltin::AtomicAdd => {
                let (first, rest) = args.split_first()?;
                let Ty::Arr(ty) = self.ty(*first)? else { return None };
                let nd = ty.ndim().unwrap_or(0);
                if !postc_ir::builtins::atomic_dtype(ty.dtype) || rest.len() != nd + 1 {
                    return None;
                }
                for i in &rest[..nd] {
                    let t = self.ty(*i)?;
                    if kind(t.scalar()?.dtype) != Kind::Int || !t.converts_to(DType::Int64) {
                        return None;
                    }
                }
                let v = self.ty(rest[nd])?;
                let fits = widens_to(v.scalar()?, ty.dtype) && v.converts_to(ty.dtype);
                fits.then_some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false })
            }
        }
    }

    /// The call `np.iinfo(T)` or `np.finfo(T)` an attribute is read from:
    /// which, its arguments and keywords.
    fn type_info_of(&self, base: ExprId) -> Option<(&str, &[ExprId], &[Keyword])> {
        let Expr::Call { func, args, keywords } = &self.body.exprs[base] else { return None };
        let which = self.numpy_attr(*func).filter(|f| matches!(*f, "iinfo" | "finfo"))?;
        Some((which, args, keywords))
    }

    /// `np.iinfo(T).ATTR`, `np.finfo(T).ATTR`, as the lowering's
    /// `type_info` types them: constants, `iinfo`'s Python ints, `finfo`'s
    /// values NumPy scalars of `T` (of its real part) and its counts
    /// Python ints.
    fn type_info(
        &self,
        e: ExprId,
        call: ExprId,
        which: &str,
        args: &[ExprId],
        keywords: &[Keyword],
        attr: &str,
    ) -> Option<Ty> {
        use crate::lower::numpy::{type_info_form_error, type_info_value, TypeInfoSite};
        let body = self.body;
        if let Some((at, message)) = type_info_form_error(which, args, keywords, body.expr_ranges[call]) {
            return self.refuse(e, at, message);
        }
        let arg = args[0];
        if let Some((at, message)) = self.dtype_error(arg) {
            return self.refuse(e, at, message);
        }
        let d = self.dtype_arg(arg)?;
        match type_info_value(which, d, attr) {
            Ok((lit, s)) => Some(Ty::Lit { lit, s }),
            Err((TypeInfoSite::Dtype, message)) => self.refuse(e, body.expr_ranges[arg], message),
            Err((TypeInfoSite::Attr, message)) => self.refuse(e, body.attr_ranges[e], message),
        }
    }

    /// What `func` names among the NumPy functions and array methods that
    /// create an array (`np.zeros`, `zeros` imported from NumPy,
    /// `a.copy()`), with the method's receiver; as the lowering's
    /// `array_target`, for the functions typed here.
    fn array_function(&self, func: ExprId) -> Option<(ArrFn, Option<ExprId>)> {
        match &self.body.exprs[func] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Boundary { module, name } if module == "numpy" => array_func(name).map(|f| (f, None)),
                _ => None,
            },
            Expr::Attribute { base, attr } => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m)? {
                    Global::BoundaryModule(m) if m == "numpy" => array_func(attr).map(|f| (f, None)),
                    _ => None,
                },
                // A method of what a local or an expression holds (a
                // module's or a namespace's attribute is not one), as the
                // lowering's `array_target` takes it.
                Expr::Name(Name::Free(_)) => None,
                _ => array_method(attr).map(|f| (f, Some(*base))),
            },
            _ => None,
        }
    }

    /// A call of a NumPy function or array method creating an array, as
    /// the lowering's `array_call` types it: a fresh C-order array of the
    /// shape given (or the source array's), of the dtype given (or the
    /// fill value's, or the source's; Float64 otherwise).
    fn array_call(
        &self,
        e: ExprId,
        f: ArrFn,
        recv: Option<ExprId>,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<Ty> {
        let body = self.body;
        // As the lowering's `array_call`: `*` arguments, arrays created in
        // GPU code, then (outside GPU code) what compiled code refuses
        // whatever the arguments' values, then the arguments.
        let device = self.env.decl.attrs.is_device();
        if let Some(s) = args.iter().find(|a| matches!(body.exprs[**a], Expr::Starred(_))) {
            return self.refuse(e, body.expr_ranges[*s], STARRED_ARGUMENT);
        }
        let Expr::Call { func, .. } = &body.exprs[e] else { return None };
        let shown = match (&body.exprs[*func], recv) {
            (Expr::Attribute { attr, .. }, Some(_)) => format!("`.{attr}()`"),
            (Expr::Attribute { attr, .. }, None) => format!("`np.{attr}`"),
            (Expr::Name(Name::Global(n)), _) => match self.env.globals.get(&**n)? {
                Global::Boundary { name, .. } => format!("`np.{name}`"),
                _ => return None,
            },
            _ => return None,
        };
        // A reduction along an axis creates an array too: refused below,
        // once its result is typed.
        if device && !matches!(f, ArrFn::Reduce(_) | ArrFn::Transpose) {
            return self.refuse_here(e, crate::lower::arrays::gpu_creation_error(&shown));
        }
        match crate::lower::arrays::array_call_form(body, f, &shown, recv, args, keywords, body.expr_ranges[e]) {
            Err((at, message)) => return self.refuse(e, at, message),
            Ok(form) => {
                // Every extent of a shape that is not an integer is
                // reported, the call refused once.
                let mut more = Vec::new();
                let method = recv.is_some();
                if let Some((at, message)) =
                    self.array_value_error(f, &shown, &form, method, body.expr_ranges[e], &mut more)
                {
                    self.refuse(e, at, message);
                    for (at, message) in more {
                        self.report(at, message);
                    }
                    return None;
                }
            }
        }
        if let ArrFn::Reduce(r) = f {
            let whole = recv.into_iter().chain(args.iter().copied()).collect::<Vec<_>>();
            let t = match (&whole[..], keywords) {
                ([array], []) => self.reduction(r, *array),
                _ => self.reduction_along(r, &whole, keywords),
            };
            if device && matches!(t, Some(Ty::Arr(_))) {
                return self.refuse_here(e, crate::lower::arrays::gpu_creation_error(&shown));
            }
            return t;
        }
        if matches!(f, ArrFn::Transpose | ArrFn::Ravel | ArrFn::Flatten | ArrFn::Reshape | ArrFn::Cumsum) {
            let whole = recv.into_iter().chain(args.iter().copied()).collect::<Vec<_>>();
            return self.rearranged(f, recv.is_some(), &whole, keywords);
        }
        if self.env.decl.attrs.is_device() || args.iter().any(|a| matches!(self.body.exprs[*a], Expr::Starred(_))) {
            return None;
        }
        let mut dtype_kw = None;
        let names = crate::lower::arrays::creation_names(f);
        let mut named: Vec<Option<ExprId>> = vec![None; names.len()];
        for k in keywords {
            let position = names.iter().position(|n| Some(*n) == k.name.as_deref());
            match k.name.as_deref() {
                Some("dtype") => dtype_kw = Some(k.value),
                Some(_) if position.is_some_and(|p| p >= args.len()) => named[position?] = Some(k.value),
                _ => return None,
            }
        }
        let given = args.len();
        let args: Vec<ExprId> =
            (recv.into_iter().chain(args.iter().copied())).chain(named.iter().skip(given).map_while(|n| *n)).collect();
        if f == ArrFn::Arange {
            let dtype = match dtype_kw {
                Some(e) => Some(self.dtype_arg(e)?),
                None => None,
            };
            return self.arange(&args, dtype);
        }
        let (need, dtype_pos) = match f {
            ArrFn::Full | ArrFn::FullLike => (2, true),
            ArrFn::Copy => (1, false),
            _ => (1, true),
        };
        if args.len() < need || args.len() > need + dtype_pos as usize {
            return None;
        }
        let dtype = match (dtype_kw, args.get(need)) {
            (Some(_), Some(_)) => return None,
            (Some(e), None) | (None, Some(&e)) => Some(self.dtype_arg(e)?),
            (None, None) if f == ArrFn::Astype => return None,
            (None, None) => None,
        };
        let array = |d: DType, axes: usize| {
            (!d.is_text()).then(|| Ty::Arr(TypeData::array(d, Shape::dims(&vec![None; axes]), Layout::COrder)))
        };
        match f {
            ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones | ArrFn::Full => {
                let axes = self.shape_axes(args[0])?;
                let d = match (f, dtype) {
                    (_, Some(d)) => d,
                    (ArrFn::Full, None) => {
                        let s = self.ty(args[1])?.scalar()?;
                        if s.weak {
                            default_of(kind(s.dtype))
                        } else {
                            s.dtype
                        }
                    }
                    _ => DType::Float64,
                };
                if f == ArrFn::Full {
                    self.ty(args[1])?.scalar()?;
                }
                array(d, axes)
            }
            _ => {
                let Ty::Arr(src) = self.ty(args[0])? else { return None };
                if f == ArrFn::FullLike {
                    self.ty(args[1])?.scalar()?;
                }
                array(dtype.unwrap_or(src.dtype), src.ndim()?)
            }
        }
    }

    /// Why the lowering refuses the call of the array function or method
    /// `f` (shown as `shown`) of the arguments `form`, where it certainly
    /// does (its arguments typed as far as it reads them, in its order):
    /// an axis that is a tuple where one is taken, or not an integer
    /// constant; a dtype of text, one no dtype names or NumPy removed; what
    /// is not an array where one is taken; arrays of text created; a fill
    /// value that is not a number; a reduction of text or an ordering of
    /// complex numbers; axes out of range, named twice, or some of several.
    fn array_value_error(
        &self,
        f: ArrFn,
        shown: &str,
        form: &crate::lower::arrays::ArrayForm,
        method: bool,
        call_at: TextRange,
        more: &mut Vec<(TextRange, String)>,
    ) -> Option<(TextRange, String)> {
        use crate::lower::arrays::{
            arange_bound_error, arange_common, arange_dtype_error, axes_error, axis_constant_error, empty_shape_error,
            extent_error, not_an_array_error, reduced_dtype_error, some_axes_error, FILL_NOT_A_NUMBER, TEXT_ARRAY,
            TUPLE_AXIS,
        };
        let body = self.body;
        let at = |e: ExprId| body.expr_ranges[e];
        let args = &form.args;
        let maybe_none = |e: ExprId| self.maybe_none(e);
        // The axes, read first (as the lowering's `axis_arg`).
        let single = matches!(f, ArrFn::Cumsum | ArrFn::Reduce(Red::ArgMin | Red::ArgMax));
        let mut ks: Option<Vec<i64>> = None;
        if let Some(ax) = form.axis_expr.filter(|ax| !matches!(body.exprs[*ax], Expr::None)) {
            let one = [ax];
            let written: &[ExprId] = match &body.exprs[ax] {
                Expr::Tuple(_) if single => return Some((at(ax), TUPLE_AXIS.into())),
                Expr::Tuple(es) => es,
                _ => &one,
            };
            let mut axes = Vec::new();
            for x in written {
                match self.ty(*x)? {
                    Ty::Lit { lit: Lit::Int(k), .. } if i64::try_from(k).is_ok() => axes.push(k as i64),
                    // What is certainly no integer constant: not an
                    // integer, or a number parameter never bound again.
                    _ if maybe_none(*x) => return None,
                    t if t.scalar().is_none_or(|s| kind(s.dtype) != Kind::Int) || self.number_parameter(*x) => {
                        return Some((at(*x), axis_constant_error(shown)));
                    }
                    _ => return None,
                }
            }
            ks = Some(axes);
        }
        // The dtype, read next (as the lowering's `dtype_arg`).
        let dtype = match form.dtype_expr {
            Some(d) => {
                if let Some(error) = self.dtype_error(d) {
                    return Some(error);
                }
                Some(self.dtype_arg(d)?)
            }
            None => None,
        };
        // An argument the lowering reads as a number or an array (not the
        // dtype nor the axis, given by position): not `None`, nor a list
        // but a shape (`np.zeros([n, 2])`, `a.reshape([n, 2])`).
        let shape = |k: usize| match f {
            ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones | ArrFn::Full => k == 0,
            ArrFn::Reshape => k > 0,
            _ => false,
        };
        for (k, &x) in args.iter().enumerate() {
            if Some(x) == form.dtype_expr || Some(x) == form.axis_expr {
                continue;
            }
            let error = if shape(k) { self.none_number_error(x) } else { self.value_read_error(x) };
            if error.is_some() {
                return error;
            }
        }
        let not_array = |t: &Ty| !matches!(t, Ty::Arr(_));
        let not_number = |t: &Ty| matches!(t, Ty::Arr(_) | Ty::Tuple(_));
        match f {
            ArrFn::Transpose | ArrFn::Ravel | ArrFn::Flatten => {
                let t = self.ty(args[0])?;
                (not_array(&t) && !maybe_none(args[0])).then(|| (at(args[0]), not_an_array_error(f, shown)))
            }
            ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones | ArrFn::Full => {
                // The shape, as the lowering's `shape_arg` reads it (not
                // `a.shape`): every extent typed, an integer or not one.
                let shape = args[0];
                let extents: Vec<(Ty, TextRange)> = match &body.exprs[shape] {
                    Expr::Attribute { base, attr } if &**attr == "shape" => {
                        // As the lowering's `shape_arg` reads `x.shape`.
                        if !maybe_none(*base) && self.ty(*base).is_some_and(|t| !matches!(t, Ty::Arr(_))) {
                            return Some((at(*base), SHAPE_OF_NOT_AN_ARRAY.into()));
                        }
                        Vec::new()
                    }
                    Expr::Tuple(es) | Expr::List(es) => {
                        let mut extents = Vec::with_capacity(es.len());
                        for x in es {
                            if let Some(error) = self.value_read_error(*x) {
                                return Some(error);
                            }
                            if maybe_none(*x) {
                                return None;
                            }
                            extents.push((self.ty(*x)?, at(*x)));
                        }
                        if extents.is_empty() {
                            return Some((at(shape), empty_shape_error(shown)));
                        }
                        extents
                    }
                    _ if maybe_none(shape) => return None,
                    _ => match self.ty(shape)? {
                        Ty::Tuple(elems) if elems.is_empty() => return Some((at(shape), empty_shape_error(shown))),
                        Ty::Tuple(elems) => elems.into_iter().map(|t| (t, at(shape))).collect(),
                        t => vec![(t, at(shape))],
                    },
                };
                let mut errors = Vec::new();
                for (t, r) in extents {
                    match t.scalar() {
                        Some(s) if kind(s.dtype) == Kind::Int => {
                            if !t.converts_to(DType::Int64) {
                                return None;
                            }
                        }
                        s => errors.push((r, extent_error(s, matches!(t, Ty::Arr(_))))),
                    }
                }
                if !errors.is_empty() {
                    let first = errors.remove(0);
                    more.extend(errors);
                    return Some(first);
                }
                self.shape_axes(args[0])?;
                if f != ArrFn::Full {
                    return None;
                }
                let fill = self.ty(args[1])?;
                if not_number(&fill) && !maybe_none(args[1]) {
                    return Some((at(args[1]), FILL_NOT_A_NUMBER.into()));
                }
                let d = match dtype {
                    Some(d) => d,
                    None => {
                        let s = fill.scalar()?;
                        if s.weak {
                            default_of(kind(s.dtype))
                        } else {
                            s.dtype
                        }
                    }
                };
                if d.is_text() {
                    return Some((at(args[0]), TEXT_ARRAY.into()));
                }
                self.fill_value_error(&fill, args[1], d).map(|message| (call_at, message))
            }
            ArrFn::EmptyLike | ArrFn::ZerosLike | ArrFn::OnesLike | ArrFn::FullLike | ArrFn::Copy | ArrFn::Astype => {
                let src = self.ty(args[0])?;
                let Ty::Arr(src) = src else {
                    return (!maybe_none(args[0])).then(|| (at(args[0]), not_an_array_error(f, shown)));
                };
                let fill = if f == ArrFn::FullLike { Some(self.ty(args[1])?) } else { None };
                src.ndim()?;
                let d = dtype.unwrap_or(src.dtype);
                if d.is_text() {
                    return Some((at(args[0]), TEXT_ARRAY.into()));
                }
                let fill = fill?;
                if not_number(&fill) && !maybe_none(args[1]) {
                    return Some((at(args[1]), FILL_NOT_A_NUMBER.into()));
                }
                self.fill_value_error(&fill, args[1], d).map(|message| (call_at, message))
            }
            ArrFn::Cumsum | ArrFn::Reduce(_) => {
                // A sum of a whole-array expression is fused with it.
                let fusable = f == ArrFn::Reduce(Red::Sum) && form.axis_expr.is_none() && !form.keepdims;
                let t = self.ty(args[0])?;
                let Ty::Arr(ty) = t else {
                    return (!maybe_none(args[0])).then(|| (at(args[0]), not_an_array_error(f, shown)));
                };
                if fusable && !matches!(body.exprs[args[0]], Expr::Name(_)) {
                    return None;
                }
                if let Some(message) = reduced_dtype_error(f, shown, ty.dtype) {
                    return Some((at(args[0]), message));
                }
                let nd = ty.ndim()?;
                let axis_at = at(form.axis_expr.unwrap_or(args[0]));
                let ks = ks?;
                if let Some(message) = axes_error(&ks, nd) {
                    return Some((axis_at, message));
                }
                let several = ks.len() > 1 && ks.len() < nd;
                (several && f != ArrFn::Cumsum).then(|| (axis_at, some_axes_error(shown, nd)))
            }
            ArrFn::Arange => {
                let mut bounds = Vec::with_capacity(args.len());
                for a in args {
                    if maybe_none(*a) {
                        return None;
                    }
                    let t = self.ty(*a)?;
                    if let Some(message) = arange_bound_error(shown, t.scalar()) {
                        return Some((at(*a), message));
                    }
                    bounds.push(t.scalar()?);
                }
                let d = dtype.unwrap_or(arange_common(bounds).unwrap_or(DType::Int64));
                arange_dtype_error(shown, d).map(|message| (call_at, message))
            }
            // As the lowering's `reshape_call`: its extents, the array,
            // every extent that is not an integer (the first refuses the
            // call, the others are reported with it), an array of axes not
            // known or of text.
            ArrFn::Reshape => {
                use crate::lower::slicing::{reshape_extents, text_reshaped_error, RESHAPED_EXTENT};
                let written = match reshape_extents(body, method, args, shown, call_at) {
                    Ok(written) => written,
                    Err(error) => return Some(error),
                };
                let Ty::Arr(ty) = self.ty(args[0])? else {
                    return (!maybe_none(args[0])).then(|| (at(args[0]), format!("{shown} takes an array")));
                };
                let mut errors = Vec::new();
                for x in written {
                    if let Some(error) = self.value_read_error(x) {
                        errors.push(error);
                        continue;
                    }
                    if maybe_none(x) || matches!(body.exprs[x], Expr::Starred(_)) {
                        return None;
                    }
                    if let Some(message) = int_operand_error(RESHAPED_EXTENT, Some(&self.ty(x)?)) {
                        errors.push((at(x), message));
                    }
                }
                if !errors.is_empty() {
                    let first = errors.remove(0);
                    more.extend(errors);
                    return Some(first);
                }
                if ty.ndim().is_none() {
                    return Some((at(args[0]), "the number of axes of this array is not known".into()));
                }
                ty.dtype.is_text().then(|| (call_at, text_reshaped_error(ty.dtype)))
            }
        }
    }

    /// Whether `e` is a parameter that may be `None`: read where no test
    /// narrows it, the lowering refuses it (as a read of `None`) first.
    fn maybe_none(&self, e: ExprId) -> bool {
        let body = self.body;
        match body.exprs[e] {
            Expr::Name(Name::Local(id)) if body.locals[id].kind == LocalKind::Param => {
                let decl = self.env.decl;
                decl.params.iter().position(|(n, _)| **n == *body.locals[id].name).is_none_or(|i| decl.maybe_none[i])
            }
            _ => false,
        }
    }

    /// Why the lowering's `dtype_arg` certainly refuses the dtype
    /// argument `d`: a NumPy name of no dtype or one NumPy 2 removed, a
    /// string naming no dtype, a dtype of text.
    fn dtype_error(&self, d: ExprId) -> Option<(TextRange, String)> {
        use crate::lower::arrays::{removed_dtype_error, unknown_dtype_error, TEXT_ARRAY};
        let body = self.body;
        let at = |e: ExprId| body.expr_ranges[e];
        if let Some(error) = self.dtype_form_error(d) {
            return Some(error);
        }
        if let Some(name) = self.numpy_attr(d) {
            if let Some(message) = removed_dtype_error(name) {
                return Some((at(d), message));
            }
            match numpy_dtype(name) {
                Some(t) if t.is_text() => return Some((at(d), TEXT_ARRAY.into())),
                Some(_) => {}
                None => return Some((at(d), unknown_dtype_error(&body.dotted(d)?))),
            }
        }
        if matches!(body.exprs[d], Expr::None) {
            return Some((at(d), unknown_dtype_error(body.construct_name(d))));
        }
        if let Expr::Literal(Lit::Str(text)) = &body.exprs[d] {
            match numpy_dtype(text) {
                Some(t) if t.is_text() => return Some((at(d), TEXT_ARRAY.into())),
                Some(_) => {}
                None => return Some((at(d), unknown_dtype_error(&format!("\"{text}\"")))),
            }
        }
        // `Str`, `postyp.Bytes`: the casts' dtypes.
        let named = match &body.exprs[d] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                Some(Global::Type(t)) => Some(*t),
                _ => None,
            },
            Expr::Attribute { base, attr } => match &body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m) {
                    Some(Global::Namespace(Namespace::Postyp)) => DType::from_name(attr),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        if named.is_some_and(|t| t.is_text()) {
            return Some((at(d), TEXT_ARRAY.into()));
        }
        None
    }

    /// Why the lowering refuses `np.array(args)` (its keywords `dtype=` at
    /// most, once), where it certainly does: a count of arguments, a dtype
    /// given twice or refused, a ragged list or none, an element that is
    /// an array, a tuple or text, a complex number where the dtype is not.
    fn array_of_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        use crate::lower::npfuncs::{array_of_count_error, complex_element_error, list_element_error};
        let body = self.body;
        let at = |e: ExprId| body.expr_ranges[e];
        let shown = np_function_shown(NpFn::ArrayOf);
        if args.is_empty() || args.len() > 2 {
            return Some((at(e), array_of_count_error(shown)));
        }
        let dtype_expr = match (keywords.first(), args.get(1)) {
            (Some(_), Some(&p)) => return Some((at(p), crate::lower::arrays::DTYPE_TWICE.into())),
            (Some(k), None) => Some(k.value),
            (None, p) => p.copied(),
        };
        let dtype = match dtype_expr {
            Some(d) => {
                if let Some(error) = self.dtype_error(d) {
                    return Some(error);
                }
                Some(self.dtype_arg(d)?)
            }
            None => None,
        };
        match &body.exprs[args[0]] {
            Expr::Name(Name::Local(id)) if self.states[*id].list.is_some() => return None,
            Expr::Refused { .. } => return None,
            _ => {}
        }
        let elements = |x: ExprId| match &body.exprs[x] {
            Expr::List(es) | Expr::Tuple(es) => Some(es.to_vec()),
            _ => None,
        };
        let leaves = match nested_shape(args[0], &elements) {
            Ok((_, leaves)) => leaves,
            Err((x, why)) => {
                if why == crate::lower::npfuncs::Nesting::NotList && (self.ty(x).is_none() || self.maybe_none(x)) {
                    return None;
                }
                return Some((at(x), why.message(shown)));
            }
        };
        let mut numbers = Vec::with_capacity(leaves.len());
        for x in leaves {
            if self.maybe_none(x) {
                return None;
            }
            let t = self.ty(x)?;
            let (array, tuple) = (matches!(t, Ty::Arr(_)), matches!(t, Ty::Tuple(_)));
            if let Some(message) = list_element_error(shown, array, tuple, t.scalar()) {
                return Some((at(x), message));
            }
            numbers.push((x, t));
        }
        let d = array_of_dtype(dtype, numbers.iter().filter_map(|(_, t)| t.scalar()))?;
        for (x, t) in &numbers {
            let float_literal = matches!(t, Ty::Lit { lit: Lit::Float(_), .. });
            match array_element_via(t.scalar()?, float_literal, d) {
                None => return Some((at(*x), complex_element_error(d))),
                Some(via) if !t.converts_to(via) => return None,
                Some(_) => {}
            }
        }
        None
    }

    /// Why the lowering refuses `np.linspace(args)` (of its four keywords
    /// at most, each once), where it certainly does: the arguments
    /// ([`crate::lower::grids::linspace_form`]), bounds that are not real
    /// numbers of a common type, a number of samples that is not an
    /// integer.
    fn linspace_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        use crate::lower::grids::{linspace_bound, linspace_form, samples_error};
        let body = self.body;
        let shown = np_function_shown(NpFn::Linspace);
        let (start, stop, num, _) = match linspace_form(body, args, keywords, shown, body.expr_ranges[e]) {
            Ok(form) => form,
            Err(error) => return Some(error),
        };
        let mut common = Scalar::weak(DType::Float64);
        let mut bounds = Vec::new();
        for x in [start, stop] {
            if self.maybe_none(x) {
                return None;
            }
            let t = self.ty(x)?;
            common = match linspace_bound(shown, t.scalar(), common) {
                Ok(p) => p,
                Err(message) => return Some((body.expr_ranges[x], message)),
            };
            bounds.push(t);
        }
        let d = if common.weak || kind(common.dtype) != Kind::Float { DType::Float64 } else { common.dtype };
        let num = num?;
        if self.maybe_none(num) || !bounds.iter().all(|b| b.converts_to(d)) {
            return None;
        }
        let t = self.ty(num)?;
        match t.scalar() {
            Some(s) if kind(s.dtype) <= Kind::Int => None,
            _ => Some((body.expr_ranges[num], samples_error(shown))),
        }
    }

    /// Whether `e` is a number parameter (not one that may be `None`)
    /// never bound again: no constant.
    fn number_parameter(&self, e: ExprId) -> bool {
        let body = self.body;
        matches!(body.exprs[e], Expr::Name(Name::Local(id))
            if body.locals[id].kind == LocalKind::Param
                && self.states[id].bindings == 0
                && scalar_parameter(self.env, &body.locals[id].name).is_some())
    }

    /// The array of numbers `x` given to `shown` (complex ones only when
    /// `complex_ok`), as the lowering's `numeric_array_arg` reads it, or
    /// why it refuses it (`Err(None)`: not certainly).
    fn numeric_array_of(
        &self,
        x: ExprId,
        shown: &str,
        complex_ok: bool,
    ) -> Result<TypeData, Option<(TextRange, String)>> {
        if let Some(error) = self.value_read_error(x) {
            return Err(Some(error));
        }
        if self.maybe_none(x) {
            return Err(None);
        }
        let t = self.ty(x).ok_or(None)?;
        let arr = match &t {
            Ty::Arr(a) => Some(a),
            _ => None,
        };
        if let Some(message) = crate::lower::npfuncs::numeric_array_error(shown, arr, complex_ok) {
            return Err(Some((self.body.expr_ranges[x], message)));
        }
        match t {
            Ty::Arr(a) => Ok(a),
            _ => Err(None),
        }
    }

    /// Why the lowering refuses `np.outer(args)`, where it certainly does:
    /// not two arguments, not arrays of numbers of one axis, of no common
    /// dtype.
    fn outer_error(&self, e: ExprId, args: &[ExprId]) -> Option<(TextRange, String)> {
        use crate::lower::grids::{outer_axes_error, outer_count_error, outer_dtypes_error};
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Outer);
        let &[a, b] = args else { return Some((at(e), outer_count_error(shown, args.len()))) };
        let mut tys = Vec::with_capacity(2);
        for x in [a, b] {
            match self.numeric_array_of(x, shown, true) {
                Ok(t) if t.ndim() != Some(1) => return Some((at(x), outer_axes_error(shown))),
                Ok(t) => tys.push(t),
                Err(error) => return error,
            }
        }
        let (a, b) = (tys[0].dtype, tys[1].dtype);
        promote(Scalar::strong(a), Scalar::strong(b)).is_none().then(|| (at(e), outer_dtypes_error(shown, a, b)))
    }

    /// Why the lowering refuses `np.roll(args)` (of `shift=` and `axis=`
    /// at most, each once), where it certainly does: the arguments
    /// ([`crate::lower::grids::roll_form`]), what is not an array of
    /// numbers, an axis out of range or no integer constant, a shift that
    /// is not an integer.
    fn roll_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        use crate::lower::arrays::axis_bounds_error;
        use crate::lower::grids::{roll_axis_error, roll_form, shift_error};
        let body = self.body;
        let at = |x: ExprId| body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Roll);
        let (array, shift, axis) = match roll_form(body, args, keywords, shown, at(e)) {
            Ok(form) => form,
            Err(error) => return Some(error),
        };
        let ty = match self.numeric_array_of(array, shown, true) {
            Ok(t) => t,
            Err(error) => return error,
        };
        let nd = ty.ndim()?;
        if let Some(x) = axis.filter(|x| !matches!(body.exprs[*x], Expr::None)) {
            if self.maybe_none(x) {
                return None;
            }
            match self.ty(x)? {
                Ty::Lit { lit: Lit::Int(k), .. } if (-(nd as i128)..nd as i128).contains(&k) => {}
                Ty::Lit { lit: Lit::Int(k), .. } => return Some((at(x), axis_bounds_error(k, nd))),
                t if t.scalar().is_none_or(|s| kind(s.dtype) != Kind::Int) || self.number_parameter(x) => {
                    return Some((at(x), roll_axis_error(shown)))
                }
                _ => return None,
            }
        }
        if self.maybe_none(shift) {
            return None;
        }
        match self.ty(shift)?.scalar() {
            Some(s) if matches!(kind(s.dtype), Kind::Bool | Kind::Int) => None,
            _ => Some((at(shift), shift_error(shown))),
        }
    }

    /// Why the lowering refuses `np.linalg.norm(args)` (of `ord=` at
    /// most, once), where it certainly does: a count of arguments, the
    /// order given twice, what is not an array of numbers of one or two
    /// axes, an order that is no number constant, a string order of a
    /// vector, a number order of a matrix.
    fn norm_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        use crate::lower::nanreduce::{
            matrix_order_error, norm_axes_error, norm_count_error, order_constant_error, vector_order_error,
            ORDER_TWICE,
        };
        let body = self.body;
        let at = |x: ExprId| body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Norm);
        if args.is_empty() || args.len() > 2 {
            return Some((at(e), norm_count_error(shown, args.len())));
        }
        let order = match (keywords.first(), args.get(1)) {
            (Some(_), Some(&p)) => return Some((at(p), ORDER_TWICE.into())),
            (Some(k), None) => Some(k.value),
            (None, p) => p.copied(),
        };
        let ty = match self.numeric_array_of(args[0], shown, true) {
            Ok(t) => t,
            Err(error) => return error,
        };
        let nd = ty.ndim()?;
        if nd > 2 {
            return Some((at(args[0]), norm_axes_error(shown)));
        }
        let x = order?;
        match &body.exprs[x] {
            Expr::None => return None,
            Expr::Literal(Lit::Str(s)) if nd == 2 && matches!(s.as_str(), "fro" | "f") => return None,
            Expr::Literal(Lit::Str(s)) if nd == 1 => return Some((at(x), vector_order_error(s))),
            _ => {}
        }
        if self.maybe_none(x) {
            return None;
        }
        match self.ty(x)? {
            Ty::Lit { lit: Lit::Int(_) | Lit::Float(_), .. } => (nd == 2).then(|| (at(x), matrix_order_error(shown))),
            Ty::Lit { .. } | Ty::Arr(_) | Ty::Tuple(_) => Some((at(x), order_constant_error(shown))),
            Ty::Num { .. } if self.number_parameter(x) => Some((at(x), order_constant_error(shown))),
            Ty::Num { .. } => None,
        }
    }

    /// `a.transpose()`, `a.ravel()`, `a.flatten()`, `a.reshape(shape)`
    /// and `np.cumsum(a[, axis])` (`args` starts with the array, the
    /// receiver of a `method`), as the
    /// lowering's `array_call` types them: a transpose is a view of as many
    /// axes, a ravel one of one axis, a reshape one of as many axes as
    /// extents written (each of them writable as the array is); a flatten
    /// a fresh 1-D copy; the running sums a fresh array of the sum's dtype
    /// (small integers widen), 1-D without an axis, of the array's axes
    /// along one. Not typed here: keywords other than `axis=` of `cumsum`,
    /// and any of them in GPU code (which cannot create arrays).
    fn rearranged(&self, f: ArrFn, method: bool, args: &[ExprId], keywords: &[Keyword]) -> Option<Ty> {
        let mut axis_kw = None;
        for k in keywords {
            match k.name.as_deref() {
                Some("axis") if f == ArrFn::Cumsum => axis_kw = Some(k.value),
                _ => return None,
            }
        }
        let (&array, rest) = args.split_first()?;
        if f != ArrFn::Transpose && self.env.decl.attrs.is_device() {
            return None;
        }
        let fresh = |d: DType, axes: usize| Ty::Arr(TypeData::array(d, Shape::dims(&vec![None; axes]), Layout::COrder));
        if f == ArrFn::Reshape {
            let written: &[ExprId] = match (rest, rest.first().map(|e| &self.body.exprs[*e])) {
                ([_], Some(Expr::Tuple(es) | Expr::List(es))) => es,
                _ => rest,
            };
            if written.is_empty() || (!method && rest.len() > 1) {
                return None;
            }
            let Ty::Arr(ty) = self.ty(array)? else { return None };
            for e in written {
                if matches!(self.body.exprs[*e], Expr::Starred(_)) {
                    return None;
                }
                let t = self.ty(*e)?;
                if kind(t.scalar()?.dtype) != Kind::Int || !t.converts_to(DType::Int64) {
                    return None;
                }
            }
            ty.ndim()?;
            return (!ty.dtype.is_text()).then(|| view_of(&ty, written.len()));
        }
        let axis = match (f, rest, axis_kw) {
            (ArrFn::Cumsum, [], None) => None,
            (ArrFn::Cumsum, &[a], None) | (ArrFn::Cumsum, [], Some(a)) => Some(a),
            (_, [], None) => None,
            _ => return None,
        };
        let Ty::Arr(ty) = self.ty(array)? else { return None };
        let nd = ty.ndim()?;
        if ty.dtype.is_text() {
            return None;
        }
        match f {
            ArrFn::Transpose => Some(view_of(&ty, nd)),
            ArrFn::Ravel => Some(view_of(&ty, 1)),
            ArrFn::Flatten => Some(fresh(ty.dtype, 1)),
            _ => {
                let along = match axis {
                    Some(e) => self.axes_named(e, nd, true)?,
                    None => None,
                };
                Some(fresh(sum_dtype(ty.dtype), if along.is_some() { nd } else { 1 }))
            }
        }
    }

    /// The axes `e` names of an array of `nd` axes, as the lowering's
    /// `axis_arg` and `axes_of` read them: `None` for every axis, else
    /// integer constants (one unless `single` is false: then a tuple may
    /// name several), each in range, none twice, counted from the end when
    /// negative.
    fn axes_named(&self, e: ExprId, nd: usize, single: bool) -> Option<Option<Vec<usize>>> {
        let written: &[ExprId] = match &self.body.exprs[e] {
            Expr::None => return Some(None),
            Expr::Tuple(_) if single => return None,
            Expr::Tuple(es) => es,
            _ => std::slice::from_ref(&e),
        };
        let n = nd as i128;
        let mut axes = Vec::with_capacity(written.len());
        for x in written {
            let Ty::Lit { lit: Lit::Int(k), .. } = self.ty(*x)? else { return None };
            // One axis out of range: NumPy's AxisError when the call runs,
            // the call typed along the last axis (as the lowering's
            // `axes_of`).
            if i64::try_from(k).is_ok() && (k < -n || k >= n) && written.len() == 1 && nd > 0 {
                return Some(Some(vec![nd - 1]));
            }
            if i64::try_from(k).is_err() || k < -n || k >= n {
                return None;
            }
            let k = if k < 0 { (k + n) as usize } else { k as usize };
            if axes.contains(&k) {
                return None;
            }
            axes.push(k);
        }
        Some(Some(axes))
    }

    /// A reduction along an axis or with `keepdims=` (`a.sum(axis=0)`,
    /// `np.max(a, 1)`, `a.mean(keepdims=True)`), as the lowering's
    /// `array_call` types it: over every axis, the whole array's scalar;
    /// over one, a fresh array of the other axes; with `keepdims=True`
    /// either as a fresh array of all the array's axes. Not typed here:
    /// a reduction over some but not all of several axes (refused), any
    /// in GPU code.
    fn reduction_along(&self, r: Red, args: &[ExprId], keywords: &[Keyword]) -> Option<Ty> {
        let (mut axis_kw, mut keepdims) = (None, false);
        for k in keywords {
            match (k.name.as_deref(), &self.body.exprs[k.value]) {
                (Some("axis"), _) => axis_kw = Some(k.value),
                (Some("keepdims"), Expr::Literal(Lit::Bool(b))) => keepdims = *b,
                _ => return None,
            }
        }
        let axis = match (args, axis_kw) {
            ([_], None) => None,
            (&[_, a], None) | ([_], Some(a)) => Some(a),
            _ => return None,
        };
        let array = args[0];
        if matches!(self.body.exprs[array], Expr::Starred(_)) {
            return None;
        }
        if axis.is_none() && !keepdims {
            // As without keywords (a sum may be fused with its operand).
            return self.reduction(r, array);
        }
        let Ty::Arr(ty) = self.ty(array)? else { return None };
        let d = ty.dtype;
        let ordered = matches!(r, Red::Min | Red::Max | Red::ArgMin | Red::ArgMax);
        if d.is_text() || (ordered && d.is_complex()) {
            return None;
        }
        let nd = ty.ndim()?;
        let axes = match axis {
            Some(e) => self.axes_named(e, nd, matches!(r, Red::ArgMin | Red::ArgMax))?,
            None => None,
        };
        let one = match &axes {
            Some(a) if a.len() == nd => None,
            Some(a) if a.len() == 1 => Some(a[0]),
            Some(_) => return None,
            None => None,
        };
        let result = reduction_dtype(r, d);
        let array_of = |axes: usize| Ty::Arr(TypeData::array(result, Shape::dims(&vec![None; axes]), Layout::COrder));
        match (one, keepdims) {
            (_, true) => Some(array_of(nd)),
            (Some(_), false) => Some(array_of(nd - 1)),
            (None, false) => {
                Some(Ty::Num { s: Scalar::strong(result), nonneg: matches!(r, Red::ArgMin | Red::ArgMax) })
            }
        }
    }

    /// The operands of `np.dot(a, b)` (`dot` imported from NumPy) and of
    /// the method `a.dot(b)`, as the lowering's `dot_operands`.
    fn dot_operands(&self, func: ExprId, args: &[ExprId]) -> Option<Vec<ExprId>> {
        match &self.body.exprs[func] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Boundary { module, name } if module == "numpy" && name == "dot" => Some(args.to_vec()),
                _ => None,
            },
            Expr::Attribute { base, attr } if &**attr == "dot" => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m)? {
                    Global::BoundaryModule(m) if m == "numpy" => Some(args.to_vec()),
                    _ => None,
                },
                Expr::Name(Name::Local(_)) => Some(std::iter::once(*base).chain(args.iter().copied()).collect()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The product `p` (`e`) of `a` and `b`, refused as the lowering's
    /// `product` refuses it ([`crate::lower::linalg::product_operand_error`], arrays created in
    /// GPU code), or typed by [`Solver::product`].
    fn product_of(&self, e: ExprId, p: Product, a: ExprId, b: ExprId) -> Option<Ty> {
        use crate::lower::linalg::{product_in_gpu_error, product_operand_error};
        if let Some((at, message)) = [a, b].into_iter().find_map(|x| self.value_read_error(x)) {
            return self.refuse(e, at, message);
        }
        if self.maybe_none(a) || self.maybe_none(b) {
            return None;
        }
        let (l, r) = (self.ty(a)?, self.ty(b)?);
        for (x, t) in [(a, &l), (b, &r)] {
            if let Some(message) = product_operand_error(p, Some(t)) {
                return self.refuse(e, self.body.expr_ranges[x], message);
            }
        }
        let matrix = [&l, &r].iter().any(|t| matches!(t, Ty::Arr(a) if a.ndim() == Some(2)));
        if matrix && self.env.decl.attrs.is_device() {
            return self.refuse_here(e, product_in_gpu_error(p));
        }
        self.product(&l, &r)
    }

    /// `np.dot(a, b)`, `a.dot(b)`, `a @ b` of arrays of one or two axes,
    /// as the lowering's `product` types it: the inner product of two
    /// vectors is a NumPy scalar, any other pairing a fresh C-order array
    /// (of one axis unless both have two), of the promoted dtype.
    fn product(&self, l: &Ty, r: &Ty) -> Option<Ty> {
        let (Ty::Arr(a), Ty::Arr(b)) = (l, r) else { return None };
        let (an, bn) = (a.ndim()?, b.ndim()?);
        if !matches!(an, 1 | 2) || !matches!(bn, 1 | 2) || a.dtype.is_text() || b.dtype.is_text() {
            return None;
        }
        let d = promote_strong(a.dtype, b.dtype)?;
        match (an, bn) {
            (1, 1) => Some(Ty::Num { s: Scalar::strong(d), nonneg: false }),
            _ if self.env.decl.attrs.is_device() => None,
            _ => {
                let rank = if an == 2 && bn == 2 { 2 } else { 1 };
                Some(Ty::Arr(TypeData::array(d, Shape::dims(&vec![None; rank]), Layout::COrder)))
            }
        }
    }

    /// What `func` names among the NumPy functions of the lowering's
    /// `npfuncs` (`np.sort`, `np.nanmean`, ...), as its
    /// `np_function_target` finds them.
    fn numpy_array_function(&self, func: ExprId) -> Option<NpFn> {
        let linalg = |e: ExprId| match &self.body.exprs[e] {
            Expr::Attribute { base, attr } => &**attr == "linalg" && self.names_module(*base, "numpy"),
            _ => self.names_module(e, "numpy.linalg"),
        };
        let name: &str = match &self.body.exprs[func] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Boundary { module, name } if module == "numpy" => name,
                Global::Boundary { module, name } if module == "numpy.linalg" => return linalg_function(name),
                _ => return None,
            },
            Expr::Attribute { base, attr } if self.names_module(*base, "numpy") => attr,
            Expr::Attribute { base, attr } if linalg(*base) => return linalg_function(attr),
            // A method of an array local or of a view, as the lowering finds it.
            Expr::Attribute { base, attr } if matches!(&**attr, "sort" | "argsort") => {
                let array = match &self.body.exprs[*base] {
                    Expr::Name(name @ Name::Local(l)) => match self.body.locals[*l].kind {
                        LocalKind::Param | LocalKind::Constant => matches!(self.name(name), Some(Ty::Arr(_))),
                        // A list local has the array type of its elements,
                        // and none of an array's methods.
                        _ => self.states[*l].arr.is_some() && self.states[*l].list.is_none(),
                    },
                    Expr::Subscript { .. } => true,
                    _ => false,
                };
                let method = if &**attr == "sort" { NpFn::SortInPlace } else { NpFn::ArgSortMethod };
                return array.then_some(method);
            }
            // `a.trace()` of any array expression.
            Expr::Attribute { base, attr } if &**attr == "trace" => {
                return matches!(self.ty(*base), Some(Ty::Arr(_))).then_some(NpFn::TraceMethod);
            }
            // `a.var()`, `a.std()` of any array expression.
            Expr::Attribute { base, attr } if matches!(&**attr, "var" | "std") => {
                let array = matches!(self.ty(*base), Some(Ty::Arr(_)));
                return array.then_some(if &**attr == "var" { NpFn::VarMethod } else { NpFn::StdMethod });
            }
            _ => return None,
        };
        numpy_function(name)
    }

    /// Whether `e` is the name of the CPython module `module` (`np`).
    fn names_module(&self, e: ExprId, module: &str) -> bool {
        match &self.body.exprs[e] {
            Expr::Name(Name::Global(m)) => {
                matches!(self.env.globals.get(&**m), Some(Global::BoundaryModule(m)) if m == module)
            }
            _ => false,
        }
    }

    /// `np.sort(a)` of a 1-D array (a sorted C-order copy) and the
    /// NaN-skipping reductions (`np.nanmean(a)`: a NumPy scalar of the
    /// dtype NumPy gives, as the lowering's `nan_reduction_call`). Not
    /// typed here: `ddof=`, the other functions.
    fn numpy_array_call(&self, f: NpFn, args: &[ExprId], keywords: &[Keyword]) -> Option<Ty> {
        if args.iter().any(|a| matches!(self.body.exprs[*a], Expr::Starred(_))) {
            return None;
        }
        match f {
            NpFn::Searchsorted => return self.searchsorted(args, &self.keywords_of(keywords, &["v", "side"])?),
            NpFn::Norm => return self.norm(args, &self.keywords_of(keywords, &["ord"])?),
            // As the lowering's `det_call`: a NumPy scalar of the float
            // dtype LAPACK factors in.
            NpFn::Det => {
                let ([a], []) = (args, keywords) else { return None };
                let Ty::Arr(t) = self.ty(*a)? else { return None };
                let d = crate::lower::linalg::det_dtype(t.dtype)?;
                return (t.ndim()? == 2).then_some(Ty::Num { s: Scalar::strong(d), nonneg: false });
            }
            // As the lowering's `eigh_call`: new C-order arrays of that
            // dtype, the eigenvalues and (`eigh`) the eigenvectors.
            NpFn::Eigh | NpFn::EigvalsH => {
                let kws = self.keywords_of(keywords, &["UPLO"])?;
                let ([a] | [a, _]) = args else { return None };
                if args.len() + kws.len() > 2 {
                    return None;
                }
                let Ty::Arr(t) = self.ty(*a)? else { return None };
                let d = crate::lower::linalg::det_dtype(t.dtype)?;
                if t.ndim()? != 2 {
                    return None;
                }
                let values = Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder));
                if f == NpFn::EigvalsH {
                    return Some(values);
                }
                let vectors = Ty::Arr(TypeData::array(d, Shape::dims(&[None, None]), Layout::COrder));
                return Some(Ty::Tuple(vec![values, vectors]));
            }
            NpFn::ArrayOf => return self.array_of(args, &self.keywords_of(keywords, &["dtype"])?),
            // As the lowering's `linspace_call`: the float dtype of the
            // bounds and a Python float.
            NpFn::Linspace => {
                let kws = self.keywords_of(keywords, &["start", "stop", "num", "endpoint"])?;
                let bounds: Vec<ExprId> = args
                    .iter()
                    .take(2)
                    .copied()
                    .chain(["start", "stop"].iter().filter_map(|n| kws.get(n).copied()))
                    .collect();
                let [start, stop] = bounds[..] else { return None };
                let mut common = Scalar::weak(DType::Float64);
                for e in [start, stop] {
                    let s = self.ty(e)?.scalar()?;
                    if kind(s.dtype) > Kind::Float {
                        return None;
                    }
                    common = promote(common, s)?;
                }
                let d = if common.weak || kind(common.dtype) != Kind::Float { DType::Float64 } else { common.dtype };
                return Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder)));
            }
            NpFn::Outer => {
                let ([a, b], []) = (args, keywords) else { return None };
                let (Ty::Arr(a), Ty::Arr(b)) = (self.ty(*a)?, self.ty(*b)?) else { return None };
                if a.ndim() != Some(1) || b.ndim() != Some(1) || a.dtype.is_text() || b.dtype.is_text() {
                    return None;
                }
                let d = promote(Scalar::strong(a.dtype), Scalar::strong(b.dtype))?.dtype;
                return Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None, None]), Layout::COrder)));
            }
            // As the lowering's `cross_call`: a new 1-D array of the
            // vectors' promoted dtype (a list as `np.array` makes it).
            NpFn::Cross => {
                let ([a, b], []) = (args, keywords) else { return None };
                let mut dtypes = Vec::new();
                for &e in [a, b].iter() {
                    let d = match &self.body.exprs[*e] {
                        Expr::List(elts) | Expr::Tuple(elts) => {
                            let scalars: Vec<Scalar> =
                                elts.iter().map(|&x| self.ty(x)?.scalar()).collect::<Option<_>>()?;
                            array_of_dtype(None, scalars)?
                        }
                        _ => match self.ty(*e)? {
                            Ty::Arr(t) if t.ndim() == Some(1) => t.dtype,
                            _ => return None,
                        },
                    };
                    if d == DType::Bool || d.is_text() {
                        return None;
                    }
                    dtypes.push(d);
                }
                let d = crate::pytypes::promote_strong(dtypes[0], dtypes[1])?;
                return Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder)));
            }
            // As the lowering's `roll_call`: a new C-order array of the
            // array's dtype and number of axes.
            NpFn::Roll => {
                let kws = self.keywords_of(keywords, &["shift", "axis"])?;
                let array = *args.first()?;
                if args.len() + kws.len() < 2 || self.env.decl.attrs.is_device() {
                    return None;
                }
                let Ty::Arr(ty) = self.ty(array)? else { return None };
                let nd = ty.ndim()?;
                if ty.dtype.is_text() {
                    return None;
                }
                return Some(Ty::Arr(TypeData::array(ty.dtype, Shape::dims(&vec![None; nd]), Layout::COrder)));
            }
            // As the lowering's `sequences.rs`: new 1-D arrays.
            NpFn::Concatenate => {
                self.keywords_of(keywords, &["axis"])?;
                let [parts] = args else { return None };
                let (Expr::Tuple(es) | Expr::List(es)) = &self.body.exprs[*parts] else { return None };
                let mut d: Option<DType> = None;
                for e in es.iter() {
                    let Ty::Arr(t) = self.ty(*e)? else { return None };
                    if t.ndim() != Some(1) || t.dtype.is_text() {
                        return None;
                    }
                    d = Some(match d {
                        None => t.dtype,
                        Some(p) => crate::pytypes::promote_strong(p, t.dtype)?,
                    });
                }
                return Some(Ty::Arr(TypeData::array(d?, Shape::dims(&[None]), Layout::COrder)));
            }
            NpFn::Diff | NpFn::Unique | NpFn::FlatNonzero => {
                let array = *args.first()?;
                let Ty::Arr(t) = self.ty(array)? else { return None };
                let one_axis = t.ndim() == Some(1) || (f == NpFn::FlatNonzero && t.ndim().is_some());
                if !one_axis || t.dtype.is_text() || (f != NpFn::Diff && t.dtype.is_complex()) {
                    return None;
                }
                let d = if f == NpFn::FlatNonzero { DType::Int64 } else { t.dtype };
                return Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder)));
            }
            // As the lowering's `partition_call`: a sorted copy, `kth` an
            // integer or a 1-D array of them.
            NpFn::Partition => {
                let ([array, kth], []) = (args, keywords) else { return None };
                let int = |t: &Ty| match t {
                    Ty::Arr(k) => k.ndim() == Some(1) && kind(k.dtype) == Kind::Int,
                    t => t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int),
                };
                if !int(&self.ty(*kth)?) || self.env.decl.attrs.is_device() {
                    return None;
                }
                return match self.ty(*array)? {
                    Ty::Arr(ty) if ty.ndim() == Some(1) && !ty.dtype.is_text() && !ty.dtype.is_complex() => {
                        Some(Ty::Arr(TypeData::array(ty.dtype, Shape::dims(&[None]), Layout::COrder)))
                    }
                    _ => None,
                };
            }
            // As the lowering's `diagonals.rs`: `np.sum`'s dtype of the
            // diagonal; a new C-order 2-D array.
            NpFn::Trace => {
                let kws = self.keywords_of(keywords, &["a", "offset"])?;
                let array = args.first().or(kws.get("a"))?;
                let Ty::Arr(t) = self.ty(*array)? else { return None };
                if t.ndim() != Some(2) || t.dtype.is_text() {
                    return None;
                }
                let d = sum_dtypes(t.dtype).1;
                return Some(Ty::Num { s: Scalar::strong(d), nonneg: false });
            }
            NpFn::Eye | NpFn::Identity => {
                let names: &[&str] = if f == NpFn::Eye { &["N", "M", "k", "dtype"] } else { &["n", "dtype"] };
                let kws = self.keywords_of(keywords, names)?;
                let at = names.len() - 1;
                let d = match (args.get(at), kws.get("dtype")) {
                    (Some(_), Some(_)) => return None,
                    (Some(&e), None) | (None, Some(&e)) => self.dtype_arg(e)?,
                    (None, None) => DType::Float64,
                };
                if self.env.decl.attrs.is_device() {
                    return None;
                }
                return Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None, None]), Layout::COrder)));
            }
            // As the lowering's `histograms.rs`: the Int64 counts and the
            // edges (the array of edges given, or new ones).
            NpFn::Histogram => {
                let names = ["a", "bins", "range", "density", "weights"];
                let kws = self.keywords_of(keywords, &names)?;
                let arg = |k: usize| args.get(k).or(kws.get(names[k])).copied();
                let Ty::Arr(t) = self.ty(arg(0)?)? else { return None };
                if !crate::lower::histograms::histogram_data(t.dtype) || t.ndim().is_none() {
                    return None;
                }
                let edges = match arg(1).map(|e| self.ty(e)) {
                    Some(None) => return None,
                    Some(Some(Ty::Arr(b))) => {
                        let real = matches!(kind(b.dtype), Kind::Int | Kind::Float);
                        (b.ndim() == Some(1) && real).then_some(b)?
                    }
                    _ => {
                        let range = match arg(2) {
                            None => None,
                            Some(e) if matches!(self.body.exprs[e], Expr::None) => None,
                            Some(e) => match self.ty(e)? {
                                Ty::Tuple(ts) if ts.len() == 2 => Some((ts[0].scalar()?, ts[1].scalar()?)),
                                _ => return None,
                            },
                        };
                        let d = crate::lower::histograms::uniform_edges_dtype(t.dtype, range, false)?;
                        TypeData::array(d, Shape::dims(&[None]), Layout::COrder)
                    }
                };
                let hist = TypeData::array(DType::Int64, Shape::dims(&[None]), Layout::COrder);
                return Some(Ty::Tuple(vec![Ty::Arr(hist), Ty::Arr(edges)]));
            }
            // `kind=` picks no other order (the lowering checks its value).
            NpFn::ArgSort => {
                self.keywords_of(keywords, &["kind"])?;
                let [array] = args else { return None };
                return match self.ty(*array)? {
                    Ty::Arr(ty) if ty.ndim() == Some(1) && !ty.dtype.is_text() && !ty.dtype.is_complex() => {
                        Some(Ty::Arr(TypeData::array(DType::Int64, Shape::dims(&[None]), Layout::COrder)))
                    }
                    _ => None,
                };
            }
            _ => {}
        }
        // `ddof=` of the variances (the lowering checks its value).
        let ddof = matches!(f, NpFn::Var | NpFn::Std | NpFn::Nan(NanRed::Var | NanRed::Std));
        self.keywords_of(keywords, if ddof { &["ddof"] } else { &[] })?;
        let [array] = args else { return None };
        if matches!(self.body.exprs[*array], Expr::Starred(_)) {
            return None;
        }
        let Ty::Arr(ty) = self.ty(*array)? else { return None };
        let d = ty.dtype;
        if d.is_text() || d.is_complex() || ty.ndim().is_none() {
            return None;
        }
        let num = |d: DType, nonneg: bool| Some(Ty::Num { s: Scalar::strong(d), nonneg });
        match f {
            NpFn::Sort => {
                (ty.ndim() == Some(1)).then(|| Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder)))
            }
            NpFn::Var | NpFn::Std | NpFn::VarMethod | NpFn::StdMethod => match d {
                DType::Float16 | DType::Float32 | DType::Float64 => num(d, false),
                _ => num(DType::Float64, false),
            },
            NpFn::Nan(r) => match r {
                NanRed::Sum | NanRed::Prod if d == DType::Float16 => num(d, false),
                NanRed::Sum | NanRed::Prod => num(sum_dtypes(d).1, false),
                NanRed::Min | NanRed::Max => num(d, false),
                NanRed::ArgMin | NanRed::ArgMax => num(DType::Int64, true),
                NanRed::Mean | NanRed::Var | NanRed::Std => match d {
                    DType::Float16 | DType::Float32 | DType::Float64 => num(d, false),
                    _ => num(DType::Float64, false),
                },
            },
            _ => None,
        }
    }

    /// The keywords of a call, by name, when each is one of `known` and
    /// given once (as the lowering's `keywords_of` accepts them).
    fn keywords_of<'k>(&self, keywords: &'k [Keyword], known: &[&str]) -> Option<HashMap<&'k str, ExprId>> {
        let mut out = HashMap::new();
        for k in keywords {
            let name = k.name.as_deref().filter(|n| known.contains(n))?;
            if out.insert(name, k.value).is_some() {
                return None;
            }
        }
        Some(out)
    }

    /// The array argument of a NumPy function over arrays of numbers
    /// (complex ones when `complex_ok`), of a known number of axes.
    fn numeric_array(&self, e: ExprId, complex_ok: bool) -> Option<TypeData> {
        let Ty::Arr(ty) = self.ty(e)? else { return None };
        let refused = ty.dtype.is_text() || (ty.dtype.is_complex() && !complex_ok) || ty.ndim().is_none();
        (!refused).then_some(ty)
    }

    /// `np.searchsorted(a, v[, side])`, as the lowering's
    /// `searchsorted_call`: the index (a non-negative Int64) for a
    /// number, a fresh Int64 array of the value's axes for an array.
    fn searchsorted(&self, args: &[ExprId], kws: &HashMap<&str, ExprId>) -> Option<Ty> {
        if args.is_empty() || args.len() > 3 {
            return None;
        }
        let v = match (kws.get("v"), args.get(1)) {
            (Some(_), Some(_)) | (None, None) => return None,
            (Some(&e), None) | (None, Some(&e)) => e,
        };
        let side = match (kws.get("side"), args.get(2)) {
            (Some(_), Some(_)) => return None,
            (Some(&e), None) | (None, Some(&e)) => Some(e),
            (None, None) => None,
        };
        if let Some(e) = side {
            let Expr::Literal(Lit::Str(side)) = &self.body.exprs[e] else { return None };
            if !matches!(&**side, "left" | "right") {
                return None;
            }
        }
        let a = self.numeric_array(args[0], false)?;
        if a.ndim() != Some(1) {
            return None;
        }
        let value = self.ty(v)?;
        let vs = match &value {
            Ty::Arr(ty) => Scalar::strong(ty.dtype),
            Ty::Tuple(_) => return None,
            Ty::Num { s, .. } | Ty::Lit { s, .. } => *s,
        };
        if vs.dtype.is_text() || vs.dtype.is_complex() {
            return None;
        }
        let d = promote(Scalar::strong(a.dtype), vs)?.dtype;
        match value {
            Ty::Arr(ty) => {
                let axes = ty.ndim()?;
                Some(Ty::Arr(TypeData::array(DType::Int64, Shape::dims(&vec![None; axes]), Layout::COrder)))
            }
            number => number.converts_to(d).then_some(Ty::Num { s: Scalar::strong(DType::Int64), nonneg: true }),
        }
    }

    /// `np.linalg.norm(a[, ord])` of a vector or a matrix, as the
    /// lowering's `norm_call`: a non-negative NumPy scalar of the array's
    /// float dtype (of its parts' for complex numbers; Float64 for
    /// integers). The order is a constant number of a vector's, `None`,
    /// or `'fro'` of a matrix's.
    fn norm(&self, args: &[ExprId], kws: &HashMap<&str, ExprId>) -> Option<Ty> {
        if args.is_empty() || args.len() > 2 {
            return None;
        }
        let ord = match (kws.get("ord"), args.get(1)) {
            (Some(_), Some(_)) => return None,
            (Some(&e), None) | (None, Some(&e)) => Some(e),
            (None, None) => None,
        };
        let ty = self.numeric_array(args[0], true)?;
        let nd = ty.ndim()?;
        if nd > 2 {
            return None;
        }
        if let Some(e) = ord {
            match &self.body.exprs[e] {
                Expr::None => {}
                Expr::Literal(Lit::Str(o)) if nd == 2 && matches!(&**o, "fro" | "f") => {}
                Expr::Literal(Lit::Str(_)) => return None,
                _ => match self.ty(e)? {
                    Ty::Lit { lit: Lit::Int(_) | Lit::Float(_), .. } if nd == 1 => {}
                    _ => return None,
                },
            }
        }
        let real = ty.dtype.complex_part().unwrap_or(ty.dtype);
        let d = if kind(real) == Kind::Float { real } else { DType::Float64 };
        Some(Ty::Num { s: Scalar::strong(d), nonneg: true })
    }

    /// `np.array([...][, dtype])` of a (nested) list of numbers, as the
    /// lowering's `array_of_call`: a fresh array of an axis for each level
    /// of the list, of the dtype given or NumPy's promotion of the
    /// numbers' (a Python number's default dtype; Float64 for none).
    fn array_of(&self, args: &[ExprId], kws: &HashMap<&str, ExprId>) -> Option<Ty> {
        if args.is_empty() || args.len() > 2 || self.env.decl.attrs.is_device() {
            return None;
        }
        let dtype = match (kws.get("dtype"), args.get(1)) {
            (Some(_), Some(_)) => return None,
            (Some(&e), None) | (None, Some(&e)) => Some(self.dtype_arg(e)?),
            (None, None) => None,
        };
        // Of a list local: its copy.
        if let Expr::Name(Name::Local(id)) = &self.body.exprs[args[0]] {
            if self.states[*id].list.is_some() {
                let Ty::Arr(t) = self.ty(args[0])? else { return None };
                let d = dtype.unwrap_or(t.dtype);
                return Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder)));
            }
        }
        let elements = |x: ExprId| match &self.body.exprs[x] {
            Expr::List(es) | Expr::Tuple(es) => Some(es.to_vec()),
            _ => None,
        };
        let (shape, leaves) = nested_shape(args[0], &elements).ok()?;
        let mut numbers = Vec::with_capacity(leaves.len());
        for e in leaves {
            let t = self.ty(e)?;
            let s = t.scalar()?;
            if s.dtype.is_text() {
                return None;
            }
            numbers.push(t);
        }
        let d = array_of_dtype(dtype, numbers.iter().filter_map(Ty::scalar))?;
        for t in &numbers {
            let float_literal = matches!(t, Ty::Lit { lit: Lit::Float(_), .. });
            let via = array_element_via(t.scalar()?, float_literal, d)?;
            if !t.converts_to(via) {
                return None;
            }
        }
        Some(Ty::Arr(TypeData::array(d, Shape::dims(&vec![None; shape.len()]), Layout::COrder)))
    }

    /// `np.sum(a)`, `a.max()`, ... of a whole array, as the lowering's
    /// `reduce` types it: a NumPy scalar of the reduction's dtype
    /// (`sum_dtypes`: small integers widen; `mean` of integers is
    /// Float64). Not typed here: a sum of an expression (fused with it),
    /// an axis, `keepdims`.
    fn reduction(&self, r: Red, array: ExprId) -> Option<Ty> {
        // A sum of a whole-array expression adds its elements up without
        // making the array (`fused_sum`), and gives the same dtype.
        let Ty::Arr(ty) = self.ty(array)? else { return None };
        let d = ty.dtype;
        let ordered = matches!(r, Red::Min | Red::Max | Red::ArgMin | Red::ArgMax);
        if d.is_text() || (ordered && d.is_complex()) || ty.ndim().is_none() {
            return None;
        }
        let result = reduction_dtype(r, d);
        Some(Ty::Num { s: Scalar::strong(result), nonneg: matches!(r, Red::ArgMin | Red::ArgMax) })
    }

    /// A node of a whole-array expression (an arithmetic operator, a
    /// comparison, a NumPy ufunc) with an array among its operands' types `tys`, as
    /// the lowering's `elementwise` fuses it: a fresh C-order array of the
    /// operands' broadcast rank, of the dtype the scalar rule (`element`)
    /// gives each array operand's element (a strong NumPy scalar) and the
    /// scalar operands. `None` when no operand is an array (the scalar
    /// rules apply); `Some(None)` when the node is not typed here.
    fn elementwise(&self, tys: &[Ty], element: impl FnOnce(&[Ty]) -> Option<Ty>) -> Option<Option<Ty>> {
        if !tys.iter().any(|t| matches!(t, Ty::Arr(_))) {
            return None;
        }
        let mut rank = 0;
        let mut elements = Vec::with_capacity(tys.len());
        for t in tys {
            match t {
                Ty::Arr(a) if !a.dtype.is_text() => {
                    let Some(n) = a.ndim() else { return Some(None) };
                    rank = rank.max(n);
                    elements.push(Ty::Num { s: Scalar::strong(a.dtype), nonneg: false });
                }
                Ty::Num { .. } | Ty::Lit { .. } => elements.push(t.clone()),
                _ => return Some(None),
            }
        }
        let Some(s) = element(&elements).and_then(|t| t.scalar()) else { return Some(None) };
        let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
        Some((!d.is_text()).then(|| Ty::Arr(TypeData::array(d, Shape::dims(&vec![None; rank]), Layout::COrder))))
    }

    /// The name of the NumPy attribute `e` is (`np.int_`, or `intp`
    /// imported from NumPy), as the lowering's `numpy_attr`.
    fn numpy_attr(&self, e: ExprId) -> Option<&str> {
        match &self.body.exprs[e] {
            Expr::Attribute { base, attr } => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m)? {
                    Global::BoundaryModule(m) if m == "numpy" => Some(attr),
                    _ => None,
                },
                _ => None,
            },
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Boundary { module, name } if module == "numpy" => Some(name),
                _ => None,
            },
            _ => None,
        }
    }

    /// `np.arange(stop)`, `np.arange(start, stop[, step])`, as the
    /// lowering's `arange` types it: a fresh 1-D array of the dtype given,
    /// or of NumPy's promotion of the bounds' (a Python number's default
    /// dtype, a NumPy scalar's own); integers or floats.
    fn arange(&self, args: &[ExprId], dtype: Option<DType>) -> Option<Ty> {
        if args.is_empty() || args.len() > 3 {
            return None;
        }
        let bounds: Vec<Ty> = args.iter().map(|a| self.ty(*a)).collect::<Option<_>>()?;
        let mut common: Option<DType> = None;
        for b in &bounds {
            let s = b.scalar()?;
            if !matches!(kind(s.dtype), Kind::Int | Kind::Float) {
                return None;
            }
            let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
            common = Some(match common {
                None => d,
                Some(c) => promote_strong(c, d).unwrap_or(DType::Float64),
            });
        }
        let common = common?;
        // The bounds are computed with in Int64, or else Float64.
        let bound_dtype = if kind(common) == Kind::Int { DType::Int64 } else { DType::Float64 };
        let d = dtype.unwrap_or(common);
        if d.is_complex() || d == DType::Bool || !bounds.iter().all(|b| b.converts_to(bound_dtype)) {
            return None;
        }
        Some(Ty::Arr(TypeData::array(d, Shape::dims(&[None]), Layout::COrder)))
    }

    /// The number of axes of a shape argument, as the lowering's
    /// `shape_arg` takes it: an integer, a tuple (or list) of them, or an
    /// array's `shape`.
    fn shape_axes(&self, e: ExprId) -> Option<usize> {
        let extents: &[ExprId] = match &self.body.exprs[e] {
            Expr::Tuple(es) | Expr::List(es) => es,
            Expr::Attribute { base, attr } if &**attr == "shape" => match self.ty(*base)? {
                Ty::Arr(ty) => return ty.ndim(),
                _ => return None,
            },
            _ => std::slice::from_ref(&e),
        };
        let int = |t: &Ty| t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int) && t.converts_to(DType::Int64);
        // A tuple computed (`a.shape[:-1] + (3, 3)`): its elements.
        if let [x] = extents {
            if let Ty::Tuple(elems) = self.ty(*x)? {
                return (!elems.is_empty() && elems.iter().all(int)).then_some(elems.len());
            }
        }
        for x in extents {
            if !int(&self.ty(*x)?) {
                return None;
            }
        }
        (!extents.is_empty()).then_some(extents.len())
    }

    /// The dtype of a local bound to one by an earlier statement (where
    /// the lowering has seen it).
    fn dtype_local(&self, e: ExprId) -> Option<DType> {
        let Expr::Name(Name::Local(id)) = self.body.exprs[e] else { return None };
        let st = &self.states[id];
        let (d, at) = st.dtype.filter(|_| st.open && st.bindings == 0)?;
        (at < self.reading_at.get()).then_some(d)
    }

    /// A dtype argument, as the lowering's `dtype_arg` reads it (not a
    /// local bound to a dtype).
    fn dtype_arg(&self, e: ExprId) -> Option<DType> {
        if let Some(name) = self.numpy_attr(e) {
            if removed_numpy_dtype(name).is_some() {
                return None;
            }
            return numpy_dtype(name).filter(|d| !d.is_text());
        }
        let d = match &self.body.exprs[e] {
            Expr::Literal(Lit::Str(s)) => numpy_dtype(s)?,
            Expr::Name(Name::Local(_)) => self.dtype_local(e)?,
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Type(t) => *t,
                _ => return None,
            },
            Expr::Name(Name::Free(n)) => python_scalar(n)?,
            // `a.dtype` of an array local or parameter.
            Expr::Attribute { base, attr } if &**attr == "dtype" => match &self.body.exprs[*base] {
                Expr::Name(Name::Local(_)) => match self.ty(*base)? {
                    Ty::Arr(t) => t.dtype,
                    _ => return None,
                },
                _ => return None,
            },
            Expr::Attribute { base, attr } => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m)? {
                    Global::Namespace(Namespace::Postyp) => DType::from_name(attr)?,
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        (!d.is_text()).then_some(d)
    }

    /// The constant `attr` of the module `base` names, if it is NumPy's
    /// (`np.inf`), `math`'s or `postc.math`'s (`math.pi`).
    fn constant_of_module(&self, base: ExprId, attr: &str) -> Option<f64> {
        if self.names_postc_math(base) {
            return math_constant(attr);
        }
        let Expr::Name(Name::Global(m)) = &self.body.exprs[base] else { return None };
        match self.env.globals.get(&**m)? {
            Global::BoundaryModule(m) if m == "numpy" => numpy_constant(attr),
            Global::Namespace(Namespace::Math | Namespace::PostcMath) => math_constant(attr),
            _ => None,
        }
    }

    /// What `func` names among NumPy's ufuncs on scalars (`np.exp`, `exp`
    /// imported from NumPy) and Python's `math` functions, as the
    /// lowering's `target_of` finds them.
    fn scalar_library_function(&self, func: ExprId) -> Option<Library<'_>> {
        let (module, name): (&Global, &str) = match &self.body.exprs[func] {
            Expr::Attribute { base, attr } => match &self.body.exprs[*base] {
                Expr::Name(Name::Global(m)) => (self.env.globals.get(&**m)?, attr),
                _ => return None,
            },
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Boundary { module, name } if module == "numpy" => {
                    return numpy_func(name).map(|op| Library::Numpy(op, name))
                }
                Global::Boundary { module, name } if module == "math" => {
                    return math_func(name).map(|f| Library::Math(f, name))
                }
                _ => return None,
            },
            _ => return None,
        };
        match module {
            Global::BoundaryModule(m) if m == "numpy" => numpy_func(name).map(|op| Library::Numpy(op, name)),
            Global::Namespace(Namespace::Math) => math_func(name).map(|f| Library::Math(f, name)),
            _ => None,
        }
    }

    /// `sum(t)` or `sum(t, start)` of a tuple, as the lowering's `sum`:
    /// `start` (a Python 0 unless given) plus each element in turn.
    fn sum(&self, args: Vec<Ty>) -> Option<Ty> {
        let mut args = args.into_iter();
        let Some(Ty::Tuple(elems)) = args.next() else { return None };
        let mut acc = args.next().unwrap_or(Ty::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) });
        if args.next().is_some() {
            return None;
        }
        for e in &elems {
            acc = self.arith_type(ast::Operator::Add, &acc, e)?;
        }
        Some(acc)
    }

    /// Why the lowering refuses the call `e` of `func` for what `func`
    /// names, where it certainly does (its `call_inner`): a name bound
    /// nowhere that is no builtin, a local (typed here, not a dtype; a
    /// module-level array),
    /// `postc.math.f` of no intrinsic, `math.f` not compiled, `m.f` of a
    /// POST module without `f`, a function of a CPython module (`m.sub.f`,
    /// or `m.f` and `f` imported from one: NumPy's and `math`'s are
    /// compiled); and keyword and `*` arguments given to a builtin, a cast
    /// or a CPython function. Not of a call the lowering does not lower
    /// as one ([`uncalled`]). The message, and where.
    fn target_error(
        &self,
        e: ExprId,
        func: ExprId,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        if self.uncalled.get(e).is_some() {
            return None;
        }
        let body = self.body;
        let func_at = body.expr_ranges[func];
        let arguments = || {
            if let Some(k) = keywords.first() {
                return Some((k.range, KEYWORD_ARGUMENTS.to_owned()));
            }
            let starred = args.iter().find(|a| matches!(body.exprs[**a], Expr::Starred(_)))?;
            Some((body.expr_ranges[*starred], STARRED_ARGUMENT.to_owned()))
        };
        let global = |e: ExprId| match &body.exprs[e] {
            Expr::Name(Name::Global(n)) => self.env.globals.get(&**n),
            _ => None,
        };
        // A CPython module's function: not NumPy's (compiled, or refused
        // by NumPy's rules), Numba's (`numba.prange`), `math`'s compiled
        // or `postc`'s.
        // `numpy` or `numpy.random`, not `numpyx` (a module of its own).
        let of = |module: &str, package: &str| {
            module.strip_prefix(package).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        };
        let cpython = |module: &str, name: &str| {
            (module == "numpy" && !crate::lower::numpy_compiles(name))
                || !(of(module, "numpy")
                    || of(module, "numba")
                    || (module == "math" && math_func(name).is_some())
                    || of(module, "postc"))
        };
        match &body.exprs[func] {
            Expr::Name(Name::Free(n)) => match &**n {
                // `range(...)` held in a local, `print`'s keywords, and
                // `type(x)` are the lowering's.
                // `type(x)` of what is not a scalar parameter casts to
                // nothing; of one, its uses are the lowering's.
                "type" => parameter_type(body, self.env.decl, self.env.types, e)
                    .is_none()
                    .then(|| (func_at, crate::lower::TYPE_OF_NO_PARAMETER.to_owned())),
                "range" | "print" => None,
                n if is_builtin(n) || python_scalar(n).is_some() => arguments(),
                n => Some((func_at, TargetError::Undefined(n).message())),
            },
            Expr::Name(Name::Local(id)) => {
                let local = &body.locals[*id];
                let typed = matches!(local.kind, LocalKind::Param | LocalKind::Assigned | LocalKind::Constant)
                    && self.dtype_local(func).is_none()
                    && self.ty(func).is_some();
                typed.then(|| (func_at, TargetError::Variable(&local.name).message()))
            }
            Expr::Name(Name::Global(n)) => match self.env.globals.get(self.unaliased(n)?)? {
                Global::Boundary { module, name } if cpython(module, name) => {
                    arguments().or_else(|| Some((func_at, TargetError::CPython(&format!("{module}.{name}")).message())))
                }
                // `math`'s functions, intrinsics and casts take no keywords.
                Global::Boundary { module, .. } if module == "math" => arguments(),
                Global::Intrinsic { .. } | Global::Type(_) => arguments(),
                _ => None,
            },
            Expr::Attribute { base, attr } => {
                let attr_at = body.attr_ranges.get(func).copied().unwrap_or(func_at);
                // The method of numbers, whatever its base.
                if matches!(&**attr, "conjugate" | "conj") {
                    return None;
                }
                if self.names_postc_math(*base) {
                    if !postc_ir::interp::is_known_intrinsic(attr) {
                        return Some((attr_at, TargetError::NoIntrinsic(attr).message()));
                    }
                    return arguments();
                }
                match global(*base) {
                    Some(Global::Namespace(Namespace::Math)) => {
                        if math_func(attr).is_none() {
                            return Some((attr_at, TargetError::UnsupportedMath(attr).message()));
                        }
                        return arguments();
                    }
                    Some(Global::BoundaryModule(m)) if cpython(m, attr) && m != "math" => {
                        return arguments()
                            .or_else(|| Some((func_at, TargetError::CPython(&format!("{m}.{attr}")).message())))
                    }
                    _ => {}
                }
                if let Some(m) = self.post_module_of(*base) {
                    // `a.b.sum()` is read as an array's method first.
                    let method = matches!(body.exprs[*base], Expr::Attribute { .. }) && array_method(attr).is_some();
                    return (!method).then(|| (attr_at, TargetError::NoModuleFunction(m, attr).message()));
                }
                // `scipy.stats.mean(x)`: `m.sub.f` of a CPython module
                // (not `.dot`, NumPy's product of any operands).
                let mut root = *base;
                while let Expr::Attribute { base, .. } = body.exprs[root] {
                    root = base;
                }
                match global(root) {
                    Some(Global::BoundaryModule(m)) if root != *base && m != "numpy" && &**attr != "dot" => {
                        Some((func_at, TargetError::CPython(&body.dotted(func)?).message()))
                    }
                    // `math.foo.bar(x)`, `postc.m.f(x)`: what a namespace's
                    // member holds (`postc.math`'s functions are above).
                    Some(Global::Namespace(_)) if root != *base => {
                        Some((func_at, TargetError::NotCallable(&body.dotted(func)?).message()))
                    }
                    // `math.sqrt(x)` without `import math`: the name is what
                    // is missing, as CPython's NameError says.
                    None if matches!(&body.exprs[root], Expr::Name(Name::Free(n)) if python_scalar(n).is_none()) => {
                        let Expr::Name(Name::Free(n)) = &body.exprs[root] else { return None };
                        Some((body.expr_ranges[root], name_error(n, None)?))
                    }
                    // A method of a value (a local, an element, a call's
                    // result) that compiled code does not call; not of a
                    // local left without a type (its binding's error is
                    // reported).
                    None if !matches!(body.exprs[root], Expr::Name(Name::Global(_) | Name::Free(_)))
                        && (!matches!(body.exprs[root], Expr::Name(_)) || self.ty(root).is_some())
                        && (!methods::method_compiles(attr)
                            || self.method_of_other_receiver(func, *base, attr, args)) =>
                    {
                        let shown = body.dotted(func).unwrap_or_else(|| format!(".{attr}"));
                        Some((func_at, TargetError::NotCallable(&shown).message()))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The POST module imported whole that `e` names (as the lowering's
    /// `post_module_of`): `st` of `import m as st`, `a.b` of `import a.b`.
    fn post_module_of(&self, e: ExprId) -> Option<&str> {
        let mut root = e;
        while let Expr::Attribute { base, .. } = self.body.exprs[root] {
            root = base;
        }
        let Expr::Name(Name::Global(n)) = &self.body.exprs[root] else { return None };
        let Some(Global::PostModule(m)) = self.env.globals.get(&**n) else { return None };
        let text = self.body.dotted(e)?;
        let aliased = root == e && !m.starts_with(&format!("{text}."));
        (text == *m || aliased).then_some(m.as_str())
    }

    /// A call of a function of this module, as the lowering's `post_call`
    /// types it: each argument fits its parameter (a scalar widens to it,
    /// an array has its dtype, rank and layout; an output parameter takes
    /// an output); the result is the declared one (a tuple's elements
    /// each as one).
    /// The POST function a global name names: one of the module's, or
    /// one imported from another POST module (as the lowering's
    /// `global_target` finds it).
    fn callee(&self, name: &str) -> Option<Callee> {
        match self.env.globals.get(name)? {
            Global::Func(i) => Some(Callee::of_decl(&self.env.funcs[*i], self.env.types)),
            Global::PostImport { local } => (self.env.imported)(local),
            // `g = f` at the module's top level: what the chain of
            // aliases ends at (none when it comes back to a name seen).
            Global::Alias(_) => self.callee(self.unaliased(name)?),
            _ => None,
        }
    }

    /// The instance of the generic function `g` that the call `e` names,
    /// once it is made (see `generics`), its arguments bound as `given`.
    /// Refused where the arguments give no parameter a type (as the
    /// lowering's `instance_of`, [`generic_argument_error`]).
    fn instance(&self, e: ExprId, g: usize, given: &[Option<usize>], written: &[ExprId]) -> Option<Callee> {
        let generic = &self.env.generics.decls[g];
        let tys: Vec<Option<Option<Ty>>> = given.iter().map(|b| b.map(|w| self.ty(written[w]))).collect();
        let sig = match crate::generics::instance_params(generic, &tys, &[], self.env.types) {
            Ok(sig) => sig,
            Err(crate::generics::ParamError::Unknown(i) | crate::generics::ParamError::Unsupported(i)) => {
                let arg = given[i].map(|w| written[w]);
                let ty = tys[i].as_ref().and_then(Option::as_ref);
                if let Some(message) = generic_argument_error(generic, i, arg.map(|a| &self.body.exprs[a]), ty) {
                    let at = self.body.expr_ranges[arg.unwrap_or(e)];
                    self.refuse(e, at, message);
                    // The argument is what is reported, not again as a
                    // value.
                    if let Some(a) = arg {
                        self.quiet(a);
                    }
                }
                return None;
            }
        };
        self.request_instance(g, &tys, given, written);
        let i = self.env.generics.instances.borrow().find(g, &sig, false)?;
        Some(Callee::of_decl(&self.env.funcs[i], self.env.types))
    }

    /// A call `e` of a POST function (the global `name`), as the
    /// lowering's `post_call` binds and converts its arguments (by
    /// position, then by keyword, then the defaults; a parameter that may
    /// be `None` takes `None` or a number that widens to it): its result,
    /// of its value's type when it may be `None`. Refused, as the lowering
    /// refuses it: a `*` argument, a callee compiled callers cannot call
    /// ([`callee_error`]), arguments that do not bind ([`bind`]), an
    /// argument that gives a generic function's parameter no type
    /// ([`Solver::instance`]), and each argument whose type does not fit
    /// its parameter ([`argument_error`], [`optional_number_error`]; not
    /// of the instances of generic functions, whose parameters the
    /// arguments give).
    fn post_call(&self, e: ExprId, name: &str, args: &[ExprId], keywords: &[Keyword]) -> Option<Ty> {
        let global = self.env.globals.get(self.unaliased(name)?)?;
        let callee = match global {
            Global::Generic(g) => {
                self.note_generic_call(*g);
                Callee::of_decl(&self.env.generics.decls[*g], self.env.types)
            }
            _ => self.callee(name)?,
        };
        if let Some(s) = args.iter().find(|a| matches!(self.body.exprs[**a], Expr::Starred(_))) {
            return self.refuse(e, self.body.expr_ranges[*s], STARRED_ARGUMENT);
        }
        if let (Some(message), false) = (callee_error(&callee), matches!(global, Global::Generic(_))) {
            return self.refuse_here(e, message);
        }
        // Bound as the lowering binds them (`lower::bind`); the
        // parameters left out take their defaults, which fit them.
        let names: Vec<Option<&str>> = keywords.iter().map(|k| k.name.as_deref()).collect();
        let written: Vec<ExprId> = args.iter().copied().chain(keywords.iter().map(|k| k.value)).collect();
        let given = match bind(&callee, args.len(), &names) {
            Ok(given) => given,
            Err(error) => {
                let at = error.keyword().map_or(self.body.expr_ranges[e], |k| keywords[k].range);
                return self.refuse(e, at, error.message(&callee));
            }
        };
        let (callee, given) = match global {
            Global::Generic(g) => {
                let instance = self.instance(e, *g, &given, &written)?;
                let given = bind(&instance, args.len(), &names).ok()?;
                (instance, given)
            }
            _ => (callee, given),
        };
        // The arguments whose types do not fit, each reported where the
        // lowering would certainly report it.
        let (mut typed, mut misfits, mut certain) = (true, Vec::new(), !matches!(global, Global::Generic(_)));
        // The arrays given for `Out` parameters that the caller cannot
        // write: reported whether or not the call is refused.
        let mut read_only = Vec::new();
        for (i, g) in given.iter().enumerate() {
            let p = &callee.params[i];
            let Some(a) = g.map(|w| written[w]) else { continue };
            if callee.maybe_none[i] && matches!(self.body.exprs[a], Expr::None) {
                continue;
            }
            if certain && self.none_value(a) {
                typed = false;
                continue;
            }
            let Some(t) = self.ty(a) else {
                typed = false;
                continue;
            };
            if !callee.maybe_none[i] && certain {
                self.absent_argument(a, p);
            }
            // A number for a parameter that may be `None`: `None`, or a
            // number that widens to it.
            let error = match callee.maybe_none[i] && !p.is_array && !p.is_tuple() {
                true => optional_number_error(&nth_argument(&callee.name, i), p.dtype, t.scalar()),
                false => argument_error(&callee.name, i, p, Some(&t)),
            };
            let error = error.or_else(|| expressions::argument_conversion_error(p, &t));
            if let Some(message) = error {
                // An array expression's layout and static extents are the
                // lowering's to check (a local's are read from here).
                certain &= match &t {
                    Ty::Arr(ty) if p.is_array => {
                        let ranks = ty.ndim().zip(p.ndim()).is_some_and(|(a, b)| a != b);
                        ty.dtype != p.dtype || ranks || matches!(self.body.exprs[a], Expr::Name(_))
                    }
                    _ => true,
                };
                misfits.push((self.body.expr_ranges[a], message));
                typed = false;
                continue;
            }
            // An array the callee writes (`Out`): not one the caller
            // cannot write (see `read_only`).
            if let Some(message) =
                (!matches!(global, Global::Generic(_))).then(|| self.written_argument_error(&callee, i, a)).flatten()
            {
                read_only.push((self.body.expr_ranges[a], message));
                typed = false;
                continue;
            }
            let widens = |a: &Ty, d: DType| a.scalar().is_some_and(|s| widens_to(s, d)) && a.converts_to(d);
            typed &= match &t {
                // An array the callee writes (`Out`) may be any the caller
                // can write (one it cannot is refused above).
                Ty::Arr(ty) => p.is_array && array_fits(ty, p),
                // A tuple of numbers, each widening to its element.
                Ty::Tuple(elems) if p.is_tuple() => {
                    elems.len() == p.elements.len() && elems.iter().zip(&p.elements).all(|(a, e)| widens(a, e.dtype))
                }
                Ty::Tuple(_) => false,
                _ if p.is_tuple() || p.is_array => false,
                _ => widens(&t, p.dtype),
            };
        }
        if certain {
            // The call refused once, each argument reported.
            misfits.append(&mut read_only);
            misfits.sort_by_key(|(at, _)| at.start());
            for (k, (at, message)) in misfits.into_iter().enumerate() {
                if k == 0 {
                    self.refuse(e, at, message);
                } else {
                    self.report(at, message);
                }
            }
        } else {
            for (at, message) in read_only {
                self.report(at, message);
            }
        }
        if !typed {
            return None;
        }
        let value = |t: &TypeData| match t.is_array {
            true => Ty::Arr(t.clone()),
            false => Ty::Num { s: Scalar { dtype: t.dtype, weak: callee.ret_weak }, nonneg: false },
        };
        let Some(ret) = callee.ret.as_ref() else { return self.call_without_result(e, &callee) };
        Some(match ret.is_tuple() {
            true => {
                Ty::Tuple(postc_ir::regroup(ret.elements.iter().map(value).collect(), &callee.result_groups, Ty::Tuple))
            }
            false => value(ret),
        })
    }

    /// The counter of `for x in range(...)`: a Python int, non-negative
    /// when the range says so.
    fn range_counter(&self, call: ExprId) -> Option<Ty> {
        // Of a range held in a local: either arm's counter.
        if let Expr::If { body, orelse, .. } = self.body.exprs[call] {
            let (a, b) = (self.range_counter(body)?, self.range_counter(orelse)?);
            return Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: a.nonneg() && b.nonneg() });
        }
        let Expr::Call { args, .. } = &self.body.exprs[call] else { return None };
        if args.is_empty() || args.len() > 3 {
            return None;
        }
        let mut tys = Vec::new();
        for a in args.iter() {
            let t = self.ty(*a)?;
            if !matches!(kind(t.scalar()?.dtype), Kind::Int | Kind::Bool) || !t.converts_to(DType::Int64) {
                return None;
            }
            tys.push(t);
        }
        let int = |i| Ty::Lit { lit: Lit::Int(i), s: Scalar::weak(DType::Int64) };
        let (start, stop, step) = match &tys[..] {
            [stop] => (int(0), stop.clone(), int(1)),
            [start, stop] => (start.clone(), stop.clone(), int(1)),
            [start, stop, step, ..] => (start.clone(), stop.clone(), step.clone()),
            [] => return None,
        };
        let step_const = match &step {
            Ty::Lit { lit: Lit::Int(i), .. } => Some(*i),
            _ => None,
        };
        let nonneg = match step_const {
            Some(0) => return None,
            Some(s) if s > 0 => start.nonneg(),
            Some(_) => matches!(&stop, Ty::Lit { lit: Lit::Int(i), .. } if *i >= -1) || stop.nonneg(),
            None => start.nonneg() && stop.nonneg(),
        };
        Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg })
    }
}

/// A function of a library on scalars, and the name it has there.
enum Library<'a> {
    Numpy(NpOp, &'a str),
    Math(MathFn, &'a str),
}

/// A NumPy ufunc on scalars, as the lowering's `numpy_call` types it: a
/// NumPy scalar of the arguments' common dtype (a Python number's is
/// NumPy's default for its kind), or of the float dtype a float function
/// computes in. Not typed here: `sign`, `isnan`, `isinf`, `isfinite`,
/// `minimum`, `maximum`, `fmin`, `fmax`, `power`.
fn numpy_ufunc(op: NpOp, args: &[Ty]) -> Option<Ty> {
    if op == NpOp::Around {
        return numpy_round(args);
    }
    if args.len() != op.arity() {
        return None;
    }
    let mut common: Option<Scalar> = None;
    for a in args {
        let s = a.scalar()?;
        if s.dtype.is_text() {
            return None;
        }
        common = Some(match common {
            None => s,
            Some(p) => promote(p, s)?,
        });
    }
    let s = common?;
    let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
    let k = kind(d);
    if k == Kind::Complex && !op.takes_complex() {
        return None;
    }
    let converted = |d: DType| args.iter().all(|a| a.converts_to(d));
    let num = |d: DType, nonneg: bool| Some(Ty::Num { s: Scalar::strong(d), nonneg });
    match op {
        NpOp::Angle { .. } => {
            let rd = if k == Kind::Float { d } else { float_for(d) };
            let cd = if rd == DType::Float16 { DType::Float32 } else { rd };
            converted(cd).then_some(Ty::Num { s: Scalar::strong(rd), nonneg: false })
        }
        NpOp::Float1(sym) | NpOp::Float2(sym) => {
            let rd = if k == Kind::Float { d } else { float_for(d) };
            if (sym == "fmod" && k != Kind::Float) || !converted(rd) {
                return None;
            }
            num(rd, false)
        }
        _ if !converted(d) => None,
        NpOp::Round(_) => num(d, k != Kind::Float && args[0].nonneg()),
        NpOp::Abs if k == Kind::Bool => num(d, true),
        NpOp::Abs => {
            let rd = d.complex_part().unwrap_or(d);
            num(rd, kind(rd) == Kind::Float)
        }
        NpOp::Conj if k == Kind::Bool => {
            converted(DType::Int8).then_some(Ty::Num { s: Scalar::strong(DType::Int8), nonneg: true })
        }
        NpOp::Conj => num(d, k != Kind::Complex && args[0].nonneg()),
        NpOp::Negative if k == Kind::Bool => None,
        NpOp::Negative => num(d, false),
        NpOp::Square if k == Kind::Bool => {
            converted(DType::Int8).then_some(Ty::Num { s: Scalar::strong(DType::Int8), nonneg: true })
        }
        NpOp::Square => num(d, k != Kind::Complex),
        NpOp::Sign if k == Kind::Bool => None,
        NpOp::Sign => num(d, false),
        // Integers are never NaN or infinite: a constant.
        NpOp::IsNan | NpOp::IsInf | NpOp::IsFinite if k != Kind::Float => {
            Some(Ty::Lit { lit: Lit::Bool(op == NpOp::IsFinite), s: Scalar::strong(DType::Bool) })
        }
        NpOp::IsNan | NpOp::IsInf | NpOp::IsFinite => num(DType::Bool, true),
        NpOp::Minimum | NpOp::Fmin => num(d, args.iter().all(Ty::nonneg)),
        NpOp::Maximum | NpOp::Fmax => num(d, args.iter().any(Ty::nonneg)),
        // NumPy raises Bool to a power as Int8.
        NpOp::Power if k == Kind::Bool => {
            converted(DType::Int8).then_some(Ty::Num { s: Scalar::strong(DType::Int8), nonneg: false })
        }
        NpOp::Power => num(d, false),
        NpOp::Around => None,
    }
}

/// `np.round(x)`, `np.round(x, decimals)`, as the lowering's
/// `numpy_round` types it: a NumPy scalar of the number's dtype (NumPy's
/// default for a Python number), Float16 for a Bool; decimals are an
/// integer constant, not negative for an integer.
fn numpy_round(args: &[Ty]) -> Option<Ty> {
    let decimals = match args {
        [_] => 0,
        [_, Ty::Lit { lit: Lit::Int(k), .. }] if k.unsigned_abs() < 400 => *k,
        _ => return None,
    };
    let s = args[0].scalar()?;
    let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
    let (rd, nonneg) = match kind(d) {
        Kind::Int if decimals >= 0 => (d, args[0].nonneg()),
        Kind::Bool => (DType::Float16, false),
        Kind::Float => (d, false),
        _ => return None,
    };
    args[0].converts_to(rd).then_some(Ty::Num { s: Scalar::strong(rd), nonneg })
}

/// A function of Python's `math`, as the lowering's `math_call` types
/// it: a Python float of the float functions, a Python int of `floor`,
/// `ceil` and `trunc`, a Python bool of the tests.
fn python_math(f: MathFn, args: &[Ty]) -> Option<Ty> {
    let arity = match f {
        MathFn::Float2(..) | MathFn::IsClose | MathFn::Gcd => 2,
        _ => 1,
    };
    if args.len() != arity {
        return None;
    }
    // `gcd` of integers (the lowering's `gcd_call`): a Python int.
    if f == MathFn::Gcd {
        let int = |a: &Ty| a.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int || (s.weak && s.dtype == DType::Bool));
        return args.iter().all(int).then_some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true });
    }
    // `floor`, `ceil` and `trunc` of a Python int or bool are its value;
    // `trunc` of a NumPy scalar other than Float64 is refused.
    if let (MathFn::ToInt(sym), [a]) = (f, args) {
        let s = a.scalar()?;
        if sym == "trunc" && !s.weak && s.dtype != DType::Float64 {
            return None;
        }
        if s.weak && matches!(kind(s.dtype), Kind::Int | Kind::Bool) {
            return a.converts_to(DType::Int64).then(|| Ty::Num { s: Scalar::weak(DType::Int64), nonneg: a.nonneg() });
        }
    }
    for a in args {
        if kind(a.scalar()?.dtype) > Kind::Float || !a.converts_to(DType::Float64) {
            return None;
        }
    }
    Some(match f {
        MathFn::Float1(..) | MathFn::Float2(..) => Ty::Num { s: Scalar::weak(DType::Float64), nonneg: false },
        MathFn::ToInt(_) => Ty::Num { s: Scalar::weak(DType::Int64), nonneg: false },
        MathFn::IsClose | MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite => {
            Ty::Num { s: Scalar::weak(DType::Bool), nonneg: true }
        }
        MathFn::Gcd => return None,
    })
}

/// `min(t)` and `max(t)` of one tuple take its elements.
fn spread_one_tuple(mut args: Vec<Ty>) -> Vec<Ty> {
    match &mut args[..] {
        [Ty::Tuple(elems)] => std::mem::take(elems),
        _ => args,
    }
}

/// A conditional expression choosing between tuples of scalars, as the
/// lowering's `ternary`: each element the arms' promotion.
fn arms_of_tuples(ts: &[Ty], fs: &[Ty]) -> Option<Ty> {
    if ts.len() != fs.len() {
        return None;
    }
    let mut elems = Vec::with_capacity(ts.len());
    for (t, f) in ts.iter().zip(fs) {
        let p = promote(t.scalar()?, f.scalar()?)?;
        if !(t.converts_to(p.dtype) && f.converts_to(p.dtype)) {
            return None;
        }
        elems.push(Ty::Num { s: p, nonneg: t.nonneg() && f.nonneg() });
    }
    Some(Ty::Tuple(elems))
}

/// Why CPython's `op` of `v` is a type error (the lowering's `unary`
/// refuses it): `+` of a Bool or a string, `-` of one, `~` of a float.
/// An array or a tuple operand is the lowering's to refuse.
pub(crate) fn unary_error(op: ast::UnaryOp, v: &Ty) -> Option<String> {
    use ast::UnaryOp as U;
    if let Ty::Lit { lit, .. } = v {
        let folds = matches!(
            (op, lit),
            (U::USub | U::UAdd, Lit::Int(_) | Lit::Float(_) | Lit::Complex(..)) | (U::Not, Lit::Bool(_))
        );
        if folds {
            return None;
        }
    }
    let mut s = v.scalar()?;
    // `-` and `~` of a Python bool are of the Python int it is.
    if s.dtype == DType::Bool && s.weak && matches!(op, U::USub | U::Invert) {
        s = Scalar::weak(DType::Int64);
    }
    let name = s.dtype.name();
    match op {
        U::UAdd if kind(s.dtype) > Kind::Complex || s.dtype == DType::Bool => {
            Some(format!("unary `+` is not defined on {name}"))
        }
        U::USub if !matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) => {
            Some(format!("unary `-` is not defined on {name}"))
        }
        U::Invert if !matches!(kind(s.dtype), Kind::Bool | Kind::Int) => {
            Some(format!("`~` is defined on integers, not {name}"))
        }
        _ => None,
    }
}

/// The comparisons refused whatever their operands (the lowering's
/// `compare` makes none of them): `is` but for a lone `x is None`, `in`
/// in a chain or of a call's result, `== None` in a chain.
fn refused_comparison(body: &Body, ops: &[ast::CmpOp], operands: &[ExprId]) -> Option<&'static str> {
    use ast::CmpOp as C;
    let is_none = |e: ExprId| matches!(body.exprs[e], Expr::None);
    let alone = ops.len() == 1;
    for (i, op) in ops.iter().enumerate() {
        let tests_none = is_none(operands[i]) || is_none(operands[i + 1]);
        match op {
            C::Is | C::IsNot if tests_none && alone => return None,
            C::Is | C::IsNot if tests_none => return Some("`is None` is tested alone, not in a chain of comparisons"),
            C::Is | C::IsNot => return Some("`is` is not supported: compare values with `==`"),
            C::In | C::NotIn if !alone || matches!(body.exprs[operands[i + 1]], Expr::Call { .. }) => {
                return Some(crate::lower::tuples::MEMBERSHIP_IN_TUPLE)
            }
            C::Eq | C::NotEq if tests_none && alone => return None,
            C::Eq | C::NotEq if tests_none => return Some("`== None` is tested alone, not in a chain of comparisons"),
            _ => {}
        }
    }
    None
}

/// The elements of each of `values`, when every one is a tuple.
fn tuple_elements_of(values: &[Ty]) -> Option<Vec<&[Ty]>> {
    values
        .iter()
        .map(|v| match v {
            Ty::Tuple(elems) => Some(&elems[..]),
            _ => None,
        })
        .collect()
}

/// Why `l op r` of two scalars is a type error (as the lowering's
/// `compare_pair` finds it): no common dtype, or an ordering of complex
/// numbers.
pub(crate) fn scalar_comparison_error(op: ast::CmpOp, l: &Ty, r: &Ty) -> Option<String> {
    let (ls, rs) = (l.scalar()?, r.scalar()?);
    let Some(p) = promote(ls, rs) else {
        return Some(format!("cannot compare {} with {}", ls.dtype.name(), rs.dtype.name()));
    };
    let ordering = !matches!(op, ast::CmpOp::Eq | ast::CmpOp::NotEq);
    (p.dtype.is_complex() && ordering)
        .then(|| format!("complex numbers are not ordered: `{}` is not defined on {}", op.as_str(), p.dtype.name()))
}

/// What a value of type `t` is, with its article, in a diagnostic, as the
/// lowering's `describe_a`.
pub(crate) fn describe_a_ty(t: Option<&Ty>) -> String {
    match describe_ty(t) {
        shown @ ("a tuple" | "an array" | "no value") => shown.to_owned(),
        dtype if dtype.starts_with(['A', 'E', 'I', 'O', 'U']) => format!("an {dtype}"),
        dtype => format!("a {dtype}"),
    }
}

/// `l op r` ordering a tuple and what is not one (described as `l` and
/// `r` are, with their articles): CPython's TypeError.
pub(crate) fn orders_two_tuples(op: ast::CmpOp, l: &str, r: &str) -> String {
    format!("`{}` orders two tuples, not {l} and {r}: CPython raises TypeError", op.as_str())
}

/// The error of `l op r` where one is a tuple, as the lowering's
/// `compare_values` finds it (the first in its order: the elements
/// compared for equality position by position, an ordering's positions
/// from the last back, each element's equality before its order);
/// `Err` where it meets an array, whose comparison is the lowering's to
/// judge.
pub(crate) fn tuple_comparison_error(op: ast::CmpOp, l: &Ty, r: &Ty) -> Result<Option<String>, ()> {
    use ast::CmpOp as C;
    fn equal(l: &Ty, r: &Ty) -> Result<Option<String>, ()> {
        match (l, r) {
            (Ty::Tuple(ls), Ty::Tuple(rs)) if ls.len() == rs.len() => {
                for (a, b) in ls.iter().zip(rs) {
                    if let Some(message) = equal(a, b)? {
                        return Ok(Some(message));
                    }
                }
                Ok(None)
            }
            (Ty::Tuple(_), Ty::Num { .. } | Ty::Lit { .. } | Ty::Tuple(_))
            | (Ty::Num { .. } | Ty::Lit { .. }, Ty::Tuple(_)) => Ok(None),
            (Ty::Num { .. } | Ty::Lit { .. }, Ty::Num { .. } | Ty::Lit { .. }) => {
                Ok(scalar_comparison_error(C::Eq, l, r))
            }
            _ => Err(()),
        }
    }
    fn order(op: C, l: &Ty, r: &Ty) -> Result<Option<String>, ()> {
        match (l, r) {
            (Ty::Tuple(ls), Ty::Tuple(rs)) => {
                for (a, b) in ls.iter().zip(rs).rev() {
                    if let Some(message) = equal(a, b)? {
                        return Ok(Some(message));
                    }
                    if let Some(message) = order(op, a, b)? {
                        return Ok(Some(message));
                    }
                }
                Ok(None)
            }
            (Ty::Tuple(_), _) | (_, Ty::Tuple(_)) => {
                Ok(Some(orders_two_tuples(op, &describe_a_ty(Some(l)), &describe_a_ty(Some(r)))))
            }
            (Ty::Num { .. } | Ty::Lit { .. }, Ty::Num { .. } | Ty::Lit { .. }) => Ok(scalar_comparison_error(op, l, r)),
            _ => Err(()),
        }
    }
    match op {
        _ if matches!(l, Ty::Arr(_)) || matches!(r, Ty::Arr(_)) => Err(()),
        C::Eq | C::NotEq => equal(l, r),
        C::Lt | C::LtE | C::Gt | C::GtE => order(op, l, r),
        _ => Err(()),
    }
}

/// Why the arms of a conditional expression have no common type (as the
/// lowering's `ternary_arms` finds it): scalars or tuples of scalars of
/// no common dtype, tuples of two lengths, a tuple and a scalar, or an
/// array or a tuple holding one, or an arm with no type (`None`) (`pure`:
/// the arms are names and constants, selected between rather than
/// branched to).
pub(crate) fn arms_error(t: Option<&Ty>, f: Option<&Ty>, pure: bool) -> Option<String> {
    let elements = |v: Option<&Ty>| -> Option<Vec<Scalar>> {
        match v? {
            Ty::Tuple(es) => es.iter().map(Ty::scalar).collect(),
            v => Some(vec![v.scalar()?]),
        }
    };
    let incompatible = |ts: &[Scalar], fs: &[Scalar]| {
        let (a, b) = ts.iter().zip(fs).find(|(a, b)| promote(**a, **b).is_none())?;
        Some(format!("the arms have incompatible types {} and {}", a.dtype.name(), b.dtype.name()))
    };
    let tuples = (matches!(t, Some(Ty::Tuple(_))), matches!(f, Some(Ty::Tuple(_))));
    match (elements(t), elements(f)) {
        (Some(ts), Some(fs)) if ts.len() == fs.len() && tuples.0 == tuples.1 => incompatible(&ts, &fs),
        (Some(ts), Some(fs)) if tuples.0 && tuples.1 => {
            Some(format!("the arms are tuples of {} and of {} elements", ts.len(), fs.len()))
        }
        (Some(_), Some(_)) => Some("one arm is a tuple and the other a scalar: both arms must be of one kind".into()),
        _ if pure => Some("both arms of a conditional expression must be scalars".into()),
        _ => Some("both arms of a conditional expression must be scalars, or tuples of scalars".into()),
    }
}

/// The expressions the lowering does not lower as values, and all they
/// hold: a `for` loop's iterable (`range(n)`, `enumerate(zip(a, b))`), a
/// raised exception (`ValueError("...")`), the expressions of a refused
/// statement (`with open(f)`). Their calls are not refused for what they
/// name.
fn uncalled(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut pending: Vec<ExprId> = Vec::new();
    let mut out = ArenaMap::default();
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::For { iter, .. } => {
                // The calls a loop steps through (`range(n)`,
                // `enumerate(zip(a, b))`, `np.ndindex(s)`), not what they
                // are given, which is lowered as values.
                let mut steps = vec![*iter];
                while let Some(e) = steps.pop() {
                    if let Expr::Call { func, args, .. } = &body.exprs[e] {
                        if names_loop_steps(body, *func) {
                            out.insert(e, ());
                            out.insert(*func, ());
                            steps.extend(args.iter().copied());
                        }
                    }
                }
            }
            Stmt::Raise { exc, cause } => pending.extend(exc.iter().chain(cause)),
            Stmt::Refused { exprs, .. } => pending.extend(exprs.iter()),
            _ => {}
        }
    }
    insert_subtrees(body, pending, &mut out);
    out
}

/// Whether `func` names what a `for` loop steps through rather than a
/// value it lowers: `range`, `enumerate`, `zip`, `prange` (however
/// imported) and `np.ndindex`.
fn names_loop_steps(body: &Body, func: ExprId) -> bool {
    match &body.exprs[func] {
        Expr::Name(Name::Free(n)) => matches!(&**n, "range" | "enumerate" | "zip"),
        Expr::Name(Name::Global(n)) => matches!(&**n, "prange" | "ndindex"),
        Expr::Attribute { attr, .. } => matches!(&**attr, "prange" | "ndindex"),
        _ => false,
    }
}

/// The statements of `body` in no loop's body (a loop's `else` clause is
/// not in it), where `break` and `continue` have no loop to leave.
fn outside_loops(body: &Body) -> ArenaMap<StmtId, ()> {
    let mut out = ArenaMap::default();
    let mut pending: Vec<(&[StmtId], bool)> = vec![(&body.top, false)];
    while let Some((block, in_loop)) = pending.pop() {
        for &s in block {
            if !in_loop {
                out.insert(s, ());
            }
            match &body.stmts[s] {
                Stmt::For { body: inner, orelse, .. } | Stmt::While { body: inner, orelse, .. } => {
                    pending.push((inner, true));
                    pending.push((orelse, in_loop));
                }
                Stmt::If { arms } => pending.extend(arms.iter().map(|a| (&*a.body, in_loop))),
                Stmt::Refused { blocks, .. } => pending.extend(blocks.iter().map(|b| (&**b, in_loop))),
                _ => {}
            }
        }
    }
    out
}

/// The expressions of `body` whose truth only is read (the lowering's
/// `cond` and `condition_value`): the tests of `if`, `while`, `assert` and
/// of conditional expressions, the operand of `not`, and the operands of
/// an `and` or `or` that is one of them.
fn conditions(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut pending: Vec<ExprId> = Vec::new();
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::If { arms } => pending.extend(arms.iter().filter_map(|a| a.test)),
            Stmt::While { test, .. } | Stmt::Assert { test, .. } => pending.push(*test),
            _ => {}
        }
    }
    for (_, e) in body.exprs.iter() {
        match e {
            Expr::If { test, .. } => pending.push(*test),
            Expr::UnaryOp { op: ast::UnaryOp::Not, operand } => pending.push(*operand),
            _ => {}
        }
    }
    let mut out = ArenaMap::default();
    while let Some(e) = pending.pop() {
        if out.insert(e, ()).is_none() {
            if let Expr::BoolOp { values, .. } = &body.exprs[e] {
                pending.extend(values.iter().copied());
            }
        }
    }
    out
}

/// Why a value of type `t` is not a condition (the lowering's `truth`): a
/// string, an array, a tuple, or a value with no type (no value at all).
pub(crate) fn not_a_condition(t: Option<&Ty>) -> Option<String> {
    match t {
        Some(Ty::Arr(_)) => Some("an array is not a condition".into()),
        Some(Ty::Tuple(_)) | None => Some("this is not a condition".into()),
        Some(t) => {
            let s = t.scalar()?;
            (kind(s.dtype) > Kind::Complex)
                .then(|| format!("{} is not a condition: compare it explicitly", s.dtype.name()))
        }
    }
}

/// Why a value (a number of type `scalar`, or not a number) is not an
/// operand of `word` (`and`, `or`) whose value is used: it is not a Bool.
pub(crate) fn bool_operand_error(word: &str, scalar: Option<Scalar>) -> Option<String> {
    match scalar {
        Some(s) if s.dtype == DType::Bool => None,
        Some(s) => Some(format!("`{word}` takes Bool operands, not {}: compare explicitly (`x != 0`)", s.dtype.name())),
        None => Some(format!("`{word}` takes Bool operands")),
    }
}

/// The expressions of `body` that are not read as values, where a name
/// or an attribute is not refused as one: callees and what they hold,
/// the arguments and keyword values of calls themselves (a dtype, a type,
/// a function passed), the bases of subscripts (`Float32[16, 16]`) and
/// module-level names whose attribute is read (`m.RATE`), the
/// targets of assignments and `for`, annotations, and what `raise`, an
/// `assert`'s message and a refused statement hold (the lowering refuses
/// them with messages of its own).
fn not_read_as_values(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    let mut whole: Vec<ExprId> = Vec::new();
    for (_, e) in body.exprs.iter() {
        match e {
            Expr::Call { func, args, keywords } => {
                match &body.exprs[*func] {
                    // A method of a value the lowering computes (`(a > t).sum()`):
                    // the value is read, not the method.
                    Expr::Attribute { base, .. }
                        if !matches!(body.exprs[*base], Expr::Name(_) | Expr::Attribute { .. }) =>
                    {
                        out.insert(*func, ());
                    }
                    _ => whole.push(*func),
                }
                for a in args.iter().copied().chain(keywords.iter().map(|k| k.value)) {
                    out.insert(a, ());
                }
            }
            Expr::Subscript { base, .. } => {
                out.insert(*base, ());
            }
            // `m.f` of a module, `np.pi`: the lowering reads the module's
            // member.
            Expr::Attribute { base, .. } if matches!(body.exprs[*base], Expr::Name(Name::Global(_))) => {
                out.insert(*base, ());
            }
            _ => {}
        }
    }
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::Assign { targets, .. } => targets.iter().for_each(|t| {
                out.insert(*t, ());
            }),
            Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                out.insert(*target, ());
            }
            _ => {}
        }
    }
    whole.extend(unlowered_parts(body));
    insert_subtrees(body, whole, &mut out);
    out
}

/// The `None`s and list displays of `body` the lowering reads as numbers
/// (or indexes, a list), which they are not: the operands of arithmetic
/// and unary operators and of orderings
/// and `None` as the value of an augmented assignment or stored through
/// an index (not an index, where `None` is NumPy's new axis; not in an annotation,
/// `Int64 | None`, which [`unlowered_constructs`] holds).
fn none_operands(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    let refused = |e: &ExprId| matches!(body.exprs[*e], Expr::None | Expr::List(_));
    for (_, e) in body.exprs.iter() {
        let operands: Vec<ExprId> = match e {
            Expr::BinOp { lhs, rhs, .. } => vec![*lhs, *rhs],
            Expr::UnaryOp { operand, .. } => vec![*operand],
            Expr::Compare { ops, operands } if ops.iter().all(|op| is_ordering(*op)) => operands.to_vec(),
            // `[0.25, 0.5][i]`: a list display indexed (not `None`, which
            // indexes nothing here).
            Expr::Subscript { base, .. } if matches!(body.exprs[*base], Expr::List(_)) => vec![*base],
            _ => continue,
        };
        for o in operands.into_iter().filter(refused) {
            out.insert(o, ());
        }
    }
    // `x += None`, `a[i] = None`: the value of an augmented assignment
    // and what is stored into an element are read as numbers too (a list
    // display there may grow a list or fill a row).
    for (_, stmt) in body.stmts.iter() {
        for v in crate::typeck::statements::number_values(body, stmt) {
            if matches!(body.exprs[v], Expr::None) {
                out.insert(v, ());
            }
        }
    }
    out
}

/// Whether `op` orders its operands (`<`, `<=`, `>`, `>=`), which `None`
/// is not.
fn is_ordering(op: ast::CmpOp) -> bool {
    matches!(op, ast::CmpOp::Lt | ast::CmpOp::LtE | ast::CmpOp::Gt | ast::CmpOp::GtE)
}

/// `*` in a tuple read as a value.
pub(crate) const STARRED_IN_TUPLE: &str = "`*` in a tuple is not supported";

/// The tuples of `body` the lowering reads as values (its
/// `tuple_display`): not a target, an index, the value of an unpacking
/// (refused with the unpacking) or a part of what it does not lower.
fn tuple_displays(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut excluded = ArenaMap::default();
    let mut roots = unlowered_parts(body);
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::Assign { targets, value } => {
                roots.extend(targets.iter().copied());
                if targets.iter().any(|t| matches!(body.exprs[*t], Expr::Tuple(_) | Expr::List(_))) {
                    excluded.insert(*value, ());
                }
            }
            Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                roots.push(*target)
            }
            _ => {}
        }
    }
    insert_subtrees(body, roots, &mut excluded);
    for (_, e) in body.exprs.iter() {
        if let Expr::Subscript { index, .. } = e {
            excluded.insert(*index, ());
        }
    }
    let mut out = ArenaMap::default();
    for (id, e) in body.exprs.iter() {
        if matches!(e, Expr::Tuple(_)) && excluded.get(id).is_none() {
            out.insert(id, ());
        }
    }
    out
}

/// The arguments of the calls of `body`, positional and by keyword, and
/// what its subscripts index: where a name that is undefined is read (as
/// a value, a dtype or an array).
fn call_arguments(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    for (_, e) in body.exprs.iter() {
        match e {
            Expr::Call { args, keywords, .. } => {
                for a in args.iter().copied().chain(keywords.iter().map(|k| k.value)) {
                    out.insert(a, ());
                }
            }
            Expr::Subscript { base, .. } => {
                out.insert(*base, ());
            }
            _ => {}
        }
    }
    out
}

/// What the statements of `body` hold that the lowering does not lower:
/// annotations, assert messages, what `raise` and refused statements
/// hold (it refuses them with messages of its own).
fn unlowered_parts(body: &Body) -> Vec<ExprId> {
    let mut out = Vec::new();
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::AnnAssign { annotation, .. } => out.push(*annotation),
            Stmt::Assert { msg, .. } => out.extend(*msg),
            Stmt::Raise { exc, cause } => out.extend(exc.iter().chain(cause)),
            Stmt::Refused { exprs, .. } => out.extend(exprs.iter()),
            _ => {}
        }
    }
    out
}

/// The refused constructs of `body` the lowering does not lower, and so
/// does not refuse: what annotations, `raise` and refused statements
/// hold (refused with their statement), and an `assert`'s message (only
/// what it holds is lowered).
fn unlowered_constructs(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    let mut roots = Vec::new();
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::AnnAssign { annotation, .. } => roots.push(*annotation),
            Stmt::Assert { msg: Some(m), .. } => {
                out.insert(*m, ());
            }
            // What raises no exception compiled code raises
            // (`raise Fault(x)`) has its arguments lowered, for their
            // errors.
            Stmt::Raise { exc: Some(exc), cause: None } => match &body.exprs[*exc] {
                Expr::Call { func, .. } if !raises_known_exception(body, *func) => {
                    out.insert(*exc, ());
                    roots.push(*func);
                }
                _ => roots.push(*exc),
            },
            Stmt::Raise { exc, cause } => roots.extend(exc.iter().chain(cause)),
            Stmt::Refused { exprs, .. } => roots.extend(exprs.iter()),
            _ => {}
        }
    }
    insert_subtrees(body, roots, &mut out);
    out
}

/// Whether `func` names one of the exceptions compiled code raises (the
/// lowering's `raise_`, which lowers nothing of a raise of one).
fn raises_known_exception(body: &Body, func: ExprId) -> bool {
    matches!(&body.exprs[func], Expr::Name(Name::Free(n)) if crate::lower::RAISABLE.contains(&&**n))
}

/// Why an expression of the refused construct `construct` (`"a dict
/// literal"`) is refused.
pub(crate) fn refused_construct_error(construct: &str) -> String {
    match construct {
        "a list comprehension" => "a list comprehension is compiled only as the whole value assigned to a name \
                                   (`xs = [f(x) for x in a if x > 0]`), not inside another expression"
            .into(),
        _ => format!("{construct} is not supported in POST Python"),
    }
}

/// Inserts `roots` and every expression they hold into `out`.
fn insert_subtrees(body: &Body, mut roots: Vec<ExprId>, out: &mut ArenaMap<ExprId, ()>) {
    let mut children = Vec::new();
    while let Some(e) = roots.pop() {
        out.insert(e, ());
        body.push_children(e, &mut children);
        roots.append(&mut children);
    }
}

/// The subscripts of `body` the lowering does not read as values: the
/// targets of assignments, augmented assignments and `for` loops (and the
/// elements of targets that unpack), which it stores through (the stores
/// of assignments are checked once the statement is typed, see
/// [`assignments`]), and what annotations, assert messages, `raise` and refused
/// statements hold, which it does not lower. Every other subscript (an
/// argument, the base of another) is read as a value.
fn subscripts_not_read(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    let mut pending: Vec<ExprId> = Vec::new();
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::Assign { targets, .. } => pending.extend(targets.iter().copied()),
            Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                pending.push(*target)
            }
            _ => {}
        }
    }
    while let Some(t) = pending.pop() {
        out.insert(t, ());
        match &body.exprs[t] {
            Expr::Tuple(es) | Expr::List(es) => pending.extend(es.iter().copied()),
            Expr::Starred(inner) => pending.push(*inner),
            _ => {}
        }
    }
    insert_subtrees(body, unlowered_parts(body), &mut out);
    out
}

/// Why the name `name` read as a value (the lowering's `global_value`) is
/// an error, `global` what the module binds to it (`None`: nothing, an
/// undefined name or a builtin).
pub(crate) fn name_error(name: &str, global: Option<&Global>) -> Option<String> {
    Some(match global {
        None => format!("undefined name `{name}`"),
        Some(Global::Func(_) | Global::Intrinsic { .. } | Global::PostImport { .. } | Global::Alias(_)) => {
            format!("function `{name}` is not a value: call it")
        }
        Some(Global::Boundary { module, .. } | Global::BoundaryModule(module)) => {
            format!("`{name}` comes from the CPython module `{module}` and cannot be used in compiled code")
        }
        Some(Global::PostModule(m)) => {
            format!("`{name}` is the module `{m}`, not a value: call its functions (`{name}.f(...)`)")
        }
        Some(Global::Const { .. }) => return None,
        Some(_) => format!("`{name}` is not a value"),
    })
}

/// Why the attribute `attr` of a value of type `base` (`None`: a value
/// with no type, such as `None`) is an error (the lowering's
/// `attribute`), and whether it is located at the whole expression (else
/// at the attribute's name): an array has `T`, `ndim`, `size` and
/// `shape`, a number `real` and `imag`, nothing else here.
pub(crate) fn attribute_error(base: Option<&Ty>, attr: &str) -> Option<(bool, String)> {
    let number = base.and_then(Ty::scalar);
    match (base, attr) {
        (Some(Ty::Arr(_)), "T" | "ndim" | "size" | "shape") => None,
        (Some(Ty::Arr(_)), _) => Some((false, format!("arrays have no attribute `{attr}` in compiled code"))),
        (_, "real" | "imag") => match number {
            None => Some((true, "`real` and `imag` are read from numbers".into())),
            Some(s) => s.dtype.is_text().then(|| (false, format!("{} has no attribute `{attr}`", s.dtype.name()))),
        },
        _ => Some((false, format!("no attribute `{attr}` on this value in compiled code"))),
    }
}

/// The errors of `return` in a function `name` whose result is `td`
/// (annotated, not `T | None`): no value, `None`, a value of another
/// type (a number that does not widen to the result's dtype or a constant
/// it does not hold, an array of another dtype or number of axes, an
/// array for a number, a number for an array, a value with no type
/// (`None`: a call that returns nothing)).
pub(crate) fn return_without_value(name: &str, td: &TypeData) -> String {
    let td = annotation_text(td);
    format!("`return` without a value in function `{name}` returning {td}")
}
pub(crate) fn return_none_error(name: &str, td: &TypeData) -> String {
    let td = annotation_text(td);
    format!("`return None` in function `{name}` returning {td}: annotate it `-> {td} | None` to return `None`")
}
pub(crate) fn returned_value_error(name: &str, td: &TypeData, v: Option<&Ty>) -> Option<String> {
    if td.is_tuple() {
        return loops::non_tuple_for_tuple(name, td, v);
    }
    match v {
        Some(Ty::Arr(a)) if td.is_array && a.dtype == td.dtype && a.ndim() == td.ndim() => {
            fixed_extent_error(name, td, a)
        }
        Some(v) if !td.is_array => match v.scalar() {
            // A constant the result's dtype does not hold (`return 300`
            // of an Int8 result).
            Some(s) if widens_to(s, td.dtype) => expressions::conversion_error(v, td.dtype),
            Some(s) => Some(format!(
                "this returns {}, but function `{name}` returns {} (cast explicitly)",
                s.dtype.name(),
                td.dtype.name()
            )),
            None => Some(format!("function `{name}` returns {}", annotation_text(td))),
        },
        Some(Ty::Arr(a)) => {
            Some(format!("this returns {}, but function `{name}` returns {}", annotation_text(a), annotation_text(td)))
        }
        Some(v) if v.scalar().is_some() => Some(format!(
            "this returns {}, but function `{name}` returns {}",
            v.scalar().map_or("", |s| s.dtype.name()),
            annotation_text(td)
        )),
        _ => Some(format!("function `{name}` returns {}", annotation_text(td))),
    }
}

/// An array `a` returned where the result `td` fixes an extent
/// (`-> Float64[2, :]`) that `a`'s is not known to be.
fn fixed_extent_error(name: &str, td: &TypeData, a: &TypeData) -> Option<String> {
    let (Shape::Dims(want), Shape::Dims(got)) = (&td.shape, &a.shape) else { return None };
    let (k, n) = want.iter().zip(got).enumerate().find_map(|(k, (w, g))| match w {
        Some(n) if *g != Some(*n) => Some((k, *n)),
        _ => None,
    })?;
    Some(format!(
        "function `{name}` returns {}: extent {k} of this array is not known to be {n} (annotate the result \
         with `:` there)",
        annotation_text(td)
    ))
}

/// The errors of `range(...)` (the lowering's `range_bounds`).
pub(crate) const RANGE_KEYWORD: &str = "`range` takes no keyword arguments";
pub(crate) const RANGE_STEP_ZERO: &str = "`range` step must not be zero";
pub(crate) fn range_arity_error(n: usize) -> String {
    format!("`range` takes 1 to 3 arguments, not {n}")
}
/// Why an argument of `range` (a number of type `scalar`, or not a
/// number) is refused: it is not an integer.
pub(crate) fn range_argument_error(scalar: Option<Scalar>) -> Option<String> {
    match scalar {
        Some(s) if matches!(kind(s.dtype), Kind::Int | Kind::Bool) => None,
        Some(s) => Some(format!("`range` takes integers, not {}", s.dtype.name())),
        None => Some("`range` takes integers".into()),
    }
}

/// The errors of `a.shape[k]` (the lowering's `subscript`): `shape` of
/// what is not an array, an axis that is not a literal, an axis the
/// array does not have.
pub(crate) const SHAPE_OF_NOT_AN_ARRAY: &str = "`shape` is an attribute of arrays";
pub(crate) const SHAPE_AXIS_NOT_CONSTANT: &str = "`shape` takes a constant axis such as `a.shape[0]`";
pub(crate) fn axis_out_of_range(k: i128, axes: i128) -> String {
    format!("axis {k} is out of range for a {axes}-D array")
}

/// Why the assignment (at `at`) of `value` to `targets` is an unpacking
/// compiled code does not make, and where: a chained assignment with a
/// tuple target, a target nested in the tuple or starred, a starred value,
/// or as many values as targets not written. `None` for an assignment
/// that unpacks nothing.
fn unpacking_error(body: &Body, at: TextRange, targets: &[ExprId], value: ExprId) -> Option<(TextRange, String)> {
    let tuple = |e: ExprId| match &body.exprs[e] {
        Expr::Tuple(es) | Expr::List(es) => Some(es),
        _ => None,
    };
    if !targets.iter().any(|t| tuple(*t).is_some()) {
        return None;
    }
    let [target] = targets else {
        let message = "a chained assignment (`a = b = ...`) cannot unpack a tuple: assign each on its own line";
        return Some((at, message.into()));
    };
    let names = tuple(*target)?;
    for t in names.iter() {
        let message = match body.exprs[*t] {
            Expr::Tuple(_) | Expr::List(_) => "nested tuple unpacking is not supported: unpack one level at a time",
            Expr::Starred(_) => "starred assignment is not supported",
            _ => continue,
        };
        return Some((body.expr_ranges[*t], message.into()));
    }
    let values = tuple(value)?;
    if let Some(s) = values.iter().find(|e| matches!(body.exprs[**e], Expr::Starred(_))) {
        return Some((body.expr_ranges[*s], STARRED_IN_TUPLE.into()));
    }
    (values.len() != names.len()).then(|| (at, assignments::count_error(names.len(), values.len())))
}

/// Why `raise exc from cause` (at `at`) is refused, and where: compiled
/// code raises one of CPython's built-in exceptions ([`crate::lower::RAISABLE`])
/// with no message or one string literal, without `from` and not bare.
fn raise_error(body: &Body, at: TextRange, exc: Option<ExprId>, cause: Option<ExprId>) -> Option<(TextRange, String)> {
    if let Some(cause) = cause {
        let message = "`raise ... from ...` is not supported: raise the exception alone";
        return Some((body.expr_ranges[cause], message.into()));
    }
    let Some(exc) = exc else {
        let message = "a bare `raise` is not supported: there is no exception to re-raise in compiled code";
        return Some((at, message.into()));
    };
    let (callee, args, keywords): (ExprId, &[ExprId], &[Keyword]) = match &body.exprs[exc] {
        Expr::Call { func, args, keywords } => (*func, args, keywords),
        _ => (exc, &[], &[]),
    };
    if !matches!(&body.exprs[callee], Expr::Name(Name::Free(n)) if crate::lower::RAISABLE.contains(&&**n)) {
        let known = crate::lower::RAISABLE.join(", ");
        let message =
            format!("compiled code raises CPython's built-in exceptions only ({known}), such as `ValueError(\"...\")`");
        return Some((body.expr_ranges[callee], message));
    }
    if let Some(k) = keywords.first() {
        return Some((k.range, "keyword arguments are not supported in compiled code".into()));
    }
    match args {
        [] => None,
        [m] if matches!(body.exprs[*m], Expr::Literal(Lit::Str(_))) => None,
        [other, ..] => {
            Some((body.expr_ranges[*other], "the message of a raised exception is one string literal".into()))
        }
    }
}

/// What a value of type `t` is, in a diagnostic (`None`: no value), as
/// the lowering's `describe`.
pub(crate) fn describe_ty(t: Option<&Ty>) -> &'static str {
    match t {
        Some(Ty::Num { s, .. } | Ty::Lit { s, .. }) => s.dtype.name(),
        Some(Ty::Arr(_)) => "an array",
        Some(Ty::Tuple(_)) => "a tuple",
        None => "no value",
    }
}

/// The errors of subscripts (the lowering's `subscript`, `element_of`,
/// `view_or_element`, `slice_parts`, `int_operand`, `index_array`,
/// `gather` and `tuple_subscript`).
pub(crate) const ONE_ELLIPSIS: &str = "an index can only have a single ellipsis (`...`)";
pub(crate) const SLICE_STEP_ZERO: &str = "slice step cannot be zero";
pub(crate) const TUPLE_SLICE_STEP_ZERO: &str = "ValueError: slice step cannot be zero";
pub(crate) const NO_AXES_INDEXED_BY_ARRAY: &str = "an array of no axes is not indexed by an array";
pub(crate) const EMPTY_TUPLE_INDEXED: &str = "the empty tuple has no elements to index";
pub(crate) const TUPLE_SLICE_BOUND: &str = "the bounds of a slice of a tuple are integer constants: the length of the \
                                            tuple it gives is fixed when compiled";

/// Too many entries naming axes (`named`) in a view of an array of `nd`.
pub(crate) fn too_many_indices(nd: usize, named: usize) -> String {
    format!("too many indices for array: array is {nd}-dimensional, but {named} were indexed")
}

/// An element `a[i, j]` of an array of `nd` axes given `n` indices.
pub(crate) fn index_count_error(nd: usize, n: usize) -> Option<String> {
    (n != nd).then(|| format!("{nd}-D array indexed with {n} {}", if n == 1 { "index" } else { "indices" }))
}

/// An index of an element (`a[i, j]`) of type `t` that is not an integer.
pub(crate) fn element_index_error(t: Option<&Ty>) -> Option<String> {
    match t.and_then(Ty::scalar) {
        Some(s) if kind(s.dtype) == Kind::Int => None,
        Some(s) => Some(format!("an index is an integer, not {}", s.dtype.name())),
        None => Some("an index is an integer".into()),
    }
}

/// An integer operand of a view (an index, a slice bound or step: `what`)
/// of type `t` that is not an integer.
pub(crate) fn int_operand_error(what: &str, t: Option<&Ty>) -> Option<String> {
    match t {
        Some(Ty::Arr(_)) => Some("indexing with an array (advanced indexing) is not supported".into()),
        _ => match t.and_then(Ty::scalar) {
            Some(s) if kind(s.dtype) == Kind::Int => None,
            Some(s) => Some(format!("{what} is an integer, not {}", s.dtype.name())),
            None => Some(format!("{what} is an integer")),
        },
    }
}

/// A base indexed like an array that is a scalar of dtype `d`.
pub(crate) fn scalar_indexed(d: DType) -> String {
    format!("{} is a scalar and cannot be indexed", d.name())
}

/// An array index (`a[idx]`) of elements of `d` that are not integers
/// or Bools.
pub(crate) fn array_index_error(d: DType) -> Option<String> {
    (d != DType::Bool && kind(d) != Kind::Int)
        .then(|| format!("an array index is an array of integers or Bools, not of {}", d.name()))
}

/// A mask of `md` axes indexing an array of `nd`.
pub(crate) fn mask_axes_error(nd: usize, md: usize) -> Option<String> {
    (md > nd)
        .then(|| format!("IndexError: too many indices for array: array is {nd}-dimensional, but {md} were indexed"))
}

/// The index of `t[i]` of a tuple of `len` elements, of type `index`
/// (`None`: no value): a constant out of range, or not an integer.
pub(crate) fn tuple_index_error(len: usize, index: Option<&Ty>) -> Option<String> {
    if let Some(Ty::Lit { lit: Lit::Int(k), .. }) = index {
        let at = if *k < 0 { k + len as i128 } else { *k };
        let plural = if len == 1 { "" } else { "s" };
        return (!(0..len as i128).contains(&at))
            .then(|| format!("tuple index {k} is out of range: the tuple has {len} element{plural}"));
    }
    match index.and_then(Ty::scalar) {
        Some(s) if s.dtype.is_int() => None,
        Some(s) => Some(format!("a tuple index is an integer, not {}", s.dtype.name())),
        None => Some(format!("a tuple index is an integer, not {}", describe_ty(index))),
    }
}

/// The elements (their types, `None` for no value) of a tuple indexed
/// with an integer that is not a constant: none (the error is the
/// subscript's, `true`), or not of one dtype (the index's, `false`).
pub(crate) fn tuple_pick_error(elems: &[Option<Ty>]) -> Option<(bool, String)> {
    let dtypes: Vec<Option<DType>> = elems.iter().map(|e| e.as_ref().and_then(Ty::scalar).map(|s| s.dtype)).collect();
    match dtypes.first() {
        Some(Some(d)) if dtypes.iter().all(|e| *e == Some(*d)) => None,
        None => Some((true, EMPTY_TUPLE_INDEXED.into())),
        _ => {
            let shown: Vec<&str> = elems.iter().map(|e| describe_ty(e.as_ref())).collect();
            Some((
                false,
                format!("a tuple of different types ({}) is indexed with a constant such as `t[0]`", shown.join(", ")),
            ))
        }
    }
}

/// `t * k` of a tuple repeated past the elements compiled code holds.
pub(crate) fn tuple_too_long() -> String {
    format!("a tuple repeated to more than {} elements", crate::lower::tuples::TUPLE_REPEAT_MAX)
}

/// Arithmetic `l op r` with a tuple that compiled code does not do (the
/// lowering's `tuple_arith`; `None`: no value): `+` of a tuple and what
/// is not one, `*` of a tuple and what is not a literal integer, a
/// repetition too long, another operator.
pub(crate) fn tuple_arith_error(op: ast::Operator, l: Option<&Ty>, r: Option<&Ty>) -> Option<String> {
    match (op, l, r) {
        (ast::Operator::Add, Some(Ty::Tuple(_)), Some(Ty::Tuple(_))) => None,
        (ast::Operator::Mult, Some(Ty::Tuple(t)), Some(Ty::Lit { lit: Lit::Int(k), .. }))
        | (ast::Operator::Mult, Some(Ty::Lit { lit: Lit::Int(k), .. }), Some(Ty::Tuple(t))) => {
            crate::lower::tuples::repeat_times(*k, t.len()).is_none().then(tuple_too_long)
        }
        (ast::Operator::Add, Some(Ty::Tuple(_)), _) | (ast::Operator::Add, _, Some(Ty::Tuple(_))) => {
            Some("`+` joins a tuple only to another tuple".into())
        }
        (ast::Operator::Mult, ..) => Some("`*` repeats a tuple a literal number of times (`t * 2`)".into()),
        _ => Some("arithmetic on tuples is `+` joining them or `*` repeating one".into()),
    }
}

/// A unary operator, as the lowering's `unary` applies it.
/// The dtype of a reduction `r` of elements of `d`, as the lowering's
/// `reduce` gives it (`sum_dtypes`: small integers widen; `mean` of
/// integers is Float64).
fn reduction_dtype(r: Red, d: DType) -> DType {
    match r {
        Red::Sum | Red::Prod => sum_dtypes(d).1,
        Red::Mean if d == DType::Float16 => DType::Float16,
        Red::Mean if matches!(kind(d), Kind::Float | Kind::Complex) => d,
        Red::Mean => DType::Float64,
        Red::Min | Red::Max => d,
        Red::ArgMin | Red::ArgMax => DType::Int64,
        Red::Any | Red::All => DType::Bool,
    }
}

/// `x.real`, `x.imag` of a number, as the lowering's `attribute`: a
/// complex number's part (weak as it is), a real number itself and a
/// zero of its type.
fn part_of(v: Ty, attr: &str) -> Option<Ty> {
    let s = v.scalar()?;
    if !matches!(attr, "real" | "imag") || s.dtype.is_text() {
        return None;
    }
    match s.dtype.complex_part() {
        Some(part) => {
            v.converts_to(s.dtype).then_some(Ty::Num { s: Scalar { dtype: part, weak: s.weak }, nonneg: false })
        }
        None if attr == "real" => Some(v),
        None => Some(Ty::Lit { lit: Lit::Int(0), s: Scalar { dtype: s.dtype, weak: true } }),
    }
}

/// `x.conjugate()`, as the lowering's: a complex number's conjugate, a
/// real number itself.
fn conjugate(v: Ty) -> Option<Ty> {
    let s = v.scalar()?;
    match s.dtype.complex_part() {
        Some(_) => v.converts_to(s.dtype).then_some(Ty::Num { s, nonneg: false }),
        None => (kind(s.dtype) <= Kind::Float).then_some(v),
    }
}

/// `t + u` joining two tuples and `t * k` (or `k * t`) repeating one a
/// literal number of times, as the lowering's `tuple_arith`.
fn tuple_arith(op: ast::Operator, l: Ty, r: Ty) -> Option<Ty> {
    match (op, l, r) {
        (ast::Operator::Add, Ty::Tuple(mut l), Ty::Tuple(r)) => {
            l.extend(r);
            Some(Ty::Tuple(l))
        }
        (ast::Operator::Mult, Ty::Tuple(t), Ty::Lit { lit: Lit::Int(k), .. })
        | (ast::Operator::Mult, Ty::Lit { lit: Lit::Int(k), .. }, Ty::Tuple(t)) => {
            let times = crate::lower::tuples::repeat_times(k, t.len())?;
            Some(Ty::Tuple((0..times).flat_map(|_| t.iter().cloned()).collect()))
        }
        _ => None,
    }
}

/// `round(x)`, as the lowering's: a Python int (of a NumPy Bool,
/// CPython's TypeError).
fn round(v: &Ty) -> Option<Ty> {
    let s = v.scalar()?;
    let int = |nonneg: bool| Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg });
    match kind(s.dtype) {
        Kind::Bool if !s.weak => None,
        Kind::Bool | Kind::Int if s.dtype != DType::UInt64 => {
            if v.converts_to(DType::Int64) {
                int(v.nonneg())
            } else {
                None
            }
        }
        Kind::Int => v.converts_to(DType::UInt64).then_some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }),
        Kind::Float => {
            v.converts_to(DType::Float64).then_some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: false })
        }
        _ => None,
    }
}

/// `round(x, n)`, as the lowering's: a Python float of a Python float,
/// the int of a Python int or bool, and of a NumPy number its own dtype
/// (NumPy's `round`; of a NumPy Bool, CPython's TypeError).
fn round_digits(v: &Ty) -> Option<Ty> {
    let s = v.scalar()?;
    let nonneg = v.nonneg();
    match kind(s.dtype) {
        Kind::Int if !s.weak => Some(Ty::Num { s, nonneg }),
        Kind::Float if !s.weak => Some(Ty::Num { s, nonneg: false }),
        Kind::Bool | Kind::Int if s.weak => Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg }),
        Kind::Float if s.weak => Some(Ty::Num { s: Scalar::weak(DType::Float64), nonneg: false }),
        _ => None,
    }
}

/// An index `np.ndindex` gives: a Python int, never negative.
fn index_counter() -> Ty {
    Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }
}

fn unary(op: ast::UnaryOp, v: Ty) -> Option<Ty> {
    use ast::UnaryOp as U;
    // Literals fold (`-1` stays a literal).
    if let Ty::Lit { lit, s } = &v {
        let folded = match (op, lit) {
            (U::USub, Lit::Int(i)) => Some(Lit::Int(-i)),
            (U::USub, Lit::Float(x)) => Some(Lit::Float(-x)),
            (U::USub, Lit::Complex(a, b)) => Some(Lit::Complex(-a, -b)),
            (U::UAdd, Lit::Int(_) | Lit::Float(_) | Lit::Complex(..)) => Some(lit.clone()),
            (U::Not, Lit::Bool(b)) => Some(Lit::Bool(!b)),
            _ => None,
        };
        if let Some(lit) = folded {
            return Some(Ty::Lit { lit, s: *s });
        }
    }
    let mut s = v.scalar()?;
    let mut v = v;
    // `-` and `~` of a Python bool are Python ints.
    if s.dtype == DType::Bool && s.weak && matches!(op, U::USub | U::Invert) {
        if !v.converts_to(DType::Int64) {
            return None;
        }
        s = Scalar::weak(DType::Int64);
        v = Ty::Num { s, nonneg: true };
    }
    match op {
        U::UAdd => (kind(s.dtype) <= Kind::Complex && s.dtype != DType::Bool).then_some(v),
        U::USub => (matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) && v.converts_to(s.dtype))
            .then_some(Ty::Num { s, nonneg: false }),
        U::Not => v.is_condition().then(|| bool_result(false)),
        U::Invert => match kind(s.dtype) {
            _ if !v.converts_to(s.dtype) => None,
            Kind::Bool => Some(Ty::Num { s, nonneg: true }),
            Kind::Int => Some(Ty::Num { s, nonneg: false }),
            _ => None,
        },
    }
}

/// `len(a)` (`len(t)` of a tuple too), as the lowering's `call_builtin`
/// gives it.
fn len(args: &[Ty]) -> Option<Ty> {
    let [v] = args else { return None };
    let python_int = |i: usize| Ty::Lit { lit: Lit::Int(i as i128), s: Scalar::weak(DType::Int64) };
    match v {
        Ty::Arr(ty) if ty.ndim() != Some(0) => Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }),
        Ty::Lit { lit: Lit::Str(s), .. } => Some(python_int(s.chars().count())),
        Ty::Lit { lit: Lit::Bytes(b), .. } => Some(python_int(b.len())),
        Ty::Tuple(elems) => Some(python_int(elems.len())),
        Ty::Num { s, .. } if s.dtype.is_text() => Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }),
        _ => None,
    }
}

/// `abs(x)`.
fn abs(args: &[Ty]) -> Option<Ty> {
    let [v] = args else { return None };
    let s = v.scalar()?;
    match v {
        Ty::Lit { lit: Lit::Int(i), s } => Some(Ty::Lit { lit: Lit::Int(i.abs()), s: *s }),
        _ if s.dtype == DType::Bool => Some(v.clone()),
        Ty::Lit { lit: Lit::Float(x), s } => Some(Ty::Lit { lit: Lit::Float(x.abs()), s: *s }),
        _ if matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) && v.converts_to(s.dtype) => {
            let real = s.dtype.complex_part().unwrap_or(s.dtype);
            Some(Ty::Num { s: Scalar { dtype: real, weak: s.weak }, nonneg: kind(real) == Kind::Float })
        }
        _ => None,
    }
}

/// `min(a, b, ...)` or `max(a, b, ...)`.
fn min_max(args: &[Ty], is_min: bool) -> Option<Ty> {
    let (first, rest) = args.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut p: Option<Scalar> = None;
    for a in args {
        let s = a.scalar()?;
        if !(kind(s.dtype) <= Kind::Float || s.dtype.is_text()) {
            return None;
        }
        p = Some(match p {
            None => s,
            Some(q) => promote(q, s)?,
        });
    }
    let p = p?;
    if !args.iter().all(|a| a.converts_to(p.dtype)) {
        return None;
    }
    let mut nonneg = first.nonneg();
    for a in rest {
        nonneg = if is_min { nonneg && a.nonneg() } else { nonneg || a.nonneg() };
    }
    Some(Ty::Num { s: p, nonneg })
}

/// A `postc.math` function: a NumPy float of its arguments' float dtype
/// (Float64 for integers), whatever their kind.
fn intrinsic(args: &[Ty]) -> Option<Ty> {
    let mut common: Option<Scalar> = None;
    for a in args {
        let s = a.scalar()?;
        if kind(s.dtype) > Kind::Float {
            return None;
        }
        common = Some(match common {
            None => s,
            Some(c) => promote(c, s).unwrap_or(s),
        });
    }
    let common = common?;
    let d = if kind(common.dtype) == Kind::Float { common.dtype } else { DType::Float64 };
    args.iter().all(|a| a.converts_to(d)).then_some(Ty::Num { s: Scalar::strong(d), nonneg: false })
}

/// The locals bound to a list display (`xs = [x0]`, `ys = []`): lists of
/// numbers that grow by `append`, as Numba's reflected lists of numbers.
/// A local is one when every binding of it is a display (nothing else
/// may be bound to it); it is then read only by index, `len`, a `for`
/// loop and `np.array` (`lower/lists.rs` reports the rest).
pub(crate) fn list_locals(body: &Body) -> Vec<LocalId> {
    // Whether each local bound so far was bound to displays only.
    let mut displays: ArenaMap<LocalId, bool> = ArenaMap::default();
    let mut bound = |target: ExprId, display: bool| {
        let mut names = vec![target];
        while let Some(t) = names.pop() {
            match &body.exprs[t] {
                Expr::Name(Name::Local(id)) => {
                    let only = displays.get(*id).copied().unwrap_or(true);
                    displays.insert(*id, only && display);
                }
                Expr::Tuple(es) | Expr::List(es) => names.extend(es.iter().copied()),
                Expr::Starred(e) => names.push(*e),
                _ => {}
            }
        }
    };
    let mut pending: Vec<StmtId> = body.top.to_vec();
    while let Some(s) = pending.pop() {
        let stmt = &body.stmts[s];
        match stmt {
            Stmt::Assign { targets, value } => {
                let display = matches!(body.exprs[*value], Expr::List(_)) && targets.len() == 1;
                for t in targets.iter() {
                    let named = matches!(body.exprs[*t], Expr::Name(_));
                    bound(*t, display && named);
                }
            }
            Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                bound(*target, false)
            }
            _ => {}
        }
        pending.extend(parts_of(stmt).1.into_iter().flatten().copied());
    }
    let assigned = |id: LocalId| body.locals[id].kind == LocalKind::Assigned;
    displays.iter().filter(|(id, list)| **list && assigned(*id)).map(|(id, _)| id).collect()
}

/// `xs.append(v)` of a local `xs` with one argument: the local and `v`.
pub(crate) fn list_append(body: &Body, e: ExprId) -> Option<(LocalId, ExprId)> {
    let Expr::Call { func, args, keywords } = &body.exprs[e] else { return None };
    let Expr::Attribute { base, attr } = &body.exprs[*func] else { return None };
    let (Expr::Name(Name::Local(id)), [v], []) = (&body.exprs[*base], &args[..], &keywords[..]) else { return None };
    (&**attr == "append").then_some((*id, *v))
}

/// The type of the scalar parameter `name` that is not `None` (its
/// annotation's, strong), or `None` for an array, a string or one that
/// may be `None`.
fn scalar_parameter(env: &TypeEnv, name: &str) -> Option<Scalar> {
    let decl = env.decl;
    let at = decl.params.iter().position(|(n, _)| n == name)?;
    let td = env.types.get(decl.params[at].1);
    (!td.is_array && !td.is_tuple() && !td.dtype.is_text() && !decl.maybe_none[at]).then(|| decl.param_scalar(at, td))
}

/// `range(...)` of the builtin `range`, or `range(...) if c else
/// range(...)`: a value a local may hold, for a `for` loop over the local
/// to run over (`order = range(n) if up else range(n - 1, -1, -1)`, then
/// `for i in order`). Its `range` calls, or `None`.
pub(crate) fn range_value(body: &Body, e: ExprId) -> Option<smallvec::SmallVec<[ExprId; 2]>> {
    let is_range = |e: ExprId| match &body.exprs[e] {
        Expr::Call { func, keywords, .. } => {
            keywords.is_empty() && matches!(&body.exprs[*func], Expr::Name(Name::Free(f)) if &**f == "range")
        }
        _ => false,
    };
    match body.exprs[e] {
        Expr::If { body: a, orelse: b, .. } if is_range(a) && is_range(b) => Some(smallvec::smallvec![a, b]),
        _ if is_range(e) => Some(smallvec::smallvec![e]),
        _ => None,
    }
}

/// `type(x)` of a scalar parameter `x`: the NumPy scalar type of its
/// dtype, as Numba types a scalar argument (`type(z)` of a `float64`
/// argument is `np.float64`), which a call casts to (`T = type(z)`,
/// `T(0.5)`) and a `dtype=` names. Only of a parameter: its dtype is its
/// annotation's, known before any type is solved, so a local bound to it
/// names one dtype. `None` when `e` is not such a call.
pub(crate) fn parameter_type(body: &Body, decl: &FuncDecl, types: &TypeTable, e: ExprId) -> Option<DType> {
    let Expr::Call { func, args, keywords } = &body.exprs[e] else { return None };
    let (Expr::Name(Name::Free(f)), [x], []) = (&body.exprs[*func], &args[..], &keywords[..]) else { return None };
    let Expr::Name(Name::Local(id)) = body.exprs[*x] else { return None };
    let local = &body.locals[id];
    if &**f != "type" || local.kind != LocalKind::Param {
        return None;
    }
    let at = decl.params.iter().position(|(n, _)| **n == *local.name)?;
    let td = types.get(decl.params[at].1);
    (!td.is_array && !td.is_tuple() && !decl.maybe_none[at] && !td.dtype.is_text()).then_some(td.dtype)
}

/// A cast to `dtype` (`Float32(x)`; `float(x)`, `int(x)` and
/// `complex(re, im)` give weak values), as the lowering's `cast_call`.
fn cast(dtype: DType, weak: bool, args: &[Ty]) -> Option<Ty> {
    let result = Scalar { dtype, weak };
    if dtype == DType::Complex128 && weak && args.len() == 2 {
        for a in args {
            if kind(a.scalar()?.dtype) > Kind::Float || !a.converts_to(DType::Float64) {
                return None;
            }
        }
        return Some(Ty::Num { s: Scalar::weak(DType::Complex128), nonneg: false });
    }
    let [v] = args else { return None };
    match v {
        Ty::Lit { lit, .. } => lit.cast(dtype).ok().map(|lit| Ty::Lit { lit, s: result }),
        Ty::Num { s, .. } if s.dtype.is_text() || dtype.is_text() => (s.dtype == dtype).then(|| v.clone()),
        Ty::Num { s, .. } => {
            if s.dtype.is_complex() && !dtype.is_complex() && dtype != DType::Bool && weak {
                return None;
            }
            let nonneg = s.dtype == dtype
                || (kind(dtype) == Kind::Int && dtype.bits() >= s.dtype.bits() && kind(s.dtype) == Kind::Int);
            Some(Ty::Num { s: result, nonneg: v.nonneg() && nonneg })
        }
        Ty::Arr(_) | Ty::Tuple(_) => None,
    }
}

/// Where the type error of a builtin's call is: at the call, or at one
/// of its arguments (by index).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum CallSite {
    Call,
    Arg(usize),
}

impl CallSite {
    /// Where it is, the call being at `call` and its `i`-th argument at
    /// `arg(i)`.
    pub(crate) fn at(self, call: TextRange, arg: impl Fn(usize) -> TextRange) -> TextRange {
        match self {
            CallSite::Call => call,
            CallSite::Arg(i) => arg(i),
        }
    }
}

/// Why calling the builtin `name` with `n` arguments is refused (the
/// lowering's `call_builtin` and `round`): `len` and `abs` take one,
/// `min` and `max` one or more, `round` one or two.
pub(crate) fn builtin_arity_error(name: &str, n: usize) -> Option<String> {
    match name {
        "len" | "abs" if n != 1 => Some(format!("`{name}` takes one argument")),
        "min" | "max" if n == 0 => Some(format!("`{name}` takes two or more numbers, or a tuple of them")),
        "round" if n == 0 || n > 2 => Some("`round` takes a number".into()),
        _ => None,
    }
}

/// Why `len(v)` is a type error (the lowering's `call_builtin`): `v` is a
/// 0-D array, or not an array, a tuple or a string (`None`: a value of
/// no type, such as `None`).
pub(crate) fn len_error(v: Option<&Ty>) -> Option<String> {
    let what = match v {
        Some(Ty::Arr(t)) if t.ndim() == Some(0) => return Some("`len` of a 0-D array".into()),
        Some(Ty::Arr(_) | Ty::Tuple(_)) => return None,
        Some(t) => {
            let s = t.scalar()?;
            if s.dtype.is_text() {
                return None;
            }
            s.dtype.name()
        }
        None => "this value",
    };
    Some(format!("`len` takes an array or a tuple, not {what}"))
}

/// Why `abs(v)` is a type error: `v` is not a number, or a string
/// (`None`: a value of no type).
pub(crate) fn abs_error(v: Option<&Ty>) -> Option<String> {
    match v.and_then(Ty::scalar) {
        Some(s) if s.dtype == DType::Bool || matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) => None,
        Some(s) => Some(format!("`abs` is not defined on {}", s.dtype.name())),
        None => Some("`abs` takes a number".into()),
    }
}

/// Why `min(t)` or `max(t)` (`word`) of one argument `t` is a type error:
/// `t` is an empty tuple (at the argument) or not a tuple (at the call).
pub(crate) fn min_max_of_one_error(word: &str, t: Option<&Ty>) -> Option<(CallSite, String)> {
    match t {
        Some(Ty::Tuple(es)) if es.is_empty() => Some((CallSite::Arg(0), format!("`{word}` of an empty tuple"))),
        Some(Ty::Tuple(_)) => None,
        _ => Some((
            CallSite::Call,
            format!("`{word}` takes two or more numbers, or a tuple of them (other iterables are not supported)"),
        )),
    }
}

/// Why `min` or `max` (`word`) of the scalars `values` is a type error,
/// and which value is refused: one is not a number, is complex, or has no
/// common dtype with those before it (`None`: a value of no type).
pub(crate) fn min_max_error(word: &str, values: &[Option<&Ty>]) -> Option<(usize, String)> {
    let mut p: Option<Scalar> = None;
    for (i, v) in values.iter().enumerate() {
        match v.and_then(Ty::scalar) {
            Some(s) if kind(s.dtype) <= Kind::Float || s.dtype.is_text() => match p {
                None => p = Some(s),
                Some(q) => match promote(q, s) {
                    Some(r) => p = Some(r),
                    None => return Some((i, format!("`{word}` of {} and {}", q.dtype.name(), s.dtype.name()))),
                },
            },
            Some(s) => return Some((i, format!("`{word}` is not defined on {}", s.dtype.name()))),
            None => return Some((i, format!("`{word}` takes numbers"))),
        }
    }
    None
}

/// Why `round(v)` is a type error: `v` is not a number, is a NumPy Bool
/// (CPython's TypeError), complex or a string (`None`: a value of no
/// type).
pub(crate) fn round_error(v: Option<&Ty>) -> Option<String> {
    let Some(s) = v.and_then(Ty::scalar) else { return Some("`round` takes a number".into()) };
    match kind(s.dtype) {
        Kind::Bool if !s.weak => Some("`round` of a NumPy Bool: CPython raises TypeError".into()),
        Kind::Bool | Kind::Int | Kind::Float => None,
        _ => Some(format!("`round` of {}: CPython raises TypeError", s.dtype.name())),
    }
}

/// Why `round(v, ndigits)` is a type error, and at which argument:
/// `ndigits` is not an integer constant; `v` is not a number, is a NumPy
/// Bool, complex or a string; an int rounded to negative `ndigits`, or a
/// Python float to `ndigits` beyond what the lowering computes (`None`: a
/// value of no type).
pub(crate) fn round_digits_error(v: Option<&Ty>, ndigits: Option<&Ty>) -> Option<(usize, String)> {
    let Some(Ty::Lit { lit: Lit::Int(n), .. }) = ndigits else {
        return Some((1, "the `ndigits` of `round(x, ndigits)` are an integer constant in compiled code".into()));
    };
    let Some(s) = v.and_then(Ty::scalar) else { return Some((0, "`round` takes a number".into())) };
    let max = crate::lower::pymath::ROUND_DIGITS_MAX;
    match kind(s.dtype) {
        Kind::Bool if !s.weak => Some((0, "`round` of a NumPy Bool: CPython raises TypeError".into())),
        // A NumPy number is rounded as `np.round` rounds it.
        Kind::Int | Kind::Float if !s.weak => crate::lower::numpy::round_decimals_of_error("round", kind(s.dtype), *n),
        Kind::Bool | Kind::Int if *n >= 0 => None,
        Kind::Bool | Kind::Int => {
            Some((1, "`round` of an int to negative `ndigits` is not supported in compiled code".into()))
        }
        Kind::Float if n.unsigned_abs() <= max as u128 => None,
        Kind::Float => {
            Some((1, format!("`round(x, ndigits)` of a float takes `ndigits` from -{max} to {max} in compiled code")))
        }
        _ => Some((0, format!("`round` of {}: CPython raises TypeError", s.dtype.name()))),
    }
}

/// Why the cast `name(args)` to `dtype` (`weak`: `int`, `float`,
/// `bool`, `complex`) is a type error, and where (the lowering's
/// `cast_call`): a count of arguments other than one (two for
/// `complex(re, im)`); a constant the dtype does not hold; text from or
/// to a number; a complex number to a Python int or float; an array or a
/// value that is not a number (`None`: a value of no type). The
/// arguments are those before the first the lowering refuses itself.
pub(crate) fn cast_error(
    name: &str,
    dtype: DType,
    weak: bool,
    n: usize,
    args: &[Option<&Ty>],
) -> Option<(CallSite, String)> {
    if dtype == DType::Complex128 && weak && n == 2 {
        for (i, a) in args.iter().enumerate() {
            match a.and_then(Ty::scalar) {
                Some(s) if kind(s.dtype) <= Kind::Float => {}
                Some(s) => {
                    return Some((CallSite::Arg(i), format!("`complex` takes real parts, not {}", s.dtype.name())))
                }
                None => return Some((CallSite::Arg(i), "`complex` takes numbers".into())),
            }
        }
        return None;
    }
    if n != 1 {
        return Some((CallSite::Call, format!("`{name}` takes one argument")));
    }
    let &[v] = args else { return None };
    let d = dtype.name();
    let at_arg = |m: String| Some((CallSite::Arg(0), m));
    match v {
        Some(Ty::Lit { lit, .. }) => match lit.cast(dtype) {
            Ok(_) => None,
            Err(LitCast::NotFinite(x)) => at_arg(format!("{x} cannot be converted to {d}")),
            Err(LitCast::ComplexToReal) => at_arg(format!("a complex number cannot be converted to {d}")),
            Err(LitCast::Text) => {
                Some((CallSite::Call, format!("`{name}` of {} is not supported", lit.default_dtype().name())))
            }
            Err(LitCast::OutOfRange) => at_arg(format!("the value is out of range for {d}")),
        },
        Some(Ty::Num { s, .. }) if s.dtype.is_text() || dtype.is_text() => {
            (s.dtype != dtype).then(|| (CallSite::Call, format!("`{name}` of {} is not supported", s.dtype.name())))
        }
        Some(Ty::Num { s, .. }) => (s.dtype.is_complex() && !dtype.is_complex() && dtype != DType::Bool && weak)
            .then(|| (CallSite::Call, format!("`{name}` of a complex number: take `.real` first"))),
        Some(Ty::Arr(_)) => at_arg(format!("`{name}` converts scalars, not arrays")),
        Some(Ty::Tuple(_)) | None => at_arg(format!("`{name}` takes a number")),
    }
}

/// Why `x.conjugate()` of a value `x` that is not an array is a type
/// error (at `x`): it is not a number, or a string (`None`: a value of
/// no type).
pub(crate) fn conjugate_error(v: Option<&Ty>) -> Option<String> {
    match v.and_then(Ty::scalar) {
        Some(s) if s.dtype.complex_part().is_some() || kind(s.dtype) <= Kind::Float => None,
        Some(s) => Some(format!("{} has no `conjugate`", s.dtype.name())),
        None => Some("`conjugate` is a method of numbers".into()),
    }
}

/// Why the `postc.math` function `symbol` of `n` arguments is a type
/// error, and where: an argument that is not a real number (`None`: a
/// value of no type; `args` are those before the first the lowering
/// refuses itself), or no argument at all.
pub(crate) fn intrinsic_error(symbol: &str, n: usize, args: &[Option<&Ty>]) -> Option<(CallSite, String)> {
    let refused = args.iter().enumerate().find_map(|(i, a)| match a.and_then(Ty::scalar) {
        Some(s) if kind(s.dtype) <= Kind::Float => None,
        Some(s) => Some((CallSite::Arg(i), format!("`{symbol}` takes real numbers, not {}", s.dtype.name()))),
        None => Some((CallSite::Arg(i), format!("`{symbol}` takes real numbers"))),
    });
    refused.or_else(|| (n == 0).then(|| (CallSite::Call, format!("`{symbol}` takes arguments"))))
}

/// Why the function `math.name` (`f`) of `n` arguments is a type error,
/// and where (the lowering's `math_call`): a count other than its own,
/// `trunc` of a NumPy scalar other than Float64 (CPython's TypeError),
/// `gcd` of what is not an integer, the others of what is not a real
/// number (`None`: a value of no type; `args` are those before the first
/// the lowering refuses itself).
pub(crate) fn math_error(f: MathFn, name: &str, n: usize, args: &[Option<&Ty>]) -> Option<(CallSite, String)> {
    let arity = if matches!(f, MathFn::Float2(..) | MathFn::IsClose | MathFn::Gcd) { 2 } else { 1 };
    if n != arity {
        let s = if arity == 1 { "" } else { "s" };
        return Some((CallSite::Call, format!("`math.{name}` takes {arity} argument{s} in compiled code, not {n}")));
    }
    let scalar = |a: &Option<&Ty>| a.and_then(Ty::scalar);
    // CPython's `trunc` calls `__trunc__`, which Python numbers and
    // Float64 (a `float`) have and NumPy's other scalars lack.
    if let (MathFn::ToInt("trunc"), [a]) = (f, args) {
        if let Some(s) = scalar(a).filter(|s| !s.weak && s.dtype != DType::Float64) {
            let d = s.dtype.name();
            let message =
                format!("`math.trunc` of {d}: CPython raises TypeError ({d} has no `__trunc__`); pass `float(x)`");
            return Some((CallSite::Arg(0), message));
        }
    }
    if f == MathFn::Gcd {
        return args.iter().enumerate().find_map(|(i, a)| match scalar(a) {
            Some(s) if kind(s.dtype) == Kind::Int || (s.weak && s.dtype == DType::Bool) => None,
            Some(s) => Some((
                CallSite::Arg(i),
                format!("`math.gcd` takes integers: CPython raises TypeError for {}", s.dtype.name()),
            )),
            None => Some((CallSite::Arg(i), "`math.gcd` takes integers".into())),
        });
    }
    args.iter().enumerate().find_map(|(i, a)| match scalar(a) {
        Some(s) if kind(s.dtype) <= Kind::Float => None,
        Some(s) => Some((CallSite::Arg(i), format!("`math.{name}` takes real numbers, not {}", s.dtype.name()))),
        None => Some((CallSite::Arg(i), format!("`math.{name}` takes a number"))),
    })
}

/// Why the NumPy ufunc `numpy.name` (`op`, not `round`) of `n` scalars is
/// a type error, and where (the lowering's `numpy_call`): a count other
/// than its own; an argument that is a string or a tuple, or an array
/// (`None`: a value the lowering refuses itself, where the arguments
/// stop); numbers of no common dtype; complex numbers where the ufunc
/// takes none; `fmod` of integers; `negative` and `sign` of Bools.
pub(crate) fn numpy_error(op: NpOp, name: &str, n: usize, args: &[Option<&Ty>]) -> Option<(CallSite, String)> {
    let shown = format!("numpy.{name}");
    let arity = op.arity();
    if n != arity {
        let s = if arity == 1 { "" } else { "s" };
        return Some((CallSite::Call, format!("`{shown}` takes {arity} argument{s}, not {n}")));
    }
    let mut common: Option<Scalar> = None;
    for (i, a) in args.iter().enumerate() {
        let s = match a {
            None => return None,
            Some(Ty::Arr(_)) => {
                let message = format!(
                    "`{shown}` of an array is not supported in compiled code: NumPy functions take scalars here \
                     (loop over the elements)"
                );
                return Some((CallSite::Arg(i), message));
            }
            Some(Ty::Tuple(_)) => return Some((CallSite::Arg(i), format!("`{shown}` takes numbers, not a tuple"))),
            Some(t) => t.scalar()?,
        };
        if s.dtype.is_text() {
            return Some((CallSite::Arg(i), format!("`{shown}` takes numbers, not {}", s.dtype.name())));
        }
        common = match common {
            None => Some(s),
            Some(p) => match promote(p, s) {
                Some(q) => Some(q),
                None => {
                    return Some((CallSite::Call, format!("`{shown}` of {} and {}", p.dtype.name(), s.dtype.name())))
                }
            },
        };
    }
    let s = common.filter(|_| args.len() == n)?;
    let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
    let k = kind(d);
    let at_call = |m: String| Some((CallSite::Call, m));
    match op {
        _ if k == Kind::Complex && !op.takes_complex() => {
            at_call(format!("`{shown}` of {} is not supported in compiled code", d.name()))
        }
        NpOp::Float1("fmod") | NpOp::Float2("fmod") if k != Kind::Float => {
            at_call(format!("`{shown}` of {} is not supported in compiled code: pass floats", d.name()))
        }
        NpOp::Negative | NpOp::Sign if k == Kind::Bool => {
            at_call(format!("`{shown}` of Bool is not supported (NumPy has no such loop either)"))
        }
        _ => None,
    }
}

mod arrays;
pub(crate) mod assignments;
mod attributes;
mod calls;
pub(crate) mod dtype_locals;
mod expressions;
pub(crate) mod fall_off;
pub(crate) mod gpu;
mod instances;
pub(crate) mod lists;
pub(crate) mod loops;
pub(crate) mod maybe_none;
mod methods;
mod misuses;
mod none_values;
mod numpy_functions;
mod presence;
mod printing;
mod range_locals;
mod read_only;
pub(crate) mod results;
pub(crate) mod statements;
#[cfg(test)]
mod tests;
pub(crate) mod unassigned;
pub(crate) mod unbound;
mod unresolved;
