// The `stablehlo` dialect: the subset of OpenXLA's StableHLO that the
// engine takes from JAX and TensorFlow, in generic form with builtin
// attributes only (StableHLO is not part of upstream MLIR, so its pretty
// syntax and its own attributes do not parse here).
//
// pb_dialects::stablehlo imports the pretty text that jax.jit(...).lower()
// and TF's experimental_get_compiler_ir(stage="stablehlo") print into these
// ops; pb-legalize-stablehlo lowers them to linalg, tensor, arith and math on
// tensors (the first pass of the cpu pipeline). IRDL checks operand, result
// and region counts and that required attributes are there with the right
// kind; shapes, element types and attribute values are checked by the pass,
// which names the op and its location. Documented in docs/dialects/stablehlo.md.
//
// Every operand, result and attribute gets its own constraint value: IRDL
// binds one type/value to each constraint value.
irdl.dialect @stablehlo {
  // Elementwise, one operand (convert: to the result's element type;
  // reshape: same elements, the result's shape).

  irdl.operation @abs {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @negate {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @exponential {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @exponential_minus_one {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @log {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @log_plus_one {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @sqrt {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @rsqrt {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @cbrt {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @tanh {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @logistic {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @floor {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @ceil {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @round_nearest_even {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @round_nearest_afz {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @sine {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @cosine {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @tan {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @sign {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @not {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @is_finite {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @convert {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  irdl.operation @reshape {
    %operand = irdl.any
    %result = irdl.any
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
  }

  // Elementwise, two operands of one shape.

  irdl.operation @add {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @subtract {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @multiply {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @divide {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @maximum {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @minimum {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @power {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @remainder {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @and {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @or {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @xor {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @atan2 {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  // "EQ" "NE" "LT" "LE" "GT" "GE"; optional compare_type "FLOAT" "TOTALORDER" "SIGNED" "UNSIGNED" (a string).
  irdl.operation @compare {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    %comparison_direction = irdl.base "#builtin.string"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
    irdl.attributes {
      "comparison_direction" = %comparison_direction
    }
  }

  // pred: the result's shape or rank 0.
  irdl.operation @select {
    %pred = irdl.any
    %on_true = irdl.any
    %on_false = irdl.any
    %result = irdl.any
    irdl.operands(pred: %pred, on_true: %on_true, on_false: %on_false)
    irdl.results(result: %result)
  }

  // min, max: the operand's shape or rank 0.
  irdl.operation @clamp {
    %min = irdl.any
    %operand = irdl.any
    %max = irdl.any
    %result = irdl.any
    irdl.operands(min: %min, operand: %operand, max: %max)
    irdl.results(result: %result)
  }

  irdl.operation @constant {
    %result = irdl.any
    %value = irdl.any
    irdl.operands()
    irdl.results(result: %result)
    irdl.attributes {
      "value" = %value
    }
  }

  irdl.operation @iota {
    %result = irdl.any
    %iota_dimension = irdl.base "#builtin.integer"
    irdl.operands()
    irdl.results(result: %result)
    irdl.attributes {
      "iota_dimension" = %iota_dimension
    }
  }

  irdl.operation @broadcast_in_dim {
    %operand = irdl.any
    %result = irdl.any
    %broadcast_dimensions = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
    irdl.attributes {
      "broadcast_dimensions" = %broadcast_dimensions
    }
  }

  irdl.operation @transpose {
    %operand = irdl.any
    %result = irdl.any
    %permutation = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
    irdl.attributes {
      "permutation" = %permutation
    }
  }

  irdl.operation @slice {
    %operand = irdl.any
    %result = irdl.any
    %start_indices = irdl.base "#builtin.dense_array"
    %limit_indices = irdl.base "#builtin.dense_array"
    %strides = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %operand)
    irdl.results(result: %result)
    irdl.attributes {
      "start_indices" = %start_indices,
      "limit_indices" = %limit_indices,
      "strides" = %strides
    }
  }

  // Two operands: StableHLO's n-ary concatenation is imported as a chain
  // (IRDL binds one type to all operands of a variadic).
  irdl.operation @concatenate {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    %dimension = irdl.base "#builtin.integer"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
    irdl.attributes {
      "dimension" = %dimension
    }
  }

  irdl.operation @pad {
    %operand = irdl.any
    %padding_value = irdl.any
    %result = irdl.any
    %edge_padding_low = irdl.base "#builtin.dense_array"
    %edge_padding_high = irdl.base "#builtin.dense_array"
    %interior_padding = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %operand, padding_value: %padding_value)
    irdl.results(result: %result)
    irdl.attributes {
      "edge_padding_low" = %edge_padding_low,
      "edge_padding_high" = %edge_padding_high,
      "interior_padding" = %interior_padding
    }
  }

  // stablehlo.dot is imported as a dot_general (contracting lhs' last, rhs' first dimension).
  irdl.operation @dot_general {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    %lhs_batching_dimensions = irdl.base "#builtin.dense_array"
    %rhs_batching_dimensions = irdl.base "#builtin.dense_array"
    %lhs_contracting_dimensions = irdl.base "#builtin.dense_array"
    %rhs_contracting_dimensions = irdl.base "#builtin.dense_array"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
    irdl.attributes {
      "lhs_batching_dimensions" = %lhs_batching_dimensions,
      "rhs_batching_dimensions" = %rhs_batching_dimensions,
      "lhs_contracting_dimensions" = %lhs_contracting_dimensions,
      "rhs_contracting_dimensions" = %rhs_contracting_dimensions
    }
  }

  // One operand; reducer: the combining op's name ("add", "maximum",
  // "minimum", "multiply", "and", "or"): the importer takes reducer regions
  // of one such op (IRDL ops cannot be region terminators).
  irdl.operation @reduce {
    %operand = irdl.any
    %init_value = irdl.any
    %result = irdl.any
    %dimensions = irdl.base "#builtin.dense_array"
    %reducer = irdl.base "#builtin.string"
    irdl.operands(operand: %operand, init_value: %init_value)
    irdl.results(result: %result)
    irdl.attributes {
      "dimensions" = %dimensions,
      "reducer" = %reducer
    }
  }

  // padding: low and high per dimension, flattened (2 x rank); reducer as
  // for reduce; window_dilations per dimension (base dilations other than 1
  // are refused by the importer).
  irdl.operation @reduce_window {
    %operand = irdl.any
    %init_value = irdl.any
    %result = irdl.any
    %window_dimensions = irdl.base "#builtin.dense_array"
    %window_strides = irdl.base "#builtin.dense_array"
    %padding = irdl.base "#builtin.dense_array"
    %window_dilations = irdl.base "#builtin.dense_array"
    %reducer = irdl.base "#builtin.string"
    irdl.operands(operand: %operand, init_value: %init_value)
    irdl.results(result: %result)
    irdl.attributes {
      "window_dimensions" = %window_dimensions,
      "window_strides" = %window_strides,
      "padding" = %padding,
      "window_dilations" = %window_dilations,
      "reducer" = %reducer
    }
  }

  // dim_numbers as integer attributes; padding: low and high per spatial
  // dimension, flattened.
  irdl.operation @convolution {
    %lhs = irdl.any
    %rhs = irdl.any
    %result = irdl.any
    %input_batch_dimension = irdl.base "#builtin.integer"
    %input_feature_dimension = irdl.base "#builtin.integer"
    %input_spatial_dimensions = irdl.base "#builtin.dense_array"
    %kernel_input_feature_dimension = irdl.base "#builtin.integer"
    %kernel_output_feature_dimension = irdl.base "#builtin.integer"
    %kernel_spatial_dimensions = irdl.base "#builtin.dense_array"
    %output_batch_dimension = irdl.base "#builtin.integer"
    %output_feature_dimension = irdl.base "#builtin.integer"
    %output_spatial_dimensions = irdl.base "#builtin.dense_array"
    %window_strides = irdl.base "#builtin.dense_array"
    %padding = irdl.base "#builtin.dense_array"
    %lhs_dilation = irdl.base "#builtin.dense_array"
    %rhs_dilation = irdl.base "#builtin.dense_array"
    %feature_group_count = irdl.base "#builtin.integer"
    %batch_group_count = irdl.base "#builtin.integer"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
    irdl.attributes {
      "input_batch_dimension" = %input_batch_dimension,
      "input_feature_dimension" = %input_feature_dimension,
      "input_spatial_dimensions" = %input_spatial_dimensions,
      "kernel_input_feature_dimension" = %kernel_input_feature_dimension,
      "kernel_output_feature_dimension" = %kernel_output_feature_dimension,
      "kernel_spatial_dimensions" = %kernel_spatial_dimensions,
      "output_batch_dimension" = %output_batch_dimension,
      "output_feature_dimension" = %output_feature_dimension,
      "output_spatial_dimensions" = %output_spatial_dimensions,
      "window_strides" = %window_strides,
      "padding" = %padding,
      "lhs_dilation" = %lhs_dilation,
      "rhs_dilation" = %rhs_dilation,
      "feature_group_count" = %feature_group_count,
      "batch_group_count" = %batch_group_count
    }
  }
}
