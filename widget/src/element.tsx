// <recovery-quote company="slug"> (docs/product.md §13): the quote form as a custom element in an open
// shadow root, so the host page's CSS cannot reach it and its CSS cannot leak out. This file is
// the entry of dist/widget/widget.js (vite.widget.config.ts).
import r2wc from '@r2wc/react-to-web-component';
import type { QuoteResponse } from '#shared/types';
import { QuoteForm, type ContactDetail } from './QuoteForm';
import widgetCss from './widget.css?inline';

// Captured while the script runs: later, document.currentScript is null. The API is served from
// the same origin as widget.js unless the page says otherwise with `api-base`.
const script = document.currentScript;
const SCRIPT_ORIGIN = script instanceof HTMLScriptElement && script.src ? new URL(script.src).origin : '';

// Its rem sizes are already pixels: the widget build converts them (vite.widget.config.ts).
const widgetCssText = () => widgetCss;

/** Safari before 16.4 has no constructable stylesheets (nor @property, which Tailwind's own fallback covers). */
const LEGACY_STYLES = !('adoptedStyleSheets' in Document.prototype);

let shadowSheet: CSSStyleSheet | undefined;

/**
 * One stylesheet object shared by every instance. Its @property rules (Tailwind's shadow, ring
 * and transform variables) are ignored inside a shadow root, so they are registered once on the
 * document; without them those utilities compute to nothing.
 */
function widgetSheet(): CSSStyleSheet {
  if (!shadowSheet) {
    const css = widgetCssText();
    shadowSheet = new CSSStyleSheet();
    shadowSheet.replaceSync(css);
    const propertyRules = css.match(/@property[^{]+\{[^}]*\}/g);
    if (propertyRules) {
      const documentSheet = new CSSStyleSheet();
      documentSheet.replaceSync(propertyRules.join('\n'));
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, documentSheet];
    }
  }
  return shadowSheet;
}

interface RecoveryQuoteProps {
  company?: string;
  apiBase?: string;
  demo?: boolean;
  preview?: boolean;
  /** The shadow root, given by r2wc. */
  container?: HTMLElement;
  onQuote?: (quote: QuoteResponse) => void;
  onContact?: (detail: ContactDetail) => void;
}

/**
 * r2wc's boolean parsing ignores a bare attribute (`<recovery-quote demo>`), the way HTML
 * authors write booleans, so presence counts as true here unless the value says "false".
 */
function flag(declared: boolean | undefined, container: HTMLElement | undefined, attribute: string): boolean {
  if (declared) return true;
  const host = container instanceof ShadowRoot ? container.host : null;
  const value = host?.getAttribute(attribute);
  return value != null && value !== 'false';
}

function RecoveryQuote({ company, apiBase, demo, preview, container, onQuote, onContact }: RecoveryQuoteProps) {
  return (
    <>
      {/* Rendered by React, because React empties its container on the first render. */}
      {LEGACY_STYLES && <style>{widgetCssText()}</style>}
      <QuoteForm
        companySlug={company || undefined}
        apiBase={apiBase || SCRIPT_ORIGIN}
        demo={flag(demo, container, 'demo')}
        preview={flag(preview, container, 'preview')}
        onQuote={onQuote}
        onContact={onContact}
      />
    </>
  );
}

const hostEvent: EventInit = { bubbles: true, composed: true };

const ReactElement = r2wc(RecoveryQuote, {
  shadow: 'open',
  props: { company: 'string', apiBase: 'string', demo: 'boolean', preview: 'boolean' },
  events: { onQuote: hostEvent, onContact: hostEvent },
});

class RecoveryQuoteElement extends ReactElement {
  constructor() {
    super();
    // Styles are in place before React's first render, so the form never shows unstyled.
    if (this.shadowRoot && !LEGACY_STYLES) this.shadowRoot.adoptedStyleSheets = [widgetSheet()];
  }
}

// A page that includes the script twice keeps the first definition instead of throwing.
if (!customElements.get('recovery-quote')) customElements.define('recovery-quote', RecoveryQuoteElement);
