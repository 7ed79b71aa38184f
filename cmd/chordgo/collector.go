package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The collector's pace. With GOGC at 100 the runtime collects each time
// the heap doubles from what the last collection left, so an analysis
// whose live heap falls and climbs again (each demand run builds its
// points-to, funnel and indexes anew, then lets them go; programs analyzed
// one after another) collects all the way up again, run after run, a
// heap it has already held twice over. tuneCollector sets the heap goal
// after each collection to twice the largest live heap seen so far (never
// less than GOGC 100's): the process grows to no more than GOGC 100 let it
// grow at that largest heap, and collects less while it is below it. It
// changes only when collections happen, never what the analysis computes;
// the memory budget (-mem, the runtime's memory limit) still bounds the
// heap, as the runtime collects harder near its limit whatever GOGC says.

// collectorInterval is how often tuneCollector looks for a new collection:
// the race suite's collections are 0.5-5 s apart past its first 100 MB.
const collectorInterval = 20 * time.Millisecond

// gcPercent is the GOGC that sets the heap goal, live*(1+GOGC/100), to
// twice the largest live heap seen, or 100 where that is less.
func gcPercent(live, largest uint64) int {
	if live == 0 || largest <= live {
		return 100
	}
	return int(200*largest/live) - 100
}

// tuneCollector paces the collector by gcPercent until done is closed,
// then restores GOGC. A GOGC set in the environment is the user's choice:
// it is left as it is.
func tuneCollector(done <-chan struct{}) {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	samples := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	var cycles, largest uint64
	percent := 100
	defer func() { debug.SetGCPercent(100) }()
	tick := time.NewTicker(collectorInterval)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		metrics.Read(samples)
		if c := samples[0].Value.Uint64(); c != cycles {
			cycles = c
			live := samples[1].Value.Uint64()
			largest = max(largest, live)
			if p := gcPercent(live, largest); p != percent {
				percent = p
				debug.SetGCPercent(p)
			}
		}
	}
}
