func.func @good() {
  return
}

// -----
func.func @bad(%x: i32) -> f32 {
  return %x : i32
}
