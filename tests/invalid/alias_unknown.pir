module m
alias g = nothere

func f() {
entry:
  return
}
