//! No report is written under an emulator. Under qemu's user-mode emulation (how an AArch64
//! build runs on an x86-64 host, `.ci/aarch64-under-qemu`) the timings are the emulator's and
//! `/proc/cpuinfo` is the host's, so a report would time one CPU and name another.

use anyhow::{Result, bail};

/// What the check reads of the process and the machine.
pub struct Evidence<'a> {
    /// The architecture the program was built for (`std::env::consts::ARCH`).
    pub arch: &'a str,
    /// `/proc/cpuinfo` (empty where there is none: macOS).
    pub cpuinfo: &'a str,
    /// `/proc/self/comm`: the name of the program the kernel runs.
    pub comm: &'a str,
    /// macOS's `sysctl.proc_translated`: 1 under Rosetta 2.
    pub translated: bool,
}

/// Why the program looks emulated, or `None`.
pub fn emulated(e: &Evidence) -> Option<String> {
    let comm = e.comm.trim();
    if comm.starts_with("qemu-") {
        return Some(format!(
            "the process is `{comm}`, qemu's user-mode emulator, running this {} program",
            e.arch
        ));
    }
    if let Some(described) = cpuinfo_arch(e.cpuinfo)
        && described != e.arch
    {
        return Some(format!(
            "/proc/cpuinfo describes an {described} CPU to this {} program: the host's, as qemu's \
             user-mode emulation passes it through",
            e.arch
        ));
    }
    if e.arch == "aarch64" && field(e.cpuinfo, "CPU implementer").as_deref() == Some("0x00") {
        return Some(
            "/proc/cpuinfo names CPU implementer 0x00, which is reserved for software: qemu's \
             emulated CPU"
                .to_string(),
        );
    }
    if e.translated {
        return Some("the process runs under Rosetta 2 (sysctl.proc_translated is 1)".to_string());
    }
    None
}

/// The architecture `/proc/cpuinfo` describes, by the fields only it has there.
fn cpuinfo_arch(cpuinfo: &str) -> Option<&'static str> {
    if field(cpuinfo, "vendor_id").is_some() || field(cpuinfo, "cpu family").is_some() {
        Some("x86_64")
    } else if field(cpuinfo, "CPU implementer").is_some() {
        Some("aarch64")
    } else {
        None
    }
}

fn field(cpuinfo: &str, name: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

/// Fails, with the reason, when this process runs under an emulator.
pub fn refuse_if_emulated() -> Result<()> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let comm = std::fs::read_to_string("/proc/self/comm").unwrap_or_default();
    let evidence = Evidence {
        arch: std::env::consts::ARCH,
        cpuinfo: &cpuinfo,
        comm: &comm,
        translated: cfg!(target_os = "macos") && rosetta(),
    };
    if let Some(why) = emulated(&evidence) {
        bail!("no report is written under an emulator: {why}");
    }
    Ok(())
}

fn rosetta() -> bool {
    std::process::Command::new("sysctl")
        .args(["-n", "sysctl.proc_translated"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "1")
}

#[cfg(test)]
mod tests {
    use super::*;

    const X86_CPUINFO: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\n\
                               model\t\t: 2\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 avx2\n";
    const NEOVERSE_CPUINFO: &str = "processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd \
                                    evtstrm aes crc32\nCPU implementer\t: 0x41\nCPU architecture: \
                                    8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\nCPU revision\t: 1\n";

    fn check(arch: &str, cpuinfo: &str, comm: &str) -> Option<String> {
        emulated(&Evidence {
            arch,
            cpuinfo,
            comm,
            translated: false,
        })
    }

    #[test]
    fn native_machines_are_not_emulated() {
        assert_eq!(check("x86_64", X86_CPUINFO, "qbb\n"), None);
        assert_eq!(check("aarch64", NEOVERSE_CPUINFO, "qbb\n"), None);
        // macOS: no /proc at all.
        assert_eq!(check("aarch64", "", ""), None);
    }

    #[test]
    fn qemu_user_mode_is_recognised() {
        // Run as `qemu-aarch64-static target/.../qbb`: the kernel runs qemu, and /proc/cpuinfo
        // is the x86-64 host's.
        let why = check("aarch64", X86_CPUINFO, "qemu-aarch64-st\n").unwrap();
        assert!(why.contains("`qemu-aarch64-st`"), "{why}");
        // Through binfmt_misc the process keeps the program's name; the host's cpuinfo tells.
        let why = check("aarch64", X86_CPUINFO, "qbb\n").unwrap();
        assert!(why.contains("describes an x86_64 CPU"), "{why}");
        // The other way round: an x86-64 build emulated on an ARM host.
        let why = check("x86_64", NEOVERSE_CPUINFO, "qbb\n").unwrap();
        assert!(why.contains("describes an aarch64 CPU"), "{why}");
        // A qemu that emulates /proc/cpuinfo shows its own CPU, implementer 0x00.
        let emulated_cpuinfo = NEOVERSE_CPUINFO.replace("0x41", "0x00");
        let why = check("aarch64", &emulated_cpuinfo, "qbb\n").unwrap();
        assert!(why.contains("implementer 0x00"), "{why}");
    }

    #[test]
    fn rosetta_is_recognised() {
        let why = emulated(&Evidence {
            arch: "x86_64",
            cpuinfo: "",
            comm: "",
            translated: true,
        });
        assert!(why.unwrap().contains("Rosetta 2"));
    }
}
