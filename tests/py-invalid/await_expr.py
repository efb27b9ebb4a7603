# error: 3 errors, all reported at once: line 4: unsupported construct: async function; line 8: unsupported construct: async function; line 9: unsupported construct: await
from postyp import Bool, Float64, Int64, Out

async def fetch(x: Int64) -> Int64:
    return x


async def twice(x: Int64) -> Int64:
    y = await fetch(x)
    return 2 * y
