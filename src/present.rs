//! Presenting numbers and tables: one place for how the lab writes a count,
//! a time or a table, used by every command, report and page. (Computing
//! stays elsewhere: these functions only turn values into text.)

/// A Markdown table; the first `left` columns are left-aligned, the rest right-aligned.
pub fn markdown(headers: &[&str], left: usize, rows: Vec<Vec<String>>) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = String>| -> String {
        let parts: Vec<String> = cells
            .enumerate()
            .map(|(i, c)| {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i < left {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect();
        format!("| {} |\n", parts.join(" | "))
    };
    let mut out = line(&mut headers.iter().map(|h| h.to_string()));
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if i < left {
                format!(":{}", "-".repeat(w + 1))
            } else {
                format!("{}:", "-".repeat(w + 1))
            }
        })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for row in rows {
        out.push_str(&line(&mut row.into_iter()));
    }
    out
}

/// `69175317` → `69,175,317`.
pub fn thousands(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A time with a unit chosen for 3-4 significant digits: `412 ns`, `3.1 µs`, `27.4 ms`, `2.31 s`.
pub fn duration(nanos: f64) -> String {
    if nanos < 1e3 {
        format!("{nanos:.0} ns")
    } else if nanos < 1e6 {
        format!("{:.1} µs", nanos / 1e3)
    } else if nanos < 1e9 {
        format!("{:.1} ms", nanos / 1e6)
    } else {
        format!("{:.2} s", nanos / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(69_175_317), "69,175,317");
        assert_eq!(duration(412.0), "412 ns");
        assert_eq!(duration(3_140.0), "3.1 µs");
        assert_eq!(duration(2_310_000_000.0), "2.31 s");
    }

    #[test]
    fn markdown_aligns() {
        let t = markdown(&["a", "n"], 1, vec![vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "| a   | n |\n|:----|--:|\n| xyz | 1 |\n");
    }
}
