func.func @f(%x: i32) -> f32 {
  // expected-error @+1 {{this message never appears}}
  return %x : i32
}
