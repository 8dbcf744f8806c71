import { describe, expect, it } from 'vitest';
import { HostText, loneSurrogate } from '../../src/model/host-text.js';

describe('a text written to the host', () => {
  it('finds a lone surrogate, high or low, counting characters as a person does', () => {
    expect(loneSurrogate('A\ud800B')).toEqual({ unit: 'D800', character: 2 });
    expect(loneSurrogate('😀\udc00')).toEqual({ unit: 'DC00', character: 2 });
    expect(loneSurrogate('end \ud83d')).toEqual({ unit: 'D83D', character: 5 });
    expect(loneSurrogate('Parte diária 😀')).toBeUndefined();
  });

  it('refuses a lone surrogate with INVALID_TEXT and takes a whole pair', () => {
    const refused = HostText.safeParse('\ud800');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toMatchObject([{ code: 'custom', params: { code: 'INVALID_TEXT' } }]);
    expect(HostText.safeParse('\ud83d\ude00').success).toBe(true);
  });
});
