import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** The bundled sample images (real photos and graphics from Debian packages). */
export const SAMPLE_DIR = new URL('../../../examples/images/', import.meta.url).pathname;
export const sampleImage = (name: string) => readFileSync(`${SAMPLE_DIR}${name}`);

let large: Promise<Buffer> | undefined;

/**
 * A 4096x4096 JPEG photo (a bundled sample photo, enlarged): what the shared fixtures' pixels-large.jpg
 * stands for, made here so that a clone of the repository alone passes the tests.
 */
export const largePhoto = (): Promise<Buffer> => {
  large ??= sharp(sampleImage('grace_hopper.jpg'))
    .resize(4096, 4096, { fit: 'fill' })
    .jpeg({ quality: 85 })
    .toBuffer();
  return large;
};

/** A JPEG cut in half: the header reads fine, decoding fails. */
export const truncatedJpeg = () => {
  const whole = sampleImage('grace_hopper.jpg');
  return whole.subarray(0, Math.floor(whole.length / 2));
};

export const textNamedJpg = () => Buffer.from('this is a text file that someone named photo.jpg\n');

export const svgWithScript = () =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script>' +
      '<rect width="100" height="100" fill="red"/></svg>',
  );

/** A wide (200x100) JPEG whose EXIF says "rotate 90°": displayed 100x200. */
export const exifRotatedJpeg = () =>
  sharp({ create: { width: 200, height: 100, channels: 3, background: '#c03' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

export const cmykJpeg = () =>
  sharp({ create: { width: 120, height: 80, channels: 3, background: '#2a6' } })
    .toColourspace('cmyk')
    .jpeg()
    .toBuffer();

export const png16Bit = () =>
  sharp({ create: { width: 90, height: 60, channels: 3, background: '#36c' } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();

// PNG chunk checksums; zlib.crc32 only exists from Node 20.15 and the package supports 20.11.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A decompression bomb: a valid PNG header announcing `side`x`side` 1-bit pixels, all zero, so the
 * file is small (about 110 KB for 30000) while decoding it would need gigabytes. Built by hand:
 * making it with an image library would decode it first.
 */
export function bombPng(side = 30_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const rowBytes = 1 + Math.ceil(side / 8);
  const pixels = deflateSync(Buffer.alloc(rowBytes * side), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
