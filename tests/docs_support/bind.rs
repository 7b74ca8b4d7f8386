//! Bindings: HTML comments right after a number phrase that tie it to the
//! output of a block. Invisible on the rendered page.
//!
//! | comment | the phrase before it must be |
//! |---|---|
//! | `<!--= KEY-->` | exactly the value printed at KEY (the update run rewrites it) |
//! | `<!--~ EXPR-->` | EXPR, to the rounding the phrase uses: `about 4` is [3.5, 4.5), `×14.5` is [14.45, 14.55), `sixteen hundred` is [1550, 1650), `a third` is within 1/24 of 1/3; a range word (`tens`) must contain it. No blanket percentage: a claim is as precise as it is written |
//! | `<!--< EXPR-->` | less than EXPR ("more than half": half < share) |
//! | `<!-- > EXPR-->` | more than EXPR ("fewer than a thousand": 1000 > nodes) |
//!
//! KEY is a fact key of a block ([`super::facts`]): `AI Escargot/mrv/nodes`.
//! EXPR combines `{KEY}`, numbers, `+ - * / ( )`, `gt(a, b)` (1 if a > b) and
//! `log10(x)` (decades: "within one decade"). A key is looked up in the
//! nearest block of the page that has it; `#ID:KEY` names the block
//! (`console id=ID`).

use super::facts::Fact;
use super::numbers::Said;

#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    pub block: Option<String>,
    pub key: String,
}

impl Ref {
    fn parse(s: &str) -> Ref {
        let s = s.trim();
        match s.strip_prefix('#').and_then(|r| r.split_once(':')) {
            Some((id, key)) => Ref {
                block: Some(id.trim().to_string()),
                key: key.trim().to_string(),
            },
            None => Ref {
                block: None,
                key: s.to_string(),
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Binding {
    Exact(Ref),
    Approx { expr: String },
    Below(String),
    Above(String),
}

/// A binding comment's body, or `None` for an ordinary comment.
pub fn parse(body: &str) -> Option<Result<Binding, String>> {
    let b = body.trim();
    let (op, rest) = b.split_at(b.chars().next()?.len_utf8());
    let rest = rest.trim();
    Some(match op {
        "=" => {
            let r = rest.trim_start_matches('{').trim_end_matches('}');
            if r.is_empty() {
                Err("`=` needs a key".to_string())
            } else {
                Ok(Binding::Exact(Ref::parse(r)))
            }
        }
        "~" => match rest.split_once('%') {
            Some((t, _)) if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) => Err(format!(
                "`~{t}%`: a claim's tolerance is the rounding its phrase uses, not a percentage (write the figure as precisely as it holds)"
            )),
            _ => Ok(Binding::Approx {
                expr: rest.to_string(),
            }),
        },
        "<" => Ok(Binding::Below(rest.to_string())),
        ">" => Ok(Binding::Above(rest.to_string())),
        _ => return None,
    })
}

/// Every `{KEY}` of an expression.
pub fn refs(expr: &str) -> Vec<Ref> {
    let mut out = Vec::new();
    let mut rest = expr;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        out.push(Ref::parse(&rest[i + 1..i + j]));
        rest = &rest[i + j + 1..];
    }
    out
}

/// Evaluates an expression, looking keys up with `fact`.
pub fn eval(expr: &str, fact: &dyn Fn(&Ref) -> Result<Fact, String>) -> Result<f64, String> {
    let mut p = Parser {
        s: expr.chars().collect(),
        i: 0,
        fact,
    };
    let v = p.sum()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(format!(
            "unexpected `{}` in `{expr}`",
            p.s[p.i..].iter().collect::<String>()
        ));
    }
    Ok(v)
}

struct Parser<'a> {
    s: Vec<char>,
    i: usize,
    fact: &'a dyn Fn(&Ref) -> Result<Fact, String>,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_whitespace()) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn sum(&mut self) -> Result<f64, String> {
        let mut v = self.product()?;
        while let Some(c @ ('+' | '-')) = self.peek() {
            self.i += 1;
            let r = self.product()?;
            v = if c == '+' { v + r } else { v - r };
        }
        Ok(v)
    }

    fn product(&mut self) -> Result<f64, String> {
        let mut v = self.factor()?;
        while let Some(c @ ('*' | '/' | '×')) = self.peek() {
            self.i += 1;
            let r = self.factor()?;
            v = if c == '/' { v / r } else { v * r };
        }
        Ok(v)
    }

    fn factor(&mut self) -> Result<f64, String> {
        match self.peek() {
            Some('-') => {
                self.i += 1;
                Ok(-self.factor()?)
            }
            Some('(') => {
                self.i += 1;
                let v = self.sum()?;
                if self.peek() != Some(')') {
                    return Err("missing `)`".into());
                }
                self.i += 1;
                Ok(v)
            }
            Some('{') => {
                let start = self.i + 1;
                let end = (start..self.s.len())
                    .find(|&k| self.s[k] == '}')
                    .ok_or("missing `}`")?;
                self.i = end + 1;
                let r = Ref::parse(&self.s[start..end].iter().collect::<String>());
                let f = (self.fact)(&r)?;
                f.value
                    .ok_or_else(|| format!("`{}` is `{}`, not a number", r.key, f.text))
            }
            Some(c) if c.is_ascii_digit() || c == '.' => {
                let start = self.i;
                // `1,234` is a number; `gt(100001, x)` has an argument comma.
                while self.s.get(self.i).is_some_and(|c| {
                    c.is_ascii_digit()
                        || *c == '.'
                        || (*c == ','
                            && (1..=3).all(|k| {
                                self.s.get(self.i + k).is_some_and(|d| d.is_ascii_digit())
                            }))
                }) {
                    self.i += 1;
                }
                let t: String = self.s[start..self.i]
                    .iter()
                    .filter(|c| **c != ',')
                    .collect();
                t.parse().map_err(|_| format!("bad number `{t}`"))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                // gt(a, b): 1 if a > b, else 0 — to count rows a claim covers.
                let start = self.i;
                while self.s.get(self.i).is_some_and(|c| c.is_ascii_alphabetic()) {
                    self.i += 1;
                }
                let name: String = self.s[start..self.i].iter().collect();
                // log10(x): decades.
                if name == "log" && self.s.get(self.i..self.i + 3) == Some(&['1', '0', '(']) {
                    self.i += 3;
                    let x = self.sum()?;
                    if self.peek() != Some(')') {
                        return Err("missing `)`".into());
                    }
                    self.i += 1;
                    return Ok(x.log10());
                }
                if name != "gt" || self.peek() != Some('(') {
                    return Err(format!(
                        "unknown function `{name}` (there are `gt(a, b)` and `log10(x)`)"
                    ));
                }
                self.i += 1;
                let a = self.sum()?;
                if self.peek() != Some(',') {
                    return Err("`gt` takes two arguments".into());
                }
                self.i += 1;
                let b = self.sum()?;
                if self.peek() != Some(')') {
                    return Err("missing `)`".into());
                }
                self.i += 1;
                Ok(if a > b { 1.0 } else { 0.0 })
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }
}

/// Whether what the prose says holds for `value` under `binding`; `unit`
/// is the rounding of the phrase (`about 4`: 1; `×14.5`: 0.1).
pub fn holds(said: Said, unit: f64, binding: &Binding, value: f64) -> bool {
    match (binding, said) {
        (Binding::Approx { .. }, Said::Exact(p)) => {
            // [p - unit/2, p + unit/2), with room below for the float error
            // of the expression.
            let eps = 1e-9 * p.abs().max(1.0);
            value >= p - unit / 2.0 - eps && value < p + unit / 2.0
        }
        (Binding::Approx { .. }, Said::Range(lo, hi)) => value >= lo && value < hi,
        (Binding::Below(_), Said::Exact(p)) => p < value,
        (Binding::Below(_), Said::Range(_, hi)) => hi <= value,
        (Binding::Above(_), Said::Exact(p)) => p > value,
        (Binding::Above(_), Said::Range(lo, _)) => lo >= value,
        (Binding::Exact(_), _) => false,
    }
}
