import { describe, expect, it } from 'vitest';
import { GalleryConfigError } from '../../src/gallery/gallery-errors.js';
import { contentHash, createTokenSigner } from '../../src/gallery/token.js';

const OLD = 'old-secret-0123456789';
const NEW = 'new-secret-9876543210';

describe('media tokens', () => {
  const hash = contentHash(Buffer.from('some image bytes'));

  it('are URL-safe, opaque and verify back to the content hash', () => {
    const signer = createTokenSigner([NEW]);
    const token = signer.sign(hash);
    expect(token).toMatch(/^[A-Za-z0-9_-]{44}$/);
    expect(signer.verify(token)).toBe(hash);
  });

  it('change when the content changes', () => {
    const signer = createTokenSigner([NEW]);
    expect(signer.sign(contentHash(Buffer.from('other bytes')))).not.toBe(signer.sign(hash));
  });

  it('survive a rotation: the first secret signs, every secret verifies', () => {
    const before = createTokenSigner([OLD]).sign(hash);
    const rotated = createTokenSigner([NEW, OLD]);
    expect(rotated.verify(before)).toBe(hash);
    expect(rotated.sign(hash)).toBe(createTokenSigner([NEW]).sign(hash));
    expect(createTokenSigner([NEW]).verify(before)).toBeUndefined();
  });

  it('refuse forged, tampered, truncated and path-like tokens', () => {
    const signer = createTokenSigner([NEW]);
    const token = signer.sign(hash);
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    for (const bad of [
      createTokenSigner(['another-secret-000000']).sign(hash),
      flip(token, 0),
      flip(token, 30),
      token.slice(0, 43),
      `${token}A`,
      '',
      '..%2F..%2Fetc%2Fpasswd',
      '../../../../../../etc/passwd',
      `${hash}${'A'.repeat(22)}`,
    ]) {
      expect(signer.verify(bad), bad).toBeUndefined();
    }
  });

  it('are bound to their rendering context', () => {
    const token = createTokenSigner([NEW], 'p1-320-2048').sign(hash);
    expect(createTokenSigner([NEW], 'p1-320-2048').verify(token)).toBe(hash);
    expect(createTokenSigner([NEW], 'p1-200-2048').verify(token)).toBeUndefined();
  });

  it('refuse to be made without a strong secret', () => {
    expect(() => createTokenSigner([])).toThrow(GalleryConfigError);
    expect(() => createTokenSigner(['short'])).toThrow(/at least 16 characters/);
  });
});
