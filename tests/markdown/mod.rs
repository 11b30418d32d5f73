//! The manual's Markdown, read with pulldown-cmark: which files make it up,
//! their code blocks, links and heading anchors. Shared by the docs test
//! (`tests/docs.rs`), the link test (`tests/links.rs`) and the book test
//! (`tests/book.rs`).

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The manual, as paths relative to the root: README.md, then every
/// Markdown file under docs/, in order.
pub fn manual_files() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs = Vec::new();
    walk(&root(), Path::new("docs"), &mut docs);
    docs.sort();
    files.extend(docs);
    files
}

/// Markdown files under `rel` (relative to `base`), recursively.
fn walk(base: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(base.join(rel)) else {
        return;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let path = rel.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            walk(base, &path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The Markdown extensions GitHub and mdBook both read.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// A code block as written.
#[derive(Debug)]
pub struct CodeBlock {
    /// The info string after the opening fence (`console,ignore`); empty
    /// for an indented block or a bare fence.
    pub info: String,
    /// The line of the opening fence.
    pub line: usize,
    /// Whether the block is fenced with backticks at the start of its line,
    /// the only kind trycmd sees (not indented, not in a list or quote,
    /// not fenced with tildes).
    pub flush_backticks: bool,
    /// Whether the block is fenced at all (not an indented block).
    pub fenced: bool,
    /// The block's content.
    pub body: String,
}

impl CodeBlock {
    /// The language: the info string up to the first comma or space.
    pub fn lang(&self) -> &str {
        self.info
            .split([',', ' '])
            .next()
            .unwrap_or_default()
            .trim()
    }

    /// Whether the info string carries the word `word` (`ignore` in
    /// `console,ignore`).
    pub fn has_flag(&self, word: &str) -> bool {
        self.info
            .split([',', ' '])
            .skip(1)
            .any(|w| w.trim() == word)
    }
}

/// Every code block of `text`.
pub fn code_blocks(text: &str) -> Vec<CodeBlock> {
    let mut blocks = Vec::new();
    let mut open: Option<CodeBlock> = None;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let (info, fenced) = match kind {
                    CodeBlockKind::Fenced(info) => (info.to_string(), true),
                    CodeBlockKind::Indented => (String::new(), false),
                };
                let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
                let flush_backticks =
                    fenced && line_start == range.start && text[range.start..].starts_with("```");
                open = Some(CodeBlock {
                    info,
                    line: line_of(text, range.start),
                    flush_backticks,
                    fenced,
                    body: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(block) = open.as_mut() {
                    block.body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            _ => {}
        }
    }
    blocks
}

/// A link or image destination as written, with its line.
#[derive(Debug)]
pub struct Link {
    pub dest: String,
    pub line: usize,
}

/// Every link and image of `text`, with `[text][ref]` references that name
/// no definition reported as links to `[ref]` so the caller can refuse them.
pub fn links(text: &str) -> Vec<Link> {
    let mut broken = Vec::new();
    let mut callback = |b: pulldown_cmark::BrokenLink<'_>| {
        // A shortcut `[word]` with no definition is plain text in both
        // renderers (e.g. `[..]` in prose); a full or collapsed reference
        // with no definition is a mistake.
        if !matches!(b.link_type, pulldown_cmark::LinkType::Shortcut) {
            broken.push((b.span.start, b.reference.to_string()));
        }
        None
    };
    let mut links = Vec::new();
    let parser = Parser::new_with_broken_link_callback(text, options(), Some(&mut callback))
        .into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => {
                links.push(Link {
                    dest: dest_url.to_string(),
                    line: line_of(text, range.start),
                });
            }
            // Raw HTML: <img src="…">, <a href="…">.
            Event::Html(html) | Event::InlineHtml(html) => {
                for attr in ["src", "href"] {
                    for value in html_attr_values(&html, attr) {
                        links.push(Link {
                            dest: value,
                            line: line_of(text, range.start),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    for (offset, reference) in broken {
        links.push(Link {
            dest: format!("[{reference}]"),
            line: line_of(text, offset),
        });
    }
    links.sort_by_key(|l| l.line);
    links
}

/// The values of `attr="…"` (or `'…'`) in a piece of raw HTML.
pub fn html_attr_values(html: &str, attr: &str) -> Vec<String> {
    let mut values = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(&format!("{attr}=")) {
        let start = from + i + attr.len() + 1;
        from = start;
        // Only a whole attribute name: preceded by whitespace.
        let before = lower[..from - attr.len() - 1].chars().next_back();
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let Some(quote) = html[start..]
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
        else {
            continue;
        };
        if let Some(end) = html[start + 1..].find(quote) {
            values.push(html[start + 1..start + 1 + end].to_string());
        }
    }
    values
}

/// The anchors `text` defines: each heading's id by GitHub's rule and by
/// mdBook's (they differ only in corner cases; a link may use either),
/// numbered `-1`, `-2` … when a heading repeats, explicit `{#id}`
/// attributes, and `<a id>`/`<a name>` in raw HTML.
pub fn anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut seen_github: BTreeSet<String> = BTreeSet::new();
    let mut seen_mdbook: BTreeSet<String> = BTreeSet::new();
    let mut heading: Option<(String, Option<String>)> = None;
    for event in Parser::new_ext(text, options()) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((String::new(), id.map(|i| i.to_string())));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((h, _)) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let (title, id) = heading.take().unwrap();
                if let Some(id) = id {
                    anchors.insert(id);
                    continue;
                }
                anchors.insert(unique(slug_github(&title), &mut seen_github));
                anchors.insert(unique(slug_mdbook(&title), &mut seen_mdbook));
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                for attr in ["id", "name"] {
                    anchors.extend(html_attr_values(&html, attr));
                }
            }
            _ => {}
        }
    }
    anchors
}

/// `slug`, or `slug-1`, `slug-2` … if taken.
fn unique(slug: String, seen: &mut BTreeSet<String>) -> String {
    let mut candidate = slug.clone();
    let mut n = 0;
    while seen.contains(&candidate) {
        n += 1;
        candidate = format!("{slug}-{n}");
    }
    seen.insert(candidate.clone());
    candidate
}

/// GitHub's heading id: lower case; letters, digits, `-` and `_` kept,
/// each space a `-`, everything else dropped.
pub fn slug_github(title: &str) -> String {
    title
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// mdBook's heading id (`normalize_id`): ASCII lower case; letters,
/// digits, `-` and `_` kept, each whitespace a `-`, everything else dropped.
pub fn slug_mdbook(title: &str) -> String {
    title
        .trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// Headings of `text` at `level`, as plain text.
pub fn headings(text: &str, level: HeadingLevel) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for event in Parser::new_ext(text, options()) {
        match event {
            Event::Start(Tag::Heading { level: l, .. }) if l == level => {
                current = Some(String::new());
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = current.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}
