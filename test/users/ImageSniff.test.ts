import { assert, describe, it } from "@effect/vitest"
import { sniffImageType } from "../../src/client-api/accounts/images/ImageSniff.ts"

const bytes = (...parts: ReadonlyArray<string | ReadonlyArray<number>>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? Array.from(p, (c) => c.charCodeAt(0)) : [...p])))

describe("image type by magic bytes", () => {
  it("recognises PNG, JPEG, GIF87a/89a and WebP", () => {
    assert.strictEqual(sniffImageType(bytes([0x89], "PNG\r\n\x1a\n", [0, 0])), "png")
    assert.strictEqual(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0])), "jpeg")
    assert.strictEqual(sniffImageType(bytes("GIF87a")), "gif")
    assert.strictEqual(sniffImageType(bytes("GIF89a", [1])), "gif")
    assert.strictEqual(sniffImageType(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 ")), "webp")
  })

  it("refuses everything else, including near misses and other RIFF files", () => {
    for (const input of [
      bytes("hello.png"),
      bytes(),
      bytes([0x89], "PNG"),
      bytes([0xff, 0xd8]),
      bytes("GIF90a"),
      bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "),
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes("BM", [0, 0])
    ]) {
      assert.isUndefined(sniffImageType(input))
    }
  })
})
