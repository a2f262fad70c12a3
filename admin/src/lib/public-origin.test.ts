import { describe, expect, it } from 'vitest';
import { onPublicOrigin } from './public-origin';

describe('onPublicOrigin', () => {
  it('moves a page on another host to the same page on the public origin', () => {
    expect(onPublicOrigin('http://localhost:3000', 'http://127.0.0.1:3000/auth-page?mode=signup#top')).toBe('http://localhost:3000/auth-page?mode=signup#top');
    expect(onPublicOrigin('https://quotes.example/', 'http://quotes.example/auth-page')).toBe('https://quotes.example/auth-page');
  });

  it('stays where it is on the public origin, or when none is known', () => {
    expect(onPublicOrigin('http://localhost:3000', 'http://localhost:3000/auth-page')).toBeNull();
    expect(onPublicOrigin(null, 'http://127.0.0.1:3000/auth-page')).toBeNull();
    expect(onPublicOrigin('not a url', 'http://127.0.0.1:3000/auth-page')).toBeNull();
  });
});
