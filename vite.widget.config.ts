// Builds the embeddable widget: one minified IIFE at dist/widget/widget.js with React inside,
// so an operator's site needs a single <script> tag and nothing else (docs/product.md §13, docs/budgets.md).
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => {
  // A build is a production build whatever NODE_ENV says. `vite build` keeps a NODE_ENV it finds
  // in the environment, and with `development` the React plugin emits development JSX (jsxDEV)
  // against React's production runtime, which throws in the browser. Vite reads NODE_ENV after
  // loading this file, so setting it here decides the mode for every plugin.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), tailwindcss()],
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
