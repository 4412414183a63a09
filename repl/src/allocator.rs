//! The process allocator. Scripts allocate many small short-lived values (strings, arrays,
//! maps): mimalloc serves them faster than the system allocator (measured in the commit that
//! added it).
//!
//! mimalloc reserves address space 1 GiB at a time by default. That is not memory in use,
//! but under a limit on address space (`ulimit -v`, as a host may run us) it leaves no room
//! for the scripts' 256 MiB stacks. So, before the first allocation, it is told to reserve
//! 64 MiB at a time.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_reserve` in mimalloc's `mi_option_e` (mimalloc.h); the Rust bindings do
/// not name it. Checked against its known default before it is set.
const ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;
const DEFAULT_KIB: std::ffi::c_long = 1 << 20;
const RESERVE_KIB: std::ffi::c_long = 64 << 10;

/// Runs before `main` and before Rust's runtime allocates (an ELF initialiser).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RESERVE_LESS: extern "C" fn() = reserve_less;

#[cfg(target_os = "linux")]
extern "C" fn reserve_less() {
    // SAFETY: plain option reads and writes; mimalloc allows them at any time.
    unsafe {
        if libmimalloc_sys::mi_option_get(ARENA_RESERVE) == DEFAULT_KIB {
            libmimalloc_sys::mi_option_set(ARENA_RESERVE, RESERVE_KIB);
        }
    }
}
