use crate::common::run_pipeline;
use pb_support::pass_builder::Registry;

const CHAIN: &str = r#"
func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> {
  %d = "pbq.dequantize"(%x) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xi8>) -> tensor<4xf32>
  %q = "pbq.quantize"(%d) {scale = 0.5 : f64, zero_point = 3 : i64, quant_min = -128 : i64, quant_max = 127 : i64} : (tensor<4xf32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}
"#;

#[test]
fn every_registered_pass_has_a_unique_namespaced_argument() {
    let passes = pb_pipelines::all_passes();
    assert!(passes.len() >= 2);
    for (i, pass) in passes.iter().enumerate() {
        assert!(pass.argument.starts_with("pb-"), "{} must be namespaced pb-", pass.argument);
        assert!(!pass.summary.is_empty() && !pass.description.is_empty(), "{} needs docs", pass.argument);
        assert!(passes[i + 1..].iter().all(|p| p.argument != pass.argument), "duplicate {}", pass.argument);
        assert!(pb_support::upstream::find(pass.argument).is_none(), "{} shadows upstream", pass.argument);
    }
}

#[test]
fn test_only_passes_are_apart_from_the_production_registry() {
    let production = pb_pipelines::all_passes();
    let test_passes = pb_pipelines::test_passes();
    assert!(test_passes.iter().any(|p| p.argument == "pb-isl-roundtrip"));
    for pass in &test_passes {
        assert!(production.iter().all(|p| p.argument != pass.argument), "{} is test-only", pass.argument);
        assert!(pass.argument.starts_with("pb-") && !pass.summary.is_empty(), "{}", pass.argument);
    }
    // pb-compile resolves names against the production registry only.
    let context = pb_dialects::create_context();
    let error = run_pipeline(&context, CHAIN, "builtin.module(func.func(pb-isl-roundtrip))").unwrap_err();
    assert!(error.contains("not a polyblocks or upstream MLIR pass"), "{error}");
}

#[test]
fn upstream_catalogue_knows_anchors() {
    assert_eq!(pb_support::upstream::find("affine-loop-tile").unwrap().anchor, "func.func");
    assert_eq!(pb_support::upstream::find("canonicalize").unwrap().anchor, "builtin.module");
    assert_eq!(pb_support::upstream::find("buffer-deallocation-pipeline").unwrap().anchor, "");
    assert!(pb_support::upstream::all().count() > 200);
}

#[test]
fn mixed_pipeline_runs_our_passes_and_upstreams() {
    let context = pb_dialects::create_context();
    let out = run_pipeline(&context, CHAIN, "builtin.module(func.func(pb-simplify-quant),canonicalize)").unwrap();
    assert!(!out.contains("pbq."), "{out}");
    assert!(out.contains("return %arg0"), "{out}");
}

#[test]
fn suggestions_cover_ours_and_upstream() {
    let passes = pb_pipelines::all_passes();
    let registry = Registry { passes: &passes };
    assert_eq!(registry.suggestions("pb-simplfy-quant"), vec!["pb-simplify-quant"]);
    assert!(registry.suggestions("canonicalise").contains(&"canonicalize"));
    assert!(registry.suggestions("zzzzzzzzzzzz").is_empty());
}

#[test]
fn pipeline_errors_name_the_problem() {
    let context = pb_dialects::create_context();
    let error = run_pipeline(&context, CHAIN, "builtin.module(pb-lower-quant{x=1})").unwrap_err();
    assert!(error.contains("takes no options"), "{error}");
    let error = run_pipeline(&context, CHAIN, "func.func(pb-nothing)").unwrap_err();
    assert!(error.contains("not a polyblocks or upstream MLIR pass"), "{error}");
}
