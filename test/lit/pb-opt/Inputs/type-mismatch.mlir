func.func @f(%x: i32) -> f32 {
  return %x : i32
}
