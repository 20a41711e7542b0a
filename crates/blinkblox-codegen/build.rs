//! Fingerprints this crate's sources: part of the generator's identity in `blinkblox.lock`.

fn main() {
    blinkblox_fingerprint::emit("src");
}
