package nrs

// Calendar checks without time.Parse: they run on every IRN and on every date
// of every invoice, and must say "not a date" for 2026-02-30 rather than
// normalise it.

// date is a calendar date known to be real.
type date struct{ y, m, d int }

func (a date) before(b date) bool {
	if a.y != b.y {
		return a.y < b.y
	}
	if a.m != b.m {
		return a.m < b.m
	}
	return a.d < b.d
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// digits parses s as a non-negative decimal made of ASCII digits only.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func realDate(y, m, d int) bool {
	return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
}

// parseDate accepts exactly YYYY-MM-DD naming a real calendar date, year
// 0001 to 9999.
func parseDate(s string) (date, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return date{}, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || !realDate(y, m, d) {
		return date{}, false
	}
	return date{y, m, d}, true
}

// parseCompactDate accepts exactly YYYYMMDD naming a real calendar date.
func parseCompactDate(s string) (date, bool) {
	if len(s) != 8 {
		return date{}, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[4:6])
	d, ok3 := digits(s[6:8])
	if !ok1 || !ok2 || !ok3 || !realDate(y, m, d) {
		return date{}, false
	}
	return date{y, m, d}, true
}

// validTime accepts exactly HH:MM:SS with HH 00-23, MM and SS 00-59.
func validTime(s string) bool {
	if len(s) != 8 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s[0:2])
	m, ok2 := digits(s[3:5])
	sec, ok3 := digits(s[6:8])
	return ok1 && ok2 && ok3 && h <= 23 && m <= 59 && sec <= 59
}
