//! The compile-option tables (`pb_pipelines::options`,
//! `pb_compile::options`): flags and names unique, every switch settable
//! both ways with the effect its entry claims, bad values refused.

use pb_compile::{options::COMPILE_OPTIONS, CompileOptions};
use pb_pipelines::{
    cpu::CpuOptions,
    options::{apply_flag, Kind, PIPELINE_OPTIONS},
};

#[test]
fn names_and_flags_are_unique_across_both_tables() {
    let mut names: Vec<_> = PIPELINE_OPTIONS.iter().map(|s| s.name).chain(COMPILE_OPTIONS.iter().map(|s| s.name)).collect();
    let mut flags: Vec<_> = PIPELINE_OPTIONS.iter().map(|s| s.flag).chain(COMPILE_OPTIONS.iter().map(|s| s.flag)).collect();
    let count = names.len();
    names.sort();
    names.dedup();
    flags.sort();
    flags.dedup();
    assert_eq!((names.len(), flags.len()), (count, count));
}

#[test]
fn switches_set_their_field_both_ways() {
    let field = |o: &CpuOptions, flag: &str| match flag {
        "vectorize" => o.vectorize,
        "fuse" => o.fuse,
        "fp-contract" => o.fp_contract,
        "channels-last" => o.channels_last,
        "outline" => o.outline,
        "profile" => o.profile,
        "report" => o.report,
        "upstream-affine" => o.upstream_affine,
        "emulate" => o.emulate,
        "pool" => o.pool,
        other => panic!("switch '{other}' not covered by this test"),
    };
    for spec in PIPELINE_OPTIONS {
        let Kind::Switch(default) = spec.kind else { continue };
        let mut options = CpuOptions::host();
        assert_eq!(field(&options, spec.flag), default, "{}: default", spec.flag);
        let mut none = std::iter::empty();
        apply_flag(PIPELINE_OPTIONS, &mut options, &format!("no-{}", spec.flag), &mut none).unwrap().unwrap();
        assert!(!field(&options, spec.flag), "--no-{}", spec.flag);
        apply_flag(PIPELINE_OPTIONS, &mut options, spec.flag, &mut none).unwrap().unwrap();
        assert!(field(&options, spec.flag), "--{}", spec.flag);
        apply_flag(PIPELINE_OPTIONS, &mut options, &format!("{}=false", spec.flag), &mut none).unwrap().unwrap();
        assert!(!field(&options, spec.flag), "--{}=false", spec.flag);
    }
}

#[test]
fn values_are_parsed_checked_and_taken_from_the_next_argument() {
    let mut options = CompileOptions::default();
    let mut rest = vec!["2".to_string()].into_iter();
    apply_flag(COMPILE_OPTIONS, &mut options, "opt-level", &mut rest).unwrap().unwrap();
    assert_eq!(options.opt_level, 2);
    let mut none = std::iter::empty();
    let error = apply_flag(COMPILE_OPTIONS, &mut options, "opt-level=9", &mut none).unwrap().unwrap_err();
    assert!(error.contains("from 0 to 3"), "{error}");
    assert!(apply_flag(COMPILE_OPTIONS, &mut options, "opt-level", &mut none).unwrap().is_err(), "a missing value");
    apply_flag(COMPILE_OPTIONS, &mut options, "compile-budget=0", &mut none).unwrap().unwrap();
    assert_eq!(options.budget, None);
    assert!(apply_flag(COMPILE_OPTIONS, &mut options, "no-opt-level", &mut none).is_none(), "only switches negate");
    let mut cpu = CpuOptions::host();
    apply_flag(PIPELINE_OPTIONS, &mut cpu, "target=cores=3 vector-bits=128", &mut none).unwrap().unwrap();
    assert_eq!((cpu.target.cores, cpu.target.vector_bits), (3, 128));
    assert!(apply_flag(PIPELINE_OPTIONS, &mut cpu, "gpu=sm_70", &mut none).unwrap().is_err());
}
