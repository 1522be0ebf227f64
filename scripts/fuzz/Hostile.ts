import fc from "fast-check"

/**
 * Boundary and malformed values, as strings (path segments, query values) and as JSON values (body fields). They are
 * the inputs that broke servers before: numbers past 2^53 and past the double range, negative amounts, hex strings
 * one digit short or long, lone surrogates and NUL, very long strings, SQL and path fragments, prototype keys.
 */

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: length, maxLength: length })

/** `0x` strings of the wrong length (an address is 40 digits, a hash 64), and almost-hex. */
export const wrongHex = fc.oneof(
  fc.constantFrom(
    "0x",
    "0X",
    "0x0",
    "0xg",
    "0x" + "0".repeat(39),
    "0x" + "f".repeat(41),
    "0x" + "0".repeat(63),
    "0x" + "z".repeat(40)
  ),
  fc.integer({ min: 1, max: 130 }).chain((n) => hex(n).map((h) => `0x${h}`)),
  hex(40) // a 40-digit hex without 0x
)

const numericText = fc.constantFrom(
  "0",
  "-0",
  "-1",
  "1",
  "-1.5",
  "0.0000001",
  "1e309",
  "-1e309",
  "1e-400",
  "NaN",
  "Infinity",
  "-Infinity",
  "9007199254740993",
  "18446744073709551616",
  "115792089237316195423570985008687907853269984665640564039457584007913129639936",
  "-115792089237316195423570985008687907853269984665640564039457584007913129639936",
  "99999999999999999999999999999999",
  "1.7976931348623157e308",
  "4294967296",
  "2147483648",
  "-2147483649",
  "0x10",
  "1_000",
  "1,5",
  " 1",
  "1 ",
  "+1",
  "00001",
  "1e3"
)

const textBits = fc.constantFrom(
  "",
  " ",
  "\t",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\u202e",
  "\ufeff",
  "💥🔥",
  "ｆｕｌｌ",
  "Ω≈ç√",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "../../../../etc/passwd",
  "%00",
  "%2e%2e%2f",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "\\",
  '"',
  "a%zzb",
  "__proto__",
  "constructor",
  "toString"
)

/** A hostile string: boundary numbers as text, wrong-length hex, odd unicode, injection fragments, long strings. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: numericText },
  { weight: 3, arbitrary: wrongHex },
  { weight: 3, arbitrary: textBits },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 20_000 }).map((n) => "a".repeat(n)) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String) }
)

/** A hostile JSON value for a body field: wrong types, boundary numbers, hostile strings, deep or big structures. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -0,
      -1,
      1.5,
      -1e-9,
      Number.MAX_SAFE_INTEGER + 2,
      1.7976931348623157e308,
      -1.7976931348623157e308,
      5e-324,
      2 ** 64,
      -(2 ** 63),
      [],
      {},
      [null],
      { "": "" },
      { __proto__: { admin: true } },
      ["0x"]
    )
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => nest(n)) },
  { weight: 1, arbitrary: fc.array(hostileString, { minLength: 100, maxLength: 300 }) }
)

const nest = (depth: number): unknown => (depth === 0 ? "x" : { a: [nest(depth - 1)] })

/** Raw bodies that are not what any route takes: truncated or invalid JSON, deep nesting, duplicate keys, binary. */
export const rawBodies = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "{",
    "}",
    "[",
    '{"a":',
    "{'a':1}",
    "nul",
    "undefined",
    "\ufeff{}",
    "{}garbage",
    '{"a":1,"a":2}',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    "1e999999",
    '"\\ud800"',
    "[".repeat(20_000) + "]".repeat(20_000),
    '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000),
    "[".repeat(20_000)
  ),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"),
  fc.string({ unit: "binary", maxLength: 200 })
)

/** Content types a route does not take (or takes with wrong parameters). */
export const wrongContentTypes = fc.constantFrom(
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/xml",
  "image/png",
  "application/octet-stream",
  "application/merge-patch+json",
  "a/b/c",
  ";;;",
  "application/json, text/plain"
)
