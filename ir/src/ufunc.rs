//! `UFuncSignature`: a generalized-ufunc layout signature such as
//! `(m,k),(k,n)->(m,n)`.

use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct UFuncSignature {
    /// Core-dimension names of each input operand.
    pub inputs: Vec<Vec<String>>,
    /// Core-dimension names of each output operand.
    pub outputs: Vec<Vec<String>>,
}

/// Why a signature string does not parse: the message and the byte offset.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SignatureError {
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {})", self.message, self.offset)
    }
}

impl UFuncSignature {
    /// Parses NumPy's signature grammar: operand lists of core-dimension
    /// names, `->`, and at least one output. Whitespace is ignored.
    pub fn parse(text: &str) -> Result<UFuncSignature, SignatureError> {
        let bytes = text.as_bytes();
        let mut p = 0usize;
        let skip_ws = |p: &mut usize| {
            while *p < bytes.len() && bytes[*p].is_ascii_whitespace() {
                *p += 1;
            }
        };
        let err = |message: &str, offset: usize| SignatureError { message: message.to_owned(), offset };
        let operand_list = |p: &mut usize| -> Result<Vec<Vec<String>>, SignatureError> {
            let mut list = Vec::new();
            loop {
                skip_ws(p);
                if bytes.get(*p) != Some(&b'(') {
                    return Err(err("expected `(` starting an operand's core dimensions", *p));
                }
                *p += 1;
                let mut dims = Vec::new();
                skip_ws(p);
                if bytes.get(*p) == Some(&b')') {
                    *p += 1;
                } else {
                    loop {
                        skip_ws(p);
                        let start = *p;
                        while *p < bytes.len() && (bytes[*p].is_ascii_alphanumeric() || bytes[*p] == b'_') {
                            *p += 1;
                        }
                        if start == *p {
                            return Err(err("expected a core-dimension name", *p));
                        }
                        dims.push(text[start..*p].to_owned());
                        skip_ws(p);
                        match bytes.get(*p) {
                            Some(b',') => *p += 1,
                            Some(b')') => {
                                *p += 1;
                                break;
                            }
                            _ => return Err(err("expected `,` or `)` in core dimensions", *p)),
                        }
                    }
                }
                list.push(dims);
                skip_ws(p);
                if bytes.get(*p) == Some(&b',') {
                    *p += 1;
                } else {
                    return Ok(list);
                }
            }
        };
        let inputs = operand_list(&mut p)?;
        skip_ws(&mut p);
        if !text[p..].starts_with("->") {
            return Err(err("expected `->` between inputs and outputs", p));
        }
        p += 2;
        let outputs = operand_list(&mut p)?;
        skip_ws(&mut p);
        if p != bytes.len() {
            return Err(err("unexpected text after the signature", p));
        }
        Ok(UFuncSignature { inputs, outputs })
    }

    /// Every unique named core dimension in declaration order (integers,
    /// fixed sizes, are not named dimensions).
    pub fn core_dims(&self) -> Vec<&str> {
        let mut seen: Vec<&str> = Vec::new();
        for d in self.inputs.iter().chain(&self.outputs).flatten() {
            if !d.starts_with(|c: char| c.is_ascii_digit()) && !seen.contains(&d.as_str()) {
                seen.push(d);
            }
        }
        seen
    }

    /// NumPy's core dimensions, the sizes an inner loop receives after the
    /// loop length (`dimensions[1..]`): every distinct dimension, fixed
    /// sizes included, in order of first appearance; and each operand's
    /// core axes as indexes into them.
    pub fn distinct_dims(&self) -> (Vec<&str>, Vec<Vec<usize>>) {
        let mut dims: Vec<&str> = Vec::new();
        let mut axes = Vec::with_capacity(self.num_operands());
        for names in self.inputs.iter().chain(&self.outputs) {
            let mut of = Vec::with_capacity(names.len());
            for n in names {
                let k = dims.iter().position(|d| d == n).unwrap_or_else(|| {
                    dims.push(n);
                    dims.len() - 1
                });
                of.push(k);
            }
            axes.push(of);
        }
        (dims, axes)
    }

    pub fn num_operands(&self) -> usize {
        self.inputs.len() + self.outputs.len()
    }

    /// Core dimensions of operand `i` (inputs first, then outputs).
    pub fn operand(&self, i: usize) -> Option<&[String]> {
        self.inputs.get(i).or_else(|| self.outputs.get(i.checked_sub(self.inputs.len())?)).map(Vec::as_slice)
    }
}

impl fmt::Display for UFuncSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, l: &[Vec<String>]) -> fmt::Result {
            for (i, dims) in l.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "({})", dims.join(","))?;
            }
            Ok(())
        }
        list(f, &self.inputs)?;
        f.write_str("->")?;
        list(f, &self.outputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        for s in ["(m,k),(k,n)->(m,n)", "(),()->()", "(n),(n)->()", "(3),(n)->(n,3)"] {
            let sig = UFuncSignature::parse(s).unwrap();
            assert_eq!(sig.to_string(), s);
        }
        let sig = UFuncSignature::parse(" (m, k) , (k,n) -> (m,n) ").unwrap();
        assert_eq!(sig.to_string(), "(m,k),(k,n)->(m,n)");
        assert_eq!(sig.core_dims(), vec!["m", "k", "n"]);
        assert_eq!(sig.inputs.len(), 2);
        assert_eq!(sig.operand(2).unwrap(), &["m".to_string(), "n".to_string()]);
        let fixed = UFuncSignature::parse("(3),(n)->(n,3)").unwrap();
        assert_eq!(fixed.distinct_dims(), (vec!["3", "n"], vec![vec![0], vec![1], vec![1, 0]]));
    }

    #[test]
    fn rejects_malformed() {
        for s in ["", "(m", "(m)->", "(m)(n)->()", "(m,)->()", "(m)->(n) x", "m->n"] {
            assert!(UFuncSignature::parse(s).is_err(), "{s:?} should not parse");
        }
    }
}
