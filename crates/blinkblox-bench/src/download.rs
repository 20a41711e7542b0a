//! HTTP for `blinkblox bench --download`: a blocking rustls client with timeouts, retries with
//! exponential backoff on transient failures, a progress bar per file on stderr, and the sha256
//! of every download computed while it streams to disk.

use crate::progress;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reqwest::StatusCode;
use reqwest::blocking::{Client, Response};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use super::BenchError;

/// Biggest JSON document accepted (registry metadata, release descriptions).
const MAX_JSON_BYTES: u64 = 32 * 1024 * 1024;
/// Biggest download accepted: far above any package or release binary, low enough to stop an
/// endless response from filling the disk.
const MAX_DOWNLOAD_BYTES: u64 = 1024 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Connect timeout, and the longest wait for the response head or for any read of its body.
    pub timeout: Duration,
    /// How many times a transient failure (connection error, timeout, 5xx, 429, cut-short body)
    /// is retried.
    pub retries: u32,
    /// Wait before the first retry; doubled for each further one.
    pub backoff: Duration,
    /// The longest one request may take from its start to its last byte, however the data
    /// trickles in (`timeout` bounds each wait for data, not the whole).
    pub deadline: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            timeout: Duration::from_secs(30),
            retries: 3,
            backoff: Duration::from_millis(500),
            deadline: Duration::from_secs(600),
        }
    }
}

/// What a finished download was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Downloaded {
    pub bytes: u64,
    /// Lowercase hex.
    pub sha256: String,
}

pub struct Http {
    client: Client,
    options: HttpOptions,
}

/// One attempt's failure: worth retrying or not.
enum Failure {
    Transient(String),
    Fatal(BenchError),
}

impl Http {
    pub fn new(options: HttpOptions) -> Result<Http, BenchError> {
        let client = Client::builder()
            .user_agent(concat!("blinkblox/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(options.timeout)
            .timeout(options.timeout)
            .build()
            .map_err(|err| BenchError::new(format!("could not start the HTTP client: {err}")))?;
        Ok(Http { client, options })
    }

    /// GETs `url` and parses its body as JSON; `what` says what the document should be, for
    /// messages ("Wally package metadata").
    pub fn get_json<T: DeserializeOwned>(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        what: &str,
    ) -> Result<T, BenchError> {
        let body = self.with_retries(url, || {
            let ends = Instant::now() + self.options.deadline;
            let response = self.send(url, headers)?;
            let is_html = content_type(&response).contains("html");
            let mut body = Vec::new();
            let read = WithDeadline { inner: response, ends }
                .take(MAX_JSON_BYTES + 1)
                .read_to_end(&mut body);
            if let Err(err) = read {
                if Instant::now() >= ends {
                    return Err(Failure::Fatal(self.past_deadline(url)));
                }
                return Err(Failure::Transient(format!("reading the response failed: {err}")));
            }
            if body.len() as u64 > MAX_JSON_BYTES {
                return Err(Failure::Fatal(BenchError::new(format!(
                    "{url} answered with more than 32 MiB, more than {what} may be"
                ))));
            }
            Ok((body, is_html))
        })?;
        let (body, is_html) = body;
        let trimmed = body
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(&body[..0], |i| &body[i..]);
        if is_html || trimmed.first() == Some(&b'<') {
            return Err(
                BenchError::new(format!("{url} answered with an HTML page, not {what} (JSON)")).with_help(
                    "check the base URL: it must be the API (for Wally `https://api.wally.run`), not a website",
                ),
            );
        }
        serde_json::from_slice(&body).map_err(|err| {
            BenchError::new(format!(
                "{url} did not answer with {what}: the JSON is not as expected ({err})"
            ))
        })
    }

    /// Streams `url` into a new file at `dest`, showing progress and hashing as it goes. A body
    /// shorter than its Content-Length is an error, and so is one longer than 1 GiB. On failure
    /// `dest` is removed.
    pub fn download(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        dest: &Path,
        label: &str,
    ) -> Result<Downloaded, BenchError> {
        let result = self.with_retries(url, || self.download_once(url, headers, dest, label));
        if result.is_err() {
            let _ = std::fs::remove_file(dest);
        }
        result
    }

    fn download_once(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        dest: &Path,
        label: &str,
    ) -> Result<Downloaded, Failure> {
        let ends = Instant::now() + self.options.deadline;
        let mut response = self.send(url, headers)?;
        let expected = response.content_length();
        if expected.is_some_and(|len| len > MAX_DOWNLOAD_BYTES) {
            return Err(Failure::Fatal(BenchError::new(format!(
                "{url} is {} bytes, more than the 1 GiB a tool download may be",
                expected.unwrap_or_default()
            ))));
        }
        let file = File::create(dest).map_err(|err| Failure::Fatal(BenchError::io("create", dest, &err)))?;
        let mut out = BufWriter::new(file);
        let progress = progress_bar(label, expected);
        let mut hasher = Sha256::new();
        let mut received: u64 = 0;
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let read = match response.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => {
                    progress.finish_and_clear();
                    return Err(Failure::Transient(cut_short(received, expected, &io_cause(&err))));
                }
            };
            // A server that sends a byte now and then never trips the timeout of each read.
            if Instant::now() >= ends {
                progress.finish_and_clear();
                return Err(Failure::Fatal(self.past_deadline(url)));
            }
            received += read as u64;
            if received > MAX_DOWNLOAD_BYTES {
                progress.finish_and_clear();
                return Err(Failure::Fatal(BenchError::new(format!(
                    "{url} sent more than the 1 GiB a tool download may be"
                ))));
            }
            hasher.update(&buffer[..read]);
            if let Err(err) = out.write_all(&buffer[..read]) {
                progress.finish_and_clear();
                return Err(Failure::Fatal(BenchError::io("write", dest, &err)));
            }
            progress.set_position(received);
        }
        progress.finish_and_clear();
        if let Some(expected) = expected
            && received != expected
        {
            return Err(Failure::Transient(cut_short(
                received,
                Some(expected),
                "the connection closed early",
            )));
        }
        let file = out
            .into_inner()
            .map_err(|err| Failure::Fatal(BenchError::io("write", dest, err.error())))?;
        file.sync_all()
            .map_err(|err| Failure::Fatal(BenchError::io("write", dest, &err)))?;
        Ok(Downloaded {
            bytes: received,
            sha256: hex(&hasher.finalize()),
        })
    }

    fn past_deadline(&self, url: &str) -> BenchError {
        BenchError::new(format!(
            "GET {url} took longer than the {} s a download may take",
            self.options.deadline.as_secs_f64()
        ))
        .with_help("the server sends too slowly: try again later, raise --deadline, or use --source NAME=PATH with a local copy")
    }

    /// Sends a GET and turns a non-success status into a failure that says what it means.
    fn send(&self, url: &str, headers: &[(&str, &str)]) -> Result<Response, Failure> {
        let mut request = self.client.get(url);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().map_err(|err| match redirect_target(&err) {
            Some(next) => Failure::Fatal(refused_redirect(url, &next)),
            None => Failure::Transient(describe_send_error(&err)),
        })?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        // Redirects to http(s) are followed; one that is left is to another scheme.
        if status.is_redirection() {
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|value| value.to_str().ok())
                .unwrap_or("")
                .to_string();
            return Err(Failure::Fatal(refused_redirect(url, &location)));
        }
        let reason = format!("HTTP {status}");
        if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::REQUEST_TIMEOUT
        {
            return Err(Failure::Transient(reason));
        }
        let help = match status {
            StatusCode::NOT_FOUND => {
                "it does not exist there: check the name, version or tag in benchmark/tools.toml, \
                                      and --registry-url / --github-url"
            }
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
                "the server refused the request (GitHub answers 403 when its API rate limit is reached; wait, or use \
                 --source NAME=PATH with a local copy)"
            }
            _ => "the server refused the request",
        };
        Err(Failure::Fatal(
            BenchError::new(format!("GET {url} failed: {reason}")).with_help(help),
        ))
    }

    /// Runs `attempt` until it succeeds, fails fatally, or the retries run out.
    fn with_retries<T>(&self, url: &str, mut attempt: impl FnMut() -> Result<T, Failure>) -> Result<T, BenchError> {
        let mut wait = self.options.backoff;
        for tries_left in (0..=self.options.retries).rev() {
            match attempt() {
                Ok(value) => return Ok(value),
                Err(Failure::Fatal(err)) => return Err(err),
                Err(Failure::Transient(reason)) if tries_left == 0 => {
                    let tries = self.options.retries + 1;
                    let attempts = if tries == 1 {
                        "1 attempt".to_string()
                    } else {
                        format!("{tries} attempts")
                    };
                    return Err(
                        BenchError::new(format!("GET {url} failed after {attempts}: {reason}")).with_help(
                            "check the network (or --registry-url / --github-url); a machine without internet access \
                         can take a tool from a local folder with --source NAME=PATH",
                        ),
                    );
                }
                Err(Failure::Transient(reason)) => {
                    progress::warning(&format!("GET {url}: {reason}; retrying in {} ms", wait.as_millis()));
                    std::thread::sleep(wait);
                    wait = wait.saturating_mul(2);
                }
            }
        }
        Err(BenchError::new(format!("GET {url} failed")))
    }
}

/// Where a redirect to another scheme pointed, when that is why the request failed: reqwest's
/// redirect policy stops at its scheme check ("URL scheme is not allowed"), and the target
/// is in the error it wraps when the chain keeps it.
fn redirect_target(err: &reqwest::Error) -> Option<String> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    let mut bad_scheme = false;
    let mut target = None;
    while let Some(error) = current {
        if let Some(inner) = error.downcast_ref::<reqwest::Error>()
            && let Some(next) = inner.url().filter(|next| !matches!(next.scheme(), "http" | "https"))
        {
            target = Some(next.to_string());
        }
        bad_scheme |= error.to_string() == "URL scheme is not allowed";
        current = error.source();
    }
    (bad_scheme || target.is_some()).then(|| target.unwrap_or_default())
}

fn refused_redirect(url: &str, location: &str) -> BenchError {
    let to = if location.is_empty() {
        String::new()
    } else {
        format!(" (`{location}`)")
    };
    BenchError::new(format!("GET {url} failed: redirect to a non-HTTP URL{to} refused"))
        .with_help("downloads follow http:// and https:// redirects only; check --registry-url / --github-url")
}

/// A reader that fails once its deadline has passed.
struct WithDeadline<R> {
    inner: R,
    ends: Instant,
}

impl<R: Read> Read for WithDeadline<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if Instant::now() >= self.ends {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "past the deadline"));
        }
        self.inner.read(buf)
    }
}

fn content_type(response: &Response) -> String {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn describe_send_error(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        "timed out waiting for the server (see --timeout)".to_string()
    } else if err.is_connect() {
        format!("could not connect ({})", root_cause(err))
    } else {
        root_cause(err)
    }
}

/// The innermost error's text: reqwest's own Display only says "error sending request".
fn root_cause(err: &dyn std::error::Error) -> String {
    let mut current = err;
    while let Some(source) = current.source() {
        current = source;
    }
    current.to_string()
}

/// The innermost cause of a body read error: reqwest wraps hyper's precise reason
/// ("end of file before message length reached") in a generic "response body error".
fn io_cause(err: &std::io::Error) -> String {
    match err.get_ref() {
        Some(inner) => root_cause(inner),
        None => err.to_string(),
    }
}

fn cut_short(received: u64, expected: Option<u64>, why: &str) -> String {
    let timed_out = why.to_ascii_lowercase().contains("timed out");
    let why = if timed_out {
        "timed out waiting for more data (see --timeout)"
    } else {
        why
    };
    match expected {
        Some(expected) => format!("the download was cut short after {received} of {expected} bytes: {why}"),
        None => format!("the download was cut short after {received} bytes: {why}"),
    }
}

fn progress_bar(label: &str, length: Option<u64>) -> ProgressBar {
    let target = ProgressDrawTarget::stderr();
    let bar = match length {
        Some(length) => {
            let bar = ProgressBar::with_draw_target(Some(length), target);
            if let Ok(style) =
                ProgressStyle::with_template("{msg:>12} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} {eta}")
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        }
        None => {
            let bar = ProgressBar::with_draw_target(None, target);
            if let Ok(style) = ProgressStyle::with_template("{msg:>12} {spinner} {bytes} {bytes_per_sec}") {
                bar.set_style(style);
            }
            bar
        }
    };
    bar.set_message(label.to_string());
    bar
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
