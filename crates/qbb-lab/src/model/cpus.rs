//! The microarchitectures the model is asked about, which instruction set each runs, which of
//! them run the avx512 backend, and which one a measured machine is.

use anyhow::{Result, bail};

use super::isa::Isa;

/// A CPU by its llvm-mca name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cpu {
    /// The `-mcpu` name.
    pub name: &'static str,
    pub title: &'static str,
    /// Why the avx512 backend cannot run there (`None`: it can). The backend needs AVX-512
    /// F/BW/VL/VBMI/VBMI2, GFNI, VPOPCNTDQ and BITALG; every other backend runs on all of these.
    pub lacks_avx512: Option<&'static str>,
    pub isa: Isa,
}

const NO_AVX512: Option<&str> = Some("CPU lacks AVX-512");
const FIRST_AVX512: Option<&str> =
    Some("CPU lacks AVX-512 VBMI, VBMI2, GFNI, VPOPCNTDQ and BITALG (it has F, BW, VL)");

/// An AArch64 core: no x86 backend runs there.
const AARCH64: Option<&str> = Some("an AArch64 core");

/// The CPUs the lab can name, oldest first within each vendor: `-mcpu` name, title, and why the
/// avx512 backend cannot run there; then the AArch64 cores, which run scalar, swar and neon.
#[rustfmt::skip]
pub const KNOWN: [Cpu; 25] = [
    cpu("znver1", "AMD Zen 1 (EPYC 7001 Naples, Ryzen 1000)", NO_AVX512),
    cpu("znver2", "AMD Zen 2 (EPYC 7002 Rome, Ryzen 3000)", NO_AVX512),
    cpu("znver3", "AMD Zen 3 (EPYC 7003 Milan, Ryzen 5000)", NO_AVX512),
    cpu("znver4", "AMD Zen 4 (EPYC 9004 Genoa, Ryzen 7000)", None),
    cpu("znver5", "AMD Zen 5 (EPYC 9005 Turin, Ryzen 9000)", None),
    cpu("haswell", "Intel Haswell", NO_AVX512),
    cpu("broadwell", "Intel Broadwell", NO_AVX512),
    cpu("skylake", "Intel Skylake client (also Kaby, Coffee, Comet Lake)", NO_AVX512),
    cpu("skylake-avx512", "Intel Skylake-SP (Xeon Scalable 1st gen)", FIRST_AVX512),
    cpu("cascadelake", "Intel Cascade Lake (Xeon Scalable 2nd gen)", FIRST_AVX512),
    cpu("icelake-client", "Intel Ice Lake client", None),
    cpu("icelake-server", "Intel Ice Lake server (Xeon Scalable 3rd gen)", None),
    cpu("tigerlake", "Intel Tiger Lake", None),
    cpu("alderlake", "Intel Alder Lake", NO_AVX512),
    cpu("raptorlake", "Intel Raptor Lake", NO_AVX512),
    cpu("sapphirerapids", "Intel Sapphire Rapids (Xeon Scalable 4th gen)", None),
    cpu("emeraldrapids", "Intel Emerald Rapids (Xeon Scalable 5th gen)", None),
    cpu("graniterapids", "Intel Granite Rapids (Xeon 6)", None),
    arm("apple-m1", "Apple M1"),
    arm("apple-m4", "Apple M4"),
    arm("cortex-x2", "Arm Cortex-X2"),
    arm("neoverse-n1", "Arm Neoverse N1 (AWS Graviton2, Ampere Altra)"),
    arm("neoverse-n2", "Arm Neoverse N2 (Microsoft Cobalt 100)"),
    arm("neoverse-v1", "Arm Neoverse V1 (AWS Graviton3)"),
    arm("neoverse-v2", "Arm Neoverse V2 (AWS Graviton4, NVIDIA Grace, Google Axion)"),
];

const fn cpu(name: &'static str, title: &'static str, lacks_avx512: Option<&'static str>) -> Cpu {
    Cpu {
        name,
        title,
        lacks_avx512,
        isa: Isa::X86_64,
    }
}

const fn arm(name: &'static str, title: &'static str) -> Cpu {
    Cpu {
        name,
        title,
        lacks_avx512: AARCH64,
        isa: Isa::Aarch64,
    }
}

/// Asked for when `--cpu` is not given: two AVX2-only and three AVX-512 cores of both vendors,
/// and Zen 1, the CPU of the lab's second machine.
pub const DEFAULT: [&str; 6] = [
    "znver1",
    "znver3",
    "znver4",
    "skylake",
    "icelake-server",
    "sapphirerapids",
];

/// In `--cpu`, the word for [`DEFAULT`]: `--cpu default,apple-m4` adds a core to them.
pub const DEFAULT_WORD: &str = "default";

impl Cpu {
    pub fn named(name: &str) -> Result<Cpu> {
        if name == "native" {
            return Ok(native());
        }
        match KNOWN.iter().find(|c| c.name == name) {
            Some(cpu) => Ok(*cpu),
            None => bail!(
                "`{name}` is not a CPU the lab knows; known: {}, native (this machine's), \
                 {DEFAULT_WORD} (the default set)",
                KNOWN.map(|c| c.name).join(", ")
            ),
        }
    }

    /// The CPU a vector backend's probe should be modelled on for `portable`: the portable
    /// backend runs at the widest width the CPU has (`Portable::width`).
    pub fn portable_probe(&self) -> &'static str {
        if self.lacks_avx512.is_none() {
            "portable_avx512"
        } else {
            "portable_avx2"
        }
    }
}

/// This machine, as llvm-mca's `native` sees it; whether it runs avx512 is detected.
fn native() -> Cpu {
    let runs = qbb::BackendKind::Avx512.is_available();
    Cpu {
        isa: if cfg!(target_arch = "aarch64") {
            Isa::Aarch64
        } else {
            Isa::X86_64
        },
        ..cpu(
            "native",
            "this machine (llvm-mca's host CPU)",
            if runs { None } else { NO_AVX512 },
        )
    }
}

/// The CPUs of `--cpu` (or [`DEFAULT`]; the word `default` among them stands for it), with
/// `also` (the measured machine's) added at the end when missing.
pub fn selection(asked: &[String], also: Option<&str>) -> Result<Vec<Cpu>> {
    let mut names: Vec<&str> = if asked.is_empty() {
        DEFAULT.to_vec()
    } else {
        asked
            .iter()
            .flat_map(|name| match name.as_str() {
                DEFAULT_WORD => DEFAULT.to_vec(),
                other => vec![other],
            })
            .collect()
    };
    if let Some(extra) = also
        && !names.contains(&extra)
    {
        names.push(extra);
    }
    let mut cpus: Vec<Cpu> = Vec::new();
    for name in names {
        let cpu = Cpu::named(name)?;
        if !cpus.contains(&cpu) {
            cpus.push(cpu);
        }
    }
    Ok(cpus)
}

/// The llvm-mca CPU of a machine from its `/proc/cpuinfo` vendor, family and model (decimal
/// there, hex below), following LLVM's own host detection (`llvm/lib/TargetParser/Host.cpp`);
/// `native` for one it does not list.
pub fn for_machine(vendor: &str, family: u32, model: u32) -> &'static str {
    let amd = vendor.contains("AMD");
    let intel = vendor.contains("Intel");
    match (family, model) {
        (0x17, m) if amd && is_zen2(m) => "znver2",
        (0x17, _) if amd => "znver1",
        (0x19, m) if amd && is_zen4(m) => "znver4",
        (0x19, _) if amd => "znver3",
        (0x1a, _) if amd => "znver5",
        (6, m) if intel => intel_core(m),
        _ => "native",
    }
}

fn is_zen2(model: u32) -> bool {
    matches!(model, 0x30..=0x3f | 0x47 | 0x60..=0x6f | 0x70..=0x7f | 0x84..=0x87 | 0x90..=0xaf)
}

fn is_zen4(model: u32) -> bool {
    matches!(model, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf)
}

fn intel_core(model: u32) -> &'static str {
    match model {
        0x3c | 0x3f | 0x45 | 0x46 => "haswell",
        0x3d | 0x47 | 0x4f | 0x56 => "broadwell",
        0x4e | 0x5e | 0x8e | 0x9e | 0xa5 | 0xa6 => "skylake",
        0x55 => "skylake-avx512",
        0x7d | 0x7e => "icelake-client",
        0x6a | 0x6c => "icelake-server",
        0x8c | 0x8d => "tigerlake",
        0x97 | 0x9a => "alderlake",
        0xb7 | 0xba | 0xbf => "raptorlake",
        0x8f => "sapphirerapids",
        0xcf => "emeraldrapids",
        0xad | 0xae => "graniterapids",
        _ => "native",
    }
}

/// The llvm-mca CPU of an Intel core whose model number names none, from the extensions of its
/// `/proc/cpuinfo` flags: a hypervisor may report a model number of its own (model 167, Rocket
/// Lake's, on a core with AMX), but it passes the extensions through. AMX with AVX512-FP16 came
/// with Sapphire Rapids (LLVM schedules Emerald Rapids, its successor, alike), AMX-FP16 with
/// Granite Rapids.
pub fn intel_by_flags(flags: &str) -> Option<&'static str> {
    let has = |name: &str| flags.split_whitespace().any(|f| f == name);
    if has("amx_fp16") {
        Some("graniterapids")
    } else if has("amx_tile") && has("avx512_fp16") {
        Some("sapphirerapids")
    } else {
        None
    }
}

/// The llvm-mca CPU of an ARM machine: from the implementer and part of its `cpu_details`
/// (Linux), else from its CPU's name (macOS: `Apple M4`); `native` for one the lab does not
/// model.
pub fn for_arm_machine(cpu: &str, details: &str) -> &'static str {
    let number = |key: &str| -> Option<u32> {
        let at = details.find(key)? + key.len();
        let hex: String = details[at..]
            .trim_start()
            .trim_start_matches("0x")
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .collect();
        u32::from_str_radix(&hex, 16).ok()
    };
    match (number("implementer "), number("part ")) {
        (Some(0x41), Some(0xd0c)) => "neoverse-n1",
        (Some(0x41), Some(0xd40)) => "neoverse-v1",
        (Some(0x41), Some(0xd48)) => "cortex-x2",
        (Some(0x41), Some(0xd49)) => "neoverse-n2",
        (Some(0x41), Some(0xd4f)) => "neoverse-v2",
        (Some(0x61), Some(0x022 | 0x023)) => "apple-m1",
        (Some(_), Some(_)) => "native",
        _ if cpu.starts_with("Apple M1") => "apple-m1",
        _ if cpu.starts_with("Apple M4") => "apple-m4",
        _ => "native",
    }
}

/// `family 23, model 1, stepping 2, ...` (a report's `cpu_details`) -> (23, 1).
pub fn family_and_model(details: &str) -> Option<(u32, u32)> {
    let number = |key: &str| -> Option<u32> {
        let at = details.find(key)? + key.len();
        let digits: String = details[at..]
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    Some((number("family ")?, number("model ")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machines_map_to_llvm_cpus() {
        assert_eq!(for_machine("AMD EPYC", 23, 1), "znver1");
        assert_eq!(for_machine("AuthenticAMD", 23, 0x31), "znver2");
        assert_eq!(for_machine("AMD EPYC", 25, 1), "znver3");
        assert_eq!(for_machine("AMD EPYC 7B13", 25, 0x21), "znver3");
        assert_eq!(for_machine("AMD EPYC 9654", 25, 0x11), "znver4");
        assert_eq!(for_machine("AMD Ryzen 9 7950X", 25, 0x61), "znver4");
        assert_eq!(for_machine("GenuineIntel", 6, 0x8f), "sapphirerapids");
        assert_eq!(for_machine("Intel(R) Xeon(R)", 6, 0x6a), "icelake-server");
        assert_eq!(for_machine("Intel(R) Xeon(R)", 6, 0x55), "skylake-avx512");
        assert_eq!(for_machine("Intel(R) Core(TM)", 6, 0x9e), "skylake");
        assert_eq!(for_machine("Intel(R) Core(TM)", 6, 0x01), "native");
        assert_eq!(for_machine("Hygon", 24, 0), "native");
        // Every name the mapping gives is one the lab knows.
        for family in [6, 0x17, 0x19, 0x1a] {
            for model in 0..=0xff {
                for vendor in ["AMD", "Intel"] {
                    Cpu::named(for_machine(vendor, family, model)).unwrap();
                }
            }
        }
    }

    #[test]
    fn intel_cores_are_named_by_their_extensions() {
        let sapphire = "fpu avx2 avx512f avx512_fp16 amx_bf16 amx_tile amx_int8";
        assert_eq!(intel_by_flags(sapphire), Some("sapphirerapids"));
        assert_eq!(
            intel_by_flags(&format!("{sapphire} amx_fp16")),
            Some("graniterapids")
        );
        assert_eq!(intel_by_flags("fpu avx2 avx512f avx512vbmi2"), None);
        assert_eq!(intel_by_flags("amx_tilex avx512_fp16"), None);
    }

    #[test]
    fn arm_machines_map_to_llvm_cpus() {
        let graviton4 = "implementer 0x41, part 0xd4f, variant 0x0, revision 1, 2 logical CPUs";
        assert_eq!(for_arm_machine("Arm Neoverse V2", graviton4), "neoverse-v2");
        let n1 = "implementer 0x41, part 0xd0c, variant 0x3, revision 1";
        assert_eq!(for_arm_machine("Arm Neoverse N1", n1), "neoverse-n1");
        assert_eq!(for_arm_machine("Apple M4", "10 logical CPUs"), "apple-m4");
        let other = "implementer 0x51, part 0x802, variant 0x0, revision 0";
        assert_eq!(
            for_arm_machine("ARM CPU implementer 0x51 part 0x802", other),
            "native"
        );
        for name in [
            "neoverse-n1",
            "neoverse-v1",
            "cortex-x2",
            "neoverse-n2",
            "neoverse-v2",
        ] {
            assert_eq!(Cpu::named(name).unwrap().isa, Isa::Aarch64);
        }
    }

    #[test]
    fn a_report_names_family_and_model() {
        assert_eq!(
            family_and_model("family 23, model 1, stepping 2, 2 logical CPUs, virtual machine"),
            Some((23, 1))
        );
        assert_eq!(family_and_model("2 logical CPUs"), None);
    }

    #[test]
    fn the_selection_adds_the_measured_cpu_once() {
        let names = |cpus: Vec<Cpu>| cpus.iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(selection(&[], Some("znver1")).unwrap()), DEFAULT);
        assert_eq!(
            names(selection(&["znver4".to_string()], Some("znver2")).unwrap()),
            ["znver4", "znver2"]
        );
        let mut with_arm = DEFAULT.to_vec();
        with_arm.extend(["apple-m4", "neoverse-v2"]);
        let asked = ["default", "apple-m4", "neoverse-v2"].map(String::from);
        assert_eq!(names(selection(&asked, None).unwrap()), with_arm);
        let err = selection(&["pentium5".to_string()], None).unwrap_err();
        assert!(err.to_string().contains("`pentium5` is not a CPU"), "{err}");
    }

    #[test]
    fn only_full_avx512_cores_run_the_avx512_backend() {
        let runs = |n: &str| Cpu::named(n).unwrap().lacks_avx512.is_none();
        assert!(runs("znver4") && runs("icelake-server") && runs("sapphirerapids"));
        assert!(!runs("znver3") && !runs("skylake") && !runs("skylake-avx512"));
        assert!(!runs("apple-m4") && !runs("neoverse-v2"));
        assert_eq!(Cpu::named("neoverse-v2").unwrap().isa, Isa::Aarch64);
        assert_eq!(Cpu::named("znver5").unwrap().isa, Isa::X86_64);
        assert_eq!(
            Cpu::named("znver4").unwrap().portable_probe(),
            "portable_avx512"
        );
        assert_eq!(
            Cpu::named("znver1").unwrap().portable_probe(),
            "portable_avx2"
        );
    }
}
