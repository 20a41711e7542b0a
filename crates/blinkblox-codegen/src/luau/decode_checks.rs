//! A switch for measuring what the receive-side checks cost: modules generated inside
//! [`without_decode_checks`] leave the checks out of the decoders, and the server's
//! remotes enter through the plain `ReceivePacket` (no size, byte budget or event count).
//! Never used to produce modules for a game.

use std::cell::Cell;

thread_local! {
    static DECODE_CHECKS_OFF: Cell<bool> = const { Cell::new(false) };
}

/// Runs `generate` with the receive-side checks left out of what it generates.
#[doc(hidden)]
pub fn without_decode_checks<R>(generate: impl FnOnce() -> R) -> R {
    struct Restore;
    impl Drop for Restore {
        fn drop(&mut self) {
            DECODE_CHECKS_OFF.set(false);
        }
    }
    DECODE_CHECKS_OFF.set(true);
    let _restore = Restore;
    generate()
}

/// False only inside [`without_decode_checks`].
pub fn decode_checks_enabled() -> bool {
    !DECODE_CHECKS_OFF.get()
}
