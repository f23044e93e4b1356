//! Compiles `src/fuse_elementwise_shim.cpp` (the body of
//! `pb-fuse-elementwise`: upstream fusion patterns with a control function,
//! which MLIR 22's C API cannot pass) as LLVM is built (C++17, no RTTI, no
//! exceptions) against the headers of the MLIR we link.

use std::{env, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/fuse_elementwise_shim.cpp");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let include = Command::new(format!("{prefix}/bin/llvm-config"))
        .arg("--includedir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("{prefix}/include"));
    cc::Build::new()
        .cpp(true)
        .file("src/fuse_elementwise_shim.cpp")
        .include(include)
        .std("c++17")
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .warnings(false)
        .compile("pb_fuse_elementwise_shim");
}
