/**
 * Exact sums of float8 values the way PostgreSQL computes `sum(x::numeric)`, so that a sum folded in memory (forward
 * path) equals the one SQL recomputes after a reorg (Derive.ts), whatever the batch boundaries.
 *
 * PostgreSQL converts a float8 to numeric through its text form with 15 significant digits (`float8_numeric`:
 * `snprintf("%.*g", DBL_DIG, x)`, round half to even on the exact binary value), and the numeric keeps that text's
 * scale (digits after the point, exponent applied, never below 0). A sum of numerics is exact, with the largest scale
 * of its terms. Infinity and NaN follow numeric's rules (∞ + finite = ∞, ∞ + −∞ = NaN, NaN absorbs).
 */

/** units × 10^-scale, exact. */
export interface Decimal {
  readonly units: bigint
  readonly scale: number
}

type Special = "NaN" | "Infinity" | "-Infinity"

const powers: Array<bigint> = []
const pow10 = (n: number): bigint => (n < 400 ? (powers[n] ??= 10n ** BigInt(n)) : 10n ** BigInt(n))

/** The exact decimal value of a finite double: m × 2^k = m × 5^-k / 10^-k when k < 0. */
const exactDecimal = (x: number): Decimal => {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const hi = view.getUint32(0)
  const lo = view.getUint32(4)
  const negative = hi >>> 31 === 1
  const exponentBits = (hi >>> 20) & 0x7ff
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  let k: number
  if (exponentBits === 0) k = -1074
  else {
    mantissa |= 1n << 52n
    k = exponentBits - 1075
  }
  const sign = negative ? -1n : 1n
  return k >= 0
    ? { units: sign * (mantissa << BigInt(k)), scale: 0 }
    : { units: sign * mantissa * 5n ** BigInt(-k), scale: -k }
}

const digitCount = (n: bigint): number => (n === 0n ? 1 : n.toString().length)

/** Rounds an exact decimal to 15 significant digits, half to even (what glibc's printf does), then trims zeros. */
const roundTo15 = (d: Decimal): Decimal => {
  const negative = d.units < 0n
  let units = negative ? -d.units : d.units
  let scale = d.scale
  const drop = digitCount(units) - 15
  if (drop > 0) {
    const unit = pow10(drop)
    const q = units / unit
    const r = units % unit
    const half = unit / 2n
    units = r > half || (r === half && q % 2n === 1n) ? q + 1n : q
    scale -= drop
  }
  return normalise({ units: negative ? -units : units, scale })
}

/** Drops trailing zeros of the fraction (the text form has none); a negative scale is folded into the units. */
const normalise = (d: Decimal): Decimal => {
  let { scale, units } = d
  if (scale < 0) return { units: units * pow10(-scale), scale: 0 }
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n
    scale--
  }
  return { units, scale }
}

/** Parses JS's `toPrecision` text (fixed or exponential). */
const parseDecimal = (text: string): Decimal => {
  const [mant, exp] = text.split("e") as [string, string | undefined]
  const dot = mant.indexOf(".")
  const digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1)
  const scale = (dot < 0 ? 0 : mant.length - dot - 1) - (exp === undefined ? 0 : Number(exp))
  return normalise({ units: BigInt(digits), scale })
}

/** A finite float8 as PostgreSQL's `x::numeric`. */
export const float8ToNumeric = (x: number): Decimal => {
  if (x === 0) return { units: 0n, scale: 0 }
  // V8's toPrecision is correctly rounded but breaks ties upwards; a tie needs the exact value to have exactly 16
  // significant digits ending in 5, so only then is the exact (slower) path taken.
  const sixteen = x.toPrecision(16)
  const m = sixteen.indexOf("e")
  const last = m < 0 ? sixteen[sixteen.length - 1] : sixteen[m - 1]
  return last === "5" ? roundTo15(exactDecimal(x)) : parseDecimal(x.toPrecision(15))
}

/** numeric text with exactly `scale` digits after the point (how PostgreSQL prints it). */
export const decimalText = (d: Decimal): string => {
  const negative = d.units < 0n
  const digits = (negative ? -d.units : d.units).toString()
  if (d.scale === 0) return (negative ? "-" : "") + digits
  const padded = digits.padStart(d.scale + 1, "0")
  return `${negative ? "-" : ""}${padded.slice(0, padded.length - d.scale)}.${padded.slice(padded.length - d.scale)}`
}

/** A float8 converted once to what `sum(x::numeric)` adds: null (skipped), an exact decimal, or ±Infinity/NaN. */
export type NumericTerm = Decimal | Special | null

export const numericTerm = (x: number | null | undefined): NumericTerm =>
  x === null || x === undefined
    ? null
    : Number.isFinite(x)
      ? float8ToNumeric(x)
      : Number.isNaN(x)
        ? "NaN"
        : x > 0
          ? "Infinity"
          : "-Infinity"

/** `sum(x::numeric)` over float8 values, nulls skipped; null when every value was null (as SQL's sum). */
export class NumericSum {
  private units = 0n
  private scale = 0
  private special: Special | null = null
  private seen = false

  add(term: NumericTerm): void {
    if (term === null) return
    this.seen = true
    if (typeof term === "string") return this.addSpecial(term)
    const d = term
    if (d.scale > this.scale) {
      this.units *= pow10(d.scale - this.scale)
      this.scale = d.scale
    }
    this.units += d.scale < this.scale ? d.units * pow10(this.scale - d.scale) : d.units
  }

  private addSpecial(s: Special): void {
    if (this.special === null || this.special === s) this.special = s
    else this.special = "NaN"
  }

  /** The numeric text, or null (no non-null value). */
  text(): string | null {
    if (!this.seen) return null
    if (this.special !== null) return this.special
    return decimalText({ units: this.units, scale: this.scale })
  }
}
