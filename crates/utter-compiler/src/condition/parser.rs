//! Recursive descent over the condition grammar, with a depth limit and a
//! precise message for every Python construct the grammar leaves out.

use std::ops::Range;

use utter::CmpOp;

use super::lexer::{KEYWORDS, Tok, Token};
use super::{ConditionError, Expr, Literal, MAX_NESTING, MemoryRef};

pub struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
    depth: usize,
}

fn err(span: Range<usize>, message: impl Into<String>) -> ConditionError {
    ConditionError {
        span,
        message: message.into(),
    }
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Name(n) => format!("`{n}`"),
        Tok::Int(i) => format!("`{i}`"),
        Tok::Float(f) => format!("`{f}`"),
        Tok::Str(_) => "a string".into(),
        Tok::Op(op) => format!("`{op}`"),
        Tok::End => "the end of the condition".into(),
    }
}

impl<'t> Parser<'t> {
    pub fn new(tokens: &'t [Token]) -> Self {
        Parser {
            tokens,
            pos: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> &'t Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> &'t Token {
        let t = self.peek();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is_name(&self, name: &str) -> bool {
        matches!(&self.peek().tok, Tok::Name(n) if n == name)
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(&self.peek().tok, Tok::Op(o) if *o == op)
    }

    fn enter(&mut self, span: Range<usize>) -> Result<(), ConditionError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(err(
                span,
                format!("the condition is nested deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }

    /// The whole condition: one expression, then the end.
    pub fn parse_condition(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        if matches!(self.peek().tok, Tok::End) {
            return Err(err(self.peek().span.clone(), "the condition is empty"));
        }
        let expr = self.parse_or()?;
        match &self.peek().tok {
            Tok::End => Ok(expr),
            _ => Err(unexpected_after_expression(
                self.peek(),
                "`and`, `or`, a comparison or the end of the condition",
            )),
        }
    }

    fn parse_or(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        let first = self.parse_and()?;
        if !self.is_name("or") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.is_name("or") {
            self.bump();
            items.push(self.parse_and()?);
        }
        Ok(Expr::Or(items))
    }

    fn parse_and(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        let first = self.parse_not()?;
        if !self.is_name("and") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.is_name("and") {
            self.bump();
            items.push(self.parse_not()?);
        }
        Ok(Expr::And(items))
    }

    fn parse_not(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        if self.is_name("not") {
            let span = self.bump().span.clone();
            self.enter(span)?;
            let inner = self.parse_not()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        self.parse_comparison()
    }

    fn comparison_op(&mut self) -> Result<Option<CmpOp>, ConditionError> {
        let t = self.peek();
        let op = match &t.tok {
            Tok::Op(symbol) => match CmpOp::from_symbol(symbol) {
                Some(op) => op,
                None => return Ok(None),
            },
            Tok::Name(n) if n == "in" => {
                return Err(err(
                    t.span.clone(),
                    "the `in` operator is not supported; test membership with `==` joined by `or`",
                ));
            }
            Tok::Name(n) if n == "is" => {
                return Err(err(
                    t.span.clone(),
                    "the `is` operator is not supported; compare with `==` or `!=` (e.g. `!= None`)",
                ));
            }
            Tok::Name(n) if n == "not" => {
                if matches!(self.tokens.get(self.pos + 1), Some(Token { tok: Tok::Name(n), .. }) if n == "in")
                {
                    return Err(err(
                        t.span.clone(),
                        "the `not in` operator is not supported; test with `!=` joined by `and`",
                    ));
                }
                return Ok(None);
            }
            _ => return Ok(None),
        };
        self.bump();
        Ok(Some(op))
    }

    fn parse_comparison(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        let first = self.parse_operand()?;
        let mut rest = Vec::new();
        while let Some(op) = self.comparison_op()? {
            let operand = self.parse_operand()?;
            rest.push((op, operand));
        }
        if rest.is_empty() {
            Ok(first)
        } else {
            Ok(Expr::Compare {
                first: Box::new(first),
                rest,
            })
        }
    }

    /// An operand, then a check that no call, subscript or attribute follows.
    fn parse_operand(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        let expr = self.parse_atom()?;
        let t = self.peek();
        match &t.tok {
            Tok::Op("(") => Err(err(
                t.span.clone(),
                "function calls are not supported in conditions",
            )),
            Tok::Op("[") => Err(err(
                t.span.clone(),
                "subscripts (`x[...]`) are not supported in conditions",
            )),
            Tok::Op(".") => Err(err(
                t.span.clone(),
                "attribute access is not supported in conditions",
            )),
            _ => Ok(expr),
        }
    }

    fn parse_atom(&mut self) -> Result<Expr<MemoryRef>, ConditionError> {
        let t = self.bump();
        let span = t.span.clone();
        match &t.tok {
            Tok::Int(i) => Ok(Expr::Lit(Literal::Int(*i))),
            Tok::Float(f) => Ok(Expr::Lit(Literal::Float(*f))),
            Tok::Str(s) => {
                // Adjacent string literals concatenate, as in Python.
                let mut text = s.clone();
                while let Tok::Str(more) = &self.peek().tok {
                    text.push_str(more);
                    self.bump();
                }
                Ok(Expr::Lit(Literal::Str(text)))
            }
            Tok::Op("(") => {
                self.enter(span.clone())?;
                if self.is_op(")") {
                    return Err(err(
                        span.start..self.peek().span.end,
                        "empty parentheses (a tuple) are not supported",
                    ));
                }
                let inner = self.parse_or()?;
                if self.is_op(",") {
                    return Err(err(
                        self.peek().span.clone(),
                        "tuples are not supported in conditions",
                    ));
                }
                if !self.is_op(")") {
                    return Err(unexpected_after_expression(self.peek(), "`)`"));
                }
                self.bump();
                self.depth -= 1;
                Ok(inner)
            }
            Tok::Op("[") => Err(err(span, "list literals are not supported in conditions")),
            Tok::Op("{") => Err(err(
                span,
                "dict and set literals are not supported in conditions",
            )),
            Tok::Op("-") | Tok::Op("+") | Tok::Op("~") => Err(err(
                span,
                "unary operators are not supported (so negative number literals cannot be written)",
            )),
            Tok::Op("!") => Err(err(span, "use `not` to negate a condition")),
            Tok::Op("...") => Err(err(span, "`...` (Ellipsis) is not supported in conditions")),
            Tok::Name(name) => self.parse_name(name, span),
            Tok::End => Err(err(
                span,
                "expected an operand, found the end of the condition",
            )),
            Tok::Op(op) => Err(err(span, format!("expected an operand, found `{op}`"))),
        }
    }

    fn parse_name(
        &mut self,
        name: &str,
        span: Range<usize>,
    ) -> Result<Expr<MemoryRef>, ConditionError> {
        match name {
            "True" => return Ok(Expr::Lit(Literal::Bool(true))),
            "False" => return Ok(Expr::Lit(Literal::Bool(false))),
            "None" => return Ok(Expr::Lit(Literal::None)),
            "session" => return self.parse_ref(span),
            "lambda" => {
                return Err(err(
                    span,
                    "lambda expressions are not supported in conditions",
                ));
            }
            "await" | "yield" => {
                return Err(err(
                    span,
                    format!("`{name}` is not supported in conditions"),
                ));
            }
            _ => {}
        }
        if KEYWORDS.contains(&name) {
            return Err(err(
                span,
                format!("expected an operand, found the keyword `{name}`"),
            ));
        }
        let hint = match name {
            "true" => " (the boolean is spelled `True`)".to_owned(),
            "false" => " (the boolean is spelled `False`)".to_owned(),
            "null" | "none" | "nil" => " (the null value is spelled `None`)".to_owned(),
            _ => format!(" (e.g. `session.<skill_id>.{name}` or `session.project.{name}`)"),
        };
        Err(err(
            span,
            format!(
                "unknown name `{name}`: memory is referenced as `session.<skill_id|project|system>.<entry_name>`{hint}"
            ),
        ))
    }

    /// `session . ns . entry`, exactly three segments.
    fn parse_ref(&mut self, start: Range<usize>) -> Result<Expr<MemoryRef>, ConditionError> {
        let mut segments: Vec<(String, Range<usize>)> = Vec::new();
        let mut end = start.end;
        while self.is_op(".") {
            let dot = self.bump().span.clone();
            let t = self.bump();
            match &t.tok {
                Tok::Name(n) if KEYWORDS.contains(&n.as_str()) => {
                    return Err(err(
                        t.span.clone(),
                        format!(
                            "`{n}` is a Python keyword and cannot be a memory reference segment"
                        ),
                    ));
                }
                Tok::Name(n) => {
                    segments.push((n.clone(), t.span.clone()));
                    end = t.span.end;
                }
                _ => return Err(err(dot.start..t.span.end, "expected a name after `.`")),
            }
        }
        let whole = start.start..end;
        match segments.as_slice() {
            [] => Err(err(
                whole,
                "incomplete memory reference `session`: write `session.<skill_id|project>.<entry_name>`",
            )),
            [(ns, ns_span), (entry, entry_span)] => Ok(Expr::Ref(MemoryRef {
                namespace: ns.clone(),
                entry: entry.clone(),
                span: whole,
                namespace_span: ns_span.clone(),
                entry_span: entry_span.clone(),
            })),
            _ => {
                let written: Vec<&str> = std::iter::once("session")
                    .chain(segments.iter().map(|(s, _)| s.as_str()))
                    .collect();
                Err(err(
                    whole,
                    format!(
                        "invalid memory reference `{}`: it must have exactly three segments, `session.<skill_id|project>.<entry_name>`",
                        written.join(".")
                    ),
                ))
            }
        }
    }
}

/// The error for a token that cannot follow a complete expression.
fn unexpected_after_expression(t: &Token, expected: &str) -> ConditionError {
    let span = t.span.clone();
    match &t.tok {
        Tok::Op("=") => err(span, "`=` is assignment; compare with `==`"),
        Tok::Op(")") => err(span, "unmatched `)`"),
        Tok::Name(n) if n == "if" => err(
            span,
            "conditional expressions (`x if c else y`) are not supported",
        ),
        Tok::Op("&") => err(span, "use `and` to combine conditions"),
        Tok::Op("|") => err(span, "use `or` to combine conditions"),
        Tok::Op(op) if is_arithmetic(op) => err(
            span,
            format!(
                "the operator `{op}` is not supported; conditions only compare values (== != < <= > >=)"
            ),
        ),
        Tok::Op(",") => err(span, "tuples are not supported in conditions"),
        other => err(
            span,
            format!("expected {expected}, found {}", describe(other)),
        ),
    }
}

fn is_arithmetic(op: &str) -> bool {
    matches!(
        op,
        "+" | "-" | "*" | "/" | "//" | "%" | "**" | "@" | "<<" | ">>" | "^" | "~"
    )
}
