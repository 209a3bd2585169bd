//! Any bytes as a snapshot file and the snapshot an agent writes now (split
//! at 0xFE): `snapshot --check`'s summary never panics, is empty exactly
//! when the texts are equal, and names only responses the texts hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utter_compiler::snapshot::changes::changes;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == 0xFE);
    let reviewed = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let now = String::from_utf8_lossy(parts.next().unwrap_or_default());
    assert_eq!(changes(&reviewed, &reviewed), None);
    let Some(found) = changes(&reviewed, &now) else {
        assert_eq!(reviewed, now);
        return;
    };
    assert_ne!(reviewed, now);
    let holds = |text: &str, name: &str| {
        text.lines()
            .any(|l| l.strip_prefix("response ") == Some(name))
    };
    for name in &found.added {
        assert!(holds(&now, name), "added {name:?}");
    }
    // The file as utter writes it: no byte-order mark, no CR or trailing
    // space at line ends (how the summary reads the file).
    let plain: String = reviewed
        .strip_prefix('\u{feff}')
        .unwrap_or(&reviewed)
        .split('\n')
        .map(|l| {
            l.strip_suffix('\r')
                .unwrap_or(l)
                .trim_end_matches([' ', '\t'])
        })
        .collect::<Vec<_>>()
        .join("\n");
    for name in &found.removed {
        assert!(holds(&plain, name), "removed {name:?}");
    }
    for changed in &found.changed {
        assert!(holds(&now, &changed.name), "changed {:?}", changed.name);
        assert!(!changed.reviewed.is_empty() || !changed.now.is_empty());
    }
});
