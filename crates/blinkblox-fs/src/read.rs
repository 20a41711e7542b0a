//! Reading a user's file: only a regular file, whatever was at the path when a folder was
//! walked. Its type is checked before it is opened (opening a device can have effects) and
//! again on the open handle (the path may change in between); it is opened without
//! blocking (a pipe swapped in would otherwise wait for a writer forever); and no more than
//! a bound is read, whatever its metadata says (files under `/proc` report a length of 0
//! and can be read without end).

use std::io::Read as _;
use std::path::Path;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// Larger than the caller's bound: its size.
    TooLarge(u64),
    /// Reading it gave more than the bound, though its size said otherwise: what was read.
    Endless(u64),
    /// A folder, device, pipe or socket, in words.
    NotAFile(&'static str),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(err) => write!(formatter, "{err}"),
            ReadError::TooLarge(bytes) => write!(formatter, "it is {bytes} bytes"),
            ReadError::Endless(bytes) => write!(formatter, "reading it gave {bytes} bytes and more"),
            ReadError::NotAFile(kind) => write!(formatter, "it is {kind}, not a regular file"),
        }
    }
}

/// The bytes of the regular file at `path`, at most `max_bytes` of them.
pub fn read_file(path: &Path, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    // Looked at before it is opened (opening some devices does something), and again on
    // the open handle (the path may have changed in between).
    let seen = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !seen.is_file() {
        return Err(ReadError::NotAFile(file_kind(&seen.file_type())));
    }
    let file = open_without_blocking(path).map_err(ReadError::Io)?;
    let metadata = file.metadata().map_err(ReadError::Io)?;
    if !metadata.is_file() {
        return Err(ReadError::NotAFile(file_kind(&metadata.file_type())));
    }
    if metadata.len() > max_bytes {
        return Err(ReadError::TooLarge(metadata.len()));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    // Fixed-size reads: some kernel files (`/proc/self/pagemap`) accept only multiples of 8.
    let mut chunk = vec![0; 64 * 1024];
    let mut file = file;
    loop {
        let read = match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(ReadError::Io(err)),
        };
        bytes.extend_from_slice(&chunk[..read]);
        if bytes.len() as u64 > max_bytes {
            return Err(ReadError::Endless(bytes.len() as u64));
        }
    }
    Ok(bytes)
}

/// Where text stops being UTF-8: 1-based line and column (in characters), the byte and its
/// offset, for a message that points at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotUtf8 {
    pub line: usize,
    pub column: usize,
    pub byte: u8,
    pub offset: usize,
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let NotUtf8 {
            line,
            column,
            byte,
            offset,
        } = self;
        write!(
            formatter,
            "{line}:{column}: not UTF-8 (byte 0x{byte:02X} at offset {offset})"
        )
    }
}

/// `bytes` as text, a leading UTF-8 byte-order mark dropped; or where it is not UTF-8.
pub fn decode_text(bytes: Vec<u8>) -> Result<String, NotUtf8> {
    let start = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            text.drain(..start);
            Ok(text)
        }
        Err(err) => {
            let bytes = err.as_bytes();
            let offset = err.utf8_error().valid_up_to();
            let valid = &bytes[start..offset];
            let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |at| at + 1);
            let column = String::from_utf8_lossy(&valid[line_start..]).chars().count() + 1;
            Err(NotUtf8 {
                line,
                column,
                byte: bytes[offset],
                offset,
            })
        }
    }
}

/// Opens `path` for reading; on Unix without waiting, so that a pipe with no writer opens at
/// once (and is then refused by its type) instead of blocking the command.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// What a file that is not a regular file is, in words.
pub fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
        if kind.is_fifo() {
            return "a pipe";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_and_a_folder_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("a.blink");
        std::fs::write(&file, "event A {}").expect("write");
        assert_eq!(read_file(&file, 100).expect("read"), b"event A {}");
        assert!(matches!(read_file(&file, 4), Err(ReadError::TooLarge(10))));
        assert!(matches!(
            read_file(dir.path(), 100),
            Err(ReadError::NotAFile("a folder"))
        ));
    }

    #[test]
    fn text_that_is_not_utf8_is_located() {
        assert_eq!(decode_text(b"\xEF\xBB\xBFok".to_vec()), Ok("ok".to_string()));
        let err = decode_text(b"line one\nab\xC3\xA9c\xFF".to_vec()).unwrap_err();
        assert_eq!(err.to_string(), "2:5: not UTF-8 (byte 0xFF at offset 14)");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pipe_and_a_device_are_refused_at_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("net.blink");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(status.success());
        // No writer: a blocking open would wait here forever.
        assert!(matches!(read_file(&fifo, 100), Err(ReadError::NotAFile("a pipe"))));
        assert!(matches!(
            read_file(Path::new("/dev/zero"), 100),
            Err(ReadError::NotAFile("a device"))
        ));
    }
}
