//! One writer per SQLite file: an advisory lock on `FILE-lock`, held for the writer's life.
//!
//! The writer keeps copies of what it wrote (`copies.rs`), which are right
//! only while no one else writes the file, so a second gateway on the same
//! file must not start. The lock is on a file of its own, not on the
//! database: SQLite's locks are POSIX record locks, which a process loses
//! on a file when it closes any descriptor of it, so opening the database
//! file beside SQLite to lock it would undo SQLite's own locking.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::store::{StoreError, StoreResult};

/// How long a new writer waits for the lock: a restarted gateway may start
/// while the old one's writer finishes its last batch.
pub(super) const LOCK_WAIT: Duration = Duration::from_secs(5);

/// Held while the writer runs; dropping it lets the file go.
pub(super) struct WriterLock {
    _file: File,
}

/// The lock file of the database at `db`, beside its `-wal` and `-shm`.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-lock");
    PathBuf::from(name)
}

impl WriterLock {
    /// Takes the lock of the database at `db`, waiting up to `wait` for
    /// another process (or another store of this one) to let it go; then
    /// [`StoreError::InUse`], naming the process that holds it.
    pub(super) fn take(db: &Path, wait: Duration) -> StoreResult<WriterLock> {
        let path = lock_path(db);
        let mut file = open_owner_only(&path).map_err(|e| io_error(&path, &e))?;
        let deadline = Instant::now() + wait;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(StoreError::InUse {
                        file: db.display().to_string(),
                        holder: holder(&mut file),
                    });
                }
                Err(TryLockError::Error(e)) => return Err(io_error(&path, &e)),
            }
        }
        // The holder's process id, for the message a second gateway gives.
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| write!(file, "{}", std::process::id()))
            .map_err(|e| io_error(&path, &e))?;
        Ok(WriterLock { _file: file })
    }
}

/// The lock file, made readable by its owner only, as the database is.
fn open_owner_only(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// What the holder wrote: its process id, or nothing readable.
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.rewind().and_then(|()| file.read_to_string(&mut text));
    let text = text.trim();
    if !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit()) {
        format!("process {text}")
    } else {
        "another process".to_string()
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> StoreError {
    StoreError::Corrupt(format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("game.db");
        let first = WriterLock::take(&db, Duration::ZERO).unwrap();
        let refused = WriterLock::take(&db, Duration::from_millis(60))
            .err()
            .unwrap();
        let message = refused.to_string();
        assert!(matches!(refused, StoreError::InUse { .. }), "{refused:?}");
        assert!(message.contains("game.db"), "{message}");
        assert!(
            message.contains(&format!("process {}", std::process::id())),
            "{message}"
        );
        drop(first);
        WriterLock::take(&db, Duration::ZERO).expect("free once the first lets go");
    }

    #[test]
    fn a_writer_waits_for_one_that_is_stopping() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("game.db");
        let first = WriterLock::take(&db, Duration::ZERO).unwrap();
        let stopping = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            drop(first);
        });
        WriterLock::take(&db, Duration::from_secs(5)).expect("taken once the first stopped");
        stopping.join().unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_file_is_the_owners_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("game.db");
        let _lock = WriterLock::take(&db, Duration::ZERO).unwrap();
        let mode = std::fs::metadata(lock_path(&db))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
