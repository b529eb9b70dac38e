//! Which CPU this is, where that changes which backend is fastest.
//!
//! Feature flags say what a CPU can run, not how fast it runs it. One case turns the ranking of
//! the backends around: AMD's family 17h (Zen 1 and Zen 2) executes PDEP and PEXT as microcode,
//! whose cost grows with the bits of the mask (tens to hundreds of cycles), where every other
//! x86-64 core with BMI2 takes about three. The avx2 backend deposits with PDEP (`set_piece`,
//! `move_delta`, `from_nibble_board`) and the engine on it looks sliding attacks up by PEXT, so on
//! those cores automatic selection passes avx2 over: `reports/amd-epyc-f23m1` has the routines
//! and the engine's perft on every backend of a Zen 1 core.

/// Whether this CPU runs PDEP and PEXT in microcode.
#[cfg(target_arch = "x86_64")]
pub fn pdep_is_microcoded() -> bool {
    use std::arch::x86_64::__cpuid;
    use std::sync::OnceLock;

    static ANSWER: OnceLock<bool> = OnceLock::new();
    *ANSWER.get_or_init(|| {
        let leaf0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        for (bytes, register) in vendor.chunks_mut(4).zip([leaf0.ebx, leaf0.edx, leaf0.ecx]) {
            bytes.copy_from_slice(&register.to_le_bytes());
        }
        microcoded_pdep(&vendor, family(__cpuid(1).eax))
    })
}

#[cfg(not(target_arch = "x86_64"))]
pub fn pdep_is_microcoded() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
/// The display family of CPUID leaf 1's EAX: the base family, plus the extended family where the
/// base is 0xF (as every AMD64 core since the K8 reports it).
fn family(eax: u32) -> u32 {
    let base = (eax >> 8) & 0xF;
    if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    }
}

/// AMD family 17h: Zen, Zen+ and Zen 2.
#[cfg(target_arch = "x86_64")]
fn microcoded_pdep(vendor: &[u8; 12], family: u32) -> bool {
    vendor == b"AuthenticAMD" && family == 0x17
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn families_decode_as_amd_and_intel_number_them() {
        // EPYC 7551 (Zen 1): base family F, extended 8, model 1.
        assert_eq!(family(0x0080_0F12), 0x17);
        // EPYC 7763 (Zen 3): extended family A.
        assert_eq!(family(0x00A0_0F11), 0x19);
        // A Skylake server: family 6, no extension.
        assert_eq!(family(0x0005_0654), 6);
    }

    #[test]
    fn only_zen_1_and_2_have_microcoded_pdep() {
        assert!(microcoded_pdep(b"AuthenticAMD", 0x17));
        assert!(!microcoded_pdep(b"AuthenticAMD", 0x19));
        assert!(!microcoded_pdep(b"AuthenticAMD", 0x1A));
        assert!(!microcoded_pdep(b"GenuineIntel", 6));
        assert!(!microcoded_pdep(b"GenuineIntel", 0x17));
    }
}
