//! Lookup of a response by name in a table the code generator built.

/// The hash of a response name for [`lookup`]: fixed (no random seed),
/// so generated tables are deterministic; 8 bytes at a time.
#[inline]
pub const fn name_hash(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut hash = (bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut i = 0;
    while i < bytes.len() {
        let mut chunk = 0u64;
        let mut j = 0;
        while j < 8 && i + j < bytes.len() {
            chunk |= (bytes[i + j] as u64) << (8 * j);
            j += 1;
        }
        hash = (hash ^ chunk).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        hash ^= hash >> 31;
        i += 8;
    }
    // A full avalanche, so that every input bit reaches the low bits
    // the table index is taken from (MurmurHash3's finaliser).
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    hash ^ (hash >> 33)
}

/// Finds `name` in an open-addressing table built by the code generator:
/// `slots` holds `index + 1` of each name (0 = empty), at
/// `name_hash(name) % slots.len()` or the next free slot after it.
#[inline]
pub fn lookup(name: &str, names: &[&str], slots: &[u32]) -> Option<usize> {
    if slots.is_empty() {
        return None;
    }
    let mut at = (name_hash(name) % slots.len() as u64) as usize;
    // The generator keeps the table at most half full: an empty slot ends every probe.
    loop {
        match slots[at] {
            0 => return None,
            entry => {
                let index = entry as usize - 1;
                if names[index] == name {
                    return Some(index);
                }
            }
        }
        at = (at + 1) % slots.len();
    }
}
