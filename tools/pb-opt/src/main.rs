//! `pb-opt`: see the crate documentation in `lib.rs`. Only start-up here.

fn main() {
    pb_support::ffi::install_fatal_error_handler("pb-opt");
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(pb_opt::run(&args));
}
