package usage

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// A journal makes the meter's buffer survive the process: every metered
// call is appended to a file of this process's own (one write, no fsync:
// what the kernel holds survives the process being killed, not the machine
// losing power) before it is counted in memory. A flush writes the counts
// and moves the journal's mark (the last sequence number written) in one
// transaction, so that a journal replayed after a crash adds exactly the
// calls not written yet.
//
// Files, in the journal directory: usage-<instance>.lock, held locked
// (flock) for the life of the process, and usage-<instance>-<n>.journal,
// lines "<seq> <project> <key> <operation> <unix nanoseconds>". Any
// process metering into the same directory adopts the journals of an
// instance whose lock it can take (the process is gone): it replays them,
// then deletes them.
type journal struct {
	dir      string
	instance string
	lock     *os.File
	file     *os.File
	part     int
	size     int64
	buf      []byte
	// retired are journal files rotated out, deleted once the mark
	// passes their last sequence number.
	retired []retiredFile
	// failedAt is when appending last failed (logged once a minute).
	failedAt time.Time
}

type retiredFile struct {
	path    string
	lastSeq int64
}

// journalRotateSize is the size past which a flush starts a new file.
const journalRotateSize = 4 << 20

func (j *journal) lockPath() string { return filepath.Join(j.dir, "usage-"+j.instance+".lock") }

func (j *journal) partPath(n int) string {
	return filepath.Join(j.dir, fmt.Sprintf("usage-%s-%06d.journal", j.instance, n))
}

// openJournal creates this process's journal in dir.
func openJournal(dir string) (*journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("usage journal: %w", err)
	}
	j := &journal{dir: dir, instance: uuid.NewString()}
	lock, err := os.OpenFile(j.lockPath(), os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("usage journal: %w", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = lock.Close()
		return nil, fmt.Errorf("usage journal: lock %s: %w", j.lockPath(), err)
	}
	j.lock = lock
	if err := j.openPart(); err != nil {
		_ = lock.Close()
		return nil, err
	}
	return j, nil
}

func (j *journal) openPart() error {
	j.part++
	f, err := os.OpenFile(j.partPath(j.part), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("usage journal: %w", err)
	}
	j.file, j.size = f, 0
	return nil
}

// append writes one call (under the meter's lock).
func (j *journal) append(seq int64, k usageKey, at time.Time) error {
	b := j.buf[:0]
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, ' ')
	b = append(b, k.project.String()...)
	b = append(b, ' ')
	b = append(b, k.key.String()...)
	b = append(b, ' ')
	b = append(b, k.op...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, at.UnixNano(), 10)
	b = append(b, '\n')
	j.buf = b
	n, err := j.file.Write(b)
	j.size += int64(n)
	return err
}

// rotate starts a new file when the current one is large (under the
// meter's lock); the old one is deleted once seq is written.
func (j *journal) rotate(seq int64) {
	if j.size < journalRotateSize {
		return
	}
	old := j.file
	if err := j.openPart(); err != nil {
		j.file = old
		return
	}
	_ = old.Close()
	j.retired = append(j.retired, retiredFile{path: j.partPath(j.part - 1), lastSeq: seq})
}

// written deletes the retired files the mark has passed.
func (j *journal) written(mark int64) {
	keep := j.retired[:0]
	for _, r := range j.retired {
		if r.lastSeq <= mark {
			_ = os.Remove(r.path)
			continue
		}
		keep = append(keep, r)
	}
	j.retired = keep
}

// close removes this process's files once everything is written; when
// not (done false), they stay for another process to adopt.
func (j *journal) close(ctx context.Context, st *store.Store, done bool) error {
	_ = j.file.Close()
	defer j.lock.Close()
	if !done {
		return nil
	}
	if err := removeJournal(j.dir, j.instance); err != nil {
		return err
	}
	_ = os.Remove(j.lockPath())
	return st.Usage().DeleteJournalMark(ctx, j.instance)
}

// removeJournal deletes an instance's journal files.
func removeJournal(dir, instance string) error {
	parts, err := filepath.Glob(filepath.Join(dir, "usage-"+instance+"-*.journal"))
	if err != nil {
		return err
	}
	for _, p := range parts {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// adopt replays the journals of every instance in dir whose process is
// gone (its lock can be taken), other than self, and deletes them. It
// returns how many calls it added.
func adopt(ctx context.Context, st *store.Store, dir, self string) (int64, error) {
	locks, err := filepath.Glob(filepath.Join(dir, "usage-*.lock"))
	if err != nil {
		return 0, err
	}
	var total int64
	var errs []error
	for _, lp := range locks {
		instance := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(lp), "usage-"), ".lock")
		if instance == self {
			continue
		}
		n, err := adoptOne(ctx, st, dir, instance, lp)
		total += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return total, errors.Join(errs...)
}

func adoptOne(ctx context.Context, st *store.Store, dir, instance, lockPath string) (int64, error) {
	lock, err := os.OpenFile(lockPath, os.O_RDWR, 0)
	if err != nil {
		return 0, nil // adopted by another process meanwhile
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return 0, nil // its process is alive
	}
	if _, err := os.Stat(lockPath); err != nil {
		return 0, nil // adopted and removed while this process waited
	}
	mark, err := st.Usage().JournalMark(ctx, instance)
	if err != nil {
		return 0, err
	}
	parts, err := filepath.Glob(filepath.Join(dir, "usage-"+instance+"-*.journal"))
	if err != nil {
		return 0, err
	}
	counts := map[usageKey]int64{}
	used := map[uuid.UUID]time.Time{}
	last := mark
	var n int64
	for _, p := range parts {
		if err := readJournal(p, func(seq int64, k usageKey, at time.Time) {
			if seq <= mark {
				return
			}
			counts[k]++
			if at.After(used[k.key]) {
				used[k.key] = at
			}
			last = max(last, seq)
			n++
		}); err != nil {
			return 0, err
		}
	}
	if n > 0 {
		rows := sortedRows(counts)
		err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
			if err := tx.Usage().Add(ctx, rows); err != nil {
				return err
			}
			if err := tx.Keys().Touch(ctx, used); err != nil {
				return err
			}
			return tx.Usage().SetJournalMark(ctx, instance, last)
		})
		if err != nil {
			return 0, err
		}
	}
	if err := removeJournal(dir, instance); err != nil {
		return n, err
	}
	if err := os.Remove(lockPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return n, err
	}
	return n, st.Usage().DeleteJournalMark(ctx, instance)
}

// readJournal calls fn for every complete, well-formed line of a journal
// file; a line cut short by a crash is skipped.
func readJournal(path string, fn func(seq int64, k usageKey, at time.Time)) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 5 {
			continue
		}
		seq, err1 := strconv.ParseInt(fields[0], 10, 64)
		project, err2 := uuid.Parse(fields[1])
		key, err3 := uuid.Parse(fields[2])
		ns, err4 := strconv.ParseInt(fields[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			continue
		}
		at := time.Unix(0, ns).UTC()
		fn(seq, usageKey{project: project, key: key, op: fields[3], day: at.Format(time.DateOnly)}, at)
	}
	return sc.Err()
}

// sortedRows turns counts into rows in a stable order, which keeps
// concurrent flushers from deadlocking on PostgreSQL.
func sortedRows(counts map[usageKey]int64) []model.UsageCounter {
	rows := make([]model.UsageCounter, 0, len(counts))
	for k, n := range counts {
		rows = append(rows, model.UsageCounter{ProjectID: k.project, KeyID: k.key, Operation: k.op, Day: k.day, Count: n})
	}
	sortRows(rows)
	return rows
}
