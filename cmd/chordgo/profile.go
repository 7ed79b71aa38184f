package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profileFlags write pprof profiles of a command, to find where the time
// and memory of an analysis go (go tool pprof FILE).
type profileFlags struct {
	cpu, mem *string
	cpuFile  *os.File
}

func addProfileFlags(fs *flag.FlagSet) *profileFlags {
	return &profileFlags{
		cpu: fs.String("cpuprofile", "", "write a CPU profile of the command to `file`"),
		mem: fs.String("memprofile", "", "write a heap profile (allocations and what is live) at the end of the command to `file`"),
	}
}

// start starts the CPU profile, if one was asked for.
func (p *profileFlags) start() error {
	if *p.cpu == "" {
		return nil
	}
	f, err := os.Create(*p.cpu)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("-cpuprofile: %v", err)
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and writes the heap profile.
func (p *profileFlags) stop() error {
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if err := p.cpuFile.Close(); err != nil {
			return err
		}
		p.cpuFile = nil
	}
	if *p.mem == "" {
		return nil
	}
	f, err := os.Create(*p.mem)
	if err != nil {
		return err
	}
	runtime.GC() // so the profile shows what is live now
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("-memprofile: %v", err)
	}
	return f.Close()
}
