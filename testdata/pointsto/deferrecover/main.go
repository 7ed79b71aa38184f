// panic, defer and recover.
package main

type E struct{ msg string }

func f() (err *E) {
	defer func() { // @defer
		if r := recover(); r != nil { // @recover
			err = r.(*E)
		}
	}()
	panic(&E{"boom"}) // @panic
}

func main() {
	println(f().msg)
}
