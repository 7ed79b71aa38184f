// Markup in the analyzed code: the racing field's struct tag (part of the
// object's type in the report) and the strings written hold HTML and
// script. An HTML report must show them as text, not run or render them.
package main

import "fmt"

func main() {
	p := &struct {
		s string "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
	}{}
	done := make(chan bool)
	go func() {
		p.s = "</script><script>alert(3)</script>" // want "race"
		done <- true
	}()
	p.s = "<img src=x onerror=alert(4)>" // want "race"
	<-done
	fmt.Println(p.s)
}
