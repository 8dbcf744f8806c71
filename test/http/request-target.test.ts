import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../src/http/request-target.js';

describe('requestTarget', () => {
  it('reads an origin-form target as a path, also one that starts with //', () => {
    expect(requestTarget('/caroulsel/data?limit=2')?.pathname).toBe('/caroulsel/data');
    expect(requestTarget('/caroulsel/data?limit=2')?.searchParams.get('limit')).toBe('2');
    expect(requestTarget('//a:99999/caroulsel/data')?.pathname).toBe('//a:99999/caroulsel/data');
    expect(requestTarget('//[/caroulsel/data')?.pathname).toBe('//[/caroulsel/data');
  });

  it('reads an absolute-form target as its own URL', () => {
    expect(requestTarget('http://a/caroulsel/data?limit=2')?.pathname).toBe('/caroulsel/data');
    expect(requestTarget('HTTPS://a:8443/assets/x.js')?.pathname).toBe('/assets/x.js');
  });

  it('gives nothing for a target that is no URL', () => {
    for (const target of [
      '*',
      'http://[/caroulsel/data',
      'http://a:99999/x',
      'caroulsel/data',
      'ftp://a/x',
      '',
    ]) {
      expect(requestTarget(target), target).toBeUndefined();
    }
  });
});
