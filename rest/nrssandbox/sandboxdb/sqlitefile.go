package sandboxdb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// prepareSQLiteFile makes the stand-in's SQLite file readable by its
// owner only before SQLite opens it: its folder is created 0700 when
// missing, the file is created 0600 when missing (SQLite takes an empty
// file for a new database) and an existing one is set to 0600, as are its
// journal, WAL and shared-memory files, which SQLite creates with the
// database file's permissions. (The application's store does the same for
// its own; the stand-in imports nothing of the application.)
func prepareSQLiteFile(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
