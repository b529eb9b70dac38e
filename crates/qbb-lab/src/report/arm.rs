//! Which ARM core a machine is: Linux on AArch64 has no `model name`, only the fields of the
//! core's MIDR (implementer, part, variant, revision) in `/proc/cpuinfo`, or the register itself
//! in `/sys/devices/system/cpu/cpu0/regs/identification/midr_el1`. The names are those the
//! kernel's `arch/arm64/include/asm/cputype.h` gives the numbers.

/// The identification of the first core.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Core {
    pub implementer: u32,
    pub part: u32,
    pub variant: u32,
    pub revision: u32,
}

/// Implementer, part and name of the cores the lab names; another is named by its numbers.
#[rustfmt::skip]
const CORES: [(u32, u32, &str); 24] = [
    (0x41, 0xd03, "Arm Cortex-A53"),
    (0x41, 0xd05, "Arm Cortex-A55"),
    (0x41, 0xd07, "Arm Cortex-A57"),
    (0x41, 0xd08, "Arm Cortex-A72"),
    (0x41, 0xd0b, "Arm Cortex-A76"),
    (0x41, 0xd0c, "Arm Neoverse N1"),
    (0x41, 0xd40, "Arm Neoverse V1"),
    (0x41, 0xd41, "Arm Cortex-A78"),
    (0x41, 0xd44, "Arm Cortex-X1"),
    (0x41, 0xd47, "Arm Cortex-A710"),
    (0x41, 0xd48, "Arm Cortex-X2"),
    (0x41, 0xd49, "Arm Neoverse N2"),
    (0x41, 0xd4e, "Arm Cortex-X3"),
    (0x41, 0xd4f, "Arm Neoverse V2"),
    (0x41, 0xd82, "Arm Cortex-X4"),
    (0x41, 0xd84, "Arm Neoverse V3"),
    (0x41, 0xd8e, "Arm Neoverse N3"),
    (0x46, 0x001, "Fujitsu A64FX"),
    (0x48, 0xd01, "HiSilicon TaiShan v110 (Kunpeng 920)"),
    (0x61, 0x022, "Apple M1 Icestorm"),
    (0x61, 0x023, "Apple M1 Firestorm"),
    (0x61, 0x032, "Apple M2 Blizzard"),
    (0x61, 0x033, "Apple M2 Avalanche"),
    (0xc0, 0xac3, "Ampere AmpereOne"),
];

impl Core {
    /// The first core of `/proc/cpuinfo`, else of the MIDR register's text (`midr_el1`, a hex
    /// number); `None` on a machine that shows neither (x86-64).
    pub fn read(cpuinfo: &str, midr_el1: Option<&str>) -> Option<Core> {
        Core::from_cpuinfo(cpuinfo).or_else(|| Core::from_midr(midr_el1?))
    }

    fn from_cpuinfo(cpuinfo: &str) -> Option<Core> {
        let number = |name: &str| -> Option<u32> {
            let value = cpuinfo.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == name).then_some(value.trim())
            })?;
            match value.strip_prefix("0x") {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => value.parse().ok(),
            }
        };
        Some(Core {
            implementer: number("CPU implementer")?,
            part: number("CPU part")?,
            variant: number("CPU variant").unwrap_or(0),
            revision: number("CPU revision").unwrap_or(0),
        })
    }

    /// `0x00000000410fd4f1`: implementer in bits 31-24, variant 23-20, part 15-4, revision 3-0.
    fn from_midr(text: &str) -> Option<Core> {
        let text = text.trim();
        let midr = u64::from_str_radix(text.strip_prefix("0x").unwrap_or(text), 16).ok()?;
        let bits = |shift: u32, width: u32| ((midr >> shift) & ((1 << width) - 1)) as u32;
        Some(Core {
            implementer: bits(24, 8),
            part: bits(4, 12),
            variant: bits(20, 4),
            revision: bits(0, 4),
        })
    }

    /// `Arm Neoverse V2`, or the numbers of a core the table does not name.
    pub fn name(&self) -> String {
        CORES
            .iter()
            .find(|(i, p, _)| *i == self.implementer && *p == self.part)
            .map_or_else(
                || {
                    format!(
                        "ARM CPU implementer {:#04x} part {:#05x}",
                        self.implementer, self.part
                    )
                },
                |(_, _, name)| name.to_string(),
            )
    }

    /// `implementer 0x41, part 0xd4f, variant 0x0, revision 1`, for a report's `cpu_details`.
    pub fn details(&self) -> String {
        format!(
            "implementer {:#04x}, part {:#05x}, variant {:#x}, revision {}",
            self.implementer, self.part, self.variant, self.revision
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::machine::machine_id;

    const GRAVITON4: &str = "processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd evtstrm \
                             aes pmull sha1 sha2 crc32\nCPU implementer\t: 0x41\nCPU architecture: \
                             8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\nCPU revision\t: 1\n\n\
                             processor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n";

    #[test]
    fn cpuinfo_names_the_core() {
        let core = Core::read(GRAVITON4, None).unwrap();
        assert_eq!(
            core,
            Core {
                implementer: 0x41,
                part: 0xd4f,
                variant: 0,
                revision: 1
            }
        );
        assert_eq!(core.name(), "Arm Neoverse V2");
        assert_eq!(
            core.details(),
            "implementer 0x41, part 0xd4f, variant 0x0, revision 1"
        );
        assert_eq!(machine_id(&core.name(), None, None), "arm-neoverse-v2");
    }

    #[test]
    fn the_midr_register_names_it_too() {
        let core = Core::read("processor\t: 0\n", Some("0x00000000410fd0c1\n")).unwrap();
        assert_eq!(
            (core.implementer, core.part, core.variant),
            (0x41, 0xd0c, 0)
        );
        assert_eq!(core.name(), "Arm Neoverse N1");
        let apple = Core::read("", Some("0x611f0230")).unwrap();
        assert_eq!(
            (apple.name().as_str(), apple.variant),
            ("Apple M1 Firestorm", 1)
        );
    }

    #[test]
    fn an_unknown_core_is_named_by_its_numbers_and_x86_by_nothing() {
        let other = "CPU implementer\t: 0x51\nCPU part\t: 0x802\n";
        let core = Core::read(other, None).unwrap();
        assert_eq!(core.name(), "ARM CPU implementer 0x51 part 0x802");
        assert_eq!(
            machine_id(&core.name(), None, None),
            "arm-implementer-0x51-part-0x802"
        );
        let x86 = "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel name\t: AMD EPYC\n";
        assert_eq!(Core::read(x86, None), None);
        assert_eq!(Core::read(x86, Some("not hex")), None);
    }
}
