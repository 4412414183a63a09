//! Integer arithmetic expressions such as `(9-4)+1`, with exact evaluation.

use std::fmt;

use pest::iterators::{Pair, Pairs};
use pest::Parser;
use pest_derive::Parser;

use crate::error::{pest_offset, GrammarError};

/// The longest expression text accepted, in characters.
pub const MAX_EXPR_CHARS: usize = 1000;
/// The deepest parenthesis nesting accepted (keeps recursion bounded).
pub const MAX_EXPR_NESTING: usize = 64;
/// The most digits a number literal may have.
pub const MAX_DIGITS: usize = 9;

#[derive(Parser)]
#[grammar = "expr.pest"]
struct ExprParser;

/// An arithmetic expression over non-negative integer literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Num(i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

/// Which operators an expression may use; `+`, `-` and parentheses always can.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ops {
    /// Whether `*` and `/` are allowed.
    pub mul_div: bool,
}

impl Ops {
    /// Only `+` and `-`.
    pub const ADD_SUB: Ops = Ops { mul_div: false };
    /// `+`, `-`, `*` and `/`.
    pub const ALL: Ops = Ops { mul_div: true };
}

/// Why an expression has no whole-number value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("division by zero")]
    DivisionByZero,
    #[error("{num}/{den} is not a whole number")]
    NotInteger { num: i64, den: i64 },
    #[error("number too large")]
    Overflow,
}

/// Parses an expression with the usual precedence; operators associate left.
pub fn parse_expr(text: &str, ops: Ops) -> Result<Expr, GrammarError> {
    precheck(text)?;
    let rule = if ops.mul_div { Rule::full } else { Rule::basic };
    match ExprParser::parse(rule, text) {
        Ok(mut pairs) => {
            let top = pairs.next().and_then(|p| p.into_inner().next());
            build(top.expect("grammar yields a sum"))
        }
        Err(err) => Err(explain(text, ops, err)),
    }
}

/// Checks that are clearer (or only possible) outside the grammar.
fn precheck(text: &str) -> Result<(), GrammarError> {
    let chars = text.chars().count();
    if chars > MAX_EXPR_CHARS {
        let (past_limit, _) = text.char_indices().nth(MAX_EXPR_CHARS).unwrap_or_default();
        return Err(GrammarError::at(
            text,
            past_limit,
            format!("expression too long ({chars} characters, at most {MAX_EXPR_CHARS})"),
        ));
    }
    if text.trim().is_empty() {
        return Err(GrammarError::new(1, 1, "empty expression"));
    }
    let mut depth = 0usize;
    for (pos, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_EXPR_NESTING {
            return Err(GrammarError::at(
                text,
                pos,
                format!("too many nested parentheses (at most {MAX_EXPR_NESTING})"),
            ));
        }
    }
    Ok(())
}

/// Turns a pest failure into a message, singling out a forbidden `*` or `/`.
fn explain(text: &str, ops: Ops, err: pest::error::Error<Rule>) -> GrammarError {
    let pos = pest_offset(&err);
    let at_mul_div = matches!(text[pos..].chars().next(), Some('*' | '/'));
    // Blame the operator only if the full grammar gets past it.
    if !ops.mul_div && at_mul_div {
        let full_gets_past = match ExprParser::parse(Rule::full, text) {
            Ok(_) => true,
            Err(full_err) => pest_offset(&full_err) > pos,
        };
        if full_gets_past {
            return GrammarError::at(
                text,
                pos,
                "multiplication and division are not allowed here",
            );
        }
    }
    GrammarError::from_pest(err, describe_rule)
}

fn describe_rule(rule: &Rule) -> String {
    match rule {
        Rule::operand | Rule::basic_operand => "a number or `(`",
        Rule::number => "a number",
        Rule::open => "`(`",
        Rule::close => "`)`",
        Rule::plus | Rule::minus | Rule::times | Rule::divide => "an operator",
        Rule::EOI => "end of expression",
        _ => "an expression",
    }
    .to_owned()
}

/// Folds a `sum`, `basic_sum` or `product` pair left to right.
fn build(pair: Pair<Rule>) -> Result<Expr, GrammarError> {
    let mut inner = pair.into_inner();
    let mut acc = operand(&mut inner)?;
    while let Some(op) = inner.next() {
        let (l, r) = (Box::new(acc), Box::new(operand(&mut inner)?));
        acc = match op.as_rule() {
            Rule::plus => Expr::Add(l, r),
            Rule::minus => Expr::Sub(l, r),
            Rule::times => Expr::Mul(l, r),
            Rule::divide => Expr::Div(l, r),
            other => unreachable!("operator expected, got {other:?}"),
        };
    }
    Ok(acc)
}

/// Takes one operand (a nested product, or a number or parenthesised sum) off `inner`.
fn operand(inner: &mut Pairs<Rule>) -> Result<Expr, GrammarError> {
    let pair = inner.next().expect("grammar yields an operand");
    if pair.as_rule() == Rule::product {
        return build(pair);
    }
    let mut parts = pair.into_inner();
    let first = parts.next().expect("grammar yields a number or `(`");
    match first.as_rule() {
        Rule::number => number(&first),
        // `(`, then the sum; the closing `)` is left unread.
        _ => build(parts.next().expect("grammar yields a sum")),
    }
}

fn number(pair: &Pair<Rule>) -> Result<Expr, GrammarError> {
    let digits = pair.as_str();
    if digits.len() > MAX_DIGITS {
        let (line, column) = pair.as_span().start_pos().line_col();
        return Err(GrammarError::new(
            line,
            column,
            format!("number too long (at most {MAX_DIGITS} digits)"),
        ));
    }
    Ok(Expr::Num(digits.parse().expect("at most 9 ASCII digits")))
}

impl Expr {
    /// The number literals, left to right.
    pub fn numbers(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.collect_numbers(&mut out);
        out
    }

    fn collect_numbers(&self, out: &mut Vec<i64>) {
        match self {
            Expr::Num(n) => out.push(*n),
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                l.collect_numbers(out);
                r.collect_numbers(out);
            }
        }
    }

    /// Evaluates exactly: a division must come out whole.
    pub fn eval(&self) -> Result<i64, EvalError> {
        match self {
            Expr::Num(n) => Ok(*n),
            Expr::Add(l, r) => l.eval()?.checked_add(r.eval()?).ok_or(EvalError::Overflow),
            Expr::Sub(l, r) => l.eval()?.checked_sub(r.eval()?).ok_or(EvalError::Overflow),
            Expr::Mul(l, r) => l.eval()?.checked_mul(r.eval()?).ok_or(EvalError::Overflow),
            Expr::Div(l, r) => {
                let (num, den) = (l.eval()?, r.eval()?);
                if den == 0 {
                    return Err(EvalError::DivisionByZero);
                }
                // checked_rem is None only for i64::MIN / -1, which overflows.
                match num.checked_rem(den) {
                    None => Err(EvalError::Overflow),
                    Some(0) => Ok(num / den),
                    Some(_) => Err(EvalError::NotInteger { num, den }),
                }
            }
        }
    }

    /// Binding strength: sums 1, products 2, numbers 3.
    fn precedence(&self) -> u8 {
        match self {
            Expr::Num(_) => 3,
            Expr::Mul(..) | Expr::Div(..) => 2,
            Expr::Add(..) | Expr::Sub(..) => 1,
        }
    }
}

/// Canonical form: no spaces, and only the parentheses the tree needs, so
/// printing a parsed expression and parsing it again gives the same tree.
/// (A hand-built negative or over-long `Num` prints but does not parse back.)
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, op, r) = match self {
            Expr::Num(n) => return write!(f, "{n}"),
            Expr::Add(l, r) => (l, '+', r),
            Expr::Sub(l, r) => (l, '-', r),
            Expr::Mul(l, r) => (l, '*', r),
            Expr::Div(l, r) => (l, '/', r),
        };
        let p = self.precedence();
        // Left associativity: an equal-strength left side needs no parentheses, a right side does.
        write_operand(f, l, l.precedence() < p)?;
        write!(f, "{op}")?;
        write_operand(f, r, r.precedence() <= p)
    }
}

fn write_operand(f: &mut fmt::Formatter<'_>, e: &Expr, parens: bool) -> fmt::Result {
    if parens {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: i64) -> Box<Expr> {
        Box::new(Expr::Num(n))
    }

    fn all(text: &str) -> Expr {
        parse_expr(text, Ops::ALL).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn err(text: &str, ops: Ops) -> GrammarError {
        parse_expr(text, ops).unwrap_err()
    }

    #[test]
    fn multiplication_binds_tighter_than_addition() {
        assert_eq!(
            all("2+3*4"),
            Expr::Add(num(2), Box::new(Expr::Mul(num(3), num(4))))
        );
        assert_eq!(all("2+3*4").eval(), Ok(14));
        assert_eq!(all("2*3+4").eval(), Ok(10));
        assert_eq!(all("20-12/4").eval(), Ok(17));
    }

    #[test]
    fn operators_associate_left() {
        assert_eq!(
            all("9-4-1"),
            Expr::Sub(Box::new(Expr::Sub(num(9), num(4))), num(1))
        );
        assert_eq!(all("9-4-1").eval(), Ok(4));
        assert_eq!(all("16/4/2").eval(), Ok(2));
        assert_eq!(all("12/3*2").eval(), Ok(8));
    }

    #[test]
    fn parentheses_group() {
        assert_eq!(all("9-(4+1)").eval(), Ok(4));
        assert_eq!(all("(9-4)+1").eval(), Ok(6));
        assert_eq!(all("2*(7-3)/4").eval(), Ok(2));
        assert_eq!(all("((3))"), Expr::Num(3));
    }

    #[test]
    fn whitespace_is_optional() {
        assert_eq!(all(" 3 + 5\t- 2 "), all("3+5-2"));
        assert_eq!(all("3+5-2").eval(), Ok(6));
    }

    #[test]
    fn add_sub_mode_parses_sums() {
        let e = parse_expr("(9-4)+1", Ops::ADD_SUB).unwrap();
        assert_eq!(e.eval(), Ok(6));
        assert_eq!(e.numbers(), [9, 4, 1]);
    }

    #[test]
    fn numbers_lists_literals_left_to_right() {
        assert_eq!(all("2*(7-3)/4").numbers(), [2, 7, 3, 4]);
        assert_eq!(all("007").numbers(), [7]);
    }

    #[test]
    fn prints_canonically_with_minimal_parentheses() {
        let cases = [
            ("(9-4)+1", "9-4+1"),
            ("9-(4+1)", "9-(4+1)"),
            (" 3 + 5 - 2 ", "3+5-2"),
            ("2*(7-3)/4", "2*(7-3)/4"),
            ("(2*3)*4", "2*3*4"),
            ("2*(3*4)", "2*(3*4)"),
            ("8/(4/2)", "8/(4/2)"),
            ("(1+2)*3", "(1+2)*3"),
            ("1+(2*3)", "1+2*3"),
            ("1+(2+3)", "1+(2+3)"),
            ("((7))", "7"),
            ("007", "7"),
        ];
        for (input, printed) in cases {
            assert_eq!(all(input).to_string(), printed, "input {input:?}");
        }
    }

    #[test]
    fn accepts_nine_digits_and_rejects_ten() {
        assert_eq!(all("999999999").eval(), Ok(999_999_999));
        let e = err("1+1234567890", Ops::ALL);
        assert_eq!(e.message, "number too long (at most 9 digits)");
        assert_eq!(e.column, 3);
    }

    #[test]
    fn rejects_unary_minus() {
        let e = err("-3", Ops::ALL);
        assert_eq!(e.message, "expected a number or `(`");
        assert_eq!(e.column, 1);
        assert_eq!(err("3+-2", Ops::ADD_SUB).column, 3);
    }

    #[test]
    fn syntax_errors_say_what_was_expected() {
        assert_eq!(err("", Ops::ALL).message, "empty expression");
        assert_eq!(err("  ", Ops::ADD_SUB).message, "empty expression");

        let e = err("2+", Ops::ALL);
        assert_eq!(
            (e.message.as_str(), e.column),
            ("expected a number or `(`", 3)
        );

        let e = err("(2+3", Ops::ALL);
        assert_eq!(
            (e.message.as_str(), e.column),
            ("expected an operator or `)`", 5)
        );

        let e = err("2 3", Ops::ADD_SUB);
        assert_eq!(
            (e.message.as_str(), e.column),
            ("expected an operator or end of expression", 3)
        );

        let e = err("2)", Ops::ALL);
        assert_eq!(e.column, 2);
        assert_eq!(
            e.to_string(),
            "expected an operator or end of expression (column 2)"
        );

        assert_eq!(err("2+x", Ops::ALL).column, 3);
    }

    #[test]
    fn mul_div_only_when_allowed() {
        let msg = "multiplication and division are not allowed here";
        for (text, column) in [("2*3", 2), ("1 + 8 / 2", 7), ("(1*2", 3), ("4-2/", 4)] {
            let e = err(text, Ops::ADD_SUB);
            assert_eq!(
                (e.message.as_str(), e.column),
                (msg, column),
                "input {text:?}"
            );
        }
        assert_eq!(parse_expr("2*3", Ops::ALL).unwrap().eval(), Ok(6));
        // A `*` that would be wrong anyway gets the ordinary message.
        assert_eq!(
            err("2+*3", Ops::ADD_SUB).message,
            "expected a number or `(`"
        );
    }

    #[test]
    fn eval_reports_division_by_zero() {
        assert_eq!(all("1/0").eval(), Err(EvalError::DivisionByZero));
        assert_eq!(all("5/(2-2)").eval(), Err(EvalError::DivisionByZero));
        assert_eq!(EvalError::DivisionByZero.to_string(), "division by zero");
    }

    #[test]
    fn eval_requires_whole_quotients() {
        let e = all("7/2").eval().unwrap_err();
        assert_eq!(e, EvalError::NotInteger { num: 7, den: 2 });
        assert_eq!(e.to_string(), "7/2 is not a whole number");
        assert_eq!(all("(0-8)/2").eval(), Ok(-4));
    }

    #[test]
    fn eval_reports_overflow() {
        let e = all("999999999*999999999*999999999").eval().unwrap_err();
        assert_eq!(e, EvalError::Overflow);
        assert_eq!(e.to_string(), "number too large");
        // i64::MIN / -1 is the one division that overflows; no parsed text reaches it cheaply.
        let min = Expr::Div(num(i64::MIN), Box::new(Expr::Sub(num(0), num(1))));
        assert_eq!(min.eval(), Err(EvalError::Overflow));
        assert_eq!(all("0-999999999").eval(), Ok(-999_999_999));
    }

    #[test]
    fn limits_length_and_nesting() {
        let long = format!("1{}", "+1".repeat(500));
        let e = err(&long, Ops::ALL);
        assert_eq!(
            e.message,
            "expression too long (1001 characters, at most 1000)"
        );
        assert_eq!(all(&format!("1{}", "+1".repeat(499))).eval(), Ok(500));

        let deep = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(all(&deep(MAX_EXPR_NESTING)), Expr::Num(1));
        let e = err(&deep(MAX_EXPR_NESTING + 1), Ops::ALL);
        assert_eq!(e.message, "too many nested parentheses (at most 64)");
        assert_eq!(e.column, MAX_EXPR_NESTING + 1);
    }

    /// A tiny deterministic generator (xorshift) so the test needs no extra crates.
    struct Gen(u64);

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn expr(&mut self, depth: u32, mul_div: bool) -> Expr {
            if depth == 0 || self.below(3) == 0 {
                return Expr::Num(self.below(1000) as i64);
            }
            let (l, r) = (
                Box::new(self.expr(depth - 1, mul_div)),
                Box::new(self.expr(depth - 1, mul_div)),
            );
            match self.below(if mul_div { 4 } else { 2 }) {
                0 => Expr::Add(l, r),
                1 => Expr::Sub(l, r),
                2 => Expr::Mul(l, r),
                _ => Expr::Div(l, r),
            }
        }
    }

    #[test]
    fn printed_expressions_parse_back_to_the_same_tree() {
        let mut g = Gen(0x2545_F491_4F6C_DD1D);
        for case in 0..400 {
            let mul_div = case % 2 == 0;
            let e = g.expr(5, mul_div);
            let printed = e.to_string();
            let ops = Ops { mul_div };
            let back = parse_expr(&printed, ops).unwrap_or_else(|err| panic!("{printed}: {err}"));
            assert_eq!(back, e, "case {case}: {printed}");
            assert_eq!(back.to_string(), printed);
            assert_eq!(back.eval(), e.eval());
            assert!(!printed.contains(' '));
        }
    }
}
