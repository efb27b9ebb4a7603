# error: break and continue with no loop to leave are refused by the typecheck, each once, in a loop's else clause too, and inside a refused statement in a loop they have one
from postyp import Int64


def exits(n: Int64) -> Int64:
    if n > 0:
        break
    for i in range(n):
        if i > 2:
            continue
    else:
        continue
    while n > 0:
        n -= 1
        with open("f") as f:
            break
    continue
    return n
