use super::*;

const FILE: &str = "version: \"3.1\"\n# the agent's words\nresponses:\n  utter_a:\n    - text: |\n        Block\n\n  # a comment\n  utter_b: &shared\n    - text: B\n  utter_c: *shared\n# at column 0\n  utter_d:\n    - \"quoted: {x}\"\n";

#[test]
fn the_plain_shape_is_split_at_each_name_and_nothing_else_is() {
    let split = layout(FILE).expect("the plain shape");
    assert_eq!(split.indent, 2);
    let names: Vec<&str> = (split.responses.iter())
        .map(|r| FILE[r.clone()].split(':').next().unwrap().trim())
        .collect();
    assert_eq!(names, ["utter_a", "utter_b", "utter_c", "utter_d"]);
    assert_eq!(
        &FILE[split.header.clone()],
        "version: \"3.1\"\n# the agent's words\nresponses:\n"
    );
    // Every byte is in the header or one response's lines.
    assert_eq!(split.responses.last().unwrap().end, FILE.len());
    for other in [
        "responses:\n  a:\n    - text: x\nversion: 1\n", // a key after the responses
        "responses:\n  a:\n    - text: x\n b:\n    - text: y\n", // a name less indented
        "responses:\n\ta:\n    - text: x\n",             // a tab
        "responses: # all\n  a:\n    - text: x\n",       // more than `responses:`
        "responses:\n  \"a\":\n    - text: x\n",         // a quoted name
        "responses:\n- a\n",                             // not a mapping
        "---\nresponses:\n  a:\n    - text: x\n",        // a document marker
        "responses:\n",                                  // no response
        "  responses:\n  a: 1\n",                        // an indented header
    ] {
        assert_eq!(layout(other), None, "{other:?}");
    }
}

#[test]
fn parts_cost_and_span_what_the_whole_file_does() {
    let split = layout(FILE).expect("the plain shape");
    let (whole, whole_cost) = yaml::parse_counted(FILE, 0).unwrap().unwrap();
    let (_, header_cost) = yaml::parse_counted(&FILE[split.header.clone()], 0)
        .unwrap()
        .unwrap();
    let NodeKind::Map(top) = &whole.kind else {
        panic!()
    };
    let NodeKind::Map(responses) = &top[1].1.kind else {
        panic!()
    };
    let mut costs = vec![header_cost];
    type Pairs = Vec<(Node, Node)>;
    let mut pairs: Vec<(Range<usize>, Pairs)> = Vec::new();
    let mut parts = 0;
    for lines in &split.responses {
        // `utter_c` (an alias of `utter_b`'s anchor) parses only with it.
        let lines = if FILE[lines.clone()].contains("*shared") {
            let (before, _) = pairs.pop().unwrap();
            costs.pop();
            parts -= 1;
            before.start..lines.end
        } else {
            lines.clone()
        };
        let (part, cost) = parse_part(FILE, lines.clone(), split.indent).expect("parses");
        let NodeKind::Map(part_pairs) = part.kind else {
            panic!()
        };
        pairs.push((lines, part_pairs));
        costs.push(cost);
        parts += 1;
    }
    assert_eq!(YamlBudget::sum(costs, parts), whole_cost);
    let from_parts: Vec<(Node, Node)> = pairs.into_iter().flat_map(|(_, p)| p).collect();
    assert_eq!(&from_parts, responses, "the same nodes, spans included");
}
