//! The run's machine and date, for the report's first lines.

use std::time::{SystemTime, UNIX_EPOCH};

/// The Luau the embedded VM runs (mlua 0.12.2 through luau0-src 0.22.0+luau740).
pub const LUAU_VERSION: &str = "0.740";

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil conversion.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The CPU model, from /proc/cpuinfo where there is one.
pub fn cpu_model() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines()
            .find(|line| line.starts_with("model name"))
            .and_then(|line| line.split_once(':'))
            .map(|(_, value)| value.trim().to_string())
    });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match model {
        Some(model) => format!("{model} ({cores} logical cores available)"),
        None => format!(
            "unknown {} CPU ({cores} logical cores available)",
            std::env::consts::ARCH
        ),
    }
}

/// The operating system: /etc/os-release's name and the kernel on Linux.
pub fn os_description() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release").ok().and_then(|text| {
        text.lines()
            .find_map(|line| line.strip_prefix("PRETTY_NAME="))
            .map(|value| value.trim_matches('"').to_string())
    });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|text| text.trim().to_string());
    match (pretty, kernel) {
        (Some(name), Some(kernel)) => format!("{name}, Linux {kernel}, {}", std::env::consts::ARCH),
        (Some(name), None) => format!("{name}, {}", std::env::consts::ARCH),
        _ => format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
    }
}
