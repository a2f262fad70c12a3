// The support address the server is configured with (SUPPORT_EMAIL), which it writes into the
// page as <meta name="support-email">; the built-in default when the page came from elsewhere
// (the Vite dev server, component tests).
import { DEFAULT_SUPPORT_EMAIL } from '#shared/constants';

export const SUPPORT_EMAIL =
  (typeof document !== 'undefined' && document.querySelector('meta[name="support-email"]')?.getAttribute('content')) || DEFAULT_SUPPORT_EMAIL;
