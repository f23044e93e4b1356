use pb_support::{OptionKind, PassOption, PassOptions};

const DECLARED: &[PassOption] = &[
    PassOption { name: "flag", kind: OptionKind::Bool, default: "false", help: "" },
    PassOption { name: "count", kind: OptionKind::UInt, default: "4", help: "" },
    PassOption { name: "bias", kind: OptionKind::Int, default: "-1", help: "" },
    PassOption { name: "ratio", kind: OptionKind::Float, default: "0.5", help: "" },
    PassOption { name: "mode", kind: OptionKind::Enum(&["fast", "exact"]), default: "exact", help: "" },
    PassOption { name: "name", kind: OptionKind::String, default: "", help: "" },
];

#[test]
fn defaults_apply_when_not_given() {
    let options = PassOptions::parse("p", DECLARED, "").unwrap();
    assert!(!options.bool("flag"));
    assert_eq!(options.uint("count"), 4);
    assert_eq!(options.int("bias"), -1);
    assert_eq!(options.float("ratio"), 0.5);
    assert_eq!(options.string("mode"), "exact");
}

#[test]
fn parses_every_kind_and_bare_flags() {
    let options = PassOptions::parse("p", DECLARED, "flag count=8 bias=-3 ratio=2.5 mode=fast name=\"a b\"").unwrap();
    assert!(options.bool("flag"));
    assert_eq!(options.uint("count"), 8);
    assert_eq!(options.int("bias"), -3);
    assert_eq!(options.float("ratio"), 2.5);
    assert_eq!(options.string("mode"), "fast");
    assert_eq!(options.string("name"), "a b");
}

#[test]
fn rejects_bad_values_unknown_names_and_missing_values() {
    let error = |text| PassOptions::parse("p", DECLARED, text).unwrap_err();
    assert!(error("count=-1").contains("invalid value '-1' for option 'count' of pass 'p': expected uint"));
    assert!(error("mode=slow").contains("expected fast|exact"));
    assert!(error("flag=yes").contains("expected bool"));
    assert!(error("colour=red").contains("has no option 'colour' (options: flag, count"));
    assert!(error("count").contains("needs a value"));
    assert!(error("name=\"open").contains("unbalanced"));
    assert!(PassOptions::parse("q", &[], "x=1").unwrap_err().contains("takes no options"));
}
