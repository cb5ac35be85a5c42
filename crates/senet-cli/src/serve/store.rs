//! Where rooms are kept: one SQLite file (rusqlite, SQLite built in). Every change is one
//! transaction, committed before the server answers; the schema's version is SQLite's
//! `user_version`, migrated when the file is opened.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};

/// The version of the schema this build writes (`PRAGMA user_version`).
pub(crate) const SCHEMA_VERSION: i64 = 1;

/// How long a finished room is kept after its last action.
pub(crate) const FINISHED_KEPT: Duration = Duration::from_secs(7 * 24 * 3600);

/// How long an unfinished room is kept without any action.
pub(crate) const IDLE_KEPT: Duration = Duration::from_secs(30 * 24 * 3600);

/// The schema of version 1: a row a room, a row an action.
const SCHEMA_1: &str = "
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    black_token BLOB,
    white_token BLOB,
    seed BLOB NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    undo_side TEXT,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
) STRICT;
CREATE TABLE actions (
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, n)
) STRICT, WITHOUT ROWID;
CREATE INDEX rooms_by_age ON rooms(finished, updated);
";

/// Why the database could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StoreError {
    /// SQLite refused or failed.
    #[error("the database {path}: {source}")]
    Sqlite {
        path: String,
        source: rusqlite::Error,
    },
    /// The file was written by a newer senet.
    #[error(
        "the database {path} has schema version {found}, newer than this senet's \
         {SCHEMA_VERSION}: use a newer senet, or another file with --database"
    )]
    Newer { path: String, found: i64 },
    /// The folder for the file could not be made.
    #[error("cannot create the folder {path}: {source}")]
    Folder {
        path: String,
        source: std::io::Error,
    },
    /// A request failed while it held the connection.
    #[error("the database is unavailable after an earlier failure; restart the server")]
    Poisoned,
    /// Two changes of one room raced (the room was loaded twice): the later is refused.
    #[error("the room changed meanwhile; reload it")]
    Conflict,
}

/// A room as it is kept.
#[derive(Debug, Clone)]
pub(crate) struct RoomRow {
    pub(crate) id: String,
    /// The ruleset specification.
    pub(crate) rules: String,
    /// `person`, or a computer player's specification, a side.
    pub(crate) players: [String; 2],
    /// The SHA-256 of each person's seat token (none for a computer seat).
    pub(crate) token_hashes: [Option<[u8; 32]>; 2],
    pub(crate) seed: [u8; 32],
    /// The side that asked to take its last move back, if it waits for an answer.
    pub(crate) undo_side: Option<String>,
    /// Unix seconds.
    pub(crate) created: i64,
    /// The actions, in record notation (`throw 3`, `move 9-12`).
    pub(crate) actions: Vec<String>,
}

/// An open room in the list for watchers.
#[derive(Debug, serde::Serialize)]
pub(crate) struct OpenRoom {
    pub(crate) room: String,
    pub(crate) rules: String,
    pub(crate) black: String,
    pub(crate) white: String,
    pub(crate) actions: i64,
    /// Unix seconds of the last action.
    pub(crate) updated: i64,
}

/// The seconds since 1970.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The rooms' database: one connection, used on blocking threads.
pub(crate) struct Store {
    connection: Mutex<Connection>,
    path: String,
}

impl Store {
    /// Opens (or creates) the database at `path`, its folder too, and brings its schema to
    /// [`SCHEMA_VERSION`]; a newer schema is refused.
    pub(crate) fn open(path: &Path) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|source| StoreError::Folder {
                path: folder.display().to_string(),
                source,
            })?;
        }
        let sqlite = |source| StoreError::Sqlite {
            path: shown.clone(),
            source,
        };
        let connection = Connection::open(path).map_err(sqlite)?;
        // WAL with synchronous=NORMAL: a commit is in the log file (written, not yet synced)
        // before it returns, so a killed process loses nothing; only a power cut can lose the
        // last commits. FULL would add an fsync to every action.
        // journal_mode answers with the mode set.
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(sqlite)?;
        connection
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(sqlite)?;
        connection
            .pragma_update(None, "foreign_keys", "ON")
            .map_err(sqlite)?;
        connection
            .busy_timeout(Duration::from_secs(5))
            .map_err(sqlite)?;
        let version: i64 = connection
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(sqlite)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                path: shown,
                found: version,
            });
        }
        if version < 1 {
            // Each migration and its version in one transaction.
            connection
                .execute_batch(&format!(
                    "BEGIN; {SCHEMA_1} PRAGMA user_version = 1; COMMIT;"
                ))
                .map_err(sqlite)?;
        }
        Ok(Store {
            connection: Mutex::new(connection),
            path: shown,
        })
    }

    /// Runs `work` with the connection; SQLite's errors become [`StoreError::Sqlite`].
    fn with<T>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.lock().map_err(|_| StoreError::Poisoned)?;
        work(&mut connection).map_err(|source| match source {
            rusqlite::Error::SqliteFailure(e, _)
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                StoreError::Conflict
            }
            source => StoreError::Sqlite {
                path: self.path.clone(),
                source,
            },
        })
    }

    /// Keeps a new room.
    pub(crate) fn insert(&self, room: &RoomRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO rooms (id, rules, black, white, black_token, white_token, seed, \
                 finished, undo_side, created, updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, \
                 NULL, ?8, ?8)",
                params![
                    room.id,
                    room.rules,
                    room.players[0],
                    room.players[1],
                    room.token_hashes[0].map(Vec::from),
                    room.token_hashes[1].map(Vec::from),
                    room.seed.to_vec(),
                    room.created,
                ],
            )
            .map(drop)
        })
    }

    /// Appends action number `n` (from 0) to a room, with whether it ended the game; an
    /// undo request waiting is dropped.
    pub(crate) fn append(
        &self,
        id: &str,
        n: usize,
        action: &str,
        finished: bool,
    ) -> Result<(), StoreError> {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        self.with(|c| {
            let t = c.transaction()?;
            t.execute(
                "INSERT INTO actions (room, n, action) VALUES (?1, ?2, ?3)",
                params![id, n, action],
            )?;
            t.execute(
                "UPDATE rooms SET finished = ?2, undo_side = NULL, updated = ?3 WHERE id = ?1",
                params![id, finished, now()],
            )?;
            t.commit()
        })
    }

    /// Takes back a room's actions from number `n` on.
    pub(crate) fn truncate(&self, id: &str, n: usize) -> Result<(), StoreError> {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        self.with(|c| {
            let t = c.transaction()?;
            t.execute(
                "DELETE FROM actions WHERE room = ?1 AND n >= ?2",
                params![id, n],
            )?;
            t.execute(
                "UPDATE rooms SET undo_side = NULL, updated = ?2 WHERE id = ?1",
                params![id, now()],
            )?;
            t.commit()
        })
    }

    /// Sets or clears a room's waiting undo request.
    pub(crate) fn set_undo(&self, id: &str, side: Option<&str>) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE rooms SET undo_side = ?2 WHERE id = ?1",
                params![id, side],
            )
            .map(drop)
        })
    }

    /// A room with its actions, if it is kept.
    pub(crate) fn load(&self, id: &str) -> Result<Option<RoomRow>, StoreError> {
        self.with(|c| {
            let row = c
                .query_row(
                    "SELECT id, rules, black, white, black_token, white_token, seed, finished, \
                     undo_side, created, updated FROM rooms WHERE id = ?1",
                    params![id],
                    |r| {
                        let hash =
                            |v: Option<Vec<u8>>| v.and_then(|v| <[u8; 32]>::try_from(v).ok());
                        let seed: Vec<u8> = r.get(6)?;
                        Ok(RoomRow {
                            id: r.get(0)?,
                            rules: r.get(1)?,
                            players: [r.get(2)?, r.get(3)?],
                            token_hashes: [hash(r.get(4)?), hash(r.get(5)?)],
                            seed: <[u8; 32]>::try_from(seed).map_err(|_| {
                                rusqlite::Error::InvalidColumnType(
                                    6,
                                    "seed (32 bytes)".to_string(),
                                    rusqlite::types::Type::Blob,
                                )
                            })?,
                            undo_side: r.get(8)?,
                            created: r.get(9)?,
                            actions: Vec::new(),
                        })
                    },
                )
                .optional()?;
            let Some(mut row) = row else {
                return Ok(None);
            };
            let mut query = c.prepare("SELECT action FROM actions WHERE room = ?1 ORDER BY n")?;
            row.actions = query
                .query_map(params![id], |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            Ok(Some(row))
        })
    }

    /// The number of unfinished rooms.
    pub(crate) fn count_open(&self) -> Result<usize, StoreError> {
        self.with(|c| {
            c.query_row("SELECT COUNT(*) FROM rooms WHERE finished = 0", [], |r| {
                r.get::<_, i64>(0)
            })
        })
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// The unfinished rooms, the most recently played first, at most `limit`.
    pub(crate) fn list_open(&self, limit: usize) -> Result<Vec<OpenRoom>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with(|c| {
            let mut query = c.prepare(
                "SELECT r.id, r.rules, r.black, r.white, \
                 (SELECT COUNT(*) FROM actions a WHERE a.room = r.id), r.updated \
                 FROM rooms r WHERE r.finished = 0 ORDER BY r.updated DESC LIMIT ?1",
            )?;
            query
                .query_map(params![limit], |r| {
                    Ok(OpenRoom {
                        room: r.get(0)?,
                        rules: r.get(1)?,
                        black: r.get(2)?,
                        white: r.get(3)?,
                        actions: r.get(4)?,
                        updated: r.get(5)?,
                    })
                })?
                .collect()
        })
    }

    /// The ids of the unfinished rooms.
    pub(crate) fn open_ids(&self) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut query = c.prepare("SELECT id FROM rooms WHERE finished = 0")?;
            query.query_map([], |r| r.get(0))?.collect()
        })
    }

    /// Deletes the finished rooms idle for [`FINISHED_KEPT`] and the others idle for
    /// [`IDLE_KEPT`]; returns their ids.
    pub(crate) fn expire(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let finished_before = now.saturating_sub(FINISHED_KEPT.as_secs() as i64);
        let idle_before = now.saturating_sub(IDLE_KEPT.as_secs() as i64);
        self.with(|c| {
            let t = c.transaction()?;
            let ids = {
                let mut query = t.prepare(
                    "DELETE FROM rooms WHERE (finished = 1 AND updated < ?1) OR updated < ?2 \
                     RETURNING id",
                )?;
                query
                    .query_map(params![finished_before, idle_before], |r| r.get(0))?
                    .collect::<rusqlite::Result<Vec<String>>>()?
            };
            t.commit()?;
            Ok(ids)
        })
    }
}

/// The default file: `$XDG_DATA_HOME/senet/rooms.sqlite3`, else
/// `~/.local/share/senet/rooms.sqlite3` (on Windows `%APPDATA%\senet\rooms.sqlite3`).
pub(crate) fn default_path() -> Option<PathBuf> {
    let from = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = from("XDG_DATA_HOME")
        .or_else(|| from("HOME").map(|home| home.join(".local").join("share")))
        .or_else(|| from("APPDATA"))?;
    Some(base.join("senet").join("rooms.sqlite3"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str) -> RoomRow {
        RoomRow {
            id: id.to_string(),
            rules: "regency".to_string(),
            players: ["person".to_string(), "greedy".to_string()],
            token_hashes: [Some([1; 32]), None],
            seed: [2; 32],
            undo_side: None,
            created: now(),
            actions: Vec::new(),
        }
    }

    #[test]
    fn rooms_and_actions_are_kept_and_a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("rooms.sqlite3");
        let store = Store::open(&path).unwrap();
        store.insert(&row("a1")).unwrap();
        store.append("a1", 0, "throw 3", false).unwrap();
        store.append("a1", 1, "move 9-12", false).unwrap();
        assert!(matches!(
            store.append("a1", 1, "move 9-12", false),
            Err(StoreError::Conflict)
        ));
        store.set_undo("a1", Some("black")).unwrap();
        let loaded = store.load("a1").unwrap().unwrap();
        assert_eq!(loaded.actions, ["throw 3", "move 9-12"]);
        assert_eq!(loaded.undo_side.as_deref(), Some("black"));
        assert_eq!(loaded.token_hashes, [Some([1; 32]), None]);
        store.truncate("a1", 1).unwrap();
        assert_eq!(store.load("a1").unwrap().unwrap().actions, ["throw 3"]);
        assert_eq!(store.count_open().unwrap(), 1);
        assert_eq!(store.list_open(10).unwrap()[0].actions, 1);
        assert!(store.expire(now()).unwrap().is_empty());
        let later = now() + IDLE_KEPT.as_secs() as i64 + 10;
        assert_eq!(store.expire(later).unwrap(), ["a1"]);
        assert!(store.load("a1").unwrap().is_none());
        drop(store);
        let connection = Connection::open(&path).unwrap();
        connection.pragma_update(None, "user_version", 2).unwrap();
        drop(connection);
        let refused = Store::open(&path).err().unwrap().to_string();
        assert!(refused.contains("schema version 2, newer"), "{refused}");
    }
}
