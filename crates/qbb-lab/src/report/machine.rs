//! The machine a result was measured on: CPU, features, compiler, flags, date, and the machine id
//! that names its folder under `reports/`.

use std::time::{SystemTime, UNIX_EPOCH};

use qbb_benches::build_info;
use serde::{Deserialize, Serialize};

use super::arm::Core;

/// Everything a reader needs to know about where and how a result was measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// The folder name under `reports/`: a slug of the CPU model.
    pub id: String,
    /// The CPU model as the operating system reports it.
    pub cpu: String,
    /// Family, model and stepping (an ARM core's implementer, part, variant and revision),
    /// logical CPUs, and whether it runs under a hypervisor.
    pub cpu_details: String,
    /// The SIMD features of the backends that this CPU has.
    pub features: Vec<String>,
    /// The features of the backends that this CPU lacks.
    pub missing_features: Vec<String>,
    /// `rustc --version` of the compiler that built the measured code (captured at build time by
    /// `benches/build.rs`).
    pub rustc: String,
    /// Profile, optimisation level and RUSTFLAGS of that build.
    pub flags: String,
    pub os: String,
    /// The load average (1, 5, 15 minutes) when the run started: other work on the machine.
    pub load: String,
    /// When the results were produced, UTC.
    pub date: String,
    /// The core clock during a timing run, GHz: the mean of [`Machine::clock_samples_ghz`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ghz: Option<f64>,
    /// The clock timed before and after the run (`qbb_benches::clock`), GHz.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock_samples_ghz: Vec<f64>,
}

/// The features the backends of this architecture rely on, tier by tier, each once: the x86
/// tiers', or neon's on AArch64.
fn backend_features() -> Vec<&'static str> {
    use qbb::backend::{AVX2_FEATURES, AVX512_FEATURES, NEON_FEATURES, SSE2_FEATURES};
    let tiers: [&[&'static str]; 3] = if cfg!(target_arch = "aarch64") {
        [NEON_FEATURES, &[], &[]]
    } else {
        [SSE2_FEATURES, AVX2_FEATURES, AVX512_FEATURES]
    };
    let mut all: Vec<&'static str> = Vec::new();
    for &f in tiers.iter().copied().flatten() {
        if !all.contains(&f) {
            all.push(f);
        }
    }
    all
}

impl Machine {
    /// The machine this process runs on, now.
    pub fn current() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| cpuinfo_field(&cpuinfo, name);
        // An ARM core under Linux has no model name, only its identification numbers.
        let midr = std::fs::read_to_string(MIDR_EL1).ok();
        let arm = Core::read(&cpuinfo, midr.as_deref());
        let cpu = field("model name")
            .or_else(|| arm.map(|core| core.name()))
            .or_else(macos_brand)
            .unwrap_or_else(|| "unknown CPU".to_string());
        let family = field("cpu family");
        let model = field("model");
        let logical = std::thread::available_parallelism().map_or(0, |n| n.get());
        let virtualised = field("flags").is_some_and(|f| f.split(' ').any(|f| f == "hypervisor"));
        let mut details = Vec::new();
        if let (Some(f), Some(m)) = (&family, &model) {
            let stepping = field("stepping").unwrap_or_else(|| "?".to_string());
            details.push(format!("family {f}, model {m}, stepping {stepping}"));
        }
        if let Some(core) = arm {
            details.push(core.details());
        }
        details.push(format!("{logical} logical CPUs"));
        if virtualised {
            details.push("virtual machine".to_string());
        }
        let (features, missing_features) = backend_features()
            .into_iter()
            .map(str::to_string)
            .partition(|f| has_feature(f));
        Machine {
            id: machine_id(&cpu, family.as_deref(), model.as_deref()),
            cpu,
            cpu_details: details.join(", "),
            features,
            missing_features,
            rustc: build_info::RUSTC_VERSION.to_string(),
            flags: build_info::flags(),
            os: format!(
                "{} {}{}",
                std::env::consts::OS,
                std::env::consts::ARCH,
                std::fs::read_to_string("/proc/sys/kernel/osrelease")
                    .map(|r| format!(", kernel {}", r.trim()))
                    .unwrap_or_default()
            ),
            load: std::fs::read_to_string("/proc/loadavg")
                .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
                .unwrap_or_else(|_| "unknown".to_string()),
            date: utc_now(),
            clock_ghz: None,
            clock_samples_ghz: Vec::new(),
        }
    }

    /// The day of [`Machine::date`]: `2026-11-21`.
    pub fn day(&self) -> &str {
        self.date.split_whitespace().next().unwrap_or("")
    }
}

/// A compiler as a caption names it, without its commit: `rustc 1.95.0`.
pub fn short_compiler(rustc: &str) -> String {
    rustc
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn has_feature(name: &str) -> bool {
    qbb::backend::cpu_has(name)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn has_feature(_name: &str) -> bool {
    false
}

/// The first core's identification register on Linux on AArch64.
const MIDR_EL1: &str = "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1";

/// macOS's name of the CPU (`Apple M4`), where there is no `/proc/cpuinfo`.
fn macos_brand() -> Option<String> {
    if !cfg!(target_os = "macos") {
        return None;
    }
    let out = std::process::Command::new("sysctl")
        .args(["-n", "machdep.cpu.brand_string"])
        .output()
        .ok()?;
    let brand = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !brand.is_empty()).then_some(brand)
}

/// The value of the first `name : value` line of `/proc/cpuinfo`.
pub(crate) fn cpuinfo_field(cpuinfo: &str, name: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

/// A slug of the CPU model: `Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz` becomes
/// `intel-xeon-platinum-8481c`. A model name without any digit (a virtual machine may report only
/// `AMD EPYC`) says too little, so family and model are appended: `amd-epyc-f25m1`.
pub fn machine_id(cpu: &str, family: Option<&str>, model: Option<&str>) -> String {
    let name = cpu.split('@').next().unwrap_or(cpu).to_lowercase();
    let name = name.replace("(r)", " ").replace("(tm)", " ");
    let words: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty() && !matches!(*w, "cpu" | "processor"))
        .map(str::to_string)
        .collect();
    let mut id = words.join("-");
    if id.is_empty() {
        id = "unknown-cpu".to_string();
    }
    if !id.chars().any(|c| c.is_ascii_digit())
        && let (Some(f), Some(m)) = (family, model)
    {
        id = format!("{id}-f{f}m{m}");
    }
    id
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    let minutes = secs % 86_400 / 60;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minutes / 60,
        minutes % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01, counted in 400-year eras of
/// 146097 days whose years start on March 1st (so the leap day ends a year).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // 0 = March
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_ids_are_slugs_of_the_model() {
        assert_eq!(
            machine_id("Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz", None, None),
            "intel-xeon-platinum-8481c"
        );
        assert_eq!(
            machine_id(
                "AMD Ryzen 9 7950X 16-Core Processor",
                Some("25"),
                Some("97")
            ),
            "amd-ryzen-9-7950x-16-core"
        );
        assert_eq!(
            machine_id("AMD EPYC", Some("25"), Some("1")),
            "amd-epyc-f25m1"
        );
        assert_eq!(machine_id("", None, None), "unknown-cpu");
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn cpuinfo_fields_are_read_by_exact_name() {
        let text = "processor\t: 0\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n";
        assert_eq!(cpuinfo_field(text, "model").as_deref(), Some("1"));
        assert_eq!(
            cpuinfo_field(text, "model name").as_deref(),
            Some("AMD EPYC")
        );
        assert_eq!(cpuinfo_field(text, "stepping"), None);
    }
}
