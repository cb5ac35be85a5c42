//! Writing the files a command produces (tables, records, reports) without ever damaging one.
//!
//! Every file is written to a fresh temporary file in the destination's folder, flushed to
//! disk and renamed over the destination. A reader sees the old file or the whole new one;
//! an interrupted or failed command leaves the old file as it was; two commands writing the
//! same path each rename a complete file of their own, so the last one wins and nothing is
//! mixed. A command never removes or truncates a path it did not create.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Where a file for `path` really goes: a symbolic link is followed, so that writing through
/// it replaces the file it points to and keeps the link. Refuses a destination that exists
/// and is not a regular file (a folder, a device, a pipe): renaming over it would replace it.
pub(crate) fn destination(path: &Path) -> io::Result<PathBuf> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => std::fs::canonicalize(path),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "exists and is not a regular file",
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(e),
    }
}

/// The folder a destination's temporary file is made in.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Checks, before long work starts, that `path` can be written: the destination is a regular
/// file or absent, and its folder takes a new file (made and removed again; `path` itself is
/// not touched).
pub(crate) fn check_writable(path: &Path) -> io::Result<()> {
    let target = destination(path)?;
    NamedTempFile::new_in(folder_of(&target))
        .map(drop)
        .map_err(without_temporary_name)
}

/// The error of making a temporary file, without the temporary file's random name, which
/// `tempfile` appends as ` at path "…"` and which means nothing to the user.
fn without_temporary_name(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path \"") {
        Some((cause, _)) => io::Error::new(e.kind(), cause.to_string()),
        None => e,
    }
}

/// Reads everything `reader` gives, up to `limit` bytes: more is an error rather than a
/// command that grows until the system stops it (`--tables /dev/zero`).
pub(crate) fn read_capped(reader: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("longer than {limit} bytes, the most read"),
        ));
    }
    Ok(bytes)
}

/// Whether a write waits until the bytes are on the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Durability {
    /// Synced before the rename: the new file survives a power cut too.
    Synced,
    /// Handed to the operating system only: as safe against the program being killed, and
    /// fast enough to repeat after every action of a game (a sync takes ~12 ms here).
    Unsynced,
}

/// Writes `bytes` to `path` atomically (see the module documentation).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, bytes, Durability::Synced)
}

/// Writes `bytes` to `path` atomically, synced to the disk or not.
pub(crate) fn write_with(path: &Path, bytes: &[u8], durability: Durability) -> io::Result<()> {
    let target = destination(path)?;
    let mut file = tempfile::Builder::new()
        .prefix(".senet-")
        .suffix(".tmp")
        .tempfile_in(folder_of(&target))
        .map_err(without_temporary_name)?;
    file.write_all(bytes)?;
    file.flush()?;
    if durability == Durability::Synced {
        file.as_file().sync_all()?;
    }
    file.persist(&target).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, "a much longer old content").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_write_through_a_link_replaces_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
    }

    #[test]
    fn a_folder_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(dir.path()).is_err());
        assert!(write_atomically(dir.path(), b"x").is_err());
        assert!(dir.path().is_dir());
    }

    #[test]
    fn checking_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("new.tbl")).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(check_writable(&dir.path().join("no/such/folder/x.tbl")).is_err());
    }
}
