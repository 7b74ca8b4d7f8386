//! A tour page, parsed once: its console blocks, its prose units (paragraphs,
//! headings, list items, table rows) with the HTML comments that bind their
//! numbers, its code spans, links and `docs:` directives.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// Stands in for a code span in a unit's visible text: not a digit, not a
/// letter, so numbers next to code spans stay separate words.
pub const CODE_MARK: char = '\u{1}';
/// Source offset of visible text that has no single source position
/// (entities, line breaks, code placeholders): never rewritten.
pub const NO_SOURCE: usize = usize::MAX;

/// One Markdown page of the tour.
pub struct Doc {
    /// Path relative to the project root, e.g. `docs/05-mrv.md`.
    pub rel: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// `console` and `console-pending` blocks, in page order.
    pub blocks: Vec<Block>,
    /// Every fenced block (console blocks included).
    pub fences: Vec<Fence>,
    pub units: Vec<Unit>,
    pub links: Vec<Link>,
    /// GitHub anchors of the page's headings.
    pub anchors: Vec<String>,
    pub directives: Vec<Directive>,
}

/// A fenced block.
pub struct Fence {
    /// The info string (`console exit=1`, `text`, ...).
    pub info: String,
    pub content: String,
    /// 0-based line of the opening fence.
    pub open_line: usize,
    /// 0-based line of the closing fence (the line after the content).
    pub close_line: usize,
}

/// A command and what it printed: a fenced block tagged `console` (or
/// `console-pending`) whose first line is `$ sudoku-lab ARGS`.
#[derive(Clone)]
pub struct Block {
    pub open_line: usize,
    pub close_line: usize,
    /// The arguments after `sudoku-lab` (or after `--` of an example's
    /// `cargo run`).
    pub command: String,
    /// The example program the block runs, as a reader would:
    /// `$ cargo run --release --example NAME -- ARGS` (`None`: sudoku-lab).
    pub example: Option<String>,
    /// The printed lines (standard output, then standard error).
    pub expected: String,
    /// Tagged `console-pending`: a command that cannot run yet.
    pub pending: bool,
    /// The documented exit code (`exit=N` in the info string; 0 if absent).
    pub exit: i32,
    /// `id=NAME` in the info string: lets prose name this block explicitly.
    pub id: Option<String>,
}

impl Block {
    /// 0-based line of the `$ sudoku-lab` line.
    pub fn command_line(&self) -> usize {
        self.open_line + 1
    }
}

/// A run of prose that is read as one: a paragraph, a heading, a list item's
/// text or a table row.
pub struct Unit {
    pub kind: UnitKind,
    /// Visible text: code spans replaced by [`CODE_MARK`], link text kept,
    /// HTML comments removed (see `comments`), line breaks as spaces.
    pub text: String,
    /// Source offset of each byte of `text` ([`NO_SOURCE`] where none).
    pub src: Vec<usize>,
    /// HTML comments: position in `text` where they stood, their body.
    pub comments: Vec<(usize, String)>,
    /// Code spans, in order.
    pub code: Vec<String>,
    /// Source offset of the unit's start.
    pub start: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnitKind {
    Paragraph,
    Heading,
    Item,
    TableRow,
}

/// A link or image target.
pub struct Link {
    pub dest: String,
    pub image: bool,
    pub offset: usize,
}

/// `<!-- docs: WORD ARGS -->`.
pub struct Directive {
    pub word: String,
    pub args: String,
    pub offset: usize,
}

impl Doc {
    pub fn parse(rel: &str, text: &str) -> Doc {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut doc = Doc {
            rel: rel.to_string(),
            text: text.to_string(),
            line_starts,
            blocks: Vec::new(),
            fences: Vec::new(),
            units: Vec::new(),
            links: Vec::new(),
            anchors: Vec::new(),
            directives: Vec::new(),
        };
        doc.walk();
        doc
    }

    /// 0-based line of a source offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// The lines of the page.
    pub fn lines(&self) -> Vec<&str> {
        self.text.lines().collect()
    }

    /// Constants declared by `<!-- docs: constants A; B; ... -->`: number
    /// phrases that are facts of the rules or of the problems, not measurements.
    pub fn constants(&self) -> Vec<String> {
        self.directive_words("constants", ';')
    }

    /// Names declared by `<!-- docs: foreign a b ... -->`: code names that
    /// are not the lab's (the seed programs', the judge's, Markdown's).
    pub fn foreign(&self) -> Vec<String> {
        self.directive_words("foreign", ' ')
    }

    fn directive_words(&self, word: &str, sep: char) -> Vec<String> {
        self.directives
            .iter()
            .filter(|d| d.word == word)
            .flat_map(|d| d.args.split(sep).map(|s| s.trim().to_string()))
            .filter(|s| !s.is_empty())
            .collect()
    }

    fn walk(&mut self) {
        let text = self.text.clone();
        let mut units: Vec<Unit> = Vec::new();
        let mut open: Vec<Unit> = Vec::new();
        let mut fence: Option<(String, usize, String)> = None;
        let mut heading: Option<String> = None;
        let mut image_depth = 0usize;
        let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
        for (event, range) in Parser::new_ext(&text, opts).into_offset_iter() {
            match event {
                Event::Start(tag) => match tag {
                    Tag::Paragraph | Tag::Item | Tag::TableRow | Tag::TableHead => {
                        let kind = match tag {
                            Tag::Paragraph => UnitKind::Paragraph,
                            Tag::Item => UnitKind::Item,
                            _ => UnitKind::TableRow,
                        };
                        open.push(Unit::new(kind, range.start));
                    }
                    Tag::Heading { .. } => {
                        open.push(Unit::new(UnitKind::Heading, range.start));
                        heading = Some(String::new());
                    }
                    Tag::TableCell => {
                        if let Some(u) = open.last_mut()
                            && !u.text.is_empty()
                        {
                            u.push(" | ", NO_SOURCE);
                        }
                    }
                    Tag::CodeBlock(kind) => {
                        let info = match kind {
                            CodeBlockKind::Fenced(info) => info.to_string(),
                            CodeBlockKind::Indented => String::new(),
                        };
                        fence = Some((info, range.start, String::new()));
                    }
                    Tag::Link { dest_url, .. } => self.links.push(Link {
                        dest: dest_url.to_string(),
                        image: false,
                        offset: range.start,
                    }),
                    Tag::Image { dest_url, .. } => {
                        image_depth += 1;
                        self.links.push(Link {
                            dest: dest_url.to_string(),
                            image: true,
                            offset: range.start,
                        })
                    }
                    _ => {}
                },
                Event::End(end) => match end {
                    TagEnd::Paragraph
                    | TagEnd::Item
                    | TagEnd::TableRow
                    | TagEnd::TableHead
                    | TagEnd::Heading(_) => {
                        if let Some(u) = open.pop() {
                            if matches!(end, TagEnd::Heading(_))
                                && let Some(h) = heading.take()
                            {
                                self.anchors.push(anchor(&h));
                            }
                            units.push(u);
                        }
                    }
                    TagEnd::CodeBlock => {
                        if let Some((info, start, content)) = fence.take() {
                            self.add_fence(info, start..range.end, content);
                        }
                    }
                    TagEnd::Image => image_depth = image_depth.saturating_sub(1),
                    _ => {}
                },
                Event::Text(t) => {
                    if let Some((_, _, content)) = fence.as_mut() {
                        content.push_str(&t);
                    } else if image_depth > 0 {
                        // Alt text: not prose that makes claims.
                    } else {
                        if let Some(h) = heading.as_mut() {
                            h.push_str(&t);
                        }
                        if let Some(u) = open.last_mut() {
                            let exact = text.get(range.clone()) == Some(&*t);
                            if exact {
                                u.push(&t, range.start);
                            } else {
                                u.push(&t, NO_SOURCE);
                            }
                        }
                    }
                }
                Event::Code(c) => {
                    if let Some(h) = heading.as_mut() {
                        h.push_str(&c);
                    }
                    if let Some(u) = open.last_mut() {
                        u.code.push(c.to_string());
                        u.push(&CODE_MARK.to_string(), NO_SOURCE);
                    }
                }
                Event::SoftBreak | Event::HardBreak => {
                    if let Some(u) = open.last_mut() {
                        u.push(" ", NO_SOURCE);
                    }
                }
                Event::InlineHtml(h) => {
                    if let Some(body) = comment_body(&h) {
                        if let Some(d) = directive(body, range.start) {
                            self.directives.push(d);
                        } else if let Some(u) = open.last_mut() {
                            u.comments.push((u.text.len(), body.to_string()));
                        }
                    }
                }
                Event::Html(h) => {
                    for piece in h.split("<!--").skip(1) {
                        if let Some(body) = piece.split("-->").next()
                            && let Some(d) = directive(body, range.start)
                        {
                            self.directives.push(d);
                        }
                    }
                }
                _ => {}
            }
        }
        units.sort_by_key(|u| u.start);
        self.units = units;
    }

    fn add_fence(&mut self, info: String, range: Range<usize>, content: String) {
        let open_line = self.line_of(range.start);
        let close_line = self.line_of(range.end.saturating_sub(1));
        let mut words = info.split_whitespace();
        let tag = words.next().unwrap_or("");
        if matches!(tag, "console" | "console-pending")
            && let Some(first) = content.lines().next()
            && let Some((example, cmd)) = program_and_args(first)
        {
            let mut exit = 0;
            let mut id = None;
            for w in info.split_whitespace().skip(1) {
                if let Some(n) = w.strip_prefix("exit=") {
                    exit = n.parse().unwrap_or(-1);
                } else if let Some(n) = w.strip_prefix("id=") {
                    id = Some(n.to_string());
                }
            }
            let expected: Vec<&str> = content.lines().skip(1).collect();
            self.blocks.push(Block {
                open_line,
                close_line,
                command: cmd.trim().to_string(),
                example,
                expected: expected.join("\n").trim_end().to_string(),
                pending: tag == "console-pending",
                exit,
                id,
            });
        }
        self.fences.push(Fence {
            info,
            content,
            open_line,
            close_line,
        });
    }
}

impl Unit {
    fn new(kind: UnitKind, start: usize) -> Unit {
        Unit {
            kind,
            text: String::new(),
            src: Vec::new(),
            comments: Vec::new(),
            code: Vec::new(),
            start,
        }
    }

    fn push(&mut self, s: &str, src: usize) {
        for (i, _) in s.bytes().enumerate() {
            self.src
                .push(if src == NO_SOURCE { NO_SOURCE } else { src + i });
        }
        self.text.push_str(s);
    }
}

/// The body of `<!-- BODY -->`.
pub fn comment_body(html: &str) -> Option<&str> {
    html.trim()
        .strip_prefix("<!--")
        .and_then(|s| s.strip_suffix("-->"))
}

fn directive(body: &str, offset: usize) -> Option<Directive> {
    let rest = body.trim().strip_prefix("docs:")?.trim();
    let (word, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    Some(Directive {
        word: word.to_string(),
        args: args.trim().to_string(),
        offset,
    })
}

/// GitHub's anchor for a heading: lower case, spaces to dashes, punctuation
/// other than `-` and `_` dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c == ' ' {
                Some('-')
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}

/// The program a block's first line runs (`None`: sudoku-lab, `Some`: an
/// example's name) and its arguments.
pub fn program_and_args(line: &str) -> Option<(Option<String>, &str)> {
    if let Some(cmd) = line.strip_prefix("$ sudoku-lab") {
        return Some((None, cmd));
    }
    let rest = line.strip_prefix("$ cargo run --release --example ")?;
    let (name, args) = rest.split_once(" -- ")?;
    Some((Some(name.trim().to_string()), args))
}
