//! Worked examples drawn as text, recomputed from the rules: a block after
//! `<!-- docs: check KIND -->` must be right by the rules of Sudoku, whatever
//! the lab's code does (the code is checked by its own tests).

/// Problems with a checked picture.
pub fn check(kind: &str, content: &str) -> Vec<String> {
    match kind {
        "dlx-matrix" => dlx_matrix(content),
        "band-filter" => band_filter(content),
        other => vec![format!("unknown picture kind `{other}`")],
    }
}

/// Rows `rRcC = D` of an exact-cover matrix of an n×n Sudoku: four groups of
/// items (cell; row has digit; column has digit; box has digit), each group
/// n blocks of n marks (`X` = the option covers the item, `.` = not). In the
/// cell group, block r holds columns 1..n; in the others, block u (row,
/// column, box) holds digits 1..n.
fn dlx_matrix(content: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut rows = 0;
    for line in content.lines() {
        let t = line.trim();
        let Some((label, marks)) = t.split_once(char::is_whitespace) else {
            continue;
        };
        let Some((r, c)) = label
            .strip_prefix('r')
            .and_then(|s| s.split_once('c'))
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
        else {
            continue;
        };
        let marks = marks.trim();
        let Some(d) = marks
            .strip_prefix('=')
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse::<usize>().ok())
        else {
            problems.push(format!("`{t}`: expected `rRcC = D` then the marks"));
            continue;
        };
        let cells: Vec<char> = marks
            .splitn(3, char::is_whitespace)
            .nth(2)
            .unwrap_or("")
            .chars()
            .filter(|c| matches!(c, 'X' | '.'))
            .collect();
        let n = (cells.len() as f64 / 4.0).sqrt().round() as usize;
        let b = (n as f64).sqrt().round() as usize;
        if n < 4 || b * b != n || 4 * n * n != cells.len() {
            problems.push(format!(
                "`{t}`: {} marks is not 4·n² for a square n",
                cells.len()
            ));
            continue;
        }
        rows += 1;
        let bx = (r - 1) / b * b + (c - 1) / b + 1;
        let expect: [usize; 4] = [
            (r - 1) * n + (c - 1),
            n * n + (r - 1) * n + (d - 1),
            2 * n * n + (c - 1) * n + (d - 1),
            3 * n * n + (bx - 1) * n + (d - 1),
        ];
        for (i, &m) in cells.iter().enumerate() {
            let want = expect.contains(&i);
            if want != (m == 'X') {
                let group = ["cell", "row", "column", "box"][i / (n * n)];
                problems.push(format!(
                    "`{label} = {d}`: mark {} of the {group} items should be {}",
                    i % (n * n) + 1,
                    if want { "X" } else { "." }
                ));
            }
        }
    }
    if rows == 0 {
        problems.push("no matrix rows (`rRcC = D  marks`) found".into());
    }
    problems
}

/// A 3×9 band grid under a line ending in `before:` or `after:`.
fn grid_after(content: &str, label: &str) -> Option<[[bool; 9]; 3]> {
    let lines: Vec<&str> = content.lines().collect();
    let at = lines.iter().position(|l| l.trim_end().ends_with(label))?;
    let mut g = [[false; 9]; 3];
    for (r, row) in g.iter_mut().enumerate() {
        let l = lines.get(at + 1 + r)?;
        let marks: Vec<char> = l
            .split_once(char::is_whitespace)?
            .1
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '|')
            .collect();
        if marks.len() != 9 {
            return None;
        }
        for (k, m) in marks.iter().enumerate() {
            row[k] = *m != '.';
        }
    }
    Some(g)
}

/// The band filter of `fast`, recomputed: fold the band to "row r meets box
/// k", keep the (row, box) pairs that lie on a permutation inside the
/// pattern, keep only the cells of those pairs.
fn band_filter(content: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let (Some(before), Some(after)) = (
        grid_after(content, "before:"),
        grid_after(content, "after:"),
    ) else {
        return vec!["need a `before:` and an `after:` band (3 rows of 9 marks)".into()];
    };
    let mut pattern = [[false; 3]; 3];
    for r in 0..3 {
        for k in 0..3 {
            pattern[r][k] = (0..3).any(|j| before[r][3 * k + j]);
        }
    }
    // The folded pattern as drawn (a line `rR  x x x` after `folded`).
    let lines: Vec<&str> = content.lines().collect();
    if let Some(at) = lines.iter().position(|l| l.contains("folded")) {
        let drawn: Vec<Vec<bool>> = lines[at + 1..]
            .iter()
            .filter(|l| l.trim_start().starts_with('r'))
            .take(3)
            .map(|l| l.split_whitespace().skip(1).map(|w| w != ".").collect())
            .collect();
        for (r, row) in pattern.iter().enumerate() {
            if drawn.get(r).map(|v| v.as_slice()) != Some(&row[..]) {
                problems.push(format!("folded row r{} should be {row:?}", r + 1));
            }
        }
    } else {
        problems.push("no `folded` pattern".into());
    }
    // The six permutations, written out here on purpose rather than taken
    // from `fast/tables.rs`: the example is checked against the rules, not the code.
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let fit: Vec<&[usize; 3]> = perms
        .iter()
        .filter(|p| (0..3).all(|r| pattern[r][p[r]]))
        .collect();
    let mut keep = [[false; 3]; 3];
    for p in &fit {
        for r in 0..3 {
            keep[r][p[r]] = true;
        }
    }
    let index: usize = (0..9)
        .filter(|&q| pattern[q / 3][q % 3])
        .map(|q| 1 << q)
        .sum();
    if let Some(line) = lines.iter().find(|l| l.contains("index")) {
        let drawn: Option<usize> = line
            .split(|c: char| !c.is_ascii_digit())
            .rfind(|w| !w.is_empty())
            .and_then(|w| w.parse().ok());
        if drawn != Some(index) {
            problems.push(format!(
                "the table index of this pattern is {index}, not {drawn:?}"
            ));
        }
    }
    if let Some(line) = lines.iter().find(|l| l.contains("fit:")) {
        let listed = line.matches('(').count();
        if listed != fit.len() {
            problems.push(format!(
                "{} permutation(s) fit, the picture lists {listed}",
                fit.len()
            ));
        }
        for p in &fit {
            let s = format!("(b{},b{},b{})", p[0] + 1, p[1] + 1, p[2] + 1);
            if !line.replace(' ', "").contains(&s) {
                problems.push(format!("permutation {s} fits but is not listed"));
            }
        }
    }
    for r in 0..3 {
        for col in 0..9 {
            let want = before[r][col] && keep[r][col / 3];
            if after[r][col] != want {
                problems.push(format!(
                    "after the filter, r{}c{} should be {}",
                    r + 1,
                    col + 1,
                    if want { "kept" } else { "cleared" }
                ));
            }
        }
    }
    problems
}
