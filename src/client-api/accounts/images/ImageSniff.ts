/**
 * Image type by magic bytes, never by file name or the client's Content-Type: a text file renamed `.png` is text.
 * Only the four formats avatars may use are recognised.
 */
export type ImageType = "png" | "jpeg" | "gif" | "webp"

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b)

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0))

export const sniffImageType = (bytes: Uint8Array): ImageType | undefined => {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png"
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg"
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif"
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp"
  return undefined
}
