//! The database's write lock held from outside, as a backup tool or another program would.

/// Holds the database's write lock, as a backup tool or another program would, until dropped.
pub struct WriteLock {
    release: Option<std::sync::mpsc::Sender<()>>,
    holder: Option<std::thread::JoinHandle<()>>,
}

impl WriteLock {
    /// SQLite: an exclusive transaction on the file. PostgreSQL: the inbound
    /// table locked against everyone, which every text's transaction needs.
    pub fn take(url: &str) -> WriteLock {
        let url = url.to_string();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (taken, is_taken) = std::sync::mpsc::channel();
        let holder = std::thread::spawn(move || {
            if let Some(path) = url.strip_prefix("sqlite://") {
                let conn = rusqlite::Connection::open(path).unwrap();
                conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
                taken.send(()).unwrap();
                let _ = released.recv();
                conn.execute_batch("ROLLBACK").unwrap();
                return;
            }
            use sqlx::Connection;
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
                sqlx::raw_sql("BEGIN; LOCK TABLE inbound IN ACCESS EXCLUSIVE MODE")
                    .execute(&mut conn)
                    .await
                    .unwrap();
                taken.send(()).unwrap();
                let _ = tokio::task::spawn_blocking(move || released.recv()).await;
                sqlx::raw_sql("ROLLBACK").execute(&mut conn).await.unwrap();
            });
        });
        is_taken.recv().unwrap();
        WriteLock {
            release: Some(release),
            holder: Some(holder),
        }
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        drop(self.release.take());
        if let Some(holder) = self.holder.take() {
            let _ = holder.join();
        }
    }
}
