//! The target description: what the machine we generate code for offers.
//!
//! Passes read numbers from here (cores, vector width, cache sizes, matrix
//! units) instead of hard-coding them. [`TargetDesc::host`] detects the host
//! (CPUID for ISA features, sysfs for caches); any field can be overridden
//! with `key=value` text (`cores=8 vector-bits=256 l2=2MiB`), so a compile for
//! another machine, or a test, states its assumptions.

use std::fmt;

/// One level of data cache.
#[derive(Clone, Debug, PartialEq)]
pub struct Cache {
    pub level: u32,
    pub size_bytes: u64,
    pub line_bytes: u64,
    /// Associativity (lines per set).
    pub ways: u64,
}


/// The CPU we compile for.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetDesc {
    /// Hardware threads code may use in parallel.
    pub cores: usize,
    /// Widest SIMD register, in bits (512 with AVX-512).
    pub vector_bits: u32,
    /// Data (or unified) caches, innermost first.
    pub caches: Vec<Cache>,
    /// Whether fused multiply-add exists.
    pub fma: bool,
    /// Matrix and dot-product units: `amx-tile`, `amx-bf16`, `amx-int8`
    /// (AMX tiles), `avx512-vnni` (`vpdpbusd`: u8 x s8 groups of four
    /// summed into i32 lanes), `avx512-bf16` (`vdpbf16ps`: bf16 pairs
    /// summed into f32 lanes).
    pub matrix_units: Vec<String>,
}

impl TargetDesc {
    /// The host machine.
    pub fn host() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let isa = Isa::detect();
        let caches = host_caches().unwrap_or_else(default_caches);
        Self { cores, vector_bits: isa.vector_bits, caches, fma: isa.fma, matrix_units: isa.matrix_units }
    }

    /// A conservative generic x86-64 (SSE2, 1 core, small caches), for tests.
    pub fn generic() -> Self {
        Self { cores: 1, vector_bits: 128, caches: default_caches(), fma: false, matrix_units: vec![] }
    }

    /// Size of the data cache at `level` (1, 2, 3), if known.
    pub fn cache_bytes(&self, level: u32) -> Option<u64> {
        self.caches.iter().find(|c| c.level == level).map(|c| c.size_bytes)
    }

    /// Architectural vector registers: 32 with AVX-512, else 16 (x86-64's
    /// xmm/ymm files; NEON also has 32, SSE 16).
    pub fn vector_registers(&self) -> u32 {
        if self.vector_bits >= 512 {
            32
        } else {
            16
        }
    }

    /// f32 lanes in one vector register.
    pub fn f32_lanes(&self) -> u32 {
        self.vector_bits / 32
    }

    /// Applies `key=value` overrides separated by spaces or commas:
    /// `cores`, `vector-bits`, `l1`, `l2`, `l3` (bytes, or with K/KiB/M/MiB;
    /// 8 ways), `l1-ways`, `l2-ways`, `l3-ways` (associativity),
    /// `fma` (true/false), `matrix-units` (`+`-separated or `none`).
    pub fn apply_overrides(&mut self, text: &str) -> Result<(), String> {
        for item in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (key, value) =
                item.split_once('=').ok_or_else(|| format!("target override '{item}' is not key=value"))?;
            let bad = || format!("invalid value '{value}' for target field '{key}'");
            match key {
                "cores" => self.cores = value.parse().ok().filter(|n| *n > 0).ok_or_else(bad)?,
                "vector-bits" => {
                    self.vector_bits = value.parse().ok().filter(|b| [128, 256, 512].contains(b)).ok_or_else(bad)?
                }
                "l1" | "l2" | "l3" => {
                    let level = key[1..].parse().unwrap_or(1);
                    let size_bytes = parse_size(value).ok_or_else(bad)?;
                    self.caches.retain(|c| c.level != level);
                    self.caches.push(Cache { level, size_bytes, line_bytes: 64, ways: 8 });
                    self.caches.sort_by_key(|c| c.level);
                }
                "l1-ways" | "l2-ways" | "l3-ways" => {
                    let level = key[1..2].parse().unwrap_or(1);
                    let ways = value.parse().ok().filter(|w| *w > 0).ok_or_else(bad)?;
                    let cache = self.caches.iter_mut().find(|c| c.level == level).ok_or_else(bad)?;
                    cache.ways = ways;
                }
                "fma" => self.fma = value.parse().map_err(|_| bad())?,
                "matrix-units" => {
                    self.matrix_units =
                        if value == "none" { vec![] } else { value.split('+').map(str::to_string).collect() }
                }
                _ => {
                    return Err(format!(
                        "unknown target field '{key}' (cores, vector-bits, l1, l2, l3, l1-ways, l2-ways, l3-ways, fma, matrix-units)"
                    ))
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for TargetDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cores={} vector-bits={} fma={}", self.cores, self.vector_bits, self.fma)?;
        for cache in &self.caches {
            write!(f, " l{}={}K", cache.level, cache.size_bytes / 1024)?;
            if cache.ways != 8 {
                write!(f, " l{}-ways={}", cache.level, cache.ways)?;
            }
        }
        let units = if self.matrix_units.is_empty() { "none".to_string() } else { self.matrix_units.join("+") };
        write!(f, " matrix-units={units}")
    }
}

/// `48K`, `1024KiB`, `2M`, `32MiB`, `65536`.
fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let number: u64 = text[..digits].parse().ok()?;
    let scale = match text[digits..].trim() {
        "" | "B" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    Some(number * scale)
}

fn default_caches() -> Vec<Cache> {
    vec![
        Cache { level: 1, size_bytes: 32 << 10, line_bytes: 64, ways: 8 },
        Cache { level: 2, size_bytes: 256 << 10, line_bytes: 64, ways: 8 },
        Cache { level: 3, size_bytes: 8 << 20, line_bytes: 64, ways: 16 },
    ]
}

/// Data and unified caches of CPU 0 from Linux sysfs.
fn host_caches() -> Option<Vec<Cache>> {
    let mut caches = Vec::new();
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let read = |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).ok().map(|s| s.trim().to_string());
        let Some(kind) = read("type") else { break };
        if kind == "Instruction" {
            continue;
        }
        let level = read("level")?.parse().ok()?;
        let size_bytes = parse_size(&read("size")?)?;
        let line_bytes = read("coherency_line_size").and_then(|s| s.parse().ok()).unwrap_or(64);
        let ways = read("ways_of_associativity").and_then(|s| s.parse().ok()).filter(|w| *w > 0).unwrap_or(8);
        caches.push(Cache { level, size_bytes, line_bytes, ways });
    }
    (!caches.is_empty()).then_some(caches)
}

/// Does the host CPU have AVX-512F? (What `vector_bits = 512` of
/// [`TargetDesc::host`] comes from; overrides may change a description,
/// not the host.)
pub fn host_has_avx512f() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Asks Linux for the AMX tile state (`arch_prctl(ARCH_REQ_XCOMP_PERM,
/// XFEATURE_XTILEDATA)`, what generated code using the tiles also does when
/// it is loaded: `pb-amx-permission`); true when granted. On another OS,
/// or a kernel without the call, the tiles are not used.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn os_grants_amx() -> bool {
    let result: i64;
    // SAFETY: the arch_prctl system call reads its two integer arguments
    // and touches no memory of ours; rcx and r11 are clobbered by `syscall`.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") 158i64 => result,
            in("rdi") 0x1023i64,
            in("rsi") 18i64,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    result == 0
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn os_grants_amx() -> bool {
    false
}

struct Isa {
    vector_bits: u32,
    fma: bool,
    matrix_units: Vec<String>,
}

impl Isa {
    #[cfg(target_arch = "x86_64")]
    fn detect() -> Self {
        let vector_bits = if host_has_avx512f() {
            512
        } else if std::arch::is_x86_feature_detected!("avx2") {
            256
        } else {
            128
        };
        // CPUID leaf 7, sub-leaf 0, EDX: bit 22 AMX-BF16, bit 24 AMX-TILE, bit 25 AMX-INT8.
        // CPUID exists on every x86-64 CPU; leaf 7 is checked first.
        let edx = if std::arch::x86_64::__cpuid(0).eax >= 7 { std::arch::x86_64::__cpuid_count(7, 0).edx } else { 0 };
        let mut matrix_units = Vec::new();
        for (bit, name) in [(24, "amx-tile"), (22, "amx-bf16"), (25, "amx-int8")] {
            if edx & (1 << bit) != 0 {
                matrix_units.push(name.to_string());
            }
        }
        // The tiles are usable only where the OS grants them (Linux 5.16+).
        if !matrix_units.is_empty() && !os_grants_amx() {
            matrix_units.clear();
        }
        // Dot products on vector registers: leaf 7 sub-leaf 0 ECX bit 11
        // AVX512_VNNI, sub-leaf 1 EAX bit 5 AVX512_BF16 (both need
        // AVX-512F, whose state the OS enables with it).
        if vector_bits == 512 {
            let (ecx, eax1) = if std::arch::x86_64::__cpuid(0).eax >= 7 {
                (std::arch::x86_64::__cpuid_count(7, 0).ecx, std::arch::x86_64::__cpuid_count(7, 1).eax)
            } else {
                (0, 0)
            };
            if ecx & (1 << 11) != 0 {
                matrix_units.push("avx512-vnni".to_string());
            }
            if eax1 & (1 << 5) != 0 {
                matrix_units.push("avx512-bf16".to_string());
            }
        }
        Self { vector_bits, fma: std::arch::is_x86_feature_detected!("fma"), matrix_units }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn detect() -> Self {
        Self { vector_bits: 128, fma: false, matrix_units: vec![] }
    }
}
