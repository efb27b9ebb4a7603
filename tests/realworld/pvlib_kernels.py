"""Kernels of pvlib-python (https://github.com/pvlib/pvlib-python), BSD-3-Clause
licence, Copyright (c) 2023 pvlib python Contributors, Copyright (c) 2014
PVLIB python Development Team, Copyright (c) 2013 Sandia National
Laboratories: the NREL Solar Position Algorithm of `pvlib/spa.py`,
compiled with Numba's `jit(..., nopython=True)`, which the module calls
`jcompile`, when PVLIB_USE_NUMBA is set."""
import numpy as np

from postyp import Float64, Int64, Out

# The coefficient tables the kernels read: module-level arrays of pvlib/spa.py
# @ 6382338a7598a5b9d94473f47fcbc787b0ac6408, kept as the project defines them.
# heliocentric longitude coefficients
L0 = np.array([
    [175347046.0, 0.0, 0.0],
    [3341656.0, 4.6692568, 6283.07585],
    [34894.0, 4.6261, 12566.1517],
    [3497.0, 2.7441, 5753.3849],
    [3418.0, 2.8289, 3.5231],
    [3136.0, 3.6277, 77713.7715],
    [2676.0, 4.4181, 7860.4194],
    [2343.0, 6.1352, 3930.2097],
    [1324.0, 0.7425, 11506.7698],
    [1273.0, 2.0371, 529.691],
    [1199.0, 1.1096, 1577.3435],
    [990.0, 5.233, 5884.927],
    [902.0, 2.045, 26.298],
    [857.0, 3.508, 398.149],
    [780.0, 1.179, 5223.694],
    [753.0, 2.533, 5507.553],
    [505.0, 4.583, 18849.228],
    [492.0, 4.205, 775.523],
    [357.0, 2.92, 0.067],
    [317.0, 5.849, 11790.629],
    [284.0, 1.899, 796.298],
    [271.0, 0.315, 10977.079],
    [243.0, 0.345, 5486.778],
    [206.0, 4.806, 2544.314],
    [205.0, 1.869, 5573.143],
    [202.0, 2.458, 6069.777],
    [156.0, 0.833, 213.299],
    [132.0, 3.411, 2942.463],
    [126.0, 1.083, 20.775],
    [115.0, 0.645, 0.98],
    [103.0, 0.636, 4694.003],
    [102.0, 0.976, 15720.839],
    [102.0, 4.267, 7.114],
    [99.0, 6.21, 2146.17],
    [98.0, 0.68, 155.42],
    [86.0, 5.98, 161000.69],
    [85.0, 1.3, 6275.96],
    [85.0, 3.67, 71430.7],
    [80.0, 1.81, 17260.15],
    [79.0, 3.04, 12036.46],
    [75.0, 1.76, 5088.63],
    [74.0, 3.5, 3154.69],
    [74.0, 4.68, 801.82],
    [70.0, 0.83, 9437.76],
    [62.0, 3.98, 8827.39],
    [61.0, 1.82, 7084.9],
    [57.0, 2.78, 6286.6],
    [56.0, 4.39, 14143.5],
    [56.0, 3.47, 6279.55],
    [52.0, 0.19, 12139.55],
    [52.0, 1.33, 1748.02],
    [51.0, 0.28, 5856.48],
    [49.0, 0.49, 1194.45],
    [41.0, 5.37, 8429.24],
    [41.0, 2.4, 19651.05],
    [39.0, 6.17, 10447.39],
    [37.0, 6.04, 10213.29],
    [37.0, 2.57, 1059.38],
    [36.0, 1.71, 2352.87],
    [36.0, 1.78, 6812.77],
    [33.0, 0.59, 17789.85],
    [30.0, 0.44, 83996.85],
    [30.0, 2.74, 1349.87],
    [25.0, 3.16, 4690.48]
])
L1 = np.array([
    [628331966747.0, 0.0, 0.0],
    [206059.0, 2.678235, 6283.07585],
    [4303.0, 2.6351, 12566.1517],
    [425.0, 1.59, 3.523],
    [119.0, 5.796, 26.298],
    [109.0, 2.966, 1577.344],
    [93.0, 2.59, 18849.23],
    [72.0, 1.14, 529.69],
    [68.0, 1.87, 398.15],
    [67.0, 4.41, 5507.55],
    [59.0, 2.89, 5223.69],
    [56.0, 2.17, 155.42],
    [45.0, 0.4, 796.3],
    [36.0, 0.47, 775.52],
    [29.0, 2.65, 7.11],
    [21.0, 5.34, 0.98],
    [19.0, 1.85, 5486.78],
    [19.0, 4.97, 213.3],
    [17.0, 2.99, 6275.96],
    [16.0, 0.03, 2544.31],
    [16.0, 1.43, 2146.17],
    [15.0, 1.21, 10977.08],
    [12.0, 2.83, 1748.02],
    [12.0, 3.26, 5088.63],
    [12.0, 5.27, 1194.45],
    [12.0, 2.08, 4694.0],
    [11.0, 0.77, 553.57],
    [10.0, 1.3, 6286.6],
    [10.0, 4.24, 1349.87],
    [9.0, 2.7, 242.73],
    [9.0, 5.64, 951.72],
    [8.0, 5.3, 2352.87],
    [6.0, 2.65, 9437.76],
    [6.0, 4.67, 4690.48]
])
L2 = np.array([
    [52919.0, 0.0, 0.0],
    [8720.0, 1.0721, 6283.0758],
    [309.0, 0.867, 12566.152],
    [27.0, 0.05, 3.52],
    [16.0, 5.19, 26.3],
    [16.0, 3.68, 155.42],
    [10.0, 0.76, 18849.23],
    [9.0, 2.06, 77713.77],
    [7.0, 0.83, 775.52],
    [5.0, 4.66, 1577.34],
    [4.0, 1.03, 7.11],
    [4.0, 3.44, 5573.14],
    [3.0, 5.14, 796.3],
    [3.0, 6.05, 5507.55],
    [3.0, 1.19, 242.73],
    [3.0, 6.12, 529.69],
    [3.0, 0.31, 398.15],
    [3.0, 2.28, 553.57],
    [2.0, 4.38, 5223.69],
    [2.0, 3.75, 0.98]
])
L3 = np.array([
    [289.0, 5.844, 6283.076],
    [35.0, 0.0, 0.0],
    [17.0, 5.49, 12566.15],
    [3.0, 5.2, 155.42],
    [1.0, 4.72, 3.52],
    [1.0, 5.3, 18849.23],
    [1.0, 5.97, 242.73]
])
L4 = np.array([
    [114.0, 3.142, 0.0],
    [8.0, 4.13, 6283.08],
    [1.0, 3.84, 12566.15]
])
L5 = np.array([
    [1.0, 3.14, 0.0]
])


# heliocentric latitude coefficients
B0 = np.array([
    [280.0, 3.199, 84334.662],
    [102.0, 5.422, 5507.553],
    [80.0, 3.88, 5223.69],
    [44.0, 3.7, 2352.87],
    [32.0, 4.0, 1577.34]
])
B1 = np.array([
    [9.0, 3.9, 5507.55],
    [6.0, 1.73, 5223.69]
])


# heliocentric radius coefficients
R0 = np.array([
    [100013989.0, 0.0, 0.0],
    [1670700.0, 3.0984635, 6283.07585],
    [13956.0, 3.05525, 12566.1517],
    [3084.0, 5.1985, 77713.7715],
    [1628.0, 1.1739, 5753.3849],
    [1576.0, 2.8469, 7860.4194],
    [925.0, 5.453, 11506.77],
    [542.0, 4.564, 3930.21],
    [472.0, 3.661, 5884.927],
    [346.0, 0.964, 5507.553],
    [329.0, 5.9, 5223.694],
    [307.0, 0.299, 5573.143],
    [243.0, 4.273, 11790.629],
    [212.0, 5.847, 1577.344],
    [186.0, 5.022, 10977.079],
    [175.0, 3.012, 18849.228],
    [110.0, 5.055, 5486.778],
    [98.0, 0.89, 6069.78],
    [86.0, 5.69, 15720.84],
    [86.0, 1.27, 161000.69],
    [65.0, 0.27, 17260.15],
    [63.0, 0.92, 529.69],
    [57.0, 2.01, 83996.85],
    [56.0, 5.24, 71430.7],
    [49.0, 3.25, 2544.31],
    [47.0, 2.58, 775.52],
    [45.0, 5.54, 9437.76],
    [43.0, 6.01, 6275.96],
    [39.0, 5.36, 4694.0],
    [38.0, 2.39, 8827.39],
    [37.0, 0.83, 19651.05],
    [37.0, 4.9, 12139.55],
    [36.0, 1.67, 12036.46],
    [35.0, 1.84, 2942.46],
    [33.0, 0.24, 7084.9],
    [32.0, 0.18, 5088.63],
    [32.0, 1.78, 398.15],
    [28.0, 1.21, 6286.6],
    [28.0, 1.9, 6279.55],
    [26.0, 4.59, 10447.39]
])
R1 = np.array([
    [103019.0, 1.10749, 6283.07585],
    [1721.0, 1.0644, 12566.1517],
    [702.0, 3.142, 0.0],
    [32.0, 1.02, 18849.23],
    [31.0, 2.84, 5507.55],
    [25.0, 1.32, 5223.69],
    [18.0, 1.42, 1577.34],
    [10.0, 5.91, 10977.08],
    [9.0, 1.42, 6275.96],
    [9.0, 0.27, 5486.78]
])
R2 = np.array([
    [4359.0, 5.7846, 6283.0758],
    [124.0, 5.579, 12566.152],
    [12.0, 3.14, 0.0],
    [9.0, 3.63, 77713.77],
    [6.0, 1.87, 5573.14],
    [3.0, 5.47, 18849.23]
])
R3 = np.array([
    [145.0, 4.273, 6283.076],
    [7.0, 3.92, 12566.15]
])
R4 = np.array([
    [4.0, 2.56, 6283.08]
])


# longitude and obliquity nutation coefficients
NUTATION_ABCD_ARRAY = np.array([
    [-171996, -174.2, 92025, 8.9],
    [-13187, -1.6, 5736, -3.1],
    [-2274, -0.2, 977, -0.5],
    [2062, 0.2, -895, 0.5],
    [1426, -3.4, 54, -0.1],
    [712, 0.1, -7, 0],
    [-517, 1.2, 224, -0.6],
    [-386, -0.4, 200, 0],
    [-301, 0, 129, -0.1],
    [217, -0.5, -95, 0.3],
    [-158, 0, 0, 0],
    [129, 0.1, -70, 0],
    [123, 0, -53, 0],
    [63, 0, 0, 0],
    [63, 0.1, -33, 0],
    [-59, 0, 26, 0],
    [-58, -0.1, 32, 0],
    [-51, 0, 27, 0],
    [48, 0, 0, 0],
    [46, 0, -24, 0],
    [-38, 0, 16, 0],
    [-31, 0, 13, 0],
    [29, 0, 0, 0],
    [29, 0, -12, 0],
    [26, 0, 0, 0],
    [-22, 0, 0, 0],
    [21, 0, -10, 0],
    [17, -0.1, 0, 0],
    [16, 0, -8, 0],
    [-16, 0.1, 7, 0],
    [-15, 0, 9, 0],
    [-13, 0, 7, 0],
    [-12, 0, 6, 0],
    [11, 0, 0, 0],
    [-10, 0, 5, 0],
    [-8, 0, 3, 0],
    [7, 0, -3, 0],
    [-7, 0, 0, 0],
    [-7, 0, 3, 0],
    [-7, 0, 3, 0],
    [6, 0, 0, 0],
    [6, 0, -3, 0],
    [6, 0, -3, 0],
    [-6, 0, 3, 0],
    [-6, 0, 3, 0],
    [5, 0, 0, 0],
    [-5, 0, 3, 0],
    [-5, 0, 3, 0],
    [-5, 0, 3, 0],
    [4, 0, 0, 0],
    [4, 0, 0, 0],
    [4, 0, 0, 0],
    [-4, 0, 0, 0],
    [-4, 0, 0, 0],
    [-4, 0, 0, 0],
    [3, 0, 0, 0],
    [-3, 0, 0, 0],
    [-3, 0, 0, 0],
    [-3, 0, 0, 0],
    [-3, 0, 0, 0],
    [-3, 0, 0, 0],
    [-3, 0, 0, 0],
    [-3, 0, 0, 0],
])

NUTATION_YTERM_ARRAY = np.array([
    [0, 0, 0, 0, 1],
    [-2, 0, 0, 2, 2],
    [0, 0, 0, 2, 2],
    [0, 0, 0, 0, 2],
    [0, 1, 0, 0, 0],
    [0, 0, 1, 0, 0],
    [-2, 1, 0, 2, 2],
    [0, 0, 0, 2, 1],
    [0, 0, 1, 2, 2],
    [-2, -1, 0, 2, 2],
    [-2, 0, 1, 0, 0],
    [-2, 0, 0, 2, 1],
    [0, 0, -1, 2, 2],
    [2, 0, 0, 0, 0],
    [0, 0, 1, 0, 1],
    [2, 0, -1, 2, 2],
    [0, 0, -1, 0, 1],
    [0, 0, 1, 2, 1],
    [-2, 0, 2, 0, 0],
    [0, 0, -2, 2, 1],
    [2, 0, 0, 2, 2],
    [0, 0, 2, 2, 2],
    [0, 0, 2, 0, 0],
    [-2, 0, 1, 2, 2],
    [0, 0, 0, 2, 0],
    [-2, 0, 0, 2, 0],
    [0, 0, -1, 2, 1],
    [0, 2, 0, 0, 0],
    [2, 0, -1, 0, 1],
    [-2, 2, 0, 2, 2],
    [0, 1, 0, 0, 1],
    [-2, 0, 1, 0, 1],
    [0, -1, 0, 0, 1],
    [0, 0, 2, -2, 0],
    [2, 0, -1, 2, 1],
    [2, 0, 1, 2, 2],
    [0, 1, 0, 2, 2],
    [-2, 1, 1, 0, 0],
    [0, -1, 0, 2, 2],
    [2, 0, 0, 2, 1],
    [2, 0, 1, 0, 0],
    [-2, 0, 2, 2, 2],
    [-2, 0, 1, 2, 1],
    [2, 0, -2, 0, 1],
    [2, 0, 0, 0, 1],
    [0, -1, 1, 0, 0],
    [-2, -1, 0, 2, 1],
    [-2, 0, 0, 0, 1],
    [0, 0, 2, 2, 1],
    [-2, 0, 2, 0, 1],
    [-2, 1, 0, 2, 1],
    [0, 0, 1, -2, 0],
    [-1, 0, 1, 0, 0],
    [-2, 1, 0, 0, 0],
    [1, 0, 0, 0, 0],
    [0, 0, 1, 2, 0],
    [0, 0, -2, 2, 2],
    [-1, -1, 1, 0, 0],
    [0, 1, 1, 0, 0],
    [0, -1, 1, 2, 2],
    [2, -1, -1, 2, 2],
    [0, 0, 3, 2, 2],
    [2, -1, 0, 2, 2],
])

# julian_day_dt: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `julian_day_dt`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(int64, int64, int64, int64, int64, int64, int64)', nopython=True))
#   original signature: def julian_day_dt(year, month, day, hour, minute, second, microsecond):
def julian_day_dt(
    year: Int64,
    month: Int64,
    day: Int64,
    hour: Int64,
    minute: Int64,
    second: Int64,
    microsecond: Int64,
) -> Float64:
    """This is the original way to calculate the julian day from the NREL paper.
    However, it is much faster to convert to unix/epoch time and then convert
    to julian day. Note that the date must be UTC."""
    if month <= 2:
        year = year-1
        month = month+12
    a = int(year/100)
    b = 2 - a + int(a * 0.25)
    frac_of_day = (microsecond / 1e6 + (second + minute * 60 + hour * 3600)
                   ) * 1.0 / (3600*24)
    d = day + frac_of_day
    jd = int(365.25 * (year + 4716)) + int(30.6001 * (month + 1)) + d - 1524.5
    if jd > 2299160.0:
        jd += b

    return jd


# julian_day: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `julian_day`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def julian_day(unixtime):
def julian_day(unixtime: Float64) -> Float64:
    jd = unixtime * 1.0 / 86400 + 2440587.5
    return jd


# julian_ephemeris_day: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `julian_ephemeris_day`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64)', nopython=True))
#   original signature: def julian_ephemeris_day(julian_day, delta_t):
def julian_ephemeris_day(julian_day: Float64, delta_t: Float64) -> Float64:
    jde = julian_day + delta_t * 1.0 / 86400
    return jde


# julian_century: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `julian_century`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def julian_century(julian_day):
def julian_century(julian_day: Float64) -> Float64:
    jc = (julian_day - 2451545) * 1.0 / 36525
    return jc


# julian_ephemeris_century: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `julian_ephemeris_century`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def julian_ephemeris_century(julian_ephemeris_day):
def julian_ephemeris_century(julian_ephemeris_day: Float64) -> Float64:
    jce = (julian_ephemeris_day - 2451545) * 1.0 / 36525
    return jce


# julian_ephemeris_millennium: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `julian_ephemeris_millennium`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def julian_ephemeris_millennium(julian_ephemeris_century):
def julian_ephemeris_millennium(julian_ephemeris_century: Float64) -> Float64:
    jme = julian_ephemeris_century * 1.0 / 10
    return jme


# sum_mult_cos_add_mult: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `sum_mult_cos_add_mult`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: type annotations added; Numba decorator removed (it was @jcompile(nopython=True))
#   original signature: def sum_mult_cos_add_mult(arr, x):
def sum_mult_cos_add_mult(arr: Float64[:, :], x: Float64) -> Float64:
    # shared calculation used for heliocentric longitude, latitude, and radius
    s = 0.
    for row in range(arr.shape[0]):
        s += arr[row, 0] * np.cos(arr[row, 1] + arr[row, 2] * x)
    return s


# heliocentric_longitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `heliocentric_longitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def heliocentric_longitude(jme):
def heliocentric_longitude(jme: Float64) -> Float64:
    l0 = sum_mult_cos_add_mult(L0, jme)
    l1 = sum_mult_cos_add_mult(L1, jme)
    l2 = sum_mult_cos_add_mult(L2, jme)
    l3 = sum_mult_cos_add_mult(L3, jme)
    l4 = sum_mult_cos_add_mult(L4, jme)
    l5 = sum_mult_cos_add_mult(L5, jme)

    l_rad = (l0 + l1 * jme + l2 * jme**2 + l3 * jme**3 + l4 * jme**4 +
             l5 * jme**5)/10**8
    l = np.rad2deg(l_rad)
    return l % 360


# heliocentric_latitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `heliocentric_latitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def heliocentric_latitude(jme):
def heliocentric_latitude(jme: Float64) -> Float64:
    b0 = sum_mult_cos_add_mult(B0, jme)
    b1 = sum_mult_cos_add_mult(B1, jme)

    b_rad = (b0 + b1 * jme)/10**8
    b = np.rad2deg(b_rad)
    return b


# heliocentric_radius_vector: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `heliocentric_radius_vector`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def heliocentric_radius_vector(jme):
def heliocentric_radius_vector(jme: Float64) -> Float64:
    r0 = sum_mult_cos_add_mult(R0, jme)
    r1 = sum_mult_cos_add_mult(R1, jme)
    r2 = sum_mult_cos_add_mult(R2, jme)
    r3 = sum_mult_cos_add_mult(R3, jme)
    r4 = sum_mult_cos_add_mult(R4, jme)

    r = (r0 + r1 * jme + r2 * jme**2 + r3 * jme**3 + r4 * jme**4)/10**8
    return r


# geocentric_longitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `geocentric_longitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def geocentric_longitude(heliocentric_longitude):
def geocentric_longitude(heliocentric_longitude: Float64) -> Float64:
    theta = heliocentric_longitude + 180.0
    return theta % 360


# geocentric_latitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `geocentric_latitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def geocentric_latitude(heliocentric_latitude):
def geocentric_latitude(heliocentric_latitude: Float64) -> Float64:
    beta = -1.0*heliocentric_latitude
    return beta


# mean_elongation: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `mean_elongation`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def mean_elongation(julian_ephemeris_century):
def mean_elongation(julian_ephemeris_century: Float64) -> Float64:
    x0 = (297.85036
          + 445267.111480 * julian_ephemeris_century
          - 0.0019142 * julian_ephemeris_century**2
          + julian_ephemeris_century**3 / 189474)
    return x0


# mean_anomaly_sun: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `mean_anomaly_sun`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def mean_anomaly_sun(julian_ephemeris_century):
def mean_anomaly_sun(julian_ephemeris_century: Float64) -> Float64:
    x1 = (357.52772
          + 35999.050340 * julian_ephemeris_century
          - 0.0001603 * julian_ephemeris_century**2
          - julian_ephemeris_century**3 / 300000)
    return x1


# mean_anomaly_moon: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `mean_anomaly_moon`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def mean_anomaly_moon(julian_ephemeris_century):
def mean_anomaly_moon(julian_ephemeris_century: Float64) -> Float64:
    x2 = (134.96298
          + 477198.867398 * julian_ephemeris_century
          + 0.0086972 * julian_ephemeris_century**2
          + julian_ephemeris_century**3 / 56250)
    return x2


# moon_argument_latitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `moon_argument_latitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def moon_argument_latitude(julian_ephemeris_century):
def moon_argument_latitude(julian_ephemeris_century: Float64) -> Float64:
    x3 = (93.27191
          + 483202.017538 * julian_ephemeris_century
          - 0.0036825 * julian_ephemeris_century**2
          + julian_ephemeris_century**3 / 327270)
    return x3


# moon_ascending_longitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `moon_ascending_longitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def moon_ascending_longitude(julian_ephemeris_century):
def moon_ascending_longitude(julian_ephemeris_century: Float64) -> Float64:
    x4 = (125.04452
          - 1934.136261 * julian_ephemeris_century
          + 0.0020708 * julian_ephemeris_century**2
          + julian_ephemeris_century**3 / 450000)
    return x4


# longitude_obliquity_nutation: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `longitude_obliquity_nutation`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types, the array it writes marked Out; Numba decorator removed (it was @jcompile('void(float64, float64, float64, float64, float64, float64, float64[:])', nopython=True))
#   original signature: def longitude_obliquity_nutation(julian_ephemeris_century, x0, x1, x2, x3, x4, out):
def longitude_obliquity_nutation(
    julian_ephemeris_century: Float64,
    x0: Float64,
    x1: Float64,
    x2: Float64,
    x3: Float64,
    x4: Float64,
    out: Out[Float64[:]],
) -> None:
    delta_psi_sum = 0.0
    delta_eps_sum = 0.0
    for row in range(NUTATION_YTERM_ARRAY.shape[0]):
        a = NUTATION_ABCD_ARRAY[row, 0]
        b = NUTATION_ABCD_ARRAY[row, 1]
        c = NUTATION_ABCD_ARRAY[row, 2]
        d = NUTATION_ABCD_ARRAY[row, 3]
        arg = np.radians(
            NUTATION_YTERM_ARRAY[row, 0]*x0 +
            NUTATION_YTERM_ARRAY[row, 1]*x1 +
            NUTATION_YTERM_ARRAY[row, 2]*x2 +
            NUTATION_YTERM_ARRAY[row, 3]*x3 +
            NUTATION_YTERM_ARRAY[row, 4]*x4
        )
        delta_psi_sum += (a + b * julian_ephemeris_century) * np.sin(arg)
        delta_eps_sum += (c + d * julian_ephemeris_century) * np.cos(arg)
    delta_psi = delta_psi_sum*1.0/36000000
    delta_eps = delta_eps_sum*1.0/36000000
    # seems like we ought to be able to return a tuple here instead
    # of resorting to `out`, but returning a UniTuple from this
    # function caused calculations elsewhere to give the wrong result.
    # very difficult to investigate since it did not occur when using
    # object mode.  issue was observed on numba 0.56.4
    out[0] = delta_psi
    out[1] = delta_eps


# mean_ecliptic_obliquity: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `mean_ecliptic_obliquity`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def mean_ecliptic_obliquity(julian_ephemeris_millennium):
def mean_ecliptic_obliquity(julian_ephemeris_millennium: Float64) -> Float64:
    U = 1.0*julian_ephemeris_millennium/10
    e0 = (84381.448 - 4680.93 * U - 1.55 * U**2
          + 1999.25 * U**3 - 51.38 * U**4 - 249.67 * U**5
          - 39.05 * U**6 + 7.12 * U**7 + 27.87 * U**8
          + 5.79 * U**9 + 2.45 * U**10)
    return e0


# true_ecliptic_obliquity: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `true_ecliptic_obliquity`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64)', nopython=True))
#   original signature: def true_ecliptic_obliquity(mean_ecliptic_obliquity, obliquity_nutation):
def true_ecliptic_obliquity(
    mean_ecliptic_obliquity: Float64,
    obliquity_nutation: Float64,
) -> Float64:
    e0 = mean_ecliptic_obliquity
    deleps = obliquity_nutation
    e = e0*1.0/3600 + deleps
    return e


# aberration_correction: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `aberration_correction`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def aberration_correction(earth_radius_vector):
def aberration_correction(earth_radius_vector: Float64) -> Float64:
    deltau = -20.4898 / (3600 * earth_radius_vector)
    return deltau


# apparent_sun_longitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `apparent_sun_longitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def apparent_sun_longitude(geocentric_longitude, longitude_nutation, aberration_correction):
def apparent_sun_longitude(
    geocentric_longitude: Float64,
    longitude_nutation: Float64,
    aberration_correction: Float64,
) -> Float64:
    lamd = geocentric_longitude + longitude_nutation + aberration_correction
    return lamd


# mean_sidereal_time: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `mean_sidereal_time`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64)', nopython=True))
#   original signature: def mean_sidereal_time(julian_day, julian_century):
def mean_sidereal_time(julian_day: Float64, julian_century: Float64) -> Float64:
    v0 = (280.46061837 + 360.98564736629 * (julian_day - 2451545)
          + 0.000387933 * julian_century**2 - julian_century**3 / 38710000)
    return v0 % 360.0


# apparent_sidereal_time: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `apparent_sidereal_time`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def apparent_sidereal_time(mean_sidereal_time, longitude_nutation, true_ecliptic_obliquity):
def apparent_sidereal_time(
    mean_sidereal_time: Float64,
    longitude_nutation: Float64,
    true_ecliptic_obliquity: Float64,
) -> Float64:
    v = mean_sidereal_time + longitude_nutation * np.cos(
        np.radians(true_ecliptic_obliquity))
    return v


# geocentric_sun_right_ascension: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `geocentric_sun_right_ascension`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def geocentric_sun_right_ascension(apparent_sun_longitude, true_ecliptic_obliquity, geocentric_latitude):
def geocentric_sun_right_ascension(
    apparent_sun_longitude: Float64,
    true_ecliptic_obliquity: Float64,
    geocentric_latitude: Float64,
) -> Float64:
    true_ecliptic_obliquity_rad = np.radians(true_ecliptic_obliquity)
    apparent_sun_longitude_rad = np.radians(apparent_sun_longitude)

    num = (np.sin(apparent_sun_longitude_rad)
           * np.cos(true_ecliptic_obliquity_rad)
           - np.tan(np.radians(geocentric_latitude))
           * np.sin(true_ecliptic_obliquity_rad))
    alpha = np.degrees(np.arctan2(num, np.cos(apparent_sun_longitude_rad)))
    return alpha % 360


# geocentric_sun_declination: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `geocentric_sun_declination`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def geocentric_sun_declination(apparent_sun_longitude, true_ecliptic_obliquity, geocentric_latitude):
def geocentric_sun_declination(
    apparent_sun_longitude: Float64,
    true_ecliptic_obliquity: Float64,
    geocentric_latitude: Float64,
) -> Float64:
    geocentric_latitude_rad = np.radians(geocentric_latitude)
    true_ecliptic_obliquity_rad = np.radians(true_ecliptic_obliquity)

    delta = np.degrees(np.arcsin(np.sin(geocentric_latitude_rad) *
                                 np.cos(true_ecliptic_obliquity_rad) +
                                 np.cos(geocentric_latitude_rad) *
                                 np.sin(true_ecliptic_obliquity_rad) *
                                 np.sin(np.radians(apparent_sun_longitude))))
    return delta


# local_hour_angle: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `local_hour_angle`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def local_hour_angle(apparent_sidereal_time, observer_longitude, sun_right_ascension):
def local_hour_angle(
    apparent_sidereal_time: Float64,
    observer_longitude: Float64,
    sun_right_ascension: Float64,
) -> Float64:
    """Measured westward from south"""
    H = apparent_sidereal_time + observer_longitude - sun_right_ascension
    return H % 360


# equatorial_horizontal_parallax: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `equatorial_horizontal_parallax`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def equatorial_horizontal_parallax(earth_radius_vector):
def equatorial_horizontal_parallax(earth_radius_vector: Float64) -> Float64:
    xi = 8.794 / (3600 * earth_radius_vector)
    return xi


# uterm: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `uterm`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def uterm(observer_latitude):
def uterm(observer_latitude: Float64) -> Float64:
    u = np.arctan(0.99664719 * np.tan(np.radians(observer_latitude)))
    return u


# xterm: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `xterm`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def xterm(u, observer_latitude, observer_elevation):
def xterm(u: Float64, observer_latitude: Float64, observer_elevation: Float64) -> Float64:
    x = (np.cos(u) + observer_elevation / 6378140
         * np.cos(np.radians(observer_latitude)))
    return x


# yterm: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `yterm`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def yterm(u, observer_latitude, observer_elevation):
def yterm(u: Float64, observer_latitude: Float64, observer_elevation: Float64) -> Float64:
    y = (0.99664719 * np.sin(u) + observer_elevation / 6378140
         * np.sin(np.radians(observer_latitude)))
    return y


# parallax_sun_right_ascension: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `parallax_sun_right_ascension`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64,float64, float64)', nopython=True))
#   original signature: def parallax_sun_right_ascension(xterm, equatorial_horizontal_parallax, local_hour_angle, geocentric_sun_declination):
def parallax_sun_right_ascension(
    xterm: Float64,
    equatorial_horizontal_parallax: Float64,
    local_hour_angle: Float64,
    geocentric_sun_declination: Float64,
) -> Float64:
    equatorial_horizontal_parallax_rad = \
        np.radians(equatorial_horizontal_parallax)
    local_hour_angle_rad = np.radians(local_hour_angle)

    num = (-xterm * np.sin(equatorial_horizontal_parallax_rad)
           * np.sin(local_hour_angle_rad))
    denom = (np.cos(np.radians(geocentric_sun_declination))
             - xterm * np.sin(equatorial_horizontal_parallax_rad)
             * np.cos(local_hour_angle_rad))
    delta_alpha = np.degrees(np.arctan2(num, denom))
    return delta_alpha


# topocentric_sun_right_ascension: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_sun_right_ascension`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64)', nopython=True))
#   original signature: def topocentric_sun_right_ascension(geocentric_sun_right_ascension, parallax_sun_right_ascension):
def topocentric_sun_right_ascension(
    geocentric_sun_right_ascension: Float64,
    parallax_sun_right_ascension: Float64,
) -> Float64:
    alpha_prime = geocentric_sun_right_ascension + parallax_sun_right_ascension
    return alpha_prime


# topocentric_sun_declination: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_sun_declination`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64, float64, float64, float64)', nopython=True))
#   original signature: def topocentric_sun_declination(geocentric_sun_declination, xterm, yterm, equatorial_horizontal_parallax, parallax_sun_right_ascension, local_hour_angle):
def topocentric_sun_declination(
    geocentric_sun_declination: Float64,
    xterm: Float64,
    yterm: Float64,
    equatorial_horizontal_parallax: Float64,
    parallax_sun_right_ascension: Float64,
    local_hour_angle: Float64,
) -> Float64:
    geocentric_sun_declination_rad = np.radians(geocentric_sun_declination)
    equatorial_horizontal_parallax_rad = \
        np.radians(equatorial_horizontal_parallax)

    num = ((np.sin(geocentric_sun_declination_rad) - yterm
            * np.sin(equatorial_horizontal_parallax_rad))
           * np.cos(np.radians(parallax_sun_right_ascension)))
    denom = (np.cos(geocentric_sun_declination_rad) - xterm
             * np.sin(equatorial_horizontal_parallax_rad)
             * np.cos(np.radians(local_hour_angle)))
    delta = np.degrees(np.arctan2(num, denom))
    return delta


# topocentric_local_hour_angle: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_local_hour_angle`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64)', nopython=True))
#   original signature: def topocentric_local_hour_angle(local_hour_angle, parallax_sun_right_ascension):
def topocentric_local_hour_angle(
    local_hour_angle: Float64,
    parallax_sun_right_ascension: Float64,
) -> Float64:
    H_prime = local_hour_angle - parallax_sun_right_ascension
    return H_prime


# topocentric_elevation_angle_without_atmosphere: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_elevation_angle_without_atmosphere`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def topocentric_elevation_angle_without_atmosphere(observer_latitude, topocentric_sun_declination, topocentric_local_hour_angle):
def topocentric_elevation_angle_without_atmosphere(
    observer_latitude: Float64,
    topocentric_sun_declination: Float64,
    topocentric_local_hour_angle: Float64,
) -> Float64:
    observer_latitude_rad = np.radians(observer_latitude)
    topocentric_sun_declination_rad = np.radians(topocentric_sun_declination)
    e0 = np.degrees(np.arcsin(
        np.sin(observer_latitude_rad)
        * np.sin(topocentric_sun_declination_rad)
        + np.cos(observer_latitude_rad)
        * np.cos(topocentric_sun_declination_rad)
        * np.cos(np.radians(topocentric_local_hour_angle))))
    return e0


# atmospheric_refraction_correction: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `atmospheric_refraction_correction`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64, float64)', nopython=True))
#   original signature: def atmospheric_refraction_correction(local_pressure, local_temp, topocentric_elevation_angle_wo_atmosphere, atmos_refract):
def atmospheric_refraction_correction(
    local_pressure: Float64,
    local_temp: Float64,
    topocentric_elevation_angle_wo_atmosphere: Float64,
    atmos_refract: Float64,
) -> Float64:
    # switch sets delta_e when the sun is below the horizon
    switch = topocentric_elevation_angle_wo_atmosphere >= -1.0 * (
        0.26667 + atmos_refract)
    delta_e = ((local_pressure / 1010.0) * (283.0 / (273 + local_temp))
               * 1.02 / (60 * np.tan(np.radians(
                   topocentric_elevation_angle_wo_atmosphere
                   + 10.3 / (topocentric_elevation_angle_wo_atmosphere
                             + 5.11))))) * switch
    return delta_e


# topocentric_elevation_angle: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_elevation_angle`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64)', nopython=True))
#   original signature: def topocentric_elevation_angle(topocentric_elevation_angle_without_atmosphere, atmospheric_refraction_correction):
def topocentric_elevation_angle(
    topocentric_elevation_angle_without_atmosphere: Float64,
    atmospheric_refraction_correction: Float64,
) -> Float64:
    e = (topocentric_elevation_angle_without_atmosphere
         + atmospheric_refraction_correction)
    return e


# topocentric_zenith_angle: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_zenith_angle`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def topocentric_zenith_angle(topocentric_elevation_angle):
def topocentric_zenith_angle(topocentric_elevation_angle: Float64) -> Float64:
    theta = 90 - topocentric_elevation_angle
    return theta


# topocentric_astronomers_azimuth: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_astronomers_azimuth`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64)', nopython=True))
#   original signature: def topocentric_astronomers_azimuth(topocentric_local_hour_angle, topocentric_sun_declination, observer_latitude):
def topocentric_astronomers_azimuth(
    topocentric_local_hour_angle: Float64,
    topocentric_sun_declination: Float64,
    observer_latitude: Float64,
) -> Float64:
    topocentric_local_hour_angle_rad = np.radians(topocentric_local_hour_angle)
    observer_latitude_rad = np.radians(observer_latitude)
    num = np.sin(topocentric_local_hour_angle_rad)
    denom = (np.cos(topocentric_local_hour_angle_rad)
             * np.sin(observer_latitude_rad)
             - np.tan(np.radians(topocentric_sun_declination))
             * np.cos(observer_latitude_rad))
    gamma = np.degrees(np.arctan2(num, denom))
    return gamma % 360


# topocentric_azimuth_angle: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `topocentric_azimuth_angle`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def topocentric_azimuth_angle(topocentric_astronomers_azimuth):
def topocentric_azimuth_angle(topocentric_astronomers_azimuth: Float64) -> Float64:
    phi = topocentric_astronomers_azimuth + 180
    return phi % 360


# sun_mean_longitude: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `sun_mean_longitude`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64)', nopython=True))
#   original signature: def sun_mean_longitude(julian_ephemeris_millennium):
def sun_mean_longitude(julian_ephemeris_millennium: Float64) -> Float64:
    M = (280.4664567 + 360007.6982779 * julian_ephemeris_millennium
         + 0.03032028 * julian_ephemeris_millennium**2
         + julian_ephemeris_millennium**3 / 49931
         - julian_ephemeris_millennium**4 / 15300
         - julian_ephemeris_millennium**5 / 2000000)
    return M


# equation_of_time: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `equation_of_time`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types; Numba decorator removed (it was @jcompile('float64(float64, float64, float64, float64)', nopython=True))
#   original signature: def equation_of_time(sun_mean_longitude, geocentric_sun_right_ascension, longitude_nutation, true_ecliptic_obliquity):
def equation_of_time(
    sun_mean_longitude: Float64,
    geocentric_sun_right_ascension: Float64,
    longitude_nutation: Float64,
    true_ecliptic_obliquity: Float64,
) -> Float64:
    E = (sun_mean_longitude - 0.0057183 - geocentric_sun_right_ascension +
         longitude_nutation * np.cos(np.radians(true_ecliptic_obliquity)))
    # limit between 0 and 360
    E = E % 360
    # convert to minutes
    E *= 4
    greater = E > 20
    less = E < -20
    other = (E <= 20) & (E >= -20)
    E = greater * (E - 1440) + less * (E + 1440) + other * E
    return E


# solar_position_loop: pvlib/pvlib-python, pvlib/spa.py @ 6382338a7598a5b9d94473f47fcbc787b0ac6408
#   function `solar_position_loop`; licence BSD-3-Clause; Copyright (c) 2023 pvlib python Contributors,
#   (c) 2014 PVLIB python Development Team, (c) 2013 Sandia National Laboratories
#   changed: Numba's signature spelled as postyp types, the array it writes marked Out; Numba decorator removed (it was @jcompile('void(float64[:], float64[:], float64[:], float64[:,:])', nopython=True, nogil=True))
#   original signature: def solar_position_loop(unixtime, delta_t, loc_args, out):
def solar_position_loop(
    unixtime: Float64[:],
    delta_t: Float64[:],
    loc_args: Float64[:],
    out: Out[Float64[:, :]],
) -> None:
    """Loop through the time array and calculate the solar position"""
    lat = loc_args[0]
    lon = loc_args[1]
    elev = loc_args[2]
    pressure = loc_args[3]
    temp = loc_args[4]
    atmos_refract = loc_args[5]
    sst = loc_args[6]
    esd = loc_args[7]

    for i in range(unixtime.shape[0]):
        utime = unixtime[i]
        dT = delta_t[i]
        jd = julian_day(utime)
        jde = julian_ephemeris_day(jd, dT)
        jc = julian_century(jd)
        jce = julian_ephemeris_century(jde)
        jme = julian_ephemeris_millennium(jce)
        R = heliocentric_radius_vector(jme)
        if esd:
            out[0, i] = R
            continue
        L = heliocentric_longitude(jme)
        B = heliocentric_latitude(jme)
        Theta = geocentric_longitude(L)
        beta = geocentric_latitude(B)
        x0 = mean_elongation(jce)
        x1 = mean_anomaly_sun(jce)
        x2 = mean_anomaly_moon(jce)
        x3 = moon_argument_latitude(jce)
        x4 = moon_ascending_longitude(jce)
        l_o_nutation = np.empty((2,))
        longitude_obliquity_nutation(jce, x0, x1, x2, x3, x4, l_o_nutation)
        delta_psi = l_o_nutation[0]
        delta_epsilon = l_o_nutation[1]
        epsilon0 = mean_ecliptic_obliquity(jme)
        epsilon = true_ecliptic_obliquity(epsilon0, delta_epsilon)
        delta_tau = aberration_correction(R)
        lamd = apparent_sun_longitude(Theta, delta_psi, delta_tau)
        v0 = mean_sidereal_time(jd, jc)
        v = apparent_sidereal_time(v0, delta_psi, epsilon)
        alpha = geocentric_sun_right_ascension(lamd, epsilon, beta)
        delta = geocentric_sun_declination(lamd, epsilon, beta)
        if sst:
            out[0, i] = v
            out[1, i] = alpha
            out[2, i] = delta
            continue
        m = sun_mean_longitude(jme)
        eot = equation_of_time(m, alpha, delta_psi, epsilon)
        H = local_hour_angle(v, lon, alpha)
        xi = equatorial_horizontal_parallax(R)
        u = uterm(lat)
        x = xterm(u, lat, elev)
        y = yterm(u, lat, elev)
        delta_alpha = parallax_sun_right_ascension(x, xi, H, delta)
        delta_prime = topocentric_sun_declination(delta, x, y, xi, delta_alpha,
                                                  H)
        H_prime = topocentric_local_hour_angle(H, delta_alpha)
        e0 = topocentric_elevation_angle_without_atmosphere(lat, delta_prime,
                                                            H_prime)
        delta_e = atmospheric_refraction_correction(pressure, temp, e0,
                                                    atmos_refract)
        e = topocentric_elevation_angle(e0, delta_e)
        theta = topocentric_zenith_angle(e)
        theta0 = topocentric_zenith_angle(e0)
        gamma = topocentric_astronomers_azimuth(H_prime, delta_prime, lat)
        phi = topocentric_azimuth_angle(gamma)
        out[0, i] = theta
        out[1, i] = theta0
        out[2, i] = e
        out[3, i] = e0
        out[4, i] = phi
        out[5, i] = eot


# ---------------------------------------------------------------------------
# Call recipes: the values of pvlib's tests/test_spa.py (the NREL SPA report's
# example, 2003-10-17 12:30:30 MST at Golden, Colorado) and, for
# `solar_position_loop`, the arguments `solar_position_numba` builds for it.

_UNIXTIME = 1066419030.0  # 2003-10-17 12:30:30 MST, as tests/test_spa.py's unixtimes
_LAT, _LON, _ELEV = 39.742476, -105.1786, 1830.14
_PRESSURE, _TEMP, _DELTA_T, _ATMOS_REFRACT = 820.0, 11.0, 67.0, 0.5667


def args_julian_day_dt():
    # test_julian_day_dt: the test instant plus 1 us, in UTC
    return (2003, 10, 17, 19, 30, 30, 1)


def args_sum_mult_cos_add_mult():
    # heliocentric_radius_vector's first term, at the test's JME
    return (R0.copy(), 0.003792781991685)


def args_heliocentric_latitude():
    return (0.003792781991685,)


def args_longitude_obliquity_nutation():
    # JCE and X0..X4 of test_spa.py; solar_position_loop's np.empty((2,))
    return (0.037927819916852, 17185.861179, 1722.893218, 18234.075703,
            18420.071012, 51.686951, np.zeros(2))


def args_mean_ecliptic_obliquity():
    return (0.003792781991685,)


def args_geocentric_sun_right_ascension():
    # lamd, epsilon, beta of test_spa.py
    return (204.0085519281, 23.440465, 0.0001011219)


def args_atmospheric_refraction_correction():
    # pressure, temp, e0, atmos_refract of test_spa.py
    return (_PRESSURE, _TEMP, 39.872046, _ATMOS_REFRACT)


def args_topocentric_astronomers_azimuth():
    # H_prime, delta_prime, lat of test_spa.py
    return (11.10627, -9.316179, _LAT)


def args_equation_of_time():
    # test_equation_of_time: sun_mean_longitude(JME), alpha, dPsi, epsilon
    return (sun_mean_longitude(0.003792781991685), 202.227408, -0.00399840, 23.440465)


def args_solar_position_loop():
    # solar_position_numba: a day of hourly instants from the test's, delta_t
    # broadcast with np.full_like, loc_args with sst = esd = False, and the
    # (6, n) result array
    unixtime = _UNIXTIME + 3600.0 * np.arange(24, dtype=np.float64)
    delta_t = np.full_like(unixtime, _DELTA_T, dtype=np.float64)
    loc_args = np.array([_LAT, _LON, _ELEV, _PRESSURE, _TEMP, _ATMOS_REFRACT,
                         False, False], dtype=np.float64)
    result = np.zeros((6, unixtime.shape[0]), dtype=np.float64)
    return (unixtime, delta_t, loc_args, result)
