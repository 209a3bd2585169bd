//! The language server's incremental check (`CheckCache`) gives exactly
//! what a check from scratch gives: random whole agents, each edited many
//! times (a key typed or deleted in a random file, a line doubled or
//! dropped, a file added or removed, an earlier version restored), every
//! version checked both ways and compared in full: every source, finding,
//! merged response and memory entry, and the lowered registry.

use utter_compiler::{Agent, CheckCache, OpenOptions, ProjectFiles};
use utter_synth::Rng;

/// The whole result of a check, as text: two checks are the same when
/// these are.
fn outcome(agent: &Agent) -> (String, String) {
    (
        format!("{:#?}", agent.checked()),
        format!("{:#?}", agent.usable_registry()),
    )
}

/// The first line where two outcomes differ, with the lines before it.
fn first_difference(a: &(String, String), b: &(String, String)) -> String {
    let (x, y) = if a.0 != b.0 {
        (&a.0, &b.0)
    } else {
        (&a.1, &b.1)
    };
    let lines: Vec<&str> = x.lines().collect();
    x.lines()
        .zip(y.lines())
        .position(|(l, r)| l != r)
        .map_or("one is longer".to_owned(), |i| {
            format!(
                "incremental {:?}, from scratch {:?}, after {:#?}",
                lines[i],
                y.lines().nth(i).unwrap_or_default(),
                &lines[i.saturating_sub(12)..i]
            )
        })
}

/// One random edit of `files`.
fn edit(rng: &mut Rng, files: &mut Vec<(String, String)>, history: &[Vec<(String, String)>]) {
    const KEYS: &[&str] = &[
        "a", "e", "_", " ", ":", "\"", "'", "{", "}", "\n", "-", "1", ".", "=", "<",
    ];
    match rng.below(20) {
        0 if !history.is_empty() => *files = rng.pick(history).clone(),
        1 => {
            // A file added (or emptied): a skill's responses.
            let label = format!("skills/extra{}/responses.yml", rng.below(2));
            files.retain(|(l, _)| *l != label);
            files.push((
                label,
                "responses:\n  utter_extra:\n    - text: Extra {customer_name}\n".to_owned(),
            ));
        }
        2 if files.len() > 1 => {
            let at = rng.below(files.len());
            files.remove(at);
        }
        _ => {
            if files.is_empty() {
                return;
            }
            // Mostly the responses files, as someone editing them.
            let responses: Vec<usize> = (0..files.len())
                .filter(|&i| files[i].0.ends_with("responses.yml"))
                .collect();
            let at = if !responses.is_empty() && rng.chance(75) {
                *rng.pick(&responses)
            } else {
                rng.below(files.len())
            };
            let text = &mut files[at].1;
            let chars: Vec<char> = text.chars().collect();
            let pos = rng.below(chars.len() + 1);
            let mut chars = chars;
            match rng.below(4) {
                0 if pos < chars.len() => {
                    chars.remove(pos);
                }
                1 => {
                    // A line doubled or dropped.
                    let lines: Vec<&str> = text.lines().collect();
                    if !lines.is_empty() {
                        let l = rng.below(lines.len());
                        let mut out: Vec<&str> = lines.clone();
                        if rng.chance(50) {
                            out.insert(l, lines[l]);
                        } else {
                            out.remove(l);
                        }
                        *text = out.join("\n") + "\n";
                    }
                    return;
                }
                _ => {
                    for c in rng.pick(KEYS).chars().rev() {
                        chars.insert(pos, c);
                    }
                }
            }
            *text = chars.into_iter().collect();
        }
    }
}

#[test]
fn an_incremental_check_is_a_check_from_scratch() {
    let mut compared = 0;
    let mut reused_a_file = 0;
    // 6 projects at test scale 1 (`utter_synth::test_scale`).
    let projects = utter_synth::scaled(6);
    for seed in 0..projects {
        let project = if seed % 2 == 0 {
            utter_synth::random_project(seed).files
        } else {
            utter_synth::random_agent(seed).files
        };
        let mut rng = Rng::new(seed);
        let mut files = project;
        let mut history = Vec::new();
        let mut cache = CheckCache::new();
        for step in 0..30 {
            let options = OpenOptions::default();
            let incremental = Agent::from_files_with(
                ProjectFiles::from_files(files.clone()),
                options,
                &mut cache,
            );
            let scratch = Agent::from_files(ProjectFiles::from_files(files.clone()), options);
            let (a, b) = (outcome(&incremental), outcome(&scratch));
            assert!(
                a == b,
                "seed {seed}, step {step}: the incremental check differs from a check from scratch: {}\nfiles: {files:#?}",
                first_difference(&a, &b)
            );
            compared += 1;
            reused_a_file += usize::from(cache.reused_files() > 0);
            history.push(files.clone());
            edit(&mut rng, &mut files, &history);
        }
    }
    assert_eq!(compared, projects as usize * 30);
    // The cache did work: most checks reused some file's outcome.
    assert!(
        reused_a_file > compared / 2,
        "{reused_a_file} of {compared}"
    );
}

/// One response of a big root responses.yml, of one of the shapes people
/// write (and some they should not).
fn big_file_response(rng: &mut Rng, i: usize) -> String {
    let name = format!("utter_r{i}");
    match rng.below(14) {
        10 => format!(
            "  {name}:\n    - text: >\n        Folded {i}\n        text\n      condition: session.project.flag\n"
        ),
        11 => format!("  {name}:\n    - text: \"multi\n        line {i}\"\n"),
        12 => format!("  {name}: [\"Flow {i}\", {{text: x}}]\n"),
        13 => format!(
            "  {name}:\n    - text: 'single {i}'\n      condition: 'session.project.count == {i}'\n"
        ),
        0 => format!(
            "  {name}:\n    - text: \"Hi {{session.project.name}}, case {i}.\"\n      condition: session.project.count > {i}\n      metadata:\n        rephrase: true\n    - text: Case {i}.\n"
        ),
        1 => format!(
            "  {name}:\n    - text: |\n        Line one of {i},\n        line two.\n\n    # a comment between\n    - text: Other {i}\n      condition: session.project.flag\n"
        ),
        2 => format!(
            "  {name}:\n    - text: Wrong {i}\n      condition: session.project.nope == 1\n"
        ),
        3 => format!(
            "  {name}:\n    - text: Broken {i}\n      condition: \"session.project.count >\"\n"
        ),
        4 => format!("  {name}: []\n"),
        5 => format!("  {name}: &v{i}\n    - text: Shared {i}\n  utter_alias{i}: *v{i}\n"),
        6 => format!("# a comment above {name}\n  {name}:\n    - Plain string {i}\n"),
        7 => format!("  {name}:\n    - text: Twice {{count}} {i}\n    - text: Default {i}\n"),
        _ => format!("  {name}:\n    - text: Response {i} for {{session.project.name}}.\n"),
    }
}

/// The memory the big files' responses read.
const BIG_FILE_MEMORY: &str = "name:\n  type: text\ncount:\n  type: int\nflag:\n  type: bool\n";

/// A root responses.yml of `responses` random responses: a `version:`
/// above them half the time, CRLF lines a quarter of the time.
fn big_file(rng: &mut Rng, responses: usize) -> String {
    let mut text = if rng.chance(50) {
        "version: \"3.1\"\n\nresponses:\n"
    } else {
        "responses:\n"
    }
    .to_owned();
    for i in 0..responses {
        text += &big_file_response(rng, i);
    }
    if rng.chance(25) {
        text = text.replace('\n', "\r\n");
    }
    text
}

/// An edit of one big file as someone typing has it: a key typed or
/// deleted, a response pasted or cut, the YAML broken and mended.
fn edit_big_file(rng: &mut Rng, text: &mut String, history: &[String]) {
    const KEYS: &[&str] = &[
        "a", "_", " ", ":", "\"", "#", "-", "1", "&x", "*x", "\t", "\n", "\r\n",
    ];
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    match rng.below(10) {
        // Mended: an earlier version back (undo).
        0..=2 if !history.is_empty() => *text = rng.pick(history).clone(),
        3 | 4 if !lines.is_empty() => {
            // A block of lines pasted elsewhere (a response copied) or cut.
            let from = rng.below(lines.len());
            let to = (from + 1 + rng.below(4)).min(lines.len());
            let block: String = lines[from..to].concat();
            let mut rest: Vec<&str> = lines.clone();
            if rng.chance(50) {
                rest.drain(from..to);
                *text = rest.concat();
            } else {
                let at = rng.below(lines.len() + 1);
                *text = lines[..at].concat() + &block + &lines[at..].concat();
            }
        }
        _ => {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if rng.chance(30) && at < text.len() {
                let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                text.replace_range(at..end, "");
            } else {
                let key: &&str = rng.pick(KEYS);
                text.insert_str(at, key);
            }
        }
    }
}

/// Edits inside one big root responses.yml (as many Rasa agents keep every
/// response): checked response by response and reusing the rest, yet
/// exactly what a check from scratch gives, however the file is broken.
#[test]
fn an_edit_inside_one_big_file_is_a_check_from_scratch() {
    let memory = BIG_FILE_MEMORY;
    let (mut compared, mut reused) = (0, 0);
    for seed in 0..utter_synth::scaled(4) {
        let mut rng = Rng::new(1000 + seed);
        let mut text = big_file(&mut rng, 40);
        let mut cache = CheckCache::new();
        let mut history = Vec::new();
        for step in 0..40 {
            let files = vec![
                ("memory.yml".to_owned(), memory.to_owned()),
                ("responses.yml".to_owned(), text.clone()),
            ];
            let options = OpenOptions::default();
            let incremental = Agent::from_files_with(
                ProjectFiles::from_files(files.clone()),
                options,
                &mut cache,
            );
            let scratch = Agent::from_files(ProjectFiles::from_files(files), options);
            let (a, b) = (outcome(&incremental), outcome(&scratch));
            assert!(
                a == b,
                "seed {seed}, step {step}: the incremental check differs from a check from scratch: {}\nresponses.yml:\n{text}",
                first_difference(&a, &b)
            );
            compared += 1;
            reused += usize::from(cache.reused_responses() > 0);
            history.push(text.clone());
            edit_big_file(&mut rng, &mut text, &history);
        }
    }
    // The file was often checked response by response, reusing the rest
    // (an edit that breaks the plain shape, or the YAML, checks it whole:
    // these edits break it often, and stay until undone).
    assert!(reused > compared / 10, "{reused} of {compared}");
}

/// A key typed in one response of a big file reads and checks that
/// response again, and takes every other one from the check before.
#[test]
fn a_key_typed_in_one_response_reuses_every_other() {
    let mut text = "responses:\n".to_owned();
    for i in 0..100 {
        text += &format!(
            "  utter_r{i}:\n    - text: Response {i}\n      condition: session.project.n > {i}\n    - text: Default {i}\n"
        );
    }
    let memory = ("memory.yml".to_owned(), "n:\n  type: int\n".to_owned());
    let mut cache = CheckCache::new();
    let check = |text: &str, cache: &mut CheckCache| {
        let files = vec![
            memory.clone(),
            ("responses.yml".to_owned(), text.to_owned()),
        ];
        let agent = Agent::from_files_with(
            ProjectFiles::from_files(files),
            OpenOptions::default(),
            cache,
        );
        outcome(&agent)
    };
    check(&text, &mut cache);
    let at = text.find("Response 50").expect("there") + "Response 5".len();
    text.insert(at, '9');
    let incremental = check(&text, &mut cache);
    assert_eq!(cache.reused_responses(), 99);
    let files = vec![memory.clone(), ("responses.yml".to_owned(), text.clone())];
    let scratch = Agent::from_files(ProjectFiles::from_files(files), OpenOptions::default());
    assert!(
        incremental == outcome(&scratch),
        "{}",
        first_difference(&incremental, &outcome(&scratch))
    );
    assert!(incremental.1.contains("Response 590"));
}

/// Many responses that parse only with the one before them (aliases of
/// one anchor) would make reading part by part quadratic: such a file is
/// read whole, and still checks as from scratch.
#[test]
fn a_file_of_parts_that_parse_only_together_is_read_whole() {
    let mut text = "responses:\n  utter_a: &x\n    - text: Shared\n".to_owned();
    for i in 0..2_000 {
        text += &format!("  utter_alias{i}: *x\n");
    }
    let mut cache = CheckCache::new();
    let check = |text: &str, cache: &mut CheckCache| {
        let files = vec![("responses.yml".to_owned(), text.to_owned())];
        let agent = Agent::from_files_with(
            ProjectFiles::from_files(files),
            OpenOptions::default(),
            cache,
        );
        outcome(&agent)
    };
    check(&text, &mut cache);
    // The last alias edited: every part before it is as it was.
    text.insert_str(text.len() - 1, " # edited");
    let incremental = check(&text, &mut cache);
    // Nothing was kept part by part: the file was read whole.
    assert_eq!(cache.reused_responses(), 0);
    let files = vec![("responses.yml".to_owned(), text.clone())];
    let scratch = Agent::from_files(ProjectFiles::from_files(files), OpenOptions::default());
    assert!(
        incremental == outcome(&scratch),
        "{}",
        first_difference(&incremental, &outcome(&scratch))
    );
}

/// A keystroke inside one response of a big responses.yml (the root's, or
/// a skill's beside a root that hides some of its responses) is checked as
/// that response alone (`CheckCache::findings_after_edit`), and the
/// findings are exactly a check from scratch's: over files of every shape
/// of response (a `version:` above them, CRLF lines), with lint levels set,
/// Mantle or Maestro, another skill whose definitions the root hides and a
/// skill.md naming responses, typed into, cut, pasted and undone. When the shortcut declines, the project is checked, and the
/// next keystroke is checked against that.
#[test]
fn a_keystroke_inside_one_response_is_checked_alone_as_from_scratch() {
    let memory = BIG_FILE_MEMORY;
    let (mut compared, mut alone) = (0, 0);
    for seed in 0..utter_synth::scaled(4) {
        let mut rng = Rng::new(7000 + seed);
        let mut text = big_file(&mut rng, 30);
        let mut others = vec![("memory.yml".to_owned(), memory.to_owned())];
        let big = if rng.chance(50) {
            "responses.yml"
        } else {
            // A skill's file, two of whose responses the root hides.
            others.push((
                "responses.yml".to_owned(),
                "responses:\n  utter_r7:\n    - text: Root seven\n  utter_r25:\n    - text: Root {name}\n".to_owned(),
            ));
            others.push((
                "skills/big/memory.yml".to_owned(),
                "schema:\n  private:\n    level:\n      type: int\n".to_owned(),
            ));
            "skills/big/responses.yml"
        };
        let lints = "lints:\n  utter.analysis.unreachable_variant: deny\n  utter.validation.response.unknown_placeholder: warn\n  utter.analysis.unreachable_default: allow\n";
        match rng.below(4) {
            0 => others.push(("utter.yml".to_owned(), lints.to_owned())),
            // Maestro: a condition is an error of its own.
            1 => others.push(("utter.yml".to_owned(), format!("dialect: maestro\n{lints}"))),
            _ => {}
        }
        if rng.chance(50) {
            others.push((
                "skills/extra/responses.yml".to_owned(),
                "responses:\n  utter_r20:\n    - text: Hidden\n  utter_own:\n    - text: Own {count}\n".to_owned(),
            ));
            others.push((
                "skills/extra/skill.md".to_owned(),
                "---\ndescription: Extra\nutter:\n  - utter_r5:\n      on: activate\n---\n\nDo it.\n".to_owned(),
            ));
        }
        let mut cache = CheckCache::new();
        let mut history = Vec::new();
        for step in 0..60 {
            let mut files = others.clone();
            files.push((big.to_owned(), text.clone()));
            let options = OpenOptions::default();
            let project = || ProjectFiles::from_files(files.clone());
            let scratch = Agent::from_files(project(), options);
            let edited = cache.findings_after_edit(&project(), options);
            let shortcut = edited.is_some();
            match edited {
                Some(findings) => {
                    let (a, b) = (
                        format!("{findings:#?}"),
                        format!("{:#?}", scratch.checked().findings),
                    );
                    assert!(
                        a == b,
                        "seed {seed}, step {step}: the findings of the edited response alone differ from a check from scratch: {}\n{big}:\n{text}",
                        first_difference(&(a.clone(), String::new()), &(b.clone(), String::new()))
                    );
                    let source = cache.checked_source(big).expect("the edited file");
                    assert_eq!(
                        format!("{source:?}"),
                        format!("{:?}", scratch.checked().source(big).unwrap())
                    );
                    alone += 1;
                }
                None => {
                    Agent::from_files_with(project(), options, &mut cache);
                }
            }
            compared += 1;
            history.push(text.clone());
            if !shortcut && rng.chance(50) {
                // A broken file mended (undo), as an editor's usually is.
                text.clone_from(&history[0]);
            } else if rng.chance(80) {
                type_inside_a_response(&mut rng, &mut text);
            } else {
                edit_big_file(&mut rng, &mut text, &history);
            }
        }
    }
    // Most keystrokes land inside a response and are checked alone.
    eprintln!("{alone} of {compared} versions checked as one response alone");
    assert!(alone > compared / 3, "{alone} of {compared}");
}

/// A key typed or deleted on a line of a response other than its name's.
fn type_inside_a_response(rng: &mut Rng, text: &mut String) {
    const KEYS: &[&str] = &[
        "a", "1", " ", "{", "}", ".", "=", "<", "\"", "\n      ", "#",
    ];
    let starts: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .filter(|&i| text[i..].starts_with("    "))
        .collect();
    if starts.is_empty() {
        return;
    }
    let line = *rng.pick(&starts);
    let end = text[line..].find('\n').map_or(text.len(), |i| line + i);
    let mut at = line + 4 + rng.below(end.saturating_sub(line + 4) + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    if rng.chance(30) && at < end {
        text.remove(at);
    } else {
        let key: &&str = rng.pick(KEYS);
        text.insert_str(at, key);
    }
}

/// A keystroke in a skill's response that the root's definition hides
/// gives what a check from scratch gives: the hidden one is not analysed
/// (its dead variant is not reported), however it is edited.
#[test]
fn a_keystroke_in_a_hidden_response_changes_no_analysis() {
    let skill = |count: &str| {
        format!(
            "responses:\n  utter_shown:\n    - text: Shown\n  utter_hidden:\n    - text: Never\n      condition: session.project.count > {count} and session.project.count < 2\n    - text: Default\n"
        )
    };
    let files = |count: &str| {
        ProjectFiles::from_files([
            ("memory.yml", "count:\n  type: int\n".to_owned()),
            (
                "responses.yml",
                "responses:\n  utter_hidden:\n    - text: Root\n".to_owned(),
            ),
            ("skills/s/responses.yml", skill(count)),
        ])
    };
    let mut cache = CheckCache::new();
    Agent::from_files_with(files("5"), OpenOptions::default(), &mut cache);
    for count in ["50", "500", "1"] {
        let scratch = Agent::from_files(files(count), OpenOptions::default());
        let findings = match cache.findings_after_edit(&files(count), OpenOptions::default()) {
            Some(findings) => findings,
            None => Agent::from_files_with(files(count), OpenOptions::default(), &mut cache)
                .checked()
                .findings
                .clone(),
        };
        assert_eq!(
            format!("{findings:#?}"),
            format!("{:#?}", scratch.checked().findings),
            "count > {count}"
        );
    }
}
