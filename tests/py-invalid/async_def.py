# error: line 4: unsupported construct: async function
from postyp import Bool, Float64, Int64, Out

async def fetch(x: Int64) -> Int64:
    return x
