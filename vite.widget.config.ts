// Builds the embeddable widget: one minified IIFE at dist/widget/widget.js with React inside,
// so an operator's site needs a single <script> tag and nothing else (docs/product.md §13, docs/budgets.md).
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * Tailwind sizes in rem follow the host page's <html> font size, which a careless site may set to
 * anything; pixels keep the form the size we designed (16 px root). Done here, once, on the
 * stylesheet element.tsx imports inline, rather than in every visitor's browser.
 */
function cssInPixels(): Plugin {
  return {
    name: 'widget-css-in-pixels',
    enforce: 'post',
    transform(code, id) {
      if (!id.endsWith('widget.css?inline')) return null;
      return { code: withoutUnrenderedElements(inPixels(code)), map: null };
    },
  };
}

/** `n` to one decimal place, as CSS writes it shortest ("-.4", "96.5"). */
const oneDecimal = (n: string) => String(Number(Number(n).toFixed(1))).replace(/^(-?)0\./, '$1.');

/**
 * `css` with its rem sizes in pixels (16 px root); each spacing utility's
 * `calc(var(--spacing) * n)` worked out against the theme's --spacing (the same sizes, fixed like
 * the rest, and about 20 bytes fewer each); and the wide-gamut `lab()` colours Tailwind's palette
 * compiles to given to one decimal place (a colour difference of under 0.1, far below what an
 * eye can tell, and a few hundred random digits fewer for gzip).
 */
export function inPixels(css: string): string {
  let out = css.replace(/(\d*\.?\d+)rem\b/g, (_, n: string) => `${Number(n) * 16}px`);
  const spacing = /--spacing:\s*(\d*\.?\d+)px/.exec(out);
  if (spacing) {
    const unit = Number(spacing[1]);
    out = out.replace(/calc\(var\(--spacing\)\s*\*\s*(-?\d*\.?\d+)\)/g, (_, n: string) => `${Number(n) * unit}px`).replace(/var\(--spacing\)/g, `${unit}px`);
  }
  return out.replace(/\blab\(([^)]*)\)/g, (_, args: string) => `lab(${args.replace(/-?\d*\.?\d+/g, oneDecimal)})`);
}

/**
 * Elements the widget never renders (widget/css-build.test.ts checks widget/src for them): Tailwind's
 * preflight styles each for any page, and inside the widget's shadow root nothing else can add one.
 */
export const UNRENDERED_ELEMENTS = ['hr', 'abbr', 'code', 'kbd', 'samp', 'pre', 'small', 'sub', 'sup', 'table', 'progress', 'summary', 'ol', 'ul', 'menu'];

/**
 * `css` without the rules whose every selector names an element of UNRENDERED_ELEMENTS, nor the
 * monospace font variables only the code/kbd/samp/pre rule read: a few hundred bytes of widget.js
 * that could never apply. A rule naming a rendered element too (`img,svg,video,…`) stays whole.
 */
export function withoutUnrenderedElements(css: string): string {
  const unrendered = new Set(UNRENDERED_ELEMENTS);
  const element = (selector: string) => /^[a-z][a-z0-9]*/.exec(selector.trim())?.[0] ?? '';
  return css
    .replace(/(?<=[{}]|^)([a-z][^{}@]*)\{[^{}]*\}/g, (rule, selectors: string) =>
      selectors.split(',').every((selector) => unrendered.has(element(selector))) ? '' : rule,
    )
    .replace(/--font-mono:[^;}]*;?/, '')
    .replace(/;?--default-mono-font-family:[^;}]*/, '');
}

export default defineConfig(({ command }) => {
  // A build is a production build whatever NODE_ENV says. `vite build` keeps a NODE_ENV it finds
  // in the environment, and with `development` the React plugin emits development JSX (jsxDEV)
  // against React's production runtime, which throws in the browser. Vite reads NODE_ENV after
  // loading this file, so setting it here decides the mode for every plugin.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), tailwindcss(), cssInPixels()],
    resolve: {
      // The number plate look-up is its own file (vite.widget-vehicle.config.ts), loaded on first
      // use: in widget.js only its loader is bundled.
      // The booking form likewise (vite.widget-booking.config.ts), loaded when asked for.
      alias: [
        { find: /^\.\/vehicle-chunk$/, replacement: fileURLToPath(new URL('widget/src/vehicle-chunk.widget.ts', import.meta.url)) },
        { find: /^\.\/booking-chunk$/, replacement: fileURLToPath(new URL('widget/src/booking-chunk.widget.ts', import.meta.url)) },
      ],
    },
    define: {
      // React picks its production build from this; the browser has no `process`.
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    build: {
      outDir: 'dist/widget',
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: {
        entry: 'widget/src/element.tsx',
        formats: ['iife'],
        name: 'RecoveryQuoteWidget',
        fileName: () => 'widget.js',
      },
    },
  };
});
