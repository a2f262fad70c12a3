// The origin the server is configured with (PUBLIC_URL), written into the page as
// <meta name="public-url">. Checkout and e-mailed links return there, and the session cookie
// belongs to the host it was set on: an operator who signs in on another host (127.0.0.1 for
// localhost, a bare IP, an old domain) would come back from checkout signed out, on the sign-in
// page, with no reason given. So sign-in and sign-up move to the public origin first.

/** The same page on the public origin, or null when this page is already there (or none is known). */
export function onPublicOrigin(publicUrl: string | null | undefined, href: string): string | null {
  if (!publicUrl) return null;
  let target: URL;
  try {
    target = new URL(publicUrl);
  } catch {
    return null;
  }
  const here = new URL(href);
  if (here.origin === target.origin) return null;
  return `${target.origin}${here.pathname}${here.search}${here.hash}`;
}

export const PUBLIC_URL = (typeof document !== 'undefined' && document.querySelector('meta[name="public-url"]')?.getAttribute('content')) || null;
