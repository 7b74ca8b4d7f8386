//! From the COMMAND of `--program NAME=COMMAND` to an argument vector,
//! without a shell: nothing is expanded, redirected or piped.

use crate::io::program::SpecError;

/// Splits a command into arguments, the way a POSIX shell splits words
/// but with nothing else of a shell:
///
/// * unquoted whitespace separates arguments;
/// * `'...'` keeps everything inside as it is;
/// * `"..."` keeps everything inside, except that `\"` and `\\` stand for
///   `"` and `\`;
/// * outside quotes, `\` makes the next character ordinary (`a\ b` is one
///   argument);
/// * `$`, `*`, `|`, `>`, `;`, `~` are ordinary characters. For a pipeline or
///   a redirection, name a shell: `sh -c 'gunzip -c x.gz | ./solver'`.
///
/// The first argument is the program: a path, or a name looked up in `PATH`.
///
/// ```
/// use sudoku_lab::io::program::split_command;
/// assert_eq!(split_command("./solve --fast").unwrap(), ["./solve", "--fast"]);
/// assert_eq!(split_command(r#"python3 "my solver.py" a\ b ''"#).unwrap(),
///            ["python3", "my solver.py", "a b", ""]);
/// assert_eq!(split_command("sh -c 'echo $HOME | cat'").unwrap(),
///            ["sh", "-c", "echo $HOME | cat"]);
/// assert!(split_command("python3 'unclosed").is_err());
/// ```
pub fn split_command(command: &str) -> Result<Vec<String>, SpecError> {
    let mut args = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    args.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(SpecError::Unterminated('\'', command.into())),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(SpecError::Unterminated('"', command.into())),
                        },
                        Some(c) => w.push(c),
                        None => return Err(SpecError::Unterminated('"', command.into())),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(SpecError::TrailingBackslash(command.into())),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word {
        args.push(w);
    }
    if args.is_empty() {
        return Err(SpecError::EmptyCommand);
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_quotes_and_escapes() {
        let ok = |s: &str| split_command(s).unwrap();
        assert_eq!(ok("  a   b\tc  "), ["a", "b", "c"]);
        assert_eq!(ok("a'b c'd"), ["ab cd"]);
        assert_eq!(ok(r#""a \"q\" \\ \n""#), [r#"a "q" \ \n"#]);
        assert_eq!(ok(r"a\'b"), ["a'b"]);
        assert_eq!(ok("x ''"), ["x", ""]);
        assert_eq!(ok("ä 'ü ö'"), ["ä", "ü ö"]);
        assert_eq!(split_command("   "), Err(SpecError::EmptyCommand));
        assert_eq!(split_command(""), Err(SpecError::EmptyCommand));
        assert!(matches!(
            split_command("a \"b"),
            Err(SpecError::Unterminated('"', _))
        ));
        assert!(matches!(
            split_command("a\\"),
            Err(SpecError::TrailingBackslash(_))
        ));
    }
}
