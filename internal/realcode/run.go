package realcode

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Limits end a run that does not finish: it is killed (with its children)
// when its wall time passes Timeout or its resident memory passes
// MaxRSS bytes. GOMEMLIMIT would only make the collector work harder; it
// does not cap.
type Limits struct {
	Timeout time.Duration
	MaxRSS  int64
	Poll    time.Duration // how often /proc/PID/status is read
}

// A Run is what one child process did.
type Run struct {
	Wall, CPU time.Duration
	PeakRSS   int64  // bytes, from the child's rusage (ru_maxrss)
	Exit      int    // exit status; -1 when killed
	Killed    string // the limit that ended the run, or ""
	Stdout    []byte
	Stderr    []byte
}

// Finished says whether the child ended by itself.
func (r *Run) Finished() bool { return r.Killed == "" }

// Execute runs name with args in dir under the limits. An error is
// returned only when the child could not be started or waited for; a
// failing or killed child is a Run.
func Execute(lim Limits, dir string, env []string, name string, args ...string) (*Run, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Its own process group, so that a kill also ends the go list
	// processes the loader starts.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	killed := make(chan string, 1)
	done := make(chan struct{})
	go watch(cmd.Process.Pid, lim, done, killed)
	err := cmd.Wait()
	close(done)
	r := &Run{Wall: time.Since(start), Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Exit: cmd.ProcessState.ExitCode()}
	select {
	case r.Killed = <-killed:
	default:
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.PeakRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return r, nil
}

// watch kills the process group of pid when a limit is passed, and says
// which one on killed.
func watch(pid int, lim Limits, done <-chan struct{}, killed chan<- string) {
	poll := lim.Poll
	if poll <= 0 {
		poll = 200 * time.Millisecond
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	var deadline <-chan time.Time
	if lim.Timeout > 0 {
		deadline = time.After(lim.Timeout)
	}
	kill := func(why string) {
		killed <- why
		syscall.Kill(-pid, syscall.SIGKILL)
	}
	for {
		select {
		case <-done:
			return
		case <-deadline:
			kill(fmt.Sprintf("timeout %v", lim.Timeout))
			return
		case <-tick.C:
			if lim.MaxRSS <= 0 {
				continue
			}
			if rss, err := vmRSS(pid); err == nil && rss > lim.MaxRSS {
				kill(fmt.Sprintf("memory %s > %s", formatBytes(rss), formatBytes(lim.MaxRSS)))
				return
			}
		}
	}
}

// vmRSS reads the resident set size of pid, in bytes.
func vmRSS(pid int) (int64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	return parseVmRSS(data)
}

func parseVmRSS(status []byte) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("VmRSS line %q: want \"N kB\"", sc.Text())
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("VmRSS line %q: %v", sc.Text(), err)
		}
		return kb * 1024, nil
	}
	return 0, errors.New("no VmRSS line")
}

func formatBytes(n int64) string {
	return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
}
