import { match, P } from 'ts-pattern';

/** Where one item's image comes from: a file on disk or bytes the host handed over. */
export type ImageInput =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array };

const DATA_URI = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/;

/**
 * The image column's value as an {@link ImageInput}, or a reason it is none.
 *
 * - bytes (`Buffer`, `Uint8Array`) are taken as they are;
 * - a `data:...;base64,` URI (the legacy inline form) is decoded;
 * - a bare base64 string is decoded when the result starts with a known image signature. A file
 *   path decoded as base64 is noise, so the signature is what tells the two apart (`/9j/...` is a
 *   JPEG, `/srv/x.jpg` is a path);
 * - any other non-empty string is a file path.
 */
export function toImageInput(value: unknown): ImageInput | { readonly error: string } {
  return match(value)
    .with(P.instanceOf(Uint8Array), (bytes) =>
      bytes.byteLength === 0 ? { error: 'image bytes are empty' } : { kind: 'bytes' as const, bytes },
    )
    .with(P.string.regex(DATA_URI), (uri) => {
      const bytes = Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');
      return bytes.byteLength === 0
        ? { error: 'data URI holds no bytes' }
        : { kind: 'bytes' as const, bytes };
    })
    .with(P.string.minLength(1), (text) => {
      const decoded = BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
      if (decoded !== undefined && hasImageSignature(decoded))
        return { kind: 'bytes' as const, bytes: decoded };
      if (text.includes('\0')) return { error: 'image path contains a NUL character' };
      return { kind: 'file' as const, path: text };
    })
    .otherwise(() => ({ error: 'image must be a file path, bytes, a base64 string or a data URI' }));
}

const SIGNATURES: readonly (readonly [offset: number, bytes: readonly number[]])[] = [
  [0, [0xff, 0xd8, 0xff]], // JPEG
  [0, [0x89, 0x50, 0x4e, 0x47]], // PNG
  [0, [0x47, 0x49, 0x46, 0x38]], // GIF
  [8, [0x57, 0x45, 0x42, 0x50]], // WebP ("WEBP" after RIFF....)
  [4, [0x66, 0x74, 0x79, 0x70]], // AVIF / HEIF ("ftyp")
  [0, [0x49, 0x49, 0x2a, 0x00]], // TIFF little-endian
  [0, [0x4d, 0x4d, 0x00, 0x2a]], // TIFF big-endian
];

/** True when `bytes` start like one of the raster formats the gallery decodes. */
export function hasImageSignature(bytes: Uint8Array): boolean {
  return SIGNATURES.some(([offset, signature]) => signature.every((byte, i) => bytes[offset + i] === byte));
}
