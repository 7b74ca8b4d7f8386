//! Number phrases in prose: `69,175,317`, `44.6%`, `×2.38`, `2.35 s`,
//! `10⁵`, and number words that make a quantitative claim (`sixteen
//! hundred`, `a third`, `tens of times`).
//!
//! Not phrases (they name things, they do not measure them): digits glued to
//! letters or to a name (`r1c2`, `top1465`, `forum-hardest-1106`, `3N`),
//! compounds (`17-clue`, `2-core`), board sizes (`9×9`), the numbers after
//! `rung`, `chapter` or `exercise`, and everything in headings and code
//! spans. Number words only count when they carry a magnitude or a fraction
//! (`hundred`, `thousands`, `half`), or are followed by `times`, `fold`,
//! `percent` or `×`: "two ORs" describes code, "seven times" is a claim.

/// What a phrase says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Said {
    /// A number (times in nanoseconds, percentages as written).
    Exact(f64),
    /// An order of magnitude: `tens` is [10, 100).
    Range(f64, f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Phrase {
    /// Byte range in the unit's visible text.
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub said: Said,
    /// Digits, or number words that make a claim.
    pub claim: bool,
    /// Written in words.
    pub words: bool,
    /// The rounding the phrase uses, in the unit of `said`: `×14.5` 0.1,
    /// `about 880` 10, `2.35 s` 10⁷ ns, `sixteen hundred` 100, `a third`
    /// 1/12. A `~` claim holds when the value rounds to the phrase.
    pub unit: f64,
}

/// Words after which a number names something (`rung 6`, `rows 1–3`,
/// `digits 1, 2, …`) rather than measures it.
const CONTEXT_WORDS: [&str; 14] = [
    "rung",
    "rungs",
    "chapter",
    "chapters",
    "exercise",
    "exercises",
    "row",
    "rows",
    "column",
    "columns",
    "box",
    "boxes",
    "digit",
    "digits",
];

/// The number phrases of a text.
pub fn phrases(text: &str) -> Vec<Phrase> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let byte = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        if c.is_ascii_digit() {
            let start = i;
            let prev = if i > 0 { at(i - 1) } else { None };
            let glued_before = prev.is_some_and(|p| {
                p.is_alphanumeric() || "_#@$./\\+".contains(p)
                    || (p == '-' && i >= 2 && at(i - 2).is_some_and(|q| q.is_alphanumeric()))
                    // O(1), O(N)
                    || (p == '(' && i >= 2 && at(i - 2) == Some('O'))
            });
            let mut j = i;
            while at(j).is_some_and(|c| c.is_ascii_digit()) {
                j += 1;
                if at(j) == Some(',')
                    && (1..=3).all(|k| at(j + k).is_some_and(|c| c.is_ascii_digit()))
                    && !at(j + 4).is_some_and(|c| c.is_ascii_digit())
                {
                    j += 1;
                }
            }
            let mut decimals = 0;
            if at(j) == Some('.') && at(j + 1).is_some_and(|c| c.is_ascii_digit()) {
                j += 1;
                while at(j).is_some_and(|c| c.is_ascii_digit()) {
                    j += 1;
                    decimals += 1;
                }
            }
            let next = at(j);
            let glued_after = next.is_some_and(|n| n.is_alphabetic() || n == '_')
                || (next == Some('-') && at(j + 1).is_some_and(|c| c.is_alphabetic()));
            let size = matches!(next, Some('×' | 'x'))
                && at(j + 1).is_some_and(|c| c.is_ascii_digit())
                || matches!(prev, Some('×' | 'x'))
                    && i >= 2
                    && at(i - 2).is_some_and(|c| c.is_ascii_digit());
            if glued_before || glued_after || size {
                // Skip the whole word (and the other side of a size).
                let mut k = j;
                while at(k).is_some_and(|c| c.is_alphanumeric() || "-_×".contains(c)) {
                    k += 1;
                }
                i = k.max(j).max(i + 1);
                continue;
            }
            let digits: String = chars[start..j].iter().map(|&(_, c)| c).collect();
            let mut value: f64 = digits.replace(',', "").parse().unwrap_or(f64::NAN);
            let mut unit = 10f64.powi(-decimals);
            // `about 880`: a round figure after `about` is rounded to its zeros.
            if decimals == 0 && about_before(text, byte(start)) {
                let zeros = digits
                    .replace(',', "")
                    .chars()
                    .rev()
                    .take_while(|&c| c == '0')
                    .count();
                unit = 10f64.powi(zeros as i32);
            }
            let mut end = j;
            // 10⁵
            let sup: String = chars[j..]
                .iter()
                .map(|&(_, c)| c)
                .take_while(|c| "⁰¹²³⁴⁵⁶⁷⁸⁹".contains(*c))
                .collect();
            if !sup.is_empty() {
                let e: String = sup
                    .chars()
                    .map(|c| {
                        char::from_digit(
                            "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|s| s == c).unwrap_or(0) as u32,
                            10,
                        )
                        .unwrap_or('0')
                    })
                    .collect();
                value = value.powf(e.parse().unwrap_or(0.0));
                unit = 1.0;
                end = j + sup.chars().count();
            }
            let mut first = start;
            if prev == Some('×') {
                first = start - 1;
            }
            if matches!(at(end), Some('%' | '×')) {
                end += 1;
            } else if at(end) == Some(' ') {
                for (name, scale) in [
                    ("ns", 1.0),
                    ("µs", 1e3),
                    ("us", 1e3),
                    ("ms", 1e6),
                    ("s", 1e9),
                ] {
                    let u: Vec<char> = name.chars().collect();
                    let n = u.len();
                    if (0..n).all(|k| at(end + 1 + k) == Some(u[k]))
                        && !at(end + 1 + n).is_some_and(|c| c.is_alphanumeric())
                    {
                        value *= scale;
                        unit *= scale;
                        end += 1 + n;
                        break;
                    }
                }
            }
            let text_of = text[byte(first)..byte(end)].to_string();
            let exempt = context_word_before(text, byte(start));
            out.push(Phrase {
                start: byte(first),
                end: byte(end),
                text: text_of,
                said: Said::Exact(value),
                claim: !exempt,
                words: false,
                unit,
            });
            i = end;
            continue;
        }
        if c.is_alphabetic() && (i == 0 || !at(i - 1).is_some_and(|p| p.is_alphanumeric())) {
            if let Some((phrase, next)) = word_phrase(text, &chars, i) {
                out.push(phrase);
                i = next;
                continue;
            }
            while at(i).is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '\'') {
                i += 1;
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Whether the word before a number is `about`, `some`, `around` or `roughly`.
fn about_before(text: &str, at: usize) -> bool {
    approximated(text, at).is_some_and(|w| w != "nearly" && w != "almost")
}

/// The word that makes the number at `at` an approximation (`about`,
/// `some`, `around`, `roughly`, `nearly`, `almost`), if one comes right
/// before it: an approximation stands for a measurement, never for a
/// constant of the rules.
pub fn approximated(text: &str, at: usize) -> Option<String> {
    let w = text[..at].split_whitespace().next_back()?.to_lowercase();
    matches!(
        w.as_str(),
        "about" | "some" | "around" | "roughly" | "nearly" | "almost"
    )
    .then_some(w)
}

/// Whether the word before a number (skipping other numbers of a list or
/// range: `rungs 1–4`, `rungs 2 and 3`) names a rung, chapter or exercise.
fn context_word_before(text: &str, at: usize) -> bool {
    let before = &text[..at];
    let mut words = before
        .split(|c: char| c.is_whitespace() || "–-,();".contains(c))
        .filter(|w| !w.is_empty())
        .rev();
    for w in words.by_ref() {
        let lw = w.to_lowercase();
        if w.chars().all(|c| c.is_ascii_digit()) || matches!(lw.as_str(), "and" | "or" | "to") {
            continue;
        }
        return CONTEXT_WORDS.contains(&lw.as_str());
    }
    false
}

/// Nouns of what the lab counts: a number before one of them (`one
/// decade`, `three guesses`, `two puzzles`) is a measurement, whether in
/// words or digits, and no page constant covers it.
pub const COUNTED: [&str; 22] = [
    "node",
    "nodes",
    "guess",
    "guesses",
    "placement",
    "placements",
    "backtrack",
    "backtracks",
    "probe",
    "probes",
    "dead",
    "puzzle",
    "puzzles",
    "solution",
    "solutions",
    "decade",
    "decades",
    "event",
    "events",
    "call",
    "calls",
    "samples",
];

/// Whether `w` (a lowercase word) is one of [`COUNTED`].
pub fn counted(w: &str) -> bool {
    COUNTED.contains(&w.trim_end_matches([',', '.', ';', ':', ')']))
}

/// Whether `w` is a plural of [`COUNTED`] (`puzzles`, not `puzzle`).
fn counted_plural(w: &str) -> bool {
    counted(w) && w.trim_end_matches([',', '.', ';', ':', ')']).ends_with('s')
}

fn small(w: &str) -> Option<f64> {
    const UNITS: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 8] = [
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    if let Some(p) = UNITS.iter().position(|u| *u == w) {
        return Some(p as f64);
    }
    if let Some(p) = TENS.iter().position(|u| *u == w) {
        return Some(20.0 + 10.0 * p as f64);
    }
    if let Some((a, b)) = w.split_once('-') {
        return Some(small(a)? + small(b)?);
    }
    None
}

fn multiplier(w: &str) -> Option<f64> {
    match w {
        "hundred" => Some(1e2),
        "thousand" => Some(1e3),
        "million" => Some(1e6),
        "billion" => Some(1e9),
        "dozen" => Some(12.0),
        _ => None,
    }
}

fn fraction(w: &str) -> Option<f64> {
    match w {
        "half" => Some(0.5),
        "third" | "thirds" => Some(1.0 / 3.0),
        "quarter" | "quarters" => Some(0.25),
        _ => None,
    }
}

fn plural(w: &str) -> Option<f64> {
    match w {
        "tens" => Some(10.0),
        "hundreds" => Some(1e2),
        "thousands" => Some(1e3),
        "millions" => Some(1e6),
        "billions" => Some(1e9),
        _ => None,
    }
}

/// A phrase of number words starting at char `i`, and the char after it.
fn word_phrase(text: &str, chars: &[(usize, char)], i: usize) -> Option<(Phrase, usize)> {
    let byte = |k: usize| chars.get(k).map_or(text.len(), |&(b, _)| b);
    // Words from i on: (lowercase word, start char, end char).
    let mut words = Vec::new();
    let mut k = i;
    while k < chars.len() && words.len() < 8 {
        while k < chars.len() && chars[k].1 == ' ' {
            k += 1;
        }
        let s = k;
        while k < chars.len() && (chars[k].1.is_alphabetic() || chars[k].1 == '-') {
            k += 1;
        }
        if s == k {
            break;
        }
        words.push((text[byte(s)..byte(k)].to_lowercase(), s, k));
        if k < chars.len() && chars[k].1 != ' ' {
            break;
        }
    }
    let is_num = |w: &str| {
        small(w).is_some()
            || multiplier(w).is_some()
            || fraction(w).is_some()
            || plural(w).is_some()
    };
    let mut n = 0;
    let mut total = 0.0;
    let mut current: Option<f64> = None;
    let mut range: Option<(f64, f64)> = None;
    let mut claim = false;
    // The rounding of the phrase: that of its last number word.
    let mut unit = 1.0;
    while n < words.len() {
        let w = words[n].0.as_str();
        let next_is_big = words
            .get(n + 1)
            .is_some_and(|(x, _, _)| multiplier(x).is_some() || fraction(x).is_some());
        if (w == "a" || w == "an") && current.is_none() && next_is_big && n == 0 {
            current = Some(1.0);
        } else if let Some(v) = small(w) {
            current = Some(current.unwrap_or(0.0) + v);
            // `sixty` is rounded to tens, `sixty-two` and `sixteen` to units.
            unit = if v >= 20.0 && v % 10.0 == 0.0 && !w.contains('-') {
                10.0
            } else {
                1.0
            };
        } else if let Some(m) = multiplier(w) {
            claim = true;
            unit = m;
            if m >= 1e3 {
                total += current.unwrap_or(1.0) * m;
                current = Some(0.0);
            } else {
                current = Some(current.unwrap_or(1.0) * m);
            }
        } else if let Some(f) = fraction(w)
            && (w == "half" || n > 0)
        {
            // `third` alone is an ordinal ("the third digit"); `a third` is a share.
            claim = true;
            unit = 1.0 / 12.0;
            current = Some(current.unwrap_or(1.0) * f);
        } else if let Some(p) = plural(w) {
            claim = true;
            let (lo, hi) = range.map_or((p, p * 10.0), |(lo, hi)| (lo * p, hi * p));
            range = Some((lo, hi));
            // `tens of thousands`
            if words.get(n + 1).is_some_and(|(x, _, _)| x == "of")
                && words
                    .get(n + 2)
                    .is_some_and(|(x, _, _)| plural(x).is_some())
            {
                n += 2;
                let q = plural(&words[n].0).unwrap_or(1.0);
                range = Some((lo * q, hi * q));
            }
        } else {
            break;
        }
        n += 1;
        if !words.get(n).is_some_and(|(x, _, _)| is_num(x)) {
            break;
        }
    }
    if n == 0 || (n == 1 && (words[0].0 == "a" || words[0].0 == "an")) {
        return None;
    }
    let (_, s, _) = words[0];
    let (_, _, e) = words[n - 1];
    let after = words.get(n).map(|(x, _, _)| x.as_str()).unwrap_or("");
    let tail = &text[byte(e)..];
    // `one node at a time` describes; `one decade`, `three guesses` measure,
    // and so do `six of these puzzles`, `five famous puzzles` and `about six`.
    let plain = |k: usize| {
        words
            .get(k)
            .filter(|(_, _, e)| chars.get(*e).is_some_and(|&(_, c)| c == ' '))
    };
    let counts = counted(after)
        || after == "of"
        || approximated(text, byte(s)).is_some()
        || (plain(n).is_some() && words.get(n + 1).is_some_and(|(x, _, _)| counted_plural(x)));
    if matches!(after, "times" | "fold" | "percent")
        || tail.starts_with('×')
        || tail.starts_with("-fold")
        || (counts && (words[0].0 != "one" || after.starts_with("decade")))
    {
        claim = true;
    }
    let said = match range {
        Some((lo, hi)) => Said::Range(lo, hi),
        None => Said::Exact(total + current.unwrap_or(0.0)),
    };
    Some((
        Phrase {
            start: byte(s),
            end: byte(e),
            text: text[byte(s)..byte(e)].to_string(),
            said,
            claim,
            words: true,
            unit,
        },
        e,
    ))
}

/// Whether a phrase counts something the lab counts, so that no page
/// constant may stand for it: it is followed by a [`COUNTED`] noun (`3
/// guesses`, `one decade`), maybe after one word (`5 famous puzzles`), or
/// it is one side of a share (`31 of the 50`, `6 of these puzzles`).
pub fn is_count(text: &str, p: &Phrase) -> bool {
    let after: Vec<String> = text[p.end..]
        .split_whitespace()
        .take(3)
        .map(|w| w.to_lowercase())
        .collect();
    if after.first().is_some_and(|w| counted(w)) {
        return true;
    }
    // A whole number (not a share such as `82%` or `half`) before `of` or
    // before an adjective and a plural count: `6 of these puzzles`, `5
    // famous puzzles`.
    let whole = matches!(p.said, Said::Exact(v) if v.fract() == 0.0) && !p.text.ends_with('%');
    let plain = |w: &String| w.chars().all(|c| c.is_alphabetic() || c == '-');
    if whole
        && (after.first().is_some_and(|w| w == "of")
            || (after.first().is_some_and(plain)
                && after.get(1).is_some_and(|w| counted_plural(w))))
    {
        return true;
    }
    let starts_with_digit = |w: &String| {
        let w = w.trim_end_matches([',', '.', ';', ':', ')']);
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == ',')
    };
    let before: Vec<String> = text[..p.start]
        .split_whitespace()
        .rev()
        .take(3)
        .map(|w| w.to_lowercase())
        .collect();
    (before.first().is_some_and(|w| w == "of") && before.get(1).is_some_and(starts_with_digit))
        || (before.first().is_some_and(|w| w == "the")
            && before.get(1).is_some_and(|w| w == "of")
            && before.get(2).is_some_and(starts_with_digit))
}

/// The cells of a table row that are just `yes` or `no`: a claim like any
/// number (1 or 0), bound with `<!--~ gt(…)-->` or `<!--= KEY-->`.
pub fn yes_no_cells(row: &str) -> Vec<Phrase> {
    let mut out = Vec::new();
    let mut start = 0;
    for cell in row.split('|') {
        let t = cell.trim();
        let lead = cell.len() - cell.trim_start().len();
        if let Some(v) = match t.to_lowercase().as_str() {
            "yes" => Some(1.0),
            "no" => Some(0.0),
            _ => None,
        } {
            out.push(Phrase {
                start: start + lead,
                end: start + lead + t.len(),
                text: t.to_string(),
                said: Said::Exact(v),
                claim: true,
                words: true,
                unit: 1.0,
            });
        }
        start += cell.len() + 1;
    }
    out
}

/// The names listed at the start of `rest` (the text after a `(` or `:`),
/// up to `)`, `;` or the sentence's end: `None` unless there are two or
/// more and every one is a name.
pub fn named_list(rest: &str, is_name: &impl Fn(&str) -> bool) -> Option<Vec<String>> {
    let end = [rest.find(')'), rest.find(';'), rest.find(". ")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    let body = rest[..end].trim().trim_end_matches('.');
    let names: Vec<String> = body
        .split(',')
        .flat_map(|piece| piece.split(" and ").flat_map(|p| p.split(" or ")))
        .map(|item| {
            let item = item.trim();
            item.strip_prefix("and ")
                .or_else(|| item.strip_prefix("or "))
                .unwrap_or(item)
                .trim()
                .to_string()
        })
        .collect();
    (names.len() >= 2 && names.iter().all(|n| !n.is_empty() && is_name(n))).then_some(names)
}

/// The named lists of a text whose length no count before them in their
/// sentence states: `faster on six of these puzzles (A, B, C, D, E, F, G)`
/// names seven. A list follows `(` or `:` and runs to `)`, `;` or the
/// sentence's end; every item must be a name (`is_name`: a puzzle or rung
/// the page's blocks print), or it is not a named list. Any count of the
/// sentence may be the list's (`two of the five puzzles (A, B)`), so only
/// a list that matches none is reported: `(byte offset of the list, its
/// names, the counts said)`.
pub fn miscounted_lists(
    text: &str,
    is_name: impl Fn(&str) -> bool,
) -> Vec<(usize, Vec<String>, Vec<f64>)> {
    let mut out = Vec::new();
    let mut sentence = 0;
    for (i, c) in text.char_indices() {
        if c == '.' && text[i + 1..].starts_with(' ') {
            sentence = i + 1;
            continue;
        }
        if c != '(' && c != ':' {
            continue;
        }
        let Some(names) = named_list(&text[i + 1..], &is_name) else {
            continue;
        };
        // The counts of the sentence, but not those of nodes, guesses...
        // (`14,678 nodes in all on the famous puzzles (A, B, ...)`).
        let before = &text[sentence..i];
        let counts: Vec<f64> = phrases(before)
            .into_iter()
            .filter(|p| {
                let next: Vec<&str> = before[p.end..].split_whitespace().take(2).collect();
                !next
                    .iter()
                    .any(|w| counted(&w.to_lowercase()) && !w.starts_with("puzzle"))
            })
            .filter_map(|p| match p.said {
                Said::Exact(v) if v >= 2.0 && v.fract() == 0.0 => Some(v),
                _ => None,
            })
            .collect();
        if !counts.is_empty() && !counts.contains(&(names.len() as f64)) {
            out.push((i, names, counts));
        }
    }
    out
}
