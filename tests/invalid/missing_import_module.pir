module m
import post nothere.mod: f

func g() {
entry:
  return
}
