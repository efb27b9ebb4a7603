module m
import boundary numpy: asarray

func f(%a: Float64) {
entry:
  call asarray(%a)
  return
}
