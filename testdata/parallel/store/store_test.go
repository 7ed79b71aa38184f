package store

import (
	"sync"
	"testing"
)

func Test01(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b1")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test02(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b2")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test03(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b3")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test04(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b4")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test05(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b5")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test06(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b6")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test07(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b7")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test08(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b8")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test09(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b9")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test10(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b10")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test11(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b11")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test12(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b12")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test13(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b13")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test14(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b14")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test15(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b15")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test16(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b16")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test17(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b17")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test18(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b18")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test19(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b19")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test20(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b20")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test21(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b21")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test22(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b22")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test23(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b23")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test24(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b24")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test25(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b25")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test26(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b26")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test27(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b27")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test28(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b28")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test29(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b29")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test30(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b30")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test31(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b31")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test32(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b32")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test33(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b33")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test34(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b34")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test35(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b35")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test36(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b36")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test37(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b37")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test38(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b38")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test39(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b39")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test40(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b40")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test41(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b41")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test42(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b42")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test43(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b43")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test44(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b44")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test45(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b45")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test46(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b46")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test47(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b47")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}

func Test48(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b48")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}
