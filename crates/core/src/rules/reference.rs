//! The rules-file reference as data: every table and key a family's files may use, each with
//! one line, what to write, its default, a short correct example and a longer text. It is the
//! one source of the help notes under errors (`= help: board.pits: …; e.g. pits = 6`), of
//! `ludus explain`, and of the checks that keep the reference in docs/rules.md in step (every key here is
//! in docs/rules.md, every key the files accept is here). Each family declares its own
//! [`FamilyRef`]; the `[game]` table, shared by all, is declared here.

use super::toml::RulesDoc;
use crate::diagnostics::{did_you_mean, Diagnostic};
use crate::expr::Scope;

/// Names of an expression context listed under an error about one of them.
const SHOWN_NAMES: usize = 8;

/// One key of a rules file.
#[derive(Clone, Copy, Debug)]
pub struct KeyRef {
    /// The table it belongs in: `board`, `moves.leave`.
    pub section: &'static str,
    pub key: &'static str,
    /// What it means, in one line.
    pub line: &'static str,
    /// What to write, completing "expected …": `a whole number from 1 to 16`.
    pub expects: &'static str,
    /// The words it takes, for a key that is one of a few options (or a list of them).
    pub values: &'static [&'static str],
    /// Its default (`—` for a required key).
    pub default: &'static str,
    /// A short correct example, as written in a file: `pits = 6`.
    pub example: &'static str,
    /// The full reference text.
    pub long: &'static str,
}

impl KeyRef {
    /// `board.pits`.
    pub fn path(&self) -> String {
        format!("{}.{}", self.section, self.key)
    }

    /// The note shown under an error about this key.
    pub fn help(&self) -> String {
        format!(
            "help: {}: {}; e.g. {}",
            self.path(),
            self.line,
            self.example
        )
    }
}

/// One table of a rules file.
#[derive(Clone, Copy, Debug)]
pub struct SectionRef {
    /// `board`, `moves.leave`.
    pub name: &'static str,
    pub line: &'static str,
    pub required: bool,
    /// Written `[[name]]`, any number of times.
    pub repeated: bool,
    /// Its keys, in the reference's order.
    pub keys: &'static [KeyRef],
}

impl SectionRef {
    /// `[board]` or `[[moves.leave]]`.
    pub fn header(&self) -> String {
        if self.repeated {
            format!("[[{}]]", self.name)
        } else {
            format!("[{}]", self.name)
        }
    }
}

/// The reference of one family's rules files.
#[derive(Clone, Copy, Debug)]
pub struct FamilyRef {
    /// As `[game] family` writes it.
    pub family: &'static str,
    /// Its tables with their keys, `[game]` first.
    pub sections: &'static [SectionRef],
    /// Each expression key (`capture.when`) with the names its expressions may use.
    pub scopes: fn() -> Vec<(&'static str, Scope)>,
    /// The groups of expression names written `group.field` (a sowing game's pit views:
    /// `last`, `opposite`), each with what it is.
    pub groups: &'static [(&'static str, &'static str)],
}

/// The `[game]` table every rules file starts with.
pub const GAME_SECTION: SectionRef = SectionRef {
    name: "game",
    line: "what the file is: its name, family, title, source and players",
    required: true,
    repeated: false,
    keys: GAME_KEYS,
};

/// The `[ai]` table both families' files may end with: not a rule, the computer players'
/// measure of a position. Each family gives its keys: `SectionRef { keys, ..AI_SECTION }`.
pub const AI_SECTION: SectionRef = SectionRef {
    name: "ai",
    line: "how the computer players value a position (no rule of the game)",
    required: false,
    repeated: false,
    keys: &[],
};

/// The keys of `[game]`.
pub const GAME_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "game",
        key: "name",
        line: "short name, used in records and the protocol (required)",
        expects: "text in quotes",
        values: &[],
        default: "—",
        example: "name = \"my-oware\"",
        long: "The game's short name: records, the protocol's `load` answer and the terminal use \
               it. Keep it short, without spaces or control characters.",
    },
    KeyRef {
        section: "game",
        key: "family",
        line: "the family of games the file describes (required)",
        expects: "\"sowing\" or \"tables\"",
        values: &["sowing", "tables"],
        default: "—",
        example: "family = \"sowing\"",
        long: "Which interpreter reads the rest of the file: \"sowing\" (mancala games: pits, \
               stones, sowing, captures) or \"tables\" (backgammon games: 24 points, two dice, \
               checkers). The other tables and keys depend on it.",
    },
    KeyRef {
        section: "game",
        key: "title",
        line: "the human title",
        expects: "text in quotes",
        values: &[],
        default: "the name",
        example: "title = \"Oware, my way\"",
        long: "The title shown by `ludus list`, `ludus show` and `ludus play`.",
    },
    KeyRef {
        section: "game",
        key: "source",
        line: "where the rules come from, which readings were chosen",
        expects: "text in quotes",
        values: &[],
        default: "none",
        example: "source = \"The Oware Society's rules; grand slam legal\"",
        long: "Free text shown by `ludus show`: the books or pages the rules come from and how \
               their ambiguities were read. \"\"\"...\"\"\" runs over several lines.",
    },
    KeyRef {
        section: "game",
        key: "players",
        line: "the two players' names, player 0 first",
        expects: "a list of two names such as `[\"South\", \"North\"]`",
        values: &[],
        default: "[\"South\", \"North\"] (sowing), [\"White\", \"Black\"] (tables)",
        example: "players = [\"South\", \"North\"]",
        long: "Exactly two names, player 0 (who sits South, or plays White) first. Boards, \
               prompts and results name the players by them.",
    },
];

/// Warnings about `[game]`, whatever the family: an empty name, title or player name, a control
/// character in one, the same name for both players.
pub fn game_warnings(doc: &RulesDoc) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut check = |what: &str, value: &toml::Spanned<String>| {
        let text = value.get_ref();
        if text.trim().is_empty() {
            out.push(
                Diagnostic::warning(format!("{what} is empty"))
                    .at(value.span())
                    .note("boards, records and results show it"),
            );
        } else if let Some(c) = text.chars().find(|c| c.is_control()) {
            out.push(
                Diagnostic::warning(format!(
                    "{what} holds a control character ({})",
                    c.escape_default()
                ))
                .at(value.span())
                .note("it would move the cursor or ring the bell where the name is shown"),
            );
        }
    };
    if let Some(name) = doc.string(&["game", "name"]) {
        check("the game's `name`", &name);
    }
    if let Some(title) = doc.string(&["game", "title"]) {
        check("the game's `title`", &title);
    }
    let players = doc.strings(&["game", "players"]);
    for (i, p) in players.iter().enumerate() {
        check(&format!("player {i}'s name"), p);
    }
    if let [a, b] = players.as_slice() {
        if a.get_ref() == b.get_ref() && !a.get_ref().trim().is_empty() {
            out.push(
                Diagnostic::warning(format!(
                    "both players are named \"{}\"",
                    crate::limits::excerpt(a.get_ref())
                ))
                .at(b.span())
                .note("boards, prompts and results could not tell them apart"),
            );
        }
    }
    out
}

impl FamilyRef {
    /// Every key, table by table: `[game]`'s, then the family's.
    pub fn all_keys(&self) -> impl Iterator<Item = &'static KeyRef> {
        self.sections.iter().flat_map(|s| s.keys.iter())
    }

    /// The key `key` of table `section`.
    pub fn key(&self, section: &str, key: &str) -> Option<&'static KeyRef> {
        self.all_keys()
            .find(|k| k.section == section && k.key == key)
    }

    pub fn section(&self, name: &str) -> Option<&'static SectionRef> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// `[board]`, `[[moves.leave]]`: a table's header as written.
    fn header(&self, table: &str) -> String {
        self.section(table)
            .map_or_else(|| format!("[{table}]"), SectionRef::header)
    }

    /// The key (or else the table) at a path of keys (`["moves", "leave", "when"]`).
    fn at(&self, path: &[String]) -> (Option<&'static KeyRef>, Option<&'static SectionRef>) {
        if let Some((key, table)) = path.split_last() {
            if let Some(k) = self.key(&table.join("."), key) {
                return (Some(k), self.section(k.section));
            }
        }
        (None, self.section(&path.join(".")))
    }

    /// Rewrites a diagnostic of a rules file of this family in the reference's words: the key
    /// and table named, what the key takes instead of what the deserializer wanted, suggestions
    /// for misspelt keys and options, and the key's help line.
    pub fn annotate(&self, doc: &RulesDoc, d: &mut Diagnostic) {
        let Some(span) = d.span.clone() else {
            return;
        };
        let text = doc.text();
        let path = doc.path_at(span.start);
        let (entry, section) = self.at(&path);
        let mut help = entry;
        let message = d.message.clone();
        if let Some(rest) = message.strip_prefix("unknown field `") {
            let found = rest.split('`').next().unwrap_or_default().to_string();
            let accepted: Vec<String> = rest
                .split('`')
                .skip(2)
                .step_by(2)
                .map(String::from)
                .collect();
            let table = path[..path.len().saturating_sub(1)].join(".");
            let suggestion = did_you_mean(&found, accepted.iter().map(String::as_str));
            help = suggestion.and_then(|s| self.key(&table, s));
            if table.is_empty() && doc.value_span(&[found.as_str()]).is_some() {
                d.message = format!("unknown key `{found}` before every table");
                d.notes.push(format!(
                    "a key belongs in a table: {}",
                    list(accepted.iter().map(|a| format!("[{a}]")))
                ));
            } else if table.is_empty() {
                d.message = format!("unknown table `[{found}]`");
                d.notes.push(format!(
                    "the tables of a {} file: {}",
                    self.family,
                    list(accepted.iter().map(|a| format!("[{a}]")))
                ));
            } else {
                let header = self.header(&table);
                d.message = format!("unknown field `{found}` in `{header}`");
                d.notes
                    .push(format!("the keys of `{header}`: {}", list(accepted.iter())));
            }
            if let Some(s) = self.sections.iter().find(|s| s.name == found) {
                d.notes.push(format!(
                    "`{found}` is a table: its keys go under a header `{}`",
                    s.header()
                ));
            } else if let Some(elsewhere) = self.all_keys().find(|k| k.key == found) {
                d.notes
                    .push(format!("`{found}` is a key of `[{}]`", elsewhere.section));
                help = Some(elsewhere);
            }
        } else if let Some(rest) = message.strip_prefix("missing key `") {
            let key = rest.split('`').next().unwrap_or_default();
            let table = if span.is_empty() || !text[span.start..].starts_with('[') {
                String::new()
            } else {
                path.join(".")
            };
            if table.is_empty() {
                d.message = format!("missing table `[{key}]`");
                if let Some(s) = self.section(key) {
                    let required: Vec<&str> = self
                        .all_keys()
                        .filter(|k| k.section == key && k.default == "—")
                        .map(|k| k.example)
                        .collect();
                    d.notes.push(format!(
                        "help: {}: {}; e.g. {} {}",
                        s.header(),
                        s.line,
                        s.header(),
                        required.join(" ")
                    ));
                }
                help = None;
            } else {
                d.message = format!("missing key `{key}` in `{}`", self.header(&table));
                help = self.key(&table, key);
            }
        } else if let Some(rest) = message.strip_prefix("unknown variant `") {
            let found = rest.split('`').next().unwrap_or_default();
            let serde_options: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
            let whole = entry.is_some_and(|_| is_whole_value(doc, &path, &span));
            let name = entry.map_or(String::from("this key"), |k| format!("`{}`", k.path()));
            d.message = format!(
                "unknown value \"{found}\" {} {name}",
                if whole { "for" } else { "in" }
            );
            // An option is written in quotes: so is the suggestion.
            for n in &mut d.notes {
                if let Some(close) = n.strip_prefix("did you mean `") {
                    *n = format!("did you mean \"{}\"?", close.trim_end_matches("`?"));
                }
            }
            d.notes.push(format!(
                "expected {}",
                or_list(serde_options.iter().map(|o| format!("\"{o}\"")))
            ));
        } else if let Some((_, expected)) = type_error(&message) {
            let raw = text.get(span.clone()).unwrap_or_default();
            let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
            let found = describe(raw, text[line_start..span.start].trim().is_empty());
            let expected = match entry {
                Some(k) if is_whole_value(doc, &path, &span) => k.expects.to_string(),
                Some(k) if !k.values.is_empty() => format!(
                    "one of {}",
                    or_list(k.values.iter().map(|v| format!("\"{v}\"")))
                ),
                None => match section {
                    Some(s) => format!("the table `{}`", s.header()),
                    None => expected,
                },
                _ => expected,
            };
            let unquoted = raw.trim_matches(|c| c == '"' || c == '\'');
            let number_or_bool =
                unquoted.parse::<i64>().is_ok() || unquoted == "true" || unquoted == "false";
            if raw.starts_with(['"', '\'']) && number_or_bool && !expected.contains("quotes") {
                d.notes.push(format!("without the quotes: `{unquoted}`"));
            }
            d.message = format!("found {found}, expected {expected}");
        }
        // A context's every name is too long a note: its first few, and where to read them all.
        if let Some(k) = entry {
            for n in &mut d.notes {
                let Some(names) = n.strip_prefix("names here: ") else {
                    continue;
                };
                let names: Vec<&str> = names.split(", ").collect();
                if names.len() > SHOWN_NAMES {
                    *n = format!(
                        "names here: {}, … (`ludus explain {}` lists all {})",
                        names[..SHOWN_NAMES].join(", "),
                        k.path(),
                        names.len()
                    );
                }
            }
        }
        if let Some(k) = help {
            let note = k.help();
            if !d.notes.contains(&note) {
                d.notes.push(note);
            }
        }
    }

    /// The error for a string option that is not one of the key's values: named, with the
    /// values and the closest one.
    pub fn unknown_option(
        &self,
        section: &str,
        key: &str,
        found: &toml::Spanned<String>,
    ) -> Diagnostic {
        let entry = self.key(section, key);
        let values = entry.map_or(&[][..], |k| k.values);
        let mut d = Diagnostic::new(format!(
            "unknown value \"{}\" for `{section}.{key}`",
            crate::limits::excerpt(found.get_ref())
        ))
        .at(found.span());
        if let Some(close) = did_you_mean(found.get_ref(), values.iter().copied()) {
            d = d.note(format!("did you mean \"{close}\"?"));
        }
        d.note(format!(
            "expected {}",
            or_list(values.iter().map(|v| format!("\"{v}\"")))
        ))
    }
}

/// Whether `span` is the whole value of the key at `path` (not an item inside it).
fn is_whole_value(doc: &RulesDoc, path: &[String], span: &std::ops::Range<usize>) -> bool {
    let keys: Vec<&str> = path.iter().map(String::as_str).collect();
    match doc.value_span(&keys) {
        Some(s) => s.start == span.start,
        // A table where a value belongs.
        None => true,
    }
}

/// "found the text \"x\", expected a whole number": the expectation, for the messages of a
/// value of the wrong type or out of range.
fn type_error(message: &str) -> Option<(&str, String)> {
    if message.starts_with("found ") {
        let (found, expected) = message.split_once(", expected ")?;
        return Some((found, expected.to_string()));
    }
    message
        .strip_prefix("expected one of the options")
        .map(|_| ("", "one of the options, in quotes".to_string()))
}

/// What a value as written is, in words: `the text "six"`, `the number `6.5``, `a list`;
/// `line_start`: it starts its line (so `[x]` is a table's header, not a list).
pub fn describe(raw: &str, line_start: bool) -> String {
    let raw = raw.trim();
    let first_line = raw.lines().next().unwrap_or_default();
    let shown = crate::limits::excerpt(first_line);
    match raw.chars().next() {
        None => "nothing".to_string(),
        Some('"' | '\'') => format!("the text {shown}"),
        Some('[') if line_start && raw.starts_with("[[") => {
            format!("a list of tables `{shown}`")
        }
        Some('[') if line_start && is_header(first_line) => format!("the table `{shown}`"),
        Some('[') => "a list".to_string(),
        Some('{') => "a table".to_string(),
        Some(_) if raw == "true" || raw == "false" => format!("`{raw}`"),
        Some(c) if c.is_ascii_digit() && (raw.contains(':') || raw[1..].contains('-')) => {
            format!("the date `{shown}`")
        }
        Some(_) => format!("the number `{shown}`"),
    }
}

/// Whether a line starting with `[` is a table header (`[capture.when]`, a dotted name) rather
/// than a list.
fn is_header(line: &str) -> bool {
    let line = line.split('#').next().unwrap_or_default().trim();
    line.len() > 2
        && line.ends_with(']')
        && line[1..line.len() - 1]
            .chars()
            .all(|c| c.is_alphanumeric() || "_-. ".contains(c))
}

/// `a`, `b` or `c`.
fn or_list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// `a`, `b`, `c` in backticks.
fn list<S: AsRef<str>>(items: impl Iterator<Item = S>) -> String {
    let items: Vec<String> = items.map(|i| format!("`{}`", i.as_ref())).collect();
    items.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_described_as_written() {
        assert_eq!(describe("\"six\"", false), "the text \"six\"");
        assert_eq!(describe("6.5", false), "the number `6.5`");
        assert_eq!(describe("-1", false), "the number `-1`");
        assert_eq!(describe("1979-05-27", false), "the date `1979-05-27`");
        assert_eq!(describe("[1, 2]", false), "a list");
        assert_eq!(describe("[6]", false), "a list");
        assert_eq!(describe("[\"a\"]", false), "a list");
        assert_eq!(
            describe("[capture.when]", true),
            "the table `[capture.when]`"
        );
        assert_eq!(describe("[[end]]", true), "a list of tables `[[end]]`");
        assert_eq!(describe("{ a = 1 }", false), "a table");
        assert_eq!(describe("true", false), "`true`");
    }

    #[test]
    fn options_are_listed_with_or() {
        let l = |v: &[&str]| or_list(v.iter().map(|s| s.to_string()));
        assert_eq!(l(&["a"]), "a");
        assert_eq!(l(&["a", "b"]), "a or b");
        assert_eq!(l(&["a", "b", "c"]), "a, b or c");
    }
}
