import { describe, expect, it } from 'vitest';
import { toImageInput } from '../../src/gallery/image-input.js';
import { sampleImage } from './support/images.js';

describe('toImageInput', () => {
  const jpeg = sampleImage('grace_hopper.jpg');

  it('takes bytes as they are', () => {
    expect(toImageInput(jpeg)).toEqual({ kind: 'bytes', bytes: jpeg });
  });

  it('decodes a data URI (the legacy inline form)', () => {
    const input = toImageInput(`data:image/jpeg;base64,${jpeg.toString('base64')}`);
    expect(input).toEqual({ kind: 'bytes', bytes: jpeg });
  });

  it('decodes a bare base64 string when it holds an image', () => {
    expect(toImageInput(jpeg.toString('base64'))).toEqual({ kind: 'bytes', bytes: jpeg });
  });

  it('takes any other string as a file path, even one made of base64 characters', () => {
    expect(toImageInput('/srv/images/photo.jpg')).toEqual({ kind: 'file', path: '/srv/images/photo.jpg' });
    expect(toImageInput('images/photo1')).toEqual({ kind: 'file', path: 'images/photo1' });
  });

  it.each([
    [null, 'image must be a file path'],
    [42, 'image must be a file path'],
    ['', 'image must be a file path'],
    [new Uint8Array(0), 'image bytes are empty'],
    ['data:image/png;base64,', 'data URI holds no bytes'],
    ['a\0b.jpg', 'NUL character'],
  ])('refuses %j with a reason', (value, reason) => {
    const input = toImageInput(value);
    expect(input).toHaveProperty('error');
    expect((input as { error: string }).error).toContain(reason);
  });
});
