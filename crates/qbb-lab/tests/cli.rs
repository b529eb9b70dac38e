//! The lab's commands, run as a user runs them.

mod common;

use common::{qbb, stderr, stdout};

#[test]
fn show_draws_the_start_position_as_the_article() {
    let out = qbb(&["show"]);
    assert!(out.status.success());
    let text = stdout(&out);
    // The article's picture of the four planes, rank 8 then rank 1 (bb3 bb2 bb1 bb0).
    assert!(text.contains("1 . . 1 1 . . 1   . 1 1 . 1 1 1 .   . . 1 1 . 1 . .   1 1 1 1 1 1 1 1"));
    assert!(text.contains(". . . . . . . .   . . . . . . . .   1 1 1 1 1 1 1 1   . . . . . . . ."));
    assert!(text.contains("1 . . 1 1 . . 1   . 1 1 . 1 1 1 .   . . 1 1 . 1 . .   . . . . . . . ."));
    assert!(text.contains("1 R N B Q K B N R"));
    assert!(
        text.contains("1 8 4 6 A C 6 4 8"),
        "e1 = C = 1100B:\n{text}"
    );
}

#[test]
fn show_refuses_bad_input_with_a_reason() {
    for (args, reason) in [
        (vec!["show", "rnbqkbnr/pppppppp/8/8"], "ranks"),
        (
            vec!["show", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX"],
            "`X`",
        ),
        (vec!["show", "8/8/8/8/8/8/8/8", "z"], "side to move"),
        (vec!["show", "--backend", "mmx"], "unknown backend `mmx`"),
    ] {
        let out = qbb(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(reason), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn backends_json_lists_every_backend_with_its_matrix() {
    let out = qbb(&["backends", "--json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let list = json.as_array().expect("a list");
    let names: Vec<&str> = list.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "scalar", "swar", "sse2", "avx2", "avx512", "neon", "portable"
        ]
    );
    for backend in list {
        assert!(backend["available"].is_boolean());
        let routines = backend["routines"].as_object().expect("a routine map");
        if backend["built"] == true {
            assert_eq!(routines.len(), qbb::Routine::ALL.len());
            // What the backend declares it inherits (qbb's tests/inheritance.rs checks the
            // declarations against the table), reported as the table says.
            let kind: qbb::BackendKind = backend["name"].as_str().unwrap().parse().unwrap();
            for (id, support) in routines {
                let routine: qbb::Routine = id.parse().unwrap();
                let s = support.as_str().unwrap();
                assert!(s == "native" || s.starts_with("inherited: from "), "{s}");
                assert_eq!(s, kind.support(routine).unwrap().to_string(), "{kind} {id}");
            }
        }
    }
    assert_eq!(list[0]["available"], true, "scalar runs everywhere");
    assert!(
        list[0]["routines"]
            .as_object()
            .unwrap()
            .values()
            .all(|s| s == "native")
    );
}

#[test]
fn backends_table_prints_the_matrix() {
    let out = qbb(&["backends"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for routine in qbb::Routine::ALL {
        assert!(text.contains(routine.id()), "{routine} missing");
    }
}
