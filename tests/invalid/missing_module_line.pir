func f() {
entry:
  return
}
